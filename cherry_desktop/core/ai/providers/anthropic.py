"""Anthropic Messages API, streamed: text and thinking blocks, usage into message metadata."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import aclosing

from cherry_desktop.core.ai.providers.base import HttpStreamingProvider
from cherry_desktop.core.ai.providers.reply import BlockKind
from cherry_desktop.core.ai.stream.types import AiStreamRequest
from cherry_desktop.core.attachments.content import anthropic_image_block, api_content
from cherry_desktop.core.messages import ErrorChunk, ErrorCode, UIMessageChunk, error_code_for, message_text
from cherry_desktop.core.messages.json_value import JsonObject, JsonValue, json_int, json_object

DEFAULT_BASE_URL = "https://api.anthropic.com"
API_VERSION = "2023-06-01"
DEFAULT_MAX_TOKENS = 4096
# Content-block type -> our block kind; delta type -> (block kind, the delta's text field).
_BLOCK_KINDS: dict[str, BlockKind] = {"text": "text", "thinking": "reasoning"}
_DELTA_KINDS: dict[str, tuple[BlockKind, str]] = {"text_delta": ("text", "text"),
                                                  "thinking_delta": ("reasoning", "thinking")}


def _as_blocks(content: JsonValue) -> list[JsonValue]:
    return content if isinstance(content, list) else [{"type": "text", "text": str(content)}]


def anthropic_messages(request: AiStreamRequest) -> list[JsonValue]:
    """User/assistant turns; same-role neighbours merged, user first."""
    out: list[JsonObject] = []
    for m in request.messages:
        if m.role == "system":
            continue
        content = api_content(m, anthropic_image_block)
        if not content:
            continue
        if out and out[-1]["role"] == m.role:
            previous = out[-1]["content"]
            if isinstance(previous, str) and isinstance(content, str):
                out[-1]["content"] = previous + "\n\n" + content
            else:
                out[-1]["content"] = _as_blocks(previous) + _as_blocks(content)
        else:
            out.append({"role": m.role, "content": content})
    while out and out[0]["role"] != "user":
        out.pop(0)
    return list(out)


class AnthropicProvider(HttpStreamingProvider):
    label = "anthropic"

    def url(self) -> str:
        base = (self.record.base_url or DEFAULT_BASE_URL).rstrip("/")
        return base + ("/messages" if base.endswith("/v1") else "/v1/messages")

    def models_url(self) -> str:
        base = (self.record.base_url or DEFAULT_BASE_URL).rstrip("/")
        return base + ("/models" if base.endswith("/v1") else "/v1/models") + "?limit=1000"

    def auth_headers(self) -> dict[str, str]:
        return {"anthropic-version": API_VERSION, **({"x-api-key": self.api_key} if self.api_key else {})}

    def body(self, model: str, request: AiStreamRequest) -> JsonObject:
        params = request.parameters
        body: JsonObject = {"model": model, "messages": anthropic_messages(request), "stream": True,
                            "max_tokens": int(params.get("max_tokens", DEFAULT_MAX_TOKENS))}
        system = "\n\n".join(s for s in [request.system or "", *(message_text(m) for m in request.messages
                                                                   if m.role == "system")] if s)
        if system:
            body["system"] = system
        for key in ("temperature", "top_p", "top_k", "stop_sequences"):
            if key in params:
                body[key] = params[key]
        if params.get("thinking_budget"):
            body["thinking"] = {"type": "enabled", "budget_tokens": int(params["thinking_budget"])}
        return body

    async def stream(self, model: str, request: AiStreamRequest) -> AsyncIterator[UIMessageChunk]:
        headers = {"Accept": "text/event-stream", **self.auth_headers()}
        reply = self.reply(request)
        for chunk in reply.opening():
            yield chunk
        meta = reply.meta
        stop_reason: str | None = None
        stopped = False
        # Closed here, not left to the garbage collector: a `break` at the message's end
        # releases the HTTP response now (an unclosed generator's finalizer runs later as a
        # task of its own, which a closing event loop may never finish).
        async with aclosing(self.open_events(self.url(), headers, self.body(model, request), request)) as events:
            async for ev in events:
                if isinstance(ev, ErrorChunk):
                    yield ev
                    return
                obj = reply.decode(ev)
                if isinstance(obj, ErrorChunk):
                    yield obj
                    return
                kind = obj.get("type") or ev.event
                if kind == "error":
                    err = json_object(obj.get("error"))
                    err_type = str(err.get("type", "error"))
                    yield reply.error(f"{err_type}: {err.get('message', '')}".rstrip(),
                                      error_code_for(err_type, default=ErrorCode.PROVIDER_ERROR))
                    return
                if kind == "message_start":
                    usage = json_object(json_object(obj.get("message")).get("usage"))
                    if isinstance(usage.get("input_tokens"), int):
                        meta["prompt_tokens"] = json_int(usage.get("input_tokens")) \
                            + json_int(usage.get("cache_read_input_tokens")) \
                            + json_int(usage.get("cache_creation_input_tokens"))
                elif kind == "content_block_start":
                    index = json_int(obj.get("index", 0))
                    block_kind = _BLOCK_KINDS.get(str(json_object(obj.get("content_block")).get("type")))
                    if block_kind is not None:
                        yield reply.start(block_kind, f"{block_kind}-{index}", key=index)
                elif kind == "content_block_delta":
                    index = json_int(obj.get("index", 0))
                    delta = json_object(obj.get("delta"))
                    kind_and_field = _DELTA_KINDS.get(str(delta.get("type")))
                    if kind_and_field is not None:
                        block_kind, text_field = kind_and_field
                        piece = reply.delta(index, block_kind, str(delta.get(text_field, "")))
                        if piece is not None:
                            yield piece
                elif kind == "content_block_stop":
                    end = reply.end(json_int(obj.get("index", 0)))
                    if end is not None:
                        yield end
                elif kind == "message_delta":
                    stop = json_object(obj.get("delta")).get("stop_reason")
                    stop_reason = stop if isinstance(stop, str) and stop else stop_reason
                    usage = json_object(obj.get("usage"))
                    if isinstance(usage.get("output_tokens"), int):
                        meta["completion_tokens"] = usage["output_tokens"]
                elif kind == "message_stop":
                    stopped = True
                    break
        if "prompt_tokens" in meta or "completion_tokens" in meta:
            meta["total_tokens"] = json_int(meta.get("prompt_tokens")) + json_int(meta.get("completion_tokens"))
        # A block the server never stopped is over once the message is: ended, not left streaming.
        for chunk in reply.ending(request.signal, complete=stopped, finish_reason=stop_reason or "end_turn",
                                  close_blocks=True):
            yield chunk
