"""The provider's key must not be readable by the tools the Claude Code CLI runs: real CLI,
scripted model server, a key handed over the way the app does (`get_api_key`, the keyring's)."""

from __future__ import annotations

import dataclasses
import hashlib
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cherry_desktop.core.ai.runtime.claude_code.driver import ClaudeCodeRuntimeDriver
from cherry_desktop.demo import ScriptedModelServer, text, tool_use
from tests.integration.claude_driver_helpers import EventReader, Harness, send_text

pytestmark = [
    pytest.mark.integration,
    pytest.mark.timeout(60),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the probe reads /proc"),
]

FAKE_KEY = "sk-ant-cherry-canary-7f3a9c1e5b2d4f6a8091"
PROBE = (
    "printenv; echo ----; tr '\\0' '\\n' < /proc/$PPID/environ; echo ----; "
    # The descriptor the CLI read its key from, reopened through /proc: a socket cannot be.
    "fd=$(tr '\\0' '\\n' < /proc/$PPID/environ | sed -n 's/^CLAUDE_CODE_API_KEY_FILE_DESCRIPTOR=//p'); "
    "echo fd=$fd; timeout 2 cat /proc/$PPID/fd/$fd; echo end-of-probe"
)


@pytest.fixture
async def driver() -> AsyncIterator[ClaudeCodeRuntimeDriver]:
    drv = ClaudeCodeRuntimeDriver()
    try:
        yield drv
    finally:
        await drv.shutdown()


async def test_bash_tool_cannot_read_the_provider_key(driver: ClaudeCodeRuntimeDriver,
                                                     model_server: ScriptedModelServer, tmp_path: Path,
                                                     workspace: Path) -> None:
    harness = Harness(model_server, tmp_path, workspace)
    base = harness.connect_input()
    # As the app: the key comes from the keyring (get_api_key), the provider's env holds none.
    env = {k: v for k, v in base.extra_env.items() if k != "ANTHROPIC_API_KEY"}
    connect_input = dataclasses.replace(base, extra_env=env, get_api_key=lambda: FAKE_KEY)
    model_server.enqueue(tool_use("Bash", {"command": PROBE, "description": "env"}), text("done"))

    connection = await driver.connect(connect_input)
    reader = EventReader(connection)
    await send_text(connection, "show me the environment")
    events = await reader.turn(timeout=30)
    assert events[-1].type == "turn-complete"

    request = model_server.last_model_request()
    output = request.last_user_text()
    assert "end-of-probe" in output  # the probe ran and its output came back
    printed, cli_environ, _ = output.split("----", 2)
    assert "ANTHROPIC_BASE_URL" in printed and "ANTHROPIC_BASE_URL" in cli_environ  # env was listed
    # The key still reached the server on every request, yet no tool saw it.
    fingerprint = hashlib.sha256(FAKE_KEY.encode()).hexdigest()
    assert {r.key_sha256 for r in model_server.requests_for_model_turns()} == {fingerprint}
    assert FAKE_KEY not in request.all_text()
    assert FAKE_KEY not in output
