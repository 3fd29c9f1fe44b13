"""The gateway's ASGI app: the key check in front of the model routes and the agent API.

Every route but ``GET /`` (a liveness answer with nothing in it) needs the key; a request
without it, or with a wrong one, gets 401 in the dialect its path speaks and reaches no route
(nothing is started, nothing is read from its body).
"""

from __future__ import annotations

from typing import Protocol

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from cherry_desktop.core.gateway.keys import GatewayKeyCheck
from cherry_desktop.core.gateway.model_routes import ModelGateway
from cherry_desktop.core.gateway.responses import error_body
from cherry_desktop.core.gateway.upstream import Dialect


class RouteSource(Protocol):
    """Something that adds routes of its own (the agent API)."""

    def routes(self) -> list[Route]: ...


def path_dialect(path: str) -> Dialect:
    return "openai" if path.startswith(("/v1/chat/", "/v1/models")) else "anthropic"


class KeyMiddleware:
    """ASGI middleware: 401 unless the request carries the gateway key."""

    def __init__(self, app: ASGIApp, check: GatewayKeyCheck) -> None:
        self.app = app
        self.check = check

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or (scope["path"] == "/" and scope["method"] in ("GET", "HEAD")):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if not self.check.allows(headers):
            body = error_body(path_dialect(scope["path"]), 401, "a valid gateway key is required "
                              "(x-api-key or Authorization: Bearer)", "authentication_error")
            await JSONResponse(body, status_code=401)(scope, receive, send)
            return
        await self.app(scope, receive, send)


async def _root(_: Request) -> JSONResponse:
    return JSONResponse({"ok": True})


def build_gateway_app(models: ModelGateway, check: GatewayKeyCheck,
                      extra: RouteSource | None = None) -> KeyMiddleware:
    routes = [
        Route("/", _root, methods=["GET", "HEAD"]),
        Route("/v1/messages", models.messages, methods=["POST"]),
        Route("/v1/messages/count_tokens", models.count_tokens, methods=["POST"]),
        Route("/v1/chat/completions", models.chat_completions, methods=["POST"]),
        Route("/v1/models", models.models, methods=["GET"]),
    ]
    if extra is not None:
        routes.extend(extra.routes())
    return KeyMiddleware(Starlette(routes=routes), check)


__all__ = ["KeyMiddleware", "RouteSource", "build_gateway_app", "path_dialect"]
