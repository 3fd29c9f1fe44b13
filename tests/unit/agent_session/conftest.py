"""Every host test runs twice: the connection's events read through `events()` (a pump task), and
handed to the host by the connection's own reader (`set_event_sink`, what Claude Code does)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes.scripted_driver import ScriptedDriver


@pytest.fixture(autouse=True, params=["events", "sink"])
def event_delivery(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setattr(ScriptedDriver, "default_event_sink", request.param == "sink")
    yield str(request.param)
