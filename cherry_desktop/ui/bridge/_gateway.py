"""The bridge's gateway facet: the local API gateway's status, settings and key for Settings.

`Bridges.gateway`. Core's `GatewayControl` (`core.gateway`, set by the app) is the
one writer of the running gateway and of its SharedCache status; this facet asks it and
re-emits status changes as a Qt signal.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from cherry_desktop.ui.bridge._base import CoreBridge

_STATUS_KEY = "gateway.status"  # core.gateway.control.GATEWAY_STATUS_KEY (not imported before the paint)


class GatewayBridge(CoreBridge):
    """The gateway's switch, port and key for Settings.

    Signals:
        status_changed(object): the gateway's new `GatewayStatus` (off, running, port-in-use...).
    """

    status_changed = Signal(object)

    def __init__(self, core: Any, parent: QObject | None = None) -> None:
        super().__init__(core, parent)
        self._unsubscribe = core.shared_cache.subscribe(_STATUS_KEY, self._on_status)

    def _on_status(self, key: str, value: Any) -> None:
        self.status_changed.emit(value)

    @property
    def available(self) -> bool:
        """Whether this app runs a gateway control (the GUI does once its services run)."""
        return self.core.gateway is not None

    def status(self) -> Any:
        return self.core.shared_cache.get(_STATUS_KEY)

    def enabled_and_port(self) -> tuple[bool, int]:
        settings = self.core.settings.settings
        return bool(settings.gateway_enabled), int(settings.gateway_port)

    async def apply(self, enabled: bool, port: int) -> Any:
        """Save the choice and make the gateway follow it; returns the new status."""
        self.core.settings.update(gateway_enabled=enabled, gateway_port=port)
        return await self.core.gateway.apply()

    async def turn_on(self) -> bool:
        """Enable the gateway on its saved port (the fix a gateway-off error offers); True when
        it runs."""
        _, port = self.enabled_and_port()
        status = await self.apply(True, port)
        return bool(status is not None and status.state == "running")

    def key(self) -> str:
        """The stored key ("" before the gateway was first enabled)."""
        return str(self.core.gateway.key()) if self.core.gateway is not None else ""

    def regenerate_key(self) -> str:
        return str(self.core.gateway.regenerate_key())
