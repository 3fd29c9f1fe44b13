"""`cherry_desktop.core` imports with Qt made unimportable; the command line works headless."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cherry_desktop import __version__
from cherry_desktop.core.data import SCHEMA_VERSION
from cherry_desktop.core.storage.credentials import KeyringUnavailableError

ROOT = Path(__file__).resolve().parents[3]


def _run(code: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT,
                          env=env or dict(os.environ), timeout=120)


def test_core_imports_without_qt() -> None:
    code = textwrap.dedent("""
        import importlib, pkgutil, sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split('.')[0] in ('PySide6', 'qasync', 'shiboken6'):
                    raise ImportError('blocked for this test: ' + name)
                return None
        sys.meta_path.insert(0, Block())
        import cherry_desktop.core as core
        count = 0
        for info in pkgutil.walk_packages(core.__path__, 'cherry_desktop.core.'):
            importlib.import_module(info.name)
            count += 1
        bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'qasync', 'shiboken6')]
        assert not bad, bad
        print('imported', count)
    """)
    out = _run(code)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout.split()[-1]) >= 15


def test_version_flag() -> None:
    out = subprocess.run([sys.executable, "-m", "cherry_desktop", "--version"], capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert out.returncode == 0
    assert out.stdout.strip() == f"cherry-desktop {__version__}"


def test_doctor_creates_a_wal_database_and_reports(tmp_path: Path) -> None:
    target = tmp_path / "X"
    out = subprocess.run([sys.executable, "-m", "cherry_desktop", "doctor", "--data-dir", str(target)],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    db = target / "cherry.db"
    assert db.exists()
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    con.close()
    assert {"agent_session_message", "usage_record", "topic", "message"} <= tables
    assert f"schema version: {SCHEMA_VERSION} (this build: {SCHEMA_VERSION})" in out.stdout
    assert "keyring backend:" in out.stdout
    assert "claude code cli:" in out.stdout and "Claude Code" in out.stdout
    assert "status: ok" in out.stdout


def test_doctor_fails_clearly_on_an_unusable_database(tmp_path: Path) -> None:
    target = tmp_path / "Y"
    target.mkdir()
    (target / "cherry.db").write_text("this is not a database" * 100)
    out = subprocess.run([sys.executable, "-m", "cherry_desktop", "doctor", "--data-dir", str(target)],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 1
    assert "PROBLEM: database" in out.stdout
    assert "status: broken" in out.stdout


def test_logging_goes_to_a_rotating_file(tmp_path: Path) -> None:
    import logging

    from cherry_desktop.core.app.logging_setup import setup_logging

    handler = setup_logging(tmp_path / "logs" / "app.log", max_bytes=200, backups=2)
    try:
        log = logging.getLogger("cherry_desktop.test")
        for i in range(30):
            log.warning("line %d with some padding to fill the file", i)
        handler.flush()
        assert (tmp_path / "logs" / "app.log").exists()
        assert (tmp_path / "logs" / "app.log.1").exists()
    finally:
        logging.getLogger().removeHandler(handler)
        handler.close()


def test_keyring_error_message_says_how_to_fix() -> None:
    with pytest.raises(KeyringUnavailableError) as info:
        raise KeyringUnavailableError("fail backend")
    assert "Secret Service" in str(info.value) and "keyrings.alt" in str(info.value)
