"""Deleting a session mid-turn releases its runtime at once, with the real CLI: when the host's
`delete_session` returns, the connection is closed and its CLI process gone."""

from __future__ import annotations

import pytest

from cherry_desktop.demo import HangReply, ScriptedModelServer
from tests.integration.app_core import TURN_LIMIT_S, OpenApp
from tests.integration.test_claude_code_app_core import alive_children
from tests.waiting import until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(60)]


async def test_deleting_a_session_mid_turn_closes_its_cli(
        open_app: OpenApp, model_server: ScriptedModelServer) -> None:
    before = alive_children()
    app = await open_app()
    model_server.enqueue(HangReply(text_before="working on it"))
    result = await app.send("a long task")
    await until(lambda: app.text_streamed(result.placeholder_ids[0]) == "working on it", limit=TURN_LIMIT_S)
    assert app.driver.process_manager.alive_pids()
    await app.core.agent_runtime.delete_session(app.session_id)
    assert app.driver.process_manager.alive_pids() == []
    assert not app.driver.connections
    assert alive_children() - before == set()
    assert app.core.repos.sessions.find_session(app.session_id) is None
    await until(lambda: not app.core.stream_manager.has_live_stream(app.topic), limit=TURN_LIMIT_S)
