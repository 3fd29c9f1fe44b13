"""Shared integration fixtures: the scripted model server and a workspace directory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cherry_desktop.demo import ScriptedModelServer


@pytest.fixture
async def model_server() -> AsyncIterator[ScriptedModelServer]:
    """A started :class:`ScriptedModelServer` (empty script), stopped after the test."""
    server = ScriptedModelServer()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """An empty agent workspace directory under ``tmp_path``."""
    path = tmp_path / "workspace"
    path.mkdir()
    return path


@pytest.fixture(scope="session")
def pi_installation() -> object:
    """The pinned pi (installed with npm into the test prefix on first use)."""
    from tests.integration.pi_helpers import ensure_test_pi

    return ensure_test_pi()
