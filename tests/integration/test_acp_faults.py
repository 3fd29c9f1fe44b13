"""ACP agents that fail in the ways a real one can, through the whole app core: a command that
is missing, one that exits at once, one that writes non-JSON to stdout and never answers. Each
gives a clear error row, the session takes the next message (another error row, nothing stuck
pending), and no agent process is left."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cherry_desktop.demo import ScriptedModelServer
from cherry_desktop.demo.bootstrap import DEMO_UNIQUE_MODEL_ID
from tests.integration.app_core import App, OpenApp, row_text

pytestmark = [pytest.mark.integration, pytest.mark.timeout(90)]

_NOT_JSON = "import sys, time; print('hello, I am not JSON-RPC', flush=True); time.sleep(300)"


def _custom_agent_session(app: App, command: list[str], tmp_path: Path) -> str:
    agents = app.core.repos.agents
    agent = agents.create_agent(type="acp", name="Custom", model=DEMO_UNIQUE_MODEL_ID, permission_mode="default",
                                config={"acp_command": command})
    workspace = tmp_path / "custom-ws"
    workspace.mkdir(exist_ok=True)
    ws = agents.create_workspace(name="custom", path=str(workspace), agent_id=agent.id)
    return str(app.core.repos.sessions.create_session(agent_id=agent.id, workspace_id=ws.id, name="c",
                                                      model=DEMO_UNIQUE_MODEL_ID).id)


@pytest.mark.parametrize(("command", "words"), [
    ([str(Path("/nonexistent/acp-agent"))], "acp-agent-missing"),
    ([sys.executable, "-c", "import sys; sys.exit(3)"], "acp-start-failed"),
    ([sys.executable, "-c", _NOT_JSON], "acp-start-failed"),
], ids=["missing", "exits-at-once", "non-json-stdout"])
async def test_a_broken_agent_command_gives_a_clear_error_row(
        open_acp_app: OpenApp, model_server: ScriptedModelServer, tmp_path: Path, command: list[str],
        words: str) -> None:
    base = await open_acp_app()
    session_id = _custom_agent_session(base, command, tmp_path)
    app = App(core=base.core, agent_type="acp", session_id=session_id, workspace=tmp_path / "custom-ws")
    app.driver.start_timeout_s = 3.0
    for attempt in ("first try", "second try"):
        result = await app.send(attempt)
        row = await app.finished(result.placeholder_ids[0])
        assert row.status == "error", row
        assert words in str(row.parts[-1]), row.parts
        assert row_text(app.row(result.user_message_id or "")) == attempt
    assert app.driver.alive_pids() == []
    assert model_server.requests_for_model_turns() == []
