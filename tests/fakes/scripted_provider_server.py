"""A scripted OpenAI- and Anthropic-compatible HTTP server on 127.0.0.1 for provider tests.

Each request takes the next scripted `Reply` (status, raw pieces written with delays, or a
socket held open until the client goes away); what the client sent is kept in `received`.
`sse`, `openai_delta` and `anthropic_events` write the two APIs' stream events.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Reply:
    status: int = 200
    # (delay seconds, raw text) pieces written in order; `hang` keeps the socket open after.
    pieces: list[tuple[float, str]] = field(default_factory=list)
    hang: bool = False
    content_type: str = "text/event-stream"
    # Answer with what the request carried (`describe_files`), in the API's stream format.
    echo: bool = False


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    def last_user_content(self) -> list[dict[str, Any]]:
        """The content parts of the last user message (a string content as one text part)."""
        users = [m for m in self.body.get("messages", []) if m.get("role") == "user"]
        content = users[-1].get("content") if users else None
        return [{"type": "text", "text": content}] if isinstance(content, str) else list(content or [])

    def images(self) -> list[tuple[str, bytes]]:
        """(media type, bytes) of every image of the last user message: OpenAI's `image_url`
        data URLs and Anthropic's base64 `image` sources alike."""
        out = []
        for part in self.last_user_content():
            if part.get("type") == "image_url":
                header, _, data = part["image_url"]["url"].partition(",")
                out.append((header[len("data:"):].split(";")[0], base64.b64decode(data)))
            elif part.get("type") == "image":
                out.append((part["source"]["media_type"], base64.b64decode(part["source"]["data"])))
        return out

    def texts(self) -> list[str]:
        return [str(p.get("text")) for p in self.last_user_content() if p.get("type") == "text"]


def describe_files(received: Received) -> str:
    images = received.images()
    files = [t.split('"')[1] for t in received.texts() if t.startswith("<attached_file name=")]
    return f"images={[f'{mt}:{len(data)}' for mt, data in images]} files={files}"


class ScriptedServer:
    """A tiny HTTP/1.1 server: each request takes the next scripted `Reply`.

    `async with ScriptedServer() as server:` starts it on a free 127.0.0.1 port (`server.base`)
    and stops it after; a request with no reply left gets a 404.
    """

    def __init__(self) -> None:
        self.replies: list[Reply] = []
        self.received: list[Received] = []
        self.closed_early = asyncio.Event()
        self._server: asyncio.Server | None = None
        self._writers: list[asyncio.StreamWriter] = []
        self.base = ""

    async def __aenter__(self) -> ScriptedServer:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    async def start(self) -> str:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        self.base = f"http://127.0.0.1:{port}"
        return self.base

    async def stop(self) -> None:
        for w in self._writers:
            w.close()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.append(writer)
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode().split("\r\n")
            path = lines[0].split(" ")[1]
            headers = {k.lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:] if ln)}
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            self.received.append(Received(path, headers, json.loads(body or b"{}")))
            reply = self.replies.pop(0) if self.replies else Reply(status=404, pieces=[(0, "no script")])
            if reply.echo:
                said = describe_files(self.received[-1])
                pieces = anthropic_events(text=said) if "/messages" in path else [
                    openai_delta(said), openai_delta(finish="stop"), "data: [DONE]\n\n"]
                reply = Reply(pieces=[(0, piece) for piece in pieces])
            reason = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 500: "Internal Server Error",
                      529: "Overloaded"}.get(reply.status, "Status")
            writer.write(f"HTTP/1.1 {reply.status} {reason}\r\nContent-Type: {reply.content_type}\r\n"
                         "Connection: close\r\n\r\n".encode())
            await writer.drain()
            for delay, text in reply.pieces:
                if delay:
                    await asyncio.sleep(delay)
                writer.write(text.encode())
                await writer.drain()
            if reply.hang:
                # Hold the socket until the client goes away (that is the abort we test).
                data = await reader.read(1)
                if not data:
                    self.closed_early.set()
        except (ConnectionError, asyncio.IncompleteReadError):
            self.closed_early.set()
        finally:
            with contextlib.suppress(Exception):
                writer.close()


def sse(obj: Any, event: str | None = None) -> str:
    data = obj if isinstance(obj, str) else json.dumps(obj)
    return (f"event: {event}\n" if event else "") + f"data: {data}\n\n"


def openai_delta(content: str | None = None, reasoning: str | None = None, finish: str | None = None) -> str:
    delta: dict[str, Any] = {}
    if content is not None:
        delta["content"] = content
    if reasoning is not None:
        delta["reasoning_content"] = reasoning
    return sse({"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})


def anthropic_events(*, thinking: str = "", text: str = "", usage: tuple[int, int] = (10, 5)) -> list[str]:
    out = [sse({"type": "message_start", "message": {"usage": {"input_tokens": usage[0], "output_tokens": 1}}},
               "message_start"), sse({"type": "ping"}, "ping")]
    idx = 0
    if thinking:
        out += [sse({"type": "content_block_start", "index": idx, "content_block": {"type": "thinking"}},
                    "content_block_start"),
                sse({"type": "content_block_delta", "index": idx,
                     "delta": {"type": "thinking_delta", "thinking": thinking}}, "content_block_delta"),
                sse({"type": "content_block_delta", "index": idx,
                     "delta": {"type": "signature_delta", "signature": "sig"}}, "content_block_delta"),
                sse({"type": "content_block_stop", "index": idx}, "content_block_stop")]
        idx += 1
    out += [sse({"type": "content_block_start", "index": idx, "content_block": {"type": "text", "text": ""}},
                "content_block_start")]
    for word in text.split(" "):
        out.append(sse({"type": "content_block_delta", "index": idx,
                        "delta": {"type": "text_delta", "text": word + " "}}, "content_block_delta"))
    out += [sse({"type": "content_block_stop", "index": idx}, "content_block_stop"),
            sse({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": usage[1]}},
                "message_delta"),
            sse({"type": "message_stop"}, "message_stop")]
    return out
