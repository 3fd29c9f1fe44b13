"""Fixtures shared by the stream manager's unit tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from cherry_desktop.core.ai.stream import AiStreamManager, PersistentChatContextProvider
from cherry_desktop.core.data import Repositories
from tests.unit.stream.helpers import FakeAi


@pytest.fixture
async def chat_with_history(repos: Repositories) -> AsyncIterator[tuple[AiStreamManager, FakeAi, Repositories]]:
    """A manager whose chat turns read and write their history in `repos` (the persistent
    context provider), and the scripted AI it streams from; shut down after the test."""
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text, checkpoint_interval_ms=0)
    mgr.set_context_providers([PersistentChatContextProvider(repos)])
    yield mgr, fake, repos
    await mgr.shutdown()
