"""``ScriptedModelServer``: an Anthropic-Messages-compatible server on 127.0.0.1.

It is the integration-test backend for the Claude Code runtime and the app's offline
``--demo`` backend. Every ``POST /v1/messages`` agent-loop request takes the next reply of
the script (a FIFO of replies or reply functions); when the script is empty the default
reply answers. Side requests (no tools offered, see :meth:`ModelRequest.is_model_turn`)
never consume the script: they get :func:`side_request_reply`.

What the bundled CLI (2.1.x, SDK 0.2.189) sends, measured with the environment of
:func:`~cherry_desktop.demo.cli_env.build_cli_env`: only agent-loop requests,
``POST /v1/messages?beta=true`` with ``stream: true``, ``max_tokens`` 32000 and its whole
tool set (about 25 tools), one per model step (a tool turn is two requests). The
environment block and hook context reach the model as ``<system-reminder>`` text inside
the ``messages`` (the first user message, or appended to a tool result); ``system`` holds
the preset prompt plus any append. With non-essential traffic allowed the CLI may also
send side requests (title / topic generation, quota probes): small ``max_tokens``, no
tools. Those are recognised by the missing tools and answered without touching the script.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from cherry_desktop.demo import anthropic_format as fmt
from cherry_desktop.demo.chat import demo_chat_reply, is_demo_chat
from cherry_desktop.demo.echo import attachment_echo
from cherry_desktop.demo.http import (
    ChunkedWriter,
    HttpProtocolError,
    RawRequest,
    read_request,
    write_json,
    write_response,
)
from cherry_desktop.demo.naming import naming_reply
from cherry_desktop.demo.replies import (
    AnyReply,
    HangReply,
    HttpErrorReply,
    Reply,
    ScriptEntry,
    StreamErrorReply,
    text,
)
from cherry_desktop.demo.request_log import REDACTED_HEADERS, ModelRequest, key_fingerprint

logger = logging.getLogger(__name__)

#: A persistent rule: when ``predicate(request)`` holds, ``reply`` answers without
#: consuming the script.
Rule = tuple[Callable[[ModelRequest], bool], ScriptEntry]


def side_request_reply(request: ModelRequest) -> AnyReply:
    """The answer to a side request (title / topic generation, quota probe)."""
    wanted = request.all_text().lower()
    if "title" in wanted or "json" in wanted:
        return text('{"title": "Demo session", "isNewTopic": true}')
    return text("ok")


class ScriptedModelServer:
    """A scripted Anthropic Messages API on an ephemeral 127.0.0.1 port.

    Args:
        script: replies (or functions of the request returning one), consumed in order
            by agent-loop requests.
        default: answer once the script is empty (a reply or a function of the request).
        rules: persistent ``(predicate, reply)`` pairs checked before the script.
        host: interface to bind; keep the loopback default.
        port: 0 picks a free port.
    """

    def __init__(
        self,
        script: Iterable[ScriptEntry] = (),
        *,
        default: ScriptEntry | None = None,
        rules: Iterable[Rule] = (),
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self._script: deque[ScriptEntry] = deque(script)
        self.default: ScriptEntry = default if default is not None else text("OK.")
        self.rules: list[Rule] = list(rules)
        self._host = host
        self._port = port
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.Task[None]] = set()
        self._stopping = asyncio.Event()
        self.requests: list[ModelRequest] = []
        self._request_event = asyncio.Event()
        self.base_url = ""

    # ---- lifecycle -------------------------------------------------------------------

    async def start(self) -> str:
        """Bind and serve; returns the base URL (``http://127.0.0.1:<port>``)."""
        self._stopping = asyncio.Event()
        self._server = await asyncio.start_server(self._on_connection, self._host, self._port)
        port = self._server.sockets[0].getsockname()[1]
        self.base_url = f"http://{self._host}:{port}"
        return self.base_url

    async def stop(self) -> None:
        """Stop listening and end every open connection (hanging replies included)."""
        self._stopping.set()
        if self._server is not None:
            self._server.close()
        tasks = list(self._connections)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
            self._server = None

    async def __aenter__(self) -> ScriptedModelServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ---- script ----------------------------------------------------------------------

    def enqueue(self, *replies: ScriptEntry) -> None:
        """Append replies to the script."""
        self._script.extend(replies)

    def add_rule(self, predicate: Callable[[ModelRequest], bool], reply: ScriptEntry) -> None:
        """Answer every request matching ``predicate`` with ``reply`` (script untouched)."""
        self.rules.append((predicate, reply))

    @property
    def pending_replies(self) -> int:
        return len(self._script)

    def choose_reply(self, request: ModelRequest) -> AnyReply:
        """The reply for one messages request (rules, then auto-naming's, then a chat's files
        echoed, side requests, then script)."""
        for predicate, entry in self.rules:
            if predicate(request):
                return _resolve(entry, request)
        named = naming_reply(request)
        if named is not None:
            return named
        if not request.is_model_turn:
            # A chat (no tools offered) that sent files hears back what arrived.
            echoed = attachment_echo(request)
            if echoed is not None:
                return echoed
            return demo_chat_reply(request) if is_demo_chat(request) else side_request_reply(request)
        entry = self._script.popleft() if self._script else self.default
        return _resolve(entry, request)

    # ---- request log -----------------------------------------------------------------

    def requests_for_model_turns(self) -> list[ModelRequest]:
        """Agent-loop ``/v1/messages`` requests, in arrival order."""
        return [r for r in self.requests if r.is_model_turn]

    def message_requests(self) -> list[ModelRequest]:
        """Every ``/v1/messages`` request, side requests included."""
        return [r for r in self.requests if r.is_messages]

    def last_model_request(self) -> ModelRequest:
        turns = self.requests_for_model_turns()
        if not turns:
            raise LookupError("the server got no agent-loop request")
        return turns[-1]

    def last_user_text(self) -> str:
        """Text of the last user message of the last agent-loop request."""
        return self.last_model_request().last_user_text()

    async def wait_for_requests(self, count: int, *, timeout: float = 10.0) -> list[ModelRequest]:
        """Wait until at least ``count`` agent-loop requests arrived."""

        async def _wait() -> list[ModelRequest]:
            while len(self.requests_for_model_turns()) < count:
                self._request_event.clear()
                await self._request_event.wait()
            return self.requests_for_model_turns()

        return await asyncio.wait_for(_wait(), timeout)

    # ---- HTTP ------------------------------------------------------------------------

    async def _on_connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        try:
            while not self._stopping.is_set():
                raw = await read_request(reader)
                if raw is None:
                    break
                keep_alive = await self._handle(raw, writer)
                if not keep_alive:
                    break
        except (HttpProtocolError, ConnectionError, asyncio.IncompleteReadError) as exc:
            logger.debug("demo server connection ended: %s", exc)
        except asyncio.CancelledError:
            pass
        finally:
            self._connections.discard(task)
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    def _log(self, raw: RawRequest) -> ModelRequest:
        body: Any = None
        if raw.body:
            try:
                body = json.loads(raw.body)
            except ValueError:
                body = None
        request = ModelRequest(
            method=raw.method,
            path=raw.path,
            query=raw.query,
            headers={k: v for k, v in raw.headers.items() if k not in REDACTED_HEADERS},
            body=body,
            key_sha256=key_fingerprint(raw.headers),
        )
        self.requests.append(request)
        self._request_event.set()
        return request

    async def _handle(self, raw: RawRequest, writer: asyncio.StreamWriter) -> bool:
        request = self._log(raw)
        keep = raw.keep_alive
        if raw.path == "/" and raw.method in ("GET", "HEAD"):
            await write_response(writer, 200, b"{}", keep_alive=keep, head_only=raw.method == "HEAD")
            return keep
        if raw.method == "POST" and raw.path == "/v1/messages/count_tokens":
            tokens = max(1, len(request.all_text()) // 4)
            await write_json(writer, 200, {"input_tokens": tokens}, keep_alive=keep)
            return keep
        if raw.method == "POST" and raw.path == "/v1/messages":
            if not isinstance(request.body, dict):
                await write_json(
                    writer, 400, fmt.error_body("invalid_request_error", "body is not JSON"), keep_alive=keep
                )
                return keep
            return await self._answer(request, writer, keep)
        await write_json(writer, 404, fmt.error_body("not_found_error", f"{raw.method} {raw.path}"), keep_alive=keep)
        return keep

    async def _answer(self, request: ModelRequest, writer: asyncio.StreamWriter, keep: bool) -> bool:
        reply = self.choose_reply(request)
        model = str(request.json.get("model") or "claude-demo")
        message_id = fmt.new_message_id()
        request_id = {"request-id": f"req_{message_id[4:]}"}
        if isinstance(reply, HttpErrorReply):
            await write_json(
                writer,
                reply.status,
                fmt.error_body(reply.error_type, reply.message),
                extra_headers={**request_id, "x-should-retry": "false"},
                keep_alive=keep,
            )
            return keep
        if isinstance(reply, HangReply) and not (request.stream and reply.text_before):
            await self._stopping.wait()
            return False
        if not request.stream:
            assert isinstance(reply, Reply | StreamErrorReply)
            if isinstance(reply, StreamErrorReply):
                await write_json(writer, 500, fmt.error_body(reply.error_type, reply.message), keep_alive=keep)
                return keep
            await write_json(writer, 200, fmt.reply_message(reply, model, message_id), keep_alive=keep)
            return keep
        out = ChunkedWriter(writer)
        await out.start(200, "text/event-stream", request_id)
        if isinstance(reply, Reply):
            for frame in fmt.reply_frames(reply, model, message_id):
                if frame == fmt.DELAY:
                    if reply.delay_s > 0:
                        await asyncio.sleep(reply.delay_s)
                    continue
                assert isinstance(frame, bytes)
                await out.write(frame)
            await out.end()
            return keep
        # Failure shapes that open the stream first.
        await out.write(fmt.message_start(message_id, model, 12))
        before = reply.text_before
        if before:
            for frame in fmt.text_block_frames(0, before, 16, close=False):
                if isinstance(frame, bytes):
                    await out.write(frame)
        if isinstance(reply, HangReply):
            await self._stopping.wait()
            return False
        assert isinstance(reply, StreamErrorReply)
        await out.write(fmt.sse("error", fmt.error_body(reply.error_type, reply.message)))
        await out.end()
        return keep


def _resolve(entry: ScriptEntry, request: ModelRequest) -> AnyReply:
    if isinstance(entry, Reply | HttpErrorReply | StreamErrorReply | HangReply):
        return entry
    return entry(request)
