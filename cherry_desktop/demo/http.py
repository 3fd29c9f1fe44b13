"""Minimal HTTP/1.1 on asyncio streams: request parsing and response writing.

Just enough for the Anthropic client the Claude Code CLI uses: Content-Length and
chunked request bodies, keep-alive, chunked responses for SSE streams.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

_MAX_HEADER_BYTES = 64 * 1024
_MAX_BODY_BYTES = 64 * 1024 * 1024

_REASONS = {
    200: "OK",
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    413: "Payload Too Large",
    429: "Too Many Requests",
    500: "Internal Server Error",
    503: "Service Unavailable",
    529: "Overloaded",
}


class HttpProtocolError(Exception):
    """The peer sent something that is not the HTTP we understand."""


@dataclass
class RawRequest:
    method: str
    target: str
    version: str
    headers: dict[str, str]
    body: bytes

    @property
    def path(self) -> str:
        return self.target.split("?", 1)[0]

    @property
    def query(self) -> str:
        return self.target.split("?", 1)[1] if "?" in self.target else ""

    @property
    def keep_alive(self) -> bool:
        connection = self.headers.get("connection", "").lower()
        if self.version == "HTTP/1.0":
            return connection == "keep-alive"
        return connection != "close"


async def read_request(reader: asyncio.StreamReader) -> RawRequest | None:
    """Read one request; None when the peer closed the connection between requests."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as exc:
        if not exc.partial.strip():
            return None
        raise HttpProtocolError("connection closed inside the request head") from exc
    except asyncio.LimitOverrunError as exc:
        raise HttpProtocolError("request head too large") from exc
    if len(head) > _MAX_HEADER_BYTES:
        raise HttpProtocolError("request head too large")
    lines = head.decode("latin-1").split("\r\n")
    try:
        method, target, version = lines[0].split(" ", 2)
    except ValueError as exc:
        raise HttpProtocolError(f"bad request line {lines[0]!r}") from exc
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if not line:
            continue
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = await _read_chunked(reader)
    else:
        length = int(headers.get("content-length", "0") or "0")
        if length > _MAX_BODY_BYTES:
            raise HttpProtocolError("body too large")
        body = await reader.readexactly(length) if length else b""
    return RawRequest(method.upper(), target, version, headers, body)


async def _read_chunked(reader: asyncio.StreamReader) -> bytes:
    parts: list[bytes] = []
    total = 0
    while True:
        size_line = await reader.readuntil(b"\r\n")
        size = int(size_line.split(b";", 1)[0].strip() or b"0", 16)
        if size == 0:
            # Optional trailers end with an empty line.
            while (await reader.readuntil(b"\r\n")) != b"\r\n":
                pass
            return b"".join(parts)
        total += size
        if total > _MAX_BODY_BYTES:
            raise HttpProtocolError("body too large")
        parts.append(await reader.readexactly(size))
        await reader.readexactly(2)


def _head(status: int, headers: dict[str, str]) -> bytes:
    lines = [f"HTTP/1.1 {status} {_REASONS.get(status, 'Status')}"]
    lines.extend(f"{name}: {value}" for name, value in headers.items())
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


async def write_response(
    writer: asyncio.StreamWriter,
    status: int,
    body: bytes = b"",
    *,
    content_type: str = "application/json",
    extra_headers: dict[str, str] | None = None,
    keep_alive: bool = True,
    head_only: bool = False,
) -> None:
    """Write a complete response with a Content-Length."""
    headers = {
        "content-type": content_type,
        "content-length": str(len(body)),
        "connection": "keep-alive" if keep_alive else "close",
        **(extra_headers or {}),
    }
    writer.write(_head(status, headers) + (b"" if head_only else body))
    await writer.drain()


async def write_json(
    writer: asyncio.StreamWriter,
    status: int,
    payload: Any,
    *,
    extra_headers: dict[str, str] | None = None,
    keep_alive: bool = True,
) -> None:
    await write_response(
        writer,
        status,
        json.dumps(payload).encode(),
        extra_headers=extra_headers,
        keep_alive=keep_alive,
    )


class ChunkedWriter:
    """A chunked (``Transfer-Encoding: chunked``) response body, used for SSE."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer

    async def start(self, status: int, content_type: str, extra_headers: dict[str, str] | None = None) -> None:
        headers = {
            "content-type": content_type,
            "transfer-encoding": "chunked",
            "cache-control": "no-cache",
            "connection": "keep-alive",
            **(extra_headers or {}),
        }
        self._writer.write(_head(status, headers))
        await self._writer.drain()

    async def write(self, data: bytes) -> None:
        if not data:
            return
        self._writer.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        await self._writer.drain()

    async def end(self) -> None:
        self._writer.write(b"0\r\n\r\n")
        await self._writer.drain()
