"""End to end through the agent-session host (real AiStreamManager, real SQLite) with the real
Claude Code driver and CLI against the scripted model server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cherry_desktop.core.ai.runtime.claude_code.driver import ClaudeCodeRuntimeDriver
from cherry_desktop.core.ai.runtime.types import ApprovalDecision
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.messages import TextPart
from cherry_desktop.demo import ScriptedModelServer, build_cli_env, http_error, text, tool_use
from tests.unit.agent_session.harness import Harness, make_harness
from tests.waiting import until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(60)]


@pytest.fixture
async def host(
    repos: Repositories, tmp_path: Path, model_server: ScriptedModelServer, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Harness]:
    # The CLI reaches the server through its env and the session's provider row.
    for key, value in build_cli_env(model_server.base_url, home=tmp_path / "cli-home", no_retries=True).items():
        monkeypatch.setenv(key, value)
    driver = ClaudeCodeRuntimeDriver()
    h = make_harness(repos, tmp_path, driver=driver)  # type: ignore[arg-type]
    repos.providers.update_provider("demo", base_url=model_server.base_url)
    try:
        yield h
    finally:
        await h.aclose()
        await driver.shutdown()


def approval_requests(host: Harness) -> list[str]:
    return [c.approval_id for _, c in host.subscriber.chunks if c.type == "tool-approval-request"]  # type: ignore[attr-defined]


def row_text(row: object) -> str:
    return "".join(p.text for p in row.parts if isinstance(p, TextPart))  # type: ignore[attr-defined]


async def test_fresh_turn_with_tool_persists_success_row(host: Harness, model_server: ScriptedModelServer) -> None:
    target = host.workspace / "e2e.txt"
    model_server.enqueue(
        tool_use("Write", {"file_path": str(target), "content": "e2e\n"}, preamble="Writing."), text("All done.")
    )
    result = await host.send("write e2e.txt")
    assistant_id = result.placeholder_ids[0]
    # Default permission mode: Write asks; the UI's decision goes through the host.
    await until(lambda: approval_requests(host), limit=20)
    decision = ApprovalDecision(approved=True)
    assert await host.runtime.respond_tool_approval(host.session.id, approval_requests(host)[0], decision)
    await until(lambda: host.row(assistant_id).status != "pending", limit=20)
    await host.idle()
    row = host.row(assistant_id)
    assert row.status == "success", row
    assert row.runtime_resume_token
    assert target.read_text() == "e2e\n"
    assert "All done." in row_text(row)


async def test_api_error_row_keeps_resume_token(host: Harness, model_server: ScriptedModelServer) -> None:
    model_server.enqueue(http_error(500, "scripted outage"))
    result = await host.send("fail")
    assistant_id = result.placeholder_ids[0]
    await until(lambda: host.row(assistant_id).status != "pending", limit=20)
    await host.idle()
    row = host.row(assistant_id)
    assert row.status == "error"
    assert row.runtime_resume_token


async def test_steer_mid_turn_rolls_rows_in_order(host: Harness, model_server: ScriptedModelServer) -> None:
    notes = host.workspace / "notes.txt"
    notes.write_text("some notes\n")
    model_server.enqueue(
        tool_use(
            "Read",
            {"file_path": str(notes)},
            preamble="Let me look at your notes first, slowly enough to be steered.",
            delay_s=0.03,
        ),
        text("Post-steer answer."),
    )
    result = await host.send("summarise my notes")
    first_assistant = result.placeholder_ids[0]
    await until(lambda: host.subscriber.text_for(first_assistant), limit=20)
    await host.send("also count the lines", mode="steer")
    await until(lambda: len(host.rows()) >= 4 and all(r.status != "pending" for r in host.rows()), limit=20)
    await host.idle()
    rows = host.rows()
    assert [r.role for r in rows] == ["user", "assistant", "user", "assistant"]
    a1a, steer_row, a2 = rows[1], rows[2], rows[3]
    assert a1a.id == first_assistant
    assert "Let me look" in row_text(a1a)
    assert row_text(steer_row) == "also count the lines"
    assert "Post-steer answer." in row_text(a2)
    assert a2.status == "success"
    assert "also count the lines" in model_server.last_model_request().all_text()
