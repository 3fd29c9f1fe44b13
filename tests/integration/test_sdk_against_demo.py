"""The real claude-agent-sdk (bundled CLI) against the scripted model server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cherry_desktop.demo import ScriptedModelServer, build_cli_env, http_error, text, tool_use

pytestmark = [pytest.mark.integration, pytest.mark.timeout(60)]


@pytest.fixture
def server(model_server: ScriptedModelServer) -> ScriptedModelServer:
    return model_server


def options(server: ScriptedModelServer, workspace: Path, **extra: Any) -> Any:
    from claude_agent_sdk import ClaudeAgentOptions

    no_retries = extra.pop("no_retries", False)
    return ClaudeAgentOptions(
        cwd=str(workspace),
        env=build_cli_env(server.base_url, home=workspace.parent / "cli-home", no_retries=no_retries),
        permission_mode="bypassPermissions",
        model="claude-sonnet-4-5",
        **extra,
    )


async def run_turn(opts: Any, prompt: str) -> list[Any]:
    from claude_agent_sdk import ClaudeSDKClient

    async with ClaudeSDKClient(opts) as client:
        await client.query(prompt)
        return [message async for message in client.receive_response()]


async def test_text_turn(server: ScriptedModelServer, workspace: Path) -> None:
    from claude_agent_sdk import AssistantMessage, ResultMessage, TextBlock

    server.enqueue(text("Hello from the script"))
    messages = await run_turn(options(server, workspace), "say hello")
    texts = [b.text for m in messages if isinstance(m, AssistantMessage) for b in m.content if isinstance(b, TextBlock)]
    assert texts == ["Hello from the script"]
    result = messages[-1]
    assert isinstance(result, ResultMessage)
    assert result.is_error is False
    assert result.result == "Hello from the script"
    assert "say hello" in server.last_user_text()


async def test_tool_turn_runs_in_workspace(server: ScriptedModelServer, workspace: Path) -> None:
    from claude_agent_sdk import ResultMessage, UserMessage

    target = workspace / "made.txt"
    server.enqueue(
        tool_use("Write", {"file_path": str(target), "content": "written by the script\n"}, preamble="Writing."),
        text("The file is written."),
    )
    messages = await run_turn(options(server, workspace), "write a file")
    assert target.read_text() == "written by the script\n"
    assert any(isinstance(m, UserMessage) for m in messages)
    assert isinstance(messages[-1], ResultMessage)
    assert messages[-1].result == "The file is written."
    turns = server.requests_for_model_turns()
    assert len(turns) == 2
    assert turns[1].has_tool_result()
    assert not turns[1].tool_results()[0].get("is_error")


async def test_resume_resends_history(server: ScriptedModelServer, workspace: Path) -> None:
    from claude_agent_sdk import ResultMessage

    server.enqueue(text("The first answer"), text("The second answer"))
    first = await run_turn(options(server, workspace), "first question")
    result = first[-1]
    assert isinstance(result, ResultMessage)
    session_id = result.session_id

    second = await run_turn(options(server, workspace, resume=session_id), "second question")
    assert isinstance(second[-1], ResultMessage)
    assert second[-1].result == "The second answer"
    history = server.last_model_request()
    sent = history.all_text()
    assert "first question" in sent
    assert "The first answer" in sent
    assert "second question" in history.last_user_text()


async def test_bogus_resume_fails_connect(server: ScriptedModelServer, workspace: Path) -> None:
    from claude_agent_sdk import ClaudeSDKClient

    client = ClaudeSDKClient(options(server, workspace, resume="00000000-0000-4000-8000-000000000000"))
    with pytest.raises(Exception, match="No conversation found with session ID"):
        await client.connect()
    await client.disconnect()
    assert server.requests_for_model_turns() == []


async def test_api_500_is_an_error_result(server: ScriptedModelServer, workspace: Path) -> None:
    from claude_agent_sdk import ResultMessage

    server.enqueue(http_error(500, "scripted failure"))
    messages = await run_turn(options(server, workspace, no_retries=True), "fail please")
    result = messages[-1]
    assert isinstance(result, ResultMessage)
    assert result.is_error is True
    assert len(server.requests_for_model_turns()) == 1
