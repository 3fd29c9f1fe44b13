"""`lint-imports` (the layering contracts in pyproject.toml, run by .ci/run) builds its import
graph from regular packages only: a folder of modules without `__init__.py` would silently
escape every contract. Each folder of the app holding Python modules is therefore a package."""

from __future__ import annotations

from pathlib import Path

import cherry_desktop

ROOT = Path(cherry_desktop.__file__).parent


def test_every_folder_of_modules_is_a_regular_package() -> None:
    folders = {path.parent for path in ROOT.rglob("*.py") if "__pycache__" not in path.parts}
    assert ROOT / "core" in folders and ROOT / "core" / "data" in folders
    assert sorted(str(f.relative_to(ROOT)) for f in folders if not (f / "__init__.py").is_file()) == []
