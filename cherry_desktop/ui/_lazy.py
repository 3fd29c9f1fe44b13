"""`lazy_getattr`: a package's `__getattr__` (PEP 562) that imports a public name's module
only when the name is first used. No Qt here: `cherry_desktop.ui` itself loads with it before
Qt is imported."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_getattr(package: str, modules: Mapping[str, str]) -> Callable[[str], Any]:
    """The `__getattr__` of `package`, whose public names live in `modules` (name -> module).
    A name, once imported, is kept on the package."""

    def get(name: str) -> Any:
        module = modules.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)  # later reads are plain attribute reads
        return value

    return get
