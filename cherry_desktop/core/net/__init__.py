"""Local HTTP serving on the app's own asyncio loop (the gateway and the demo model server)."""

from cherry_desktop.core.net.http_server import LOOPBACK_HOST, LoopbackHttpServer, PortInUseError

__all__ = ["LOOPBACK_HOST", "LoopbackHttpServer", "PortInUseError"]
