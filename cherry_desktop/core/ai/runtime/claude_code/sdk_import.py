"""`prepare_sdk_import()`: import the Claude Agent SDK without what the app never runs.

Importing `claude_agent_sdk` costs ~40 MB and ~490 modules held for the app's lifetime, most of
it for features the app does not use:

- `mcp/__init__.py` and `mcp/server/__init__.py` import mcp's whole client and server stack
  (starlette, uvicorn, sse-starlette, opentelemetry, ~20 MB), although the SDK imports only
  `mcp.types`, `mcp.shared.*` and `mcp.server.Server` (to build in-process MCP servers, which
  the app does not create); `Server` is bound to a stand-in that imports the real class when
  a server is built.
- `jsonschema` (~4 MB) validates the arguments of in-process MCP tools, and
  `mcp.types.methods` (~6 MB of pydantic models) serves mcp's client and server.

Each of these is put in sys.modules deferred: created from its spec (so a package's
submodules import as usual) with its code run on the first lookup of a name it does not have
yet (`__all__` included, other dunder probes answered "no such attribute").
(`importlib.util.LazyLoader` does not do here: on Python 3.11 the import statement itself
reads the module's `__spec__`, which runs it.)

Anything unexpected (an mcp with another layout, a module already imported) leaves the import
as it is: the SDK then imports everything, as without this.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import logging
import sys
from types import ModuleType
from typing import Any

log = logging.getLogger(__name__)

# Imported by the SDK, used only by what the app never runs (see above).
DEFERRED_MODULES = ("mcp", "mcp.server", "mcp.types.methods", "jsonschema")


def prepare_sdk_import() -> None:
    """Put the deferred modules in sys.modules (call before importing the SDK)."""
    if any(name in sys.modules for name in DEFERRED_MODULES):
        return  # already imported whole: nothing to save
    added: list[str] = []
    try:
        for name in DEFERRED_MODULES:
            _deferred_module(name)
            added.append(name)
        vars(sys.modules["mcp.server"])["Server"] = DeferredServer
    except Exception:  # another layout: import everything as usual
        log.debug("importing the SDK's dependencies whole", exc_info=True)
        for name in added:
            sys.modules.pop(name, None)


def _find_spec(name: str) -> importlib.machinery.ModuleSpec:
    """`name`'s spec without importing its parent package (the parent's __path__ is read from
    the parent's own spec, or from the parent when it is in sys.modules)."""
    parent, _, _ = name.rpartition(".")
    path: Any = None
    if parent:
        module = sys.modules.get(parent)
        parent_spec = module.__spec__ if module is not None else _find_spec(parent)
        path = parent_spec.submodule_search_locations if parent_spec is not None else None
        if path is None:
            raise ImportError(f"{parent} is not a package")
    for finder in sys.meta_path:
        find_spec = getattr(finder, "find_spec", None)
        spec = find_spec(name, path) if find_spec is not None else None
        if isinstance(spec, importlib.machinery.ModuleSpec) and spec.loader is not None:
            return spec
    raise ImportError(f"{name} not found")


def _install(name: str, module: ModuleType) -> None:
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent and parent in sys.modules:
        setattr(sys.modules[parent], child, module)


def _deferred_module(name: str) -> None:
    """`name` from its spec, its code run on the first lookup of a name it does not have yet."""
    spec = _find_spec(name)
    loader = spec.loader
    assert loader is not None
    module = importlib.util.module_from_spec(spec)

    def run(attr: str) -> Any:
        if attr.startswith("__") and attr != "__all__":
            # Probes (inspect.unwrap's __wrapped__: PySide6 runs it on every new module).
            raise AttributeError(f"module {name!r} has no attribute {attr!r}")
        module.__dict__.pop("__getattr__", None)
        loader.exec_module(module)
        return getattr(module, attr)

    vars(module)["__getattr__"] = run
    _install(name, module)


class DeferredServer:
    """`mcp.server.Server` as the SDK binds it at import: imports the real class when called."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        server_class = importlib.import_module("mcp.server.lowlevel.server").Server
        return server_class(*args, **kwargs)
