"""The model routes: Anthropic ``POST /v1/messages`` (+ ``count_tokens``), OpenAI
``POST /v1/chat/completions`` and ``GET /v1/models``, onto any provider of Cherry's.

A request's ``model`` is ``provider_id:model_id``. Same dialect in and out: the upstream's
events pass through (parsed only where usage or the end is read); else `to_openai` /
`to_anthropic` translate. Usage is recorded once, here, from the provider call, for requests
of Cherry's own agents (`INTERNAL_SESSION_HEADER`): the connection is gateway-owned, and
the agent's SDK usage messages are not recorded for it.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass
from typing import Protocol

import httpx
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from cherry_desktop.core.data import Repositories
from cherry_desktop.core.gateway import responses as http
from cherry_desktop.core.gateway.continuation import normalize_internal_continuation
from cherry_desktop.core.gateway.to_anthropic import AnthropicStreamWriter, anthropic_message, anthropic_request
from cherry_desktop.core.gateway.to_openai import (
    OpenAIStreamWriter,
    UpstreamStreamError,
    openai_completion,
    openai_request,
)
from cherry_desktop.core.gateway.upstream import (
    Dialect,
    GatewayModelError,
    UpstreamHttpError,
    UpstreamTarget,
    event_json,
    forwarded_headers,
    open_stream,
    post_json,
    resolve_target,
)
from cherry_desktop.core.gateway.usage import Usage
from cherry_desktop.core.gateway.wire import WireObject
from cherry_desktop.core.storage.credentials import CredentialStore, provider_key_name

log = logging.getLogger(__name__)

#: Set by Cherry on its own agents' CLI requests (``ANTHROPIC_CUSTOM_HEADERS``): the session.
INTERNAL_SESSION_HEADER = "x-cherry-session"
_ENDED_EARLY = "the upstream stream ended before the reply was complete"


class UsageBinding(Protocol):
    """Which assistant row a gateway-owned session's request belongs to (the agent host)."""

    def gateway_message_id(self, session_id: str) -> str | None: ...


@dataclass
class _Call:
    """One gateway request's bookkeeping: its usage and timings, recorded once at its end."""

    target: UpstreamTarget
    session_id: str | None
    message_id: str | None
    started: float
    first_token: float | None = None

    def saw_content(self) -> None:
        if self.first_token is None:
            self.first_token = time.monotonic()


class ModelGateway:
    def __init__(self, repos: Repositories, credentials: CredentialStore,
                 client: Callable[[], httpx.AsyncClient], binding: UsageBinding | None = None) -> None:
        self.repos = repos
        self.credentials = credentials
        self._client = client
        self.binding = binding

    # -- shared -------------------------------------------------------------------------------

    async def _body(self, request: Request, dialect: Dialect) -> WireObject | Response:
        try:
            body = await request.json()
        except ValueError:
            return http.error_response(dialect, 400, "the request body is not JSON")
        if not isinstance(body, dict):
            return http.error_response(dialect, 400, "the request body is not a JSON object")
        return body

    async def _prepare(self, request: Request, dialect: Dialect) -> tuple[WireObject, _Call] | Response:
        """The request's body and its call, or the error answer to give instead."""
        body = await self._body(request, dialect)
        if isinstance(body, Response):
            return body
        try:
            return body, self._call(request, body)
        except GatewayModelError as exc:
            return http.error_response(dialect, exc.status, str(exc))

    async def _whole(self, call: _Call, caller: Dialect, body: WireObject, headers: dict[str, str],
                     convert: Callable[[WireObject], WireObject]) -> Response:
        """A non-streamed call: the upstream's reply `convert`ed, its usage recorded."""
        try:
            reply = await post_json(self._client(), call.target, body, headers)
        except UpstreamHttpError as error:
            return http.upstream_error_response(caller, error)
        usage = Usage()
        if call.target.dialect == "anthropic":
            usage.update_from_anthropic(reply.get("usage"))
        else:
            usage.update_from_openai(reply.get("usage"))
        self._record(call, usage)
        return JSONResponse(convert(reply))

    def _call(self, request: Request, body: WireObject) -> _Call:
        target = resolve_target(self.repos, self.credentials, self._client(), body.get("model"))
        session_id = request.headers.get(INTERNAL_SESSION_HEADER) or None
        message_id = None
        if session_id and self.binding is not None:
            message_id = self.binding.gateway_message_id(session_id)
        return _Call(target, session_id, message_id, time.monotonic())

    def _record(self, call: _Call, usage: Usage) -> None:
        if call.session_id is None or not usage.seen:
            return
        now = time.monotonic()
        try:
            self.repos.usage.add(
                session_id=call.session_id, message_id=call.message_id, model_id=call.target.unique_model_id,
                input_tokens=usage.input_tokens, output_tokens=usage.output_tokens,
                cache_read_tokens=usage.cache_read_tokens, cache_write_tokens=usage.cache_write_tokens,
                reasoning_tokens=usage.reasoning_tokens,
                time_first_token_ms=round((call.first_token - call.started) * 1000) if call.first_token else None,
                time_completion_ms=round((now - call.started) * 1000))
        except Exception:
            log.exception("gateway usage record of session %s failed", call.session_id)

    # -- Anthropic caller ----------------------------------------------------------------------

    async def messages(self, request: Request) -> Response:
        prepared = await self._prepare(request, "anthropic")
        if isinstance(prepared, Response):
            return prepared
        body, call = prepared
        target = call.target
        internal = call.session_id is not None
        if target.dialect == "anthropic":
            upstream = {**body, "model": target.model}
            if internal:
                upstream = normalize_internal_continuation(upstream, "anthropic")
        else:
            upstream = openai_request(body, target.model)
            if internal:
                upstream = normalize_internal_continuation(upstream, "openai")
        headers = forwarded_headers(target, "anthropic", dict(request.headers))
        caller_model = str(body.get("model"))
        if not body.get("stream"):
            return await self._whole(call, "anthropic", upstream, headers,
                                     (lambda reply: {**reply, "model": caller_model}) if target.dialect == "anthropic"
                                     else (lambda reply: anthropic_message(reply, caller_model, _message_id())))
        frames = (self._anthropic_passthrough(call, upstream, headers) if target.dialect == "anthropic"
                  else self._anthropic_from_openai(call, upstream, caller_model))
        return await http.stream_after_first(request, frames, "anthropic")

    async def _anthropic_passthrough(self, call: _Call, body: WireObject,
                                     headers: dict[str, str]) -> AsyncGenerator[bytes, None]:
        usage = Usage()
        ended = False
        try:
            async for event in open_stream(self._client(), call.target, body, headers):
                name = event.event
                if name in ("message_start", "message_delta"):
                    data = event_json(event) or {}
                    usage.update_from_anthropic((data.get("message") or {}).get("usage") if name == "message_start"
                                                else data.get("usage"))
                elif name == "content_block_delta":
                    call.saw_content()
                ended = ended or name in ("message_stop", "error")
                yield http.anthropic_frame(name, event.data)
            if not ended:
                yield http.stream_error_frame("anthropic", "api_error", _ENDED_EARLY)
        except httpx.HTTPError as exc:
            yield http.stream_error_frame("anthropic", "api_error", f"the upstream connection failed ({exc})")
        finally:
            self._record(call, usage)

    async def _anthropic_from_openai(self, call: _Call, body: WireObject,
                                     caller_model: str) -> AsyncGenerator[bytes, None]:
        writer = AnthropicStreamWriter(caller_model, _message_id())
        done = False
        try:
            async for event in open_stream(self._client(), call.target, body):
                if event.data.strip() == "[DONE]":
                    done = True
                    break
                chunk = event_json(event)
                if chunk is None:
                    continue
                for name, data in writer.feed(chunk):
                    if name == "content_block_delta":
                        call.saw_content()
                    yield http.anthropic_frame(name, data)
            for name, data in writer.finish(done=done):
                yield http.anthropic_frame(name, data)
        except UpstreamStreamError as exc:
            yield http.stream_error_frame("anthropic", exc.error_type, exc.message)
        except httpx.HTTPError as exc:
            yield http.stream_error_frame("anthropic", "api_error", f"the upstream connection failed ({exc})")
        finally:
            self._record(call, writer.usage)

    async def count_tokens(self, request: Request) -> Response:
        """Anthropic upstreams count; for the others an estimate (4 characters a token)."""
        prepared = await self._prepare(request, "anthropic")
        if isinstance(prepared, Response):
            return prepared
        body, call = prepared
        target = call.target
        if target.dialect == "anthropic":
            counting = UpstreamTarget(target.provider, target.model, target.dialect,
                                      target.url.removesuffix("/messages") + "/messages/count_tokens", target.headers)
            try:
                return JSONResponse(await post_json(self._client(), counting, {**body, "model": target.model},
                                                    forwarded_headers(target, "anthropic", dict(request.headers))))
            except UpstreamHttpError as error:
                log.debug("count_tokens upstream failed (%s): estimated", error)
        text = str(body.get("system") or "") + str(body.get("messages") or "") + str(body.get("tools") or "")
        return JSONResponse({"input_tokens": max(1, len(text) // 4)})

    # -- OpenAI caller -------------------------------------------------------------------------

    async def chat_completions(self, request: Request) -> Response:
        prepared = await self._prepare(request, "openai")
        if isinstance(prepared, Response):
            return prepared
        body, call = prepared
        target = call.target
        caller_model = str(body.get("model"))
        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
        if target.dialect == "openai":
            upstream = {**body, "model": target.model}
            if body.get("stream"):
                upstream["stream_options"] = {**(body.get("stream_options") or {}), "include_usage": True}
        else:
            upstream = anthropic_request(body, target.model)
        if not body.get("stream"):
            return await self._whole(call, "openai", upstream, {},
                                     (lambda reply: {**reply, "model": caller_model}) if target.dialect == "openai"
                                     else (lambda reply: openai_completion(reply, caller_model)))
        frames = (self._openai_passthrough(call, upstream, include_usage) if target.dialect == "openai"
                  else self._openai_from_anthropic(call, upstream, caller_model, include_usage))
        return await http.stream_after_first(request, frames, "openai")

    async def _openai_passthrough(self, call: _Call, body: WireObject,
                                  include_usage: bool) -> AsyncGenerator[bytes, None]:
        usage = Usage()
        finished = False
        try:
            async for event in open_stream(self._client(), call.target, body):
                if event.data.strip() == "[DONE]":
                    finished = True
                    break
                chunk = event_json(event)
                if chunk is not None and chunk.get("error"):
                    yield http.data_frame(event.data)  # the upstream's own error frame, as it is
                    return
                if chunk is not None and any(c.get("finish_reason") for c in chunk.get("choices") or []):
                    finished = True
                if chunk is not None and isinstance(chunk.get("usage"), dict):
                    usage.update_from_openai(chunk["usage"])
                    if not chunk.get("choices") and not include_usage:
                        continue  # asked for by the gateway, not by the caller
                elif chunk is not None and chunk.get("choices"):
                    call.saw_content()
                yield http.data_frame(event.data)
            yield http.DONE_FRAME if finished else http.stream_error_frame("openai", "api_error", _ENDED_EARLY)
        except httpx.HTTPError as exc:
            yield http.stream_error_frame("openai", "api_error", f"the upstream connection failed ({exc})")
        finally:
            self._record(call, usage)

    async def _openai_from_anthropic(self, call: _Call, body: WireObject, caller_model: str,
                                     include_usage: bool) -> AsyncGenerator[bytes, None]:
        writer = OpenAIStreamWriter(caller_model, f"chatcmpl-{uuid.uuid4().hex[:24]}", include_usage=include_usage)
        try:
            async for event in open_stream(self._client(), call.target, body):
                data = event_json(event)
                if data is None:
                    continue
                if data.get("type") == "content_block_delta":
                    call.saw_content()
                for chunk in writer.feed(data):
                    yield http.data_frame(chunk)
            writer.finish()
            yield http.DONE_FRAME
        except UpstreamStreamError as exc:
            yield http.stream_error_frame("openai", exc.error_type, exc.message)
        except httpx.HTTPError as exc:
            yield http.stream_error_frame("openai", "api_error", f"the upstream connection failed ({exc})")
        finally:
            self._record(call, writer.usage)

    # -- both -----------------------------------------------------------------------------------

    async def models(self, request: Request) -> Response:
        """Every model of every enabled provider that can answer (it needs no key, or its key is
        stored), as ``provider_id:model_id`` (fields of both dialects' model lists)."""
        from cherry_desktop.core.data.seed import provider_needs_key

        enabled = {p.id for p in self.repos.providers.list_providers() if p.enabled and (
            not provider_needs_key(p) or self.credentials.try_get(provider_key_name(p.id)))}
        data = [{"id": f"{m.provider_id}:{m.model_id}", "object": "model", "type": "model", "created": 0,
                 "created_at": "1970-01-01T00:00:00Z", "owned_by": m.provider_id,
                 "display_name": m.name or m.model_id}
                for m in self.repos.providers.list_models() if m.provider_id in enabled]
        return JSONResponse({"object": "list", "data": data, "has_more": False,
                             "first_id": data[0]["id"] if data else None,
                             "last_id": data[-1]["id"] if data else None})


def _message_id() -> str:
    return f"msg_{uuid.uuid4().hex[:24]}"


__all__ = ["INTERNAL_SESSION_HEADER", "ModelGateway", "UsageBinding"]
