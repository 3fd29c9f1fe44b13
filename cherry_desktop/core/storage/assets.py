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


# PyInstaller marks a frozen interpreter with `sys.frozen` and `sys._MEIPASS` (its bundle), which
# a plain one lacks: these two are the one place the app asks.
def is_frozen() -> bool:
    """The app runs frozen (the PyInstaller bundle), not from a Python install."""
    return bool(getattr(sys, "frozen", False))


def frozen_bundle_dir() -> Path | None:
    """Where the frozen app unpacked its bundle; None when not frozen."""
    bundle = getattr(sys, "_MEIPASS", None)
    return Path(bundle) if isinstance(bundle, str) else None


def _candidates(folder: AssetFolder) -> list[Path]:
    found: list[Path] = []
    bundle = frozen_bundle_dir()
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
