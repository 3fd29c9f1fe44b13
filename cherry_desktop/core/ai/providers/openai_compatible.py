"""OpenAI-compatible chat completions, streamed (OpenAI, Ollama, LM Studio, vLLM, OpenRouter).

`delta.content` becomes text, `delta.reasoning_content` / `delta.reasoning` becomes
reasoning; `usage` (requested with `stream_options.include_usage`) lands in the finish chunk's
message metadata as `prompt_tokens` / `completion_tokens` / `total_tokens` / `thoughts_tokens`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import aclosing

from cherry_desktop.core.ai.providers.base import HttpStreamingProvider
from cherry_desktop.core.ai.stream.types import AiStreamRequest
from cherry_desktop.core.attachments.content import ImageContent, api_content
from cherry_desktop.core.messages import ErrorChunk, ErrorCode, UIMessageChunk, code_for_status, error_code_for
from cherry_desktop.core.messages.json_value import JsonObject, JsonValue, json_object

DEFAULT_BASE_URL = "https://api.openai.com/v1"
_PASS_THROUGH = ("temperature", "top_p", "max_tokens", "presence_penalty", "frequency_penalty", "seed", "stop")


def _image_url(image: ImageContent) -> JsonObject:
    return {"type": "image_url", "image_url": {"url": f"data:{image.media_type};base64,{image.data_base64}"}}


def openai_messages(request: AiStreamRequest) -> list[JsonValue]:
    out: list[JsonValue] = []
    if request.system:
        out.append({"role": "system", "content": request.system})
    for m in request.messages:
        content = api_content(m, _image_url)
        if content:
            out.append({"role": m.role, "content": content})
    return out


def usage_metadata(usage: JsonObject) -> JsonObject:
    meta: JsonObject = {}
    for key in ("prompt_tokens", "completion_tokens", "total_tokens"):
        value = usage.get(key)
        if isinstance(value, int):
            meta[key] = value
    reasoning = json_object(usage.get("completion_tokens_details")).get("reasoning_tokens")
    if isinstance(reasoning, int):
        meta["thoughts_tokens"] = reasoning
    return meta


# OpenAI's (and compatible servers') `error.code` / `error.type` words for what failed.
_OPENAI_ERRORS = {
    "invalid_api_key": ErrorCode.AUTH_FAILED,
    "authentication_error": ErrorCode.AUTH_FAILED,
    "rate_limit_exceeded": ErrorCode.RATE_LIMITED,
    "insufficient_quota": ErrorCode.RATE_LIMITED,
    "server_error": ErrorCode.PROVIDER_UNAVAILABLE,
    "model_not_found": ErrorCode.REQUEST_REJECTED,
    "context_length_exceeded": ErrorCode.REQUEST_REJECTED,
}


def openai_error_code(err: object) -> ErrorCode:
    """The code of an in-stream `error` object: its `code` (a word, or an HTTP status as some
    compatible servers send), else its `type`."""
    if not isinstance(err, dict):
        return ErrorCode.PROVIDER_ERROR
    raw = err.get("code")
    if isinstance(raw, int) or (isinstance(raw, str) and raw.isdigit()):
        return code_for_status(int(raw)) or ErrorCode.PROVIDER_ERROR
    for key in (raw, err.get("type")):
        if isinstance(key, str) and key in _OPENAI_ERRORS:
            return _OPENAI_ERRORS[key]
    return error_code_for(str(err.get("type") or ""), default=ErrorCode.PROVIDER_ERROR)


class OpenAICompatibleProvider(HttpStreamingProvider):
    label = "openai-compatible"

    def url(self) -> str:
        return (self.record.base_url or DEFAULT_BASE_URL).rstrip("/") + "/chat/completions"

    def models_url(self) -> str:
        return (self.record.base_url or DEFAULT_BASE_URL).rstrip("/") + "/models"

    def auth_headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    def ping_body(self, model: str) -> JsonObject:
        body = super().ping_body(model)
        if self.record.type == "openai":  # OpenAI's reasoning models refuse `max_tokens`
            body["max_completion_tokens"] = body.pop("max_tokens")
        return body

    async def stream(self, model: str, request: AiStreamRequest) -> AsyncIterator[UIMessageChunk]:
        body: JsonObject = {"model": model, "messages": openai_messages(request), "stream": True,
                            "stream_options": {"include_usage": True}}
        body.update({k: v for k, v in request.parameters.items() if k in _PASS_THROUGH})
        headers = {"Accept": "text/event-stream", **self.auth_headers()}
        reply = self.reply(request)
        for chunk in reply.opening():
            yield chunk
        finished = False
        finish_reason: str | None = None
        # Closed here, not left to the garbage collector: a `break` at the message's end
        # releases the HTTP response now (an unclosed generator's finalizer runs later as a
        # task of its own, which a closing event loop may never finish).
        async with aclosing(self.open_events(self.url(), headers, body, request)) as events:
            async for ev in events:
                if isinstance(ev, ErrorChunk):
                    yield ev
                    return
                if ev.data.strip() == "[DONE]":
                    finished = True
                    break
                obj = reply.decode(ev)
                if isinstance(obj, ErrorChunk):
                    yield obj
                    return
                err = obj.get("error")
                if err:
                    yield reply.error(str(err.get("message", err) if isinstance(err, dict) else err),
                                      openai_error_code(err))
                    return
                usage = obj.get("usage")
                if isinstance(usage, dict):
                    reply.meta.update(usage_metadata(usage))
                choices = obj.get("choices")
                for choice in (json_object(c) for c in (choices if isinstance(choices, list) else [])):
                    delta = json_object(choice.get("delta"))
                    reasoning = delta.get("reasoning_content") or delta.get("reasoning")
                    if isinstance(reasoning, str) and reasoning:
                        for chunk in reply.append("reasoning", "reasoning-0", reasoning):
                            yield chunk
                    content = delta.get("content")
                    if isinstance(content, str) and content:
                        # Text after reasoning: the reasoning block is over.
                        end = reply.end("reasoning-0")
                        if end is not None:
                            yield end
                        for chunk in reply.append("text", "text-0", content):
                            yield chunk
                    if choice.get("finish_reason"):
                        finish_reason = str(choice.get("finish_reason"))
        for chunk in reply.ending(request.signal, complete=finished or finish_reason is not None,
                                  finish_reason=finish_reason or "stop", close_blocks=True):
            yield chunk
