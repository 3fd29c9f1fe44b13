"""`import_httpx_without_cli()`: import httpx without its command-line client.

`httpx/__init__.py` imports `httpx._main` (the `httpx` command) whenever its dependencies are
installed, and with it `rich` and `click`: ~4 MB and ~90 modules held for the app's lifetime,
for a command the app never runs. `httpx._main` is put in sys.modules deferred
(`core.lifecycle.deferred_import`) with its `main` bound to a stand-in that runs the real one; any other
name looked up in it runs the module as usual.
"""

from __future__ import annotations

import logging
import sys

from cherry_desktop.core.lifecycle.deferred_import import defer_module, run_deferred

log = logging.getLogger(__name__)

CLI_MODULE = "httpx._main"


def import_httpx_without_cli() -> None:
    """Import httpx with `httpx._main` deferred (nothing to defer once httpx is imported)."""
    if "httpx" in sys.modules or CLI_MODULE in sys.modules:
        return
    try:
        cli = defer_module(CLI_MODULE)
    except ImportError:  # another httpx layout: it imports as it likes
        log.debug("httpx has no %s", CLI_MODULE, exc_info=True)
        return
    vars(cli)["main"] = httpx_cli_main
    import httpx  # `from ._main import main` takes the stand-in

    setattr(httpx, "_main", cli)  # noqa: B010 - as the import of a submodule binds it to its package


def httpx_cli_main() -> None:
    """`httpx.main` until it is used: runs httpx's command-line client."""
    module = run_deferred(sys.modules[CLI_MODULE])
    module.main()
