"""Application container: services start in dependency order and stop in reverse.

A service declares `name` and `depends_on`; the container sorts them topologically, awaits
each `on_init` in that order and each `on_stop` in the reverse order. A failing `on_stop` is
logged and does not keep the others from stopping.

Services may be registered in stages: `start()` again starts only those not yet started (the
app starts the database and settings before the first window, the stream services after it).
"""

from __future__ import annotations

import logging
from typing import ClassVar, TypeVar

log = logging.getLogger(__name__)

S = TypeVar("S", bound="Service")


class ServiceError(RuntimeError):
    """A service graph problem: unknown dependency, cycle, duplicate or missing service."""


class Service:
    """Base class of a core service."""

    name: ClassVar[str] = ""
    depends_on: ClassVar[tuple[str, ...]] = ()

    async def on_init(self, app: Application) -> None:
        """Start the service; dependencies are already initialised."""

    async def on_stop(self) -> None:
        """Stop the service; dependants are already stopped."""


class Application:
    """Holds the services of one app instance."""

    def __init__(self, **context: object) -> None:
        self._services: dict[str, Service] = {}
        self._started: list[Service] = []
        self.context: dict[str, object] = dict(context)

    def register(self, service: Service) -> None:
        if not service.name:
            raise ServiceError(f"{type(service).__name__} has no name")
        if service.name in self._services:
            raise ServiceError(f"service {service.name!r} registered twice")
        self._services[service.name] = service

    def get(self, name: str, kind: type[S] | None = None) -> S:
        try:
            service = self._services[name]
        except KeyError:
            raise ServiceError(f"no service named {name!r}") from None
        if kind is not None and not isinstance(service, kind):
            raise ServiceError(f"service {name!r} is a {type(service).__name__}, not {kind.__name__}")
        return service  # type: ignore[return-value]

    def has(self, name: str) -> bool:
        return name in self._services

    @property
    def started(self) -> bool:
        return bool(self._started)

    def start_order(self) -> list[str]:
        """Names in dependency order (stable: registration order among equals)."""
        order: list[str] = []
        state: dict[str, int] = {}

        def visit(name: str, chain: tuple[str, ...]) -> None:
            if state.get(name) == 2:
                return
            if state.get(name) == 1:
                raise ServiceError("dependency cycle: " + " -> ".join((*chain, name)))
            if name not in self._services:
                raise ServiceError(f"{chain[-1] if chain else '?'} depends on unknown service {name!r}")
            state[name] = 1
            for dep in self._services[name].depends_on:
                visit(dep, (*chain, name))
            state[name] = 2
            order.append(name)

        for name in self._services:
            visit(name, ())
        return order

    async def start(self) -> None:
        """Start every registered service not started yet, in dependency order."""
        for name in self.start_order():
            service = self._services[name]
            if service in self._started:
                continue
            log.debug("starting service %s", name)
            try:
                await service.on_init(self)
            except BaseException:
                await self.stop()
                raise
            self._started.append(service)

    async def stop(self) -> None:
        while self._started:
            service = self._started.pop()
            log.debug("stopping service %s", service.name)
            try:
                await service.on_stop()
            except Exception:
                log.exception("service %s failed to stop", service.name)
