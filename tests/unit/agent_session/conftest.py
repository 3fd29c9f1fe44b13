"""Every host test runs twice: the connection's events read through `events()` (a pump task), and
handed to the host by the connection's own reader (`set_event_sink`, what Claude Code does)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from tests.fakes.scripted_driver import ScriptedDriver
from tests.unit.agent_session.harness import close_open_harnesses


@pytest.fixture(autouse=True, params=["events", "sink"])
def event_delivery(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setattr(ScriptedDriver, "default_event_sink", request.param == "sink")
    yield str(request.param)


@pytest.fixture(autouse=True)
async def harnesses_closed() -> AsyncIterator[None]:
    """The harnesses a test made are stopped after it, as the app stops (no pump left running)."""
    yield
    await close_open_harnesses()
