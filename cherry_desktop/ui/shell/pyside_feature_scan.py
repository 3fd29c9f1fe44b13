"""`scan_new_modules_uncached()`: PySide6's import hook reads each new module's source without
keeping it in `linecache`.

Once Qt is imported, PySide6's `__feature__` import hook asks of every module imported after
it whether its source mentions "PySide6" (`shibokensupport.feature._mod_uses_pyside`, through
`inspect.getsource`). `inspect` reads the source through `linecache`, which keeps every line of
every such module as its own string: the app's ui and core, the Claude Agent SDK, httpx, ...
~20 MB of small strings (three windows, one agent turn). Clearing `linecache` afterwards does
not give that memory back: the strings sit between live objects in Python's memory pools.

The replacement answers the same question from the module loader's source text, read once and
dropped. Nothing in the app selects a `__feature__`; the answer is kept exact anyway. With
another PySide6 whose hook has another shape, nothing is changed.
"""

from __future__ import annotations

import logging
import sys
from types import ModuleType

log = logging.getLogger(__name__)

FEATURE_MODULE = "shibokensupport.feature"
SCAN_FUNCTION = "_mod_uses_pyside"


def module_uses_pyside(module: ModuleType) -> bool:
    """Whether `module`'s source mentions PySide6 (False when it has none: built-in, extension,
    bytecode only). Reads the source from the module's loader; nothing is cached."""
    # PEP 302: a module need not have a loader, nor a loader a `get_source` (PySide6's scan asks the same way).
    loader = getattr(module, "__loader__", None)
    get_source = getattr(loader, "get_source", None)
    if get_source is None:
        return False
    try:
        source = get_source(module.__name__)
    except Exception:  # as PySide6's own scan: any failure reads as "no"
        return False
    return isinstance(source, str) and "PySide6" in source


def scan_new_modules_uncached() -> bool:
    """Make PySide6's import hook use `module_uses_pyside` (call right after importing Qt).
    False when this PySide6 has no such hook (nothing changed)."""
    feature = sys.modules.get(FEATURE_MODULE)
    # A private hook of PySide6 (checked by name: versions without it keep their own scan).
    if feature is None or not callable(getattr(feature, SCAN_FUNCTION, None)):
        log.debug("PySide6 has no %s.%s: its import hook is left as it is", FEATURE_MODULE, SCAN_FUNCTION)
        return False
    setattr(feature, SCAN_FUNCTION, module_uses_pyside)
    return True
