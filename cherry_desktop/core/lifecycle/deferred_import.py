"""Deferred modules: in sys.modules, their code run only when a name they define is looked up.

`defer_module(name)` puts `name` in sys.modules created from its spec (so a package's
submodules import as usual) with its code run on the first lookup of a name it does not have
yet (`__all__` included, other dunder probes answered "no such attribute"). Stand-ins set on
the module answer lookups without running it; running it replaces them with the real names.
`run_deferred(module)` runs it now. (`importlib.util.LazyLoader` does not do here: on Python
3.11 the import statement itself reads the module's `__spec__`, which runs it.)

Used for what a dependency imports but the app never runs (see `claude_code.sdk_import`,
`providers.httpx_cli`).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from importlib.abc import Loader
from types import ModuleType
from typing import Any


def find_spec_unimported(name: str) -> importlib.machinery.ModuleSpec:
    """`name`'s spec without importing its parent package (the parent's __path__ is read from
    the parent's own spec, or from the parent when it is in sys.modules)."""
    parent, _, _ = name.rpartition(".")
    path: Sequence[str] | None = None
    if parent:
        module = sys.modules.get(parent)
        parent_spec = module.__spec__ if module is not None else find_spec_unimported(parent)
        path = parent_spec.submodule_search_locations if parent_spec is not None else None
        if path is None:
            raise ImportError(f"{parent} is not a package")
    for finder in sys.meta_path:
        # A meta-path finder is any object with `find_spec` (the import system's own protocol,
        # which an installed hook such as PySide6's may implement without the ABC).
        find_spec = getattr(finder, "find_spec", None)
        spec = find_spec(name, path) if find_spec is not None else None
        if isinstance(spec, importlib.machinery.ModuleSpec) and spec.loader is not None:
            return spec
    raise ImportError(f"{name} not found")


class _RunOnLookup:
    """A deferred module's `__getattr__` (PEP 562's module hook, installed and removed by name
    below): runs the module's code, then answers the lookup."""

    def __init__(self, module: ModuleType, loader: Loader) -> None:
        self.module = module
        self.loader = loader

    def __call__(self, attr: str) -> Any:  # a module attribute: any value
        if attr.startswith("__") and attr != "__all__":
            # Probes (inspect.unwrap's __wrapped__: PySide6's import hook runs it on new modules).
            raise AttributeError(f"module {self.module.__name__!r} has no attribute {attr!r}")
        self.run()
        return getattr(self.module, attr)  # the lookup this hook answers, now the code has run

    def run(self) -> None:
        namespace = vars(self.module)
        if namespace.get("__getattr__") is self:
            del namespace["__getattr__"]  # the module may define its own
            self.loader.exec_module(self.module)


def defer_module(name: str) -> ModuleType:
    """Put `name` in sys.modules deferred (see module docstring) and return it; raises
    ImportError when it cannot be found."""
    spec = find_spec_unimported(name)
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    vars(module)["__getattr__"] = _RunOnLookup(module, spec.loader)
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent and parent in sys.modules:
        setattr(sys.modules[parent], child, module)
    return module


def run_deferred(module: ModuleType) -> ModuleType:
    """Run a deferred module's code now (nothing when it ran already or was never deferred)."""
    hook = vars(module).get("__getattr__")
    if isinstance(hook, _RunOnLookup):
        hook.run()
    return module
