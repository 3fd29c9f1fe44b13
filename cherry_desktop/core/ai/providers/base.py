"""What the chat providers share: the provider protocol, request plumbing and error words."""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing
from typing import Protocol

import httpx

from cherry_desktop.core.ai.providers.reply import ReplyChunks, provider_error
from cherry_desktop.core.ai.providers.sse import SseEvent, StreamAbortedError, iter_sse, race
from cherry_desktop.core.ai.stream.types import AiStreamRequest
from cherry_desktop.core.data import ProviderRecord
from cherry_desktop.core.messages import ErrorChunk, ErrorCode, UIMessageChunk, code_for_status
from cherry_desktop.core.messages.json_value import JsonObject


class ChatProvider(Protocol):
    record: ProviderRecord

    def stream(self, model: str, request: AiStreamRequest) -> AsyncIterator[UIMessageChunk]: ...


def error_message_from_body(body: bytes) -> str:
    """The human part of an error body (OpenAI / Anthropic JSON shapes, else the text)."""
    text = body.decode("utf-8", errors="replace").strip()
    try:
        data = json.loads(text)
    except ValueError:
        return text[:300]
    if isinstance(data, dict):
        err = data.get("error", data)
        if isinstance(err, dict):
            msg = err.get("message") or err.get("type")
            if msg:
                return str(msg)
        elif isinstance(err, str):
            return err
    return text[:300]


class HttpStreamingProvider:
    """Opens a streaming POST and yields its SSE events; failures become `ErrorChunk`s."""

    label = "provider"

    def __init__(self, record: ProviderRecord, api_key: str | None, client: httpx.AsyncClient) -> None:
        self.record = record
        self.api_key = api_key
        self.client = client

    def stream(self, model: str, request: AiStreamRequest) -> AsyncIterator[UIMessageChunk]:
        """The reply as UI message chunks; errors come as an `error` chunk, never raised."""
        raise NotImplementedError

    @property
    def display_name(self) -> str:
        """The provider's name in error texts (its id when it has no name)."""
        return self.record.name or self.record.id

    def reply(self, request: AiStreamRequest) -> ReplyChunks:
        """Chunk bookkeeping for one reply to `request`."""
        return ReplyChunks(self.display_name, request.model_id)

    def url(self) -> str:
        """Where a chat request goes."""
        raise NotImplementedError

    def models_url(self) -> str:
        """The provider's model list endpoint (GET)."""
        raise NotImplementedError

    def auth_headers(self) -> dict[str, str]:
        """The headers that carry the key (and the API version) on every request."""
        raise NotImplementedError

    def ping_body(self, model: str) -> JsonObject:
        """The cheapest chat request to `model`: one word in, one token out, not streamed."""
        return {"model": model, "max_tokens": 1, "stream": False, "messages": [{"role": "user", "content": "ping"}]}

    def extra_headers(self) -> dict[str, str]:
        headers = self.record.settings.get("headers")
        return {str(k): str(v) for k, v in headers.items()} if isinstance(headers, dict) else {}

    async def open_events(self, url: str, headers: dict[str, str], body: JsonObject,
                          request: AiStreamRequest) -> AsyncGenerator[SseEvent | ErrorChunk, None]:
        name = self.display_name
        signal = request.signal
        req = self.client.build_request("POST", url, headers={**headers, **self.extra_headers()}, json=body)
        try:
            response = await race(self.client.send(req, stream=True), signal)
        except StreamAbortedError:
            return
        except httpx.TimeoutException:
            yield provider_error(name, f"the request to {url} timed out", ErrorCode.TIMEOUT)
            return
        except httpx.HTTPError as exc:
            yield provider_error(name, f"could not reach {url} ({exc or type(exc).__name__})", ErrorCode.NETWORK_ERROR)
            return
        try:
            if response.status_code >= 400:
                body_bytes = await race(response.aread(), signal)
                reason = response.reason_phrase or ""
                detail = error_message_from_body(body_bytes)
                yield provider_error(name, f"HTTP {response.status_code} {reason}".rstrip()
                                     + (f": {detail}" if detail else ""),
                                     code_for_status(response.status_code) or ErrorCode.PROVIDER_ERROR)
                return
            async with aclosing(iter_sse(response, signal)) as events:
                async for event in events:
                    yield event
        except StreamAbortedError:
            return
        except httpx.TimeoutException:
            yield provider_error(name, "the stream stopped responding (read timeout)", ErrorCode.TIMEOUT)
        except httpx.HTTPError as exc:
            yield provider_error(name, f"the connection failed mid-stream ({exc or type(exc).__name__})",
                                 ErrorCode.NETWORK_ERROR)
        finally:
            await response.aclose()
