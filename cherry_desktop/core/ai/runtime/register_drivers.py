"""`register_drivers()`: the one place runtime drivers are registered (called from the
`AgentSessionRuntimeService` init).

Drivers are named by import path and imported when registered, never by a side-effect module:
an unimported side-effect registration is how a runtime silently disappears in a merge. The
Claude Code driver module must not import `claude_agent_sdk` at import time (~0.7 s, ~40 MB);
it imports it when it connects.
"""

from __future__ import annotations

import importlib
import inspect
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from cherry_desktop.core.ai.runtime.capabilities import AGENT_TYPES
from cherry_desktop.core.ai.runtime.types import AgentSessionRuntimeDriver

if TYPE_CHECKING:
    from cherry_desktop.core.data.service import Repositories
    from cherry_desktop.core.state.shared_cache import SharedCache
    from cherry_desktop.core.storage.paths import PathRegistry

log = logging.getLogger(__name__)

# agent type -> "module:Class". One line per runtime.
DRIVER_CLASSES: Mapping[str, str] = {
    "claude-code": "cherry_desktop.core.ai.runtime.claude_code.driver:ClaudeCodeRuntimeDriver",
    "pi": "cherry_desktop.core.ai.runtime.pi.driver:PiRuntimeDriver",
    "acp": "cherry_desktop.core.ai.runtime.acp.driver:AcpRuntimeDriver",
}


class DriverNotRegisteredError(LookupError):
    """No runtime driver for that agent type."""

    def __init__(self, agent_type: str) -> None:
        super().__init__(f"no runtime driver registered for agent type {agent_type!r}")
        self.agent_type = agent_type


class SecretReader(Protocol):
    """Where a driver reads a provider's key at connect time (`CredentialStore`: the keyring)."""

    def try_get(self, name: str) -> str | None: ...


@dataclass
class RuntimeDriverDeps:
    """What a driver may be constructed with (passed as `deps=` when its __init__ takes it)."""

    paths: PathRegistry | None = None
    repos: Repositories | None = None
    credentials: SecretReader | None = None
    #: What every window mirrors (a runtime's setup progress, e.g. pi being installed).
    shared_cache: SharedCache | None = None


class RuntimeDriverRegistry:
    """agent type -> driver instance, owned by the runtime host."""

    def __init__(self) -> None:
        self._drivers: dict[str, AgentSessionRuntimeDriver] = {}

    def register(self, driver: AgentSessionRuntimeDriver, *, replace: bool = False) -> None:
        if driver.type in self._drivers and not replace:
            raise ValueError(f"driver for {driver.type!r} registered twice")
        self._drivers[driver.type] = driver

    def get(self, agent_type: str) -> AgentSessionRuntimeDriver:
        try:
            return self._drivers[agent_type]
        except KeyError:
            raise DriverNotRegisteredError(agent_type) from None

    def find(self, agent_type: str) -> AgentSessionRuntimeDriver | None:
        return self._drivers.get(agent_type)

    def has(self, agent_type: str) -> bool:
        return agent_type in self._drivers

    def types(self) -> list[str]:
        return sorted(self._drivers)

    def drivers(self) -> list[AgentSessionRuntimeDriver]:
        return list(self._drivers.values())


def load_driver_class(spec: str) -> type[AgentSessionRuntimeDriver]:
    """The class a ``"module:Class"`` spec names (imported now)."""
    module_name, _, class_name = spec.partition(":")
    module = importlib.import_module(module_name)
    # Loading by name is this function's job: the spec names the attribute.
    cls = getattr(module, class_name)
    if not isinstance(cls, type):
        raise TypeError(f"{spec} is not a class")
    return cls


def _construct(cls: type[AgentSessionRuntimeDriver], deps: RuntimeDriverDeps) -> AgentSessionRuntimeDriver:
    """A driver takes the deps as `deps` when its __init__ has that parameter (test drivers may not)."""
    if "deps" in inspect.signature(cls).parameters:
        return cls(deps=deps)  # type: ignore[call-arg]
    return cls()


def register_drivers(registry: RuntimeDriverRegistry, deps: RuntimeDriverDeps | None = None, *,
                     agent_types: Iterable[str] = AGENT_TYPES,
                     classes: Mapping[str, str] = DRIVER_CLASSES) -> list[str]:
    """Register the driver of every agent type; return the types that failed to load.

    A driver that fails to import is logged and left out (its sessions then fail validation
    with `DriverNotRegisteredError`) instead of taking the whole host down.
    """
    deps = deps or RuntimeDriverDeps()
    failed: list[str] = []
    for agent_type in agent_types:
        if registry.has(agent_type):
            continue
        spec = classes.get(agent_type)
        if spec is None:
            log.error("agent type %s has no driver class", agent_type)
            failed.append(agent_type)
            continue
        try:
            driver = _construct(load_driver_class(spec), deps)
        except Exception:
            log.exception("runtime driver %s failed to load", spec)
            failed.append(agent_type)
            continue
        registry.register(driver)
    return failed
