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
import json
import logging
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any

from cherry_desktop.core.net import LoopbackHttpServer
from cherry_desktop.demo import anthropic_format as fmt
from cherry_desktop.demo import openai_format as oai
from cherry_desktop.demo.chat import demo_chat_reply, is_demo_chat
from cherry_desktop.demo.echo import attachment_echo
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
        script_all: every completion request takes the script, tools or not (a client that is
            not the CLI sends no side requests: the gateway's tests).
    """

    def __init__(
        self,
        script: Iterable[ScriptEntry] = (),
        *,
        default: ScriptEntry | None = None,
        rules: Iterable[Rule] = (),
        host: str = "127.0.0.1",
        port: int = 0,
        script_all: bool = False,
    ) -> None:
        self._script: deque[ScriptEntry] = deque(script)
        self.default: ScriptEntry = default if default is not None else text("OK.")
        self.rules: list[Rule] = list(rules)
        if host != "127.0.0.1":
            raise ValueError("the scripted server listens on 127.0.0.1 only")
        self._port = port
        self.script_all = script_all
        self._http: LoopbackHttpServer | None = None
        self.requests: list[ModelRequest] = []
        self._request_event = asyncio.Event()
        self.base_url = ""

    # ---- lifecycle -------------------------------------------------------------------

    async def start(self) -> str:
        """Bind and serve; returns the base URL (``http://127.0.0.1:<port>``)."""
        # Stopping ends every open request at once (hanging replies included), as a dropped
        # connection: grace 0.
        self._http = LoopbackHttpServer(self._asgi_app(), port=self._port, grace_s=0.0)
        self.base_url = await self._http.start()
        return self.base_url

    async def stop(self) -> None:
        """Stop listening and end every open request (hanging replies included)."""
        if self._http is not None:
            await self._http.stop()
            self._http = None

    @property
    def open_connections(self) -> int:
        """Client connections open now (a caller that went away is gone at once)."""
        return self._http.open_connections if self._http is not None else 0

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
        if self.script_all:
            entry = self._script.popleft() if self._script else self.default
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

    def _asgi_app(self) -> Any:
        from starlette.applications import Starlette
        from starlette.routing import Route

        methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
        return Starlette(routes=[Route("/{path:path}", self._endpoint, methods=methods)])

    async def _endpoint(self, http: Any) -> Any:
        from starlette.responses import JSONResponse, Response

        body = await http.body()
        request = self._log(http, body)
        if request.path == "/" and request.method in ("GET", "HEAD"):
            return Response(b"{}", media_type="application/json")
        if request.method == "POST" and request.path == "/v1/messages/count_tokens":
            return JSONResponse({"input_tokens": max(1, len(request.all_text()) // 4)})
        if request.is_messages or request.is_chat_completions:
            if not isinstance(request.body, dict):
                return self._error(request, 400, "invalid_request_error", "body is not JSON")
            return await self._answer(request)
        if request.method == "GET" and request.path == "/v1/models":
            return JSONResponse({"object": "list", "data": [
                {"id": model, "object": "model", "owned_by": "cherry-demo"}
                for model in ("claude-demo", "claude-demo-fast")]})
        return self._error(request, 404, "not_found_error", f"{request.method} {request.path}")

    def _log(self, http: Any, raw_body: bytes) -> ModelRequest:
        body: Any = None
        if raw_body:
            try:
                body = json.loads(raw_body)
            except ValueError:
                body = None
        headers = {k.lower(): v for k, v in http.headers.items()}
        request = ModelRequest(
            method=http.method,
            path=http.url.path,
            query=http.url.query,
            headers={k: v for k, v in headers.items() if k not in REDACTED_HEADERS},
            body=body,
            key_sha256=key_fingerprint(headers),
        )
        self.requests.append(request)
        self._request_event.set()
        return request

    @staticmethod
    def _error(request: ModelRequest, status: int, error_type: str, message: str,
               headers: dict[str, str] | None = None) -> Any:
        from starlette.responses import JSONResponse

        body = oai.error_body(error_type, message) if request.is_chat_completions else fmt.error_body(
            error_type, message)
        return JSONResponse(body, status_code=status, headers=headers)

    async def _answer(self, request: ModelRequest) -> Any:
        from starlette.responses import JSONResponse, StreamingResponse

        reply = self.choose_reply(request)
        model = str(request.json.get("model") or "claude-demo")
        openai = request.is_chat_completions
        message_id = oai.new_completion_id() if openai else fmt.new_message_id()
        request_id = {"request-id": f"req_{message_id[-24:]}"}
        if isinstance(reply, HttpErrorReply):
            return self._error(request, reply.status, reply.error_type, reply.message,
                               {**request_id, "x-should-retry": "false"})
        if isinstance(reply, HangReply) and not (request.stream and reply.text_before):
            await _forever()
        if not request.stream:
            assert isinstance(reply, Reply | StreamErrorReply)
            if isinstance(reply, StreamErrorReply):
                return self._error(request, 500, reply.error_type, reply.message)
            whole = (oai.reply_completion(reply, model, message_id) if openai
                     else fmt.reply_message(reply, model, message_id))
            return JSONResponse(whole)
        frames = self._openai_frames if openai else self._anthropic_frames
        return StreamingResponse(frames(request, reply, model, message_id),
                                 headers={**request_id, "content-type": "text/event-stream",
                                          "cache-control": "no-cache"})

    @staticmethod
    async def _anthropic_frames(request: ModelRequest, reply: AnyReply, model: str,
                                message_id: str) -> AsyncIterator[bytes]:
        if isinstance(reply, Reply):
            async for frame in _paced(fmt.reply_frames(reply, model, message_id), reply.delay_s):
                yield frame
            return
        # Failure shapes that open the stream first.
        assert isinstance(reply, HangReply | StreamErrorReply)
        yield fmt.message_start(message_id, model, 12)
        if reply.text_before:
            for piece in fmt.text_block_frames(0, reply.text_before, 16, close=False):
                if isinstance(piece, bytes):
                    yield piece
        if isinstance(reply, HangReply):
            await _forever()
            return
        yield fmt.sse("error", fmt.error_body(reply.error_type, reply.message))

    @staticmethod
    async def _openai_frames(request: ModelRequest, reply: AnyReply, model: str,
                             completion_id: str) -> AsyncIterator[bytes]:
        if isinstance(reply, Reply):
            include_usage = bool((request.json.get("stream_options") or {}).get("include_usage"))
            frames = oai.reply_chunks(reply, model, completion_id, include_usage=include_usage)
            async for frame in _paced(frames, reply.delay_s):
                yield frame
            return
        assert isinstance(reply, HangReply | StreamErrorReply)
        for frame in oai.text_chunks(completion_id, model, reply.text_before, 16):
            yield frame
        if isinstance(reply, HangReply):
            await _forever()
            return
        yield oai.data(oai.error_body(reply.error_type, reply.message))


async def _paced(frames: Iterable[bytes | str], delay_s: float) -> AsyncIterator[bytes]:
    for frame in frames:
        if frame == fmt.DELAY:
            if delay_s > 0:
                await asyncio.sleep(delay_s)
            continue
        assert isinstance(frame, bytes)
        yield frame


async def _forever() -> None:
    """A hanging reply: until the server stops (which cancels the request)."""
    await asyncio.Event().wait()


def _resolve(entry: ScriptEntry, request: ModelRequest) -> AnyReply:
    if isinstance(entry, Reply | HttpErrorReply | StreamErrorReply | HangReply):
        return entry
    return entry(request)
