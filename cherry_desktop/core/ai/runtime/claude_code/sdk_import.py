"""`prepare_sdk_import()`: import the Claude Agent SDK without what the app never runs.

Importing `claude_agent_sdk` costs ~40 MB and ~490 modules held for the app's lifetime, most of
it for features the app does not use:

- `mcp/__init__.py` and `mcp/server/__init__.py` import mcp's whole client and server stack
  (starlette, uvicorn, sse-starlette, opentelemetry, ~20 MB), although the SDK imports only
  `mcp.types`, `mcp.shared.*` and `mcp.server.Server` (to build in-process MCP servers, which
  the app does not create); `Server` is bound to a stand-in that imports the real class when
  a server is built.
- `mcp.types.methods` (~6 MB of pydantic models) serves mcp's client and server.

`jsonschema` is not deferred (it was, ~4 MB): mcp's client (the MCP hub) and Cherry's own
in-process tools use it, and a deferred package breaks when one of its submodules is imported
first (`jsonschema.exceptions` imports the package, whose code then imports the half-made
submodule: "partially initialized module").

Each of these is put in sys.modules deferred (`core.lifecycle.deferred_import`: its code runs on the
first lookup of a name it does not have yet).

Anything unexpected (an mcp with another layout, a module already imported) leaves the import
as it is: the SDK then imports everything, as without this.
"""

from __future__ import annotations

import importlib
import logging
import sys

# `Any`: `DeferredServer` stands in for mcp's `Server`: it takes and returns what the real one does.
from typing import Any

from cherry_desktop.core.lifecycle.deferred_import import defer_module

log = logging.getLogger(__name__)

# Imported by the SDK, used only by what the app never runs (see above).
DEFERRED_MODULES = ("mcp", "mcp.server", "mcp.types.methods")


def prepare_sdk_import() -> None:
    """Put the deferred modules in sys.modules (call before importing the SDK)."""
    if any(name in sys.modules for name in DEFERRED_MODULES):
        return  # already imported whole: nothing to save
    added: list[str] = []
    try:
        for name in DEFERRED_MODULES:
            defer_module(name)
            added.append(name)
        vars(sys.modules["mcp.server"])["Server"] = DeferredServer
    except Exception:  # another layout: import everything as usual
        log.debug("importing the SDK's dependencies whole", exc_info=True)
        for name in added:
            sys.modules.pop(name, None)


class DeferredServer:
    """`mcp.server.Server` as the SDK binds it at import: imports the real class when called."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        server_class = importlib.import_module("mcp.server.lowlevel.server").Server
        return server_class(*args, **kwargs)
