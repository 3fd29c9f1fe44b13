"""A stand-in for a program the app runs: a shell script first on PATH for one test."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def fake_program(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, script: str) -> Path:
    """Write `script` (the body after `#!/bin/sh`) as `name` in a bin dir put first on PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    program = bin_dir / name
    program.write_text(f"#!/bin/sh\n{script}")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    return program
