"""Isolation for every test: data dir, HOME and keyring are the test's own."""

from __future__ import annotations

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import keyring
import pytest

from cherry_desktop.core.data import Repositories, open_database
from cherry_desktop.core.state.shared_cache import SharedCache
from tests.fakes.memory_keyring import MemoryKeyring
from tests.fakes.scripted_provider_server import ScriptedServer

pytest_plugins = ["tests.leak_checks", "pytester"]


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Data dir and HOME under tmp_path; an in-memory keyring backend."""
    data_dir = tmp_path / "cherry-data"
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("CHERRY_DESKTOP_DATA_DIR", str(data_dir))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    previous = keyring.get_keyring()
    keyring.set_keyring(MemoryKeyring())
    try:
        yield data_dir
    finally:
        keyring.set_keyring(previous)


@pytest.fixture(autouse=True)
def no_leaked_child_processes() -> Iterator[None]:
    """Fail a test that leaves a child process (a Claude Code CLI, a subprocess) running.

    Children get a few seconds to exit on their own (a CLI whose stdin closed exits); what is
    still alive after that is killed and reported.
    """
    import psutil

    me = psutil.Process()
    before = {p.pid for p in me.children(recursive=True)}
    yield
    def alive() -> list[psutil.Process]:
        out = []
        for p in me.children(recursive=True):
            try:
                if p.pid not in before and p.status() != psutil.STATUS_ZOMBIE:
                    out.append(p)
            except psutil.NoSuchProcess:
                pass
        return out

    leaked = alive()
    if leaked:
        _, still = psutil.wait_procs(leaked, timeout=5)
        leaked = [p for p in still if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    if leaked:
        names = []
        for p in leaked:
            try:
                names.append(f"{p.pid}:{p.name()}")
                p.kill()
            except psutil.NoSuchProcess:
                pass
        pytest.fail(f"child processes left running: {names}")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "db" / "cherry.db"


@pytest.fixture
def repos(db_path: Path) -> Iterator[Repositories]:
    """A real SQLite file, migrated, with every repository over it."""
    db = open_database(db_path)
    try:
        yield Repositories()
    finally:
        db.close()


@pytest.fixture
def shared_cache() -> SharedCache:
    return SharedCache()


def _qasync_loop_factory() -> Any:

    from PySide6.QtWidgets import QApplication

    from cherry_desktop.ui.shell.event_loop import attach_pidfd_watcher, new_event_loop

    loop = new_event_loop(QApplication.instance() or QApplication([]))
    # Children watched with pidfds on the loop itself, as the app does (`watch_children_on`):
    # asyncio's default watcher is a waitpid thread per child whose exit reaches a qasync loop
    # as a cross-thread Qt signal, and a lost one left a test's teardown hanging.
    attach_pidfd_watcher(loop)
    return loop


def _asyncio_loop_factory() -> Any:
    import asyncio

    loop = asyncio.new_event_loop()
    if sys.version_info < (3, 12):
        asyncio.set_child_watcher(asyncio.ThreadedChildWatcher())  # not a GUI test's pidfd watcher
    return loop


def pytest_asyncio_loop_factories(
    config: pytest.Config, item: pytest.Item
) -> dict[str, Callable[[], Any]] | None:
    """Async GUI tests run on a qasync loop (Qt timers, widgets and asyncio together)."""
    if item.get_closest_marker("gui") is not None:
        return {"qasync": _qasync_loop_factory}
    return {"asyncio": _asyncio_loop_factory}


@pytest.fixture
async def provider_server() -> AsyncIterator[ScriptedServer]:
    """A started scripted OpenAI-/Anthropic-compatible provider server, stopped after the test."""
    async with ScriptedServer() as started:
        yield started
