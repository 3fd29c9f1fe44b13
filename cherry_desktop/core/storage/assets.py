"""Where the top-level `resources/` and `i18n/` folders are at run time.

A source checkout (and an editable install) reads them beside the package; a frozen app
(PyInstaller) from its bundle; a wheel install from `<prefix>/share/cherry-desktop/`, where
`pyproject.toml` installs them as data files.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path
from typing import Literal

AssetFolder = Literal["resources", "i18n"]

_REPO_ROOT = Path(__file__).resolve().parents[3]


def _candidates(folder: AssetFolder) -> list[Path]:
    found: list[Path] = []
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        found.append(Path(bundle) / folder)
    found.append(_REPO_ROOT / folder)
    found.append(Path(sys.prefix) / "share" / "cherry-desktop" / folder)
    return found


@cache
def asset_dir(folder: AssetFolder) -> Path:
    """The first existing `folder` among the places above (the checkout's, if none exists)."""
    candidates = _candidates(folder)
    return next((p for p in candidates if p.is_dir()), candidates[1 if len(candidates) > 2 else 0])
