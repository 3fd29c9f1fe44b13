"""`PiRuntimeDriver` driven directly (connect, send, iterate events): the real pi in RPC mode
against the scripted model server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cherry_desktop.core.ai.runtime.capabilities import PI_TRANSPORT
from cherry_desktop.core.ai.runtime.pi.driver import PiRuntimeDriver
from cherry_desktop.core.ai.runtime.pi.install import PiInstallation
from cherry_desktop.core.ai.runtime.prompt import BLOCK_LANGUAGE
from cherry_desktop.demo import ScriptedModelServer, text
from tests.integration.claude_driver_helpers import EventReader, chunk_types, send_text, text_of
from tests.integration.pi_helpers import TEST_KEY, PiHarness

pytestmark = [pytest.mark.integration, pytest.mark.timeout(90)]


@pytest.fixture
def harness(model_server: ScriptedModelServer, tmp_path: Path, workspace: Path,
            pi_installation: PiInstallation) -> PiHarness:
    return PiHarness(model_server, tmp_path, workspace, pi_installation)


@pytest.fixture
async def driver(harness: PiHarness) -> AsyncIterator[PiRuntimeDriver]:
    drv = harness.driver()
    try:
        yield drv
    finally:
        await drv.shutdown()


async def test_fresh_turn(driver: PiRuntimeDriver, harness: PiHarness) -> None:
    harness.server.enqueue(text("hello from pi"))
    connection = await driver.connect(harness.connect_input())
    reader = EventReader(connection)
    await send_text(connection, "say hello")
    events = await reader.turn()

    assert events[-1].type == "turn-complete"
    assert text_of(events) == "hello from pi"
    types = chunk_types(events)
    assert types[0] == "start-step" and "finish-step" in types
    starts = [e.chunk for e in events if e.type == "chunk" and e.chunk.type == "text-start"]
    assert starts[0].provider_metadata == {"cherry": {"transport": PI_TRANSPORT}}
    usage = [e for e in events if e.type == "usage"]
    assert len(usage) == 1 and usage[0].input_tokens > 0
    assert usage[0].time_first_token_ms is not None
    tokens = {e.token for e in events if e.type == "resume-token"}
    assert len(tokens) == 1
    token = tokens.pop()
    assert driver.session_file_of(token) is not None  # under Cherry's session dir
    assert any(e.type == "context-usage" for e in events)

    request = harness.server.last_model_request()
    assert BLOCK_LANGUAGE in request.system_text  # the materialized prompt reached the model
    assert "say hello" in request.last_user_text()
    # The key is in no file Cherry or pi wrote.
    for path in harness.tmp_path.rglob("*"):
        if path.is_file() and path.stat().st_size < 5_000_000:
            assert TEST_KEY not in path.read_text(errors="ignore"), path
