"""`KeyRelay`: a child's model requests reach its provider through Cherry, which adds the key.

A runtime child that takes its provider key only from its environment or its config (opencode,
a custom ACP command) or passes it on to a child of its own (claude-agent-acp puts its
``gateway`` key into the Claude Code CLI's ``ANTHROPIC_CUSTOM_HEADERS``) would hold the user's
key where the tools it runs can read it (``printenv``, ``/proc/<pid>/environ``). Instead the
child is pointed at a relay on 127.0.0.1 and given a random per-connection `token`: the relay
checks the token, swaps it for the real key (``x-api-key`` for Anthropic, a bearer
``authorization`` for OpenAI-compatible providers) and forwards the request, streaming the reply
back as it comes. What a tool could read is worth nothing once the connection is gone, and
nothing off this machine.

One relay per connection, stopped with it. `child_base_url` is the URL the child is configured
with: the relay's origin plus the provider base URL's own path (``/v1`` for OpenAI's), so the
child's request paths map one to one onto the provider's.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from typing import Literal
from urllib.parse import urlsplit

import httpx

from cherry_desktop.core.net.http_server import LoopbackHttpServer
from cherry_desktop.core.net.request_keys import key_matches, presented_key

Dialect = Literal["anthropic", "openai"]
TOKEN_PREFIX = "cherry-relay-"
#: Request headers never forwarded: the child's token and what the HTTP client sets itself.
_DROPPED_REQUEST = frozenset({"host", "content-length", "x-api-key", "authorization", "connection",
                              "accept-encoding", "transfer-encoding"})
#: Response headers that describe the upstream's framing, not the body the relay sends on.
_DROPPED_RESPONSE = frozenset({"content-length", "content-encoding", "transfer-encoding", "connection"})
#: A reply may stream for as long as a model writes; only connecting and each read are bounded.
_TIMEOUT = httpx.Timeout(connect=30.0, read=600.0, write=60.0, pool=30.0)


class KeyRelay:
    """Forwards requests carrying `token` to `upstream_base_url` with `key` (module docstring)."""

    def __init__(self, upstream_base_url: str, key: str, dialect: Dialect) -> None:
        parts = urlsplit(upstream_base_url.rstrip("/"))
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"not an http(s) URL: {upstream_base_url!r}")
        self.upstream_origin = f"{parts.scheme}://{parts.netloc}"
        self.upstream_path = parts.path
        self.dialect: Dialect = dialect
        self.token = TOKEN_PREFIX + secrets.token_urlsafe(24)
        self._key = key
        self._client: httpx.AsyncClient | None = None
        self._server: LoopbackHttpServer | None = None

    @property
    def running(self) -> bool:
        return self._server is not None

    @property
    def child_base_url(self) -> str:
        """The base URL the child is given (empty until `start`)."""
        if self._server is None:
            return ""
        return self._server.base_url + self.upstream_path

    async def start(self) -> str:
        """Listen on a free loopback port; returns `child_base_url`."""
        from starlette.applications import Starlette
        from starlette.routing import Route

        methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]
        app = Starlette(routes=[Route("/{path:path}", self._forward, methods=methods)])
        self._client = httpx.AsyncClient(timeout=_TIMEOUT)
        self._server = LoopbackHttpServer(app, grace_s=0.5)
        try:
            await self._server.start()
        except BaseException:
            await self.stop()
            raise
        return self.child_base_url

    async def stop(self) -> None:
        """Stop listening and drop open requests; the token stops working at once."""
        server, self._server = self._server, None
        client, self._client = self._client, None
        if server is not None:
            await server.stop()
        if client is not None:
            await client.aclose()

    def _auth_headers(self) -> dict[str, str]:
        if not self._key:
            return {}
        if self.dialect == "anthropic":
            return {"x-api-key": self._key}
        return {"authorization": f"Bearer {self._key}"}

    async def _forward(self, request: object) -> object:
        from starlette.requests import Request
        from starlette.responses import JSONResponse, StreamingResponse

        assert isinstance(request, Request)
        incoming = {k.lower(): v for k, v in request.headers.items()}
        if not key_matches(presented_key(incoming), self.token):
            return JSONResponse({"error": {"type": "authentication_error",
                                           "message": "not a key this relay gave out"}}, status_code=401)
        client = self._client
        if client is None:
            return JSONResponse({"error": {"type": "api_error", "message": "the relay is stopping"}},
                                status_code=503)
        url = self.upstream_origin + request.url.path + (f"?{request.url.query}" if request.url.query else "")
        headers = {k: v for k, v in incoming.items() if k not in _DROPPED_REQUEST}
        headers.update(self._auth_headers())
        upstream_request = client.build_request(request.method, url, headers=headers, content=await request.body())
        try:
            upstream = await client.send(upstream_request, stream=True)
        except httpx.HTTPError as exc:
            return JSONResponse({"error": {"type": "api_error",
                                           "message": f"the provider could not be reached: {exc}"}}, status_code=502)
        response_headers = {k: v for k, v in upstream.headers.items() if k.lower() not in _DROPPED_RESPONSE}

        async def body() -> AsyncIterator[bytes]:
            try:  # decoded bytes (the content-encoding header is dropped), each as it arrives
                async for chunk in upstream.aiter_bytes():
                    yield chunk
            finally:  # the child went away mid-reply too: the provider's stream is closed
                await upstream.aclose()

        return StreamingResponse(body(), status_code=upstream.status_code, headers=response_headers)


__all__ = ["TOKEN_PREFIX", "KeyRelay"]
