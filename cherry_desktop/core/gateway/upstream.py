"""The gateway's provider call: a ``provider_id:model_id`` resolved to an endpoint, its dialect
and the keyring's key, then one POST to it.

The provider's own settings apply as in a chat (its base URL, extra headers; the demo provider
takes no keyring key). A failure before the reply starts raises `UpstreamHttpError` with a real
HTTP status (the upstream's own, 502 when it could not be reached, 504 on a timeout), so the
caller gets it before any byte of a stream.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Literal

import httpx

from cherry_desktop.core.ai.providers import (
    ANTHROPIC_TYPES,
    OPENAI_COMPATIBLE_TYPES,
    AnthropicProvider,
    OpenAICompatibleProvider,
    create_provider,
)
from cherry_desktop.core.ai.providers.anthropic import API_VERSION
from cherry_desktop.core.ai.providers.base import error_message_from_body
from cherry_desktop.core.ai.providers.sse import SseEvent, iter_sse
from cherry_desktop.core.data import ProviderRecord, Repositories
from cherry_desktop.core.gateway.wire import Wire, WireObject
from cherry_desktop.core.storage.credentials import CredentialStore, provider_key_name

Dialect = Literal["anthropic", "openai"]
#: Caller headers an Anthropic upstream also gets (Claude Code's feature flags).
_FORWARDED_ANTHROPIC_HEADERS = ("anthropic-beta", "anthropic-version")


class GatewayModelError(Exception):
    """The request's model names no usable provider model (`code` says why)."""

    def __init__(self, code: str, detail: str, status: int = 404) -> None:
        super().__init__(detail)
        self.code = code
        self.status = status


class UpstreamHttpError(Exception):
    """The upstream answered with an error status (or could not be reached) before replying."""

    def __init__(self, status: int, message: str, body: bytes = b"", dialect: Dialect | None = None) -> None:
        super().__init__(f"HTTP {status}: {message}")
        self.status = status
        self.message = message
        self.body = body
        self.dialect = dialect


def split_gateway_model(value: str) -> tuple[str, str]:
    """``provider_id:model_id`` (Cherry's ``provider::model`` too) -> (provider_id, model_id).
    The model id may hold colons itself (``ollama:qwen2.5:7b``)."""
    provider, sep, model = value.partition(":")
    model = model.removeprefix(":")
    if not sep or not provider or not model:
        raise GatewayModelError("bad-model", f"model must be provider_id:model_id, got {value!r}", 400)
    return provider, model


@dataclass(frozen=True)
class UpstreamTarget:
    """Where one gateway request goes."""

    provider: ProviderRecord
    model: str
    dialect: Dialect
    url: str
    headers: dict[str, str] = field(repr=False)

    @property
    def unique_model_id(self) -> str:
        return f"{self.provider.id}::{self.model}"


def resolve_target(repos: Repositories, credentials: CredentialStore, client: httpx.AsyncClient,
                   model_field: Wire) -> UpstreamTarget:
    if not isinstance(model_field, str) or not model_field:
        raise GatewayModelError("bad-model", "the request names no model", 400)
    provider_id, model = split_gateway_model(model_field)
    record = repos.providers.find_provider(provider_id)
    if record is None:
        raise GatewayModelError("provider-not-found", f"no provider {provider_id!r}")
    if not record.enabled:
        raise GatewayModelError("provider-disabled", f"provider {record.name or record.id} is disabled")
    if record.type in ANTHROPIC_TYPES:
        dialect: Dialect = "anthropic"
    elif record.type in OPENAI_COMPATIBLE_TYPES:
        dialect = "openai"
    else:
        raise GatewayModelError("unsupported-provider", f"provider {record.id} has type {record.type!r}", 400)
    key = None if record.settings.get("demo") else credentials.try_get(provider_key_name(record.id))
    provider = create_provider(record, key, client)
    headers = {"accept": "text/event-stream, application/json"}
    if dialect == "anthropic":
        headers["anthropic-version"] = API_VERSION
        if key:
            headers["x-api-key"] = key
    elif key:
        headers["authorization"] = f"Bearer {key}"
    headers.update(provider.extra_headers())
    assert isinstance(provider, AnthropicProvider | OpenAICompatibleProvider)
    return UpstreamTarget(record, model, dialect, provider.url(), headers)


def forwarded_headers(target: UpstreamTarget, caller: Dialect, incoming: dict[str, str]) -> dict[str, str]:
    if target.dialect != "anthropic" or caller != "anthropic":
        return {}
    return {name: incoming[name] for name in _FORWARDED_ANTHROPIC_HEADERS if name in incoming}


async def _error_from(response: httpx.Response, target: UpstreamTarget) -> UpstreamHttpError:
    body = await response.aread()
    return UpstreamHttpError(response.status_code, error_message_from_body(body) or response.reason_phrase,
                             body, target.dialect)


async def post_json(client: httpx.AsyncClient, target: UpstreamTarget, body: WireObject,
                    extra_headers: dict[str, str] | None = None) -> WireObject:
    """A non-streamed call: the reply's JSON object."""
    try:
        response = await client.post(target.url, json=body, headers={**target.headers, **(extra_headers or {})})
    except httpx.TimeoutException as exc:
        raise UpstreamHttpError(504, f"the request to {target.url} timed out") from exc
    except httpx.HTTPError as exc:
        raise UpstreamHttpError(502, f"could not reach {target.url} ({exc or type(exc).__name__})") from exc
    if response.status_code >= 400:
        raise await _error_from(response, target)
    try:
        data = response.json()
    except ValueError as exc:
        raise UpstreamHttpError(502, "the upstream answered with no JSON") from exc
    if not isinstance(data, dict):
        raise UpstreamHttpError(502, "the upstream answered with no JSON object")
    return data


async def open_stream(client: httpx.AsyncClient, target: UpstreamTarget, body: WireObject,
                      extra_headers: dict[str, str] | None = None) -> AsyncIterator[SseEvent]:
    """A streamed call: its SSE events. Raises `UpstreamHttpError` before the first one when the
    upstream refused; closing the iterator (the caller went away) closes the request."""
    request = client.build_request("POST", target.url, json=body,
                                   headers={**target.headers, **(extra_headers or {})})
    try:
        response = await client.send(request, stream=True)
    except httpx.TimeoutException as exc:
        raise UpstreamHttpError(504, f"the request to {target.url} timed out") from exc
    except httpx.HTTPError as exc:
        raise UpstreamHttpError(502, f"could not reach {target.url} ({exc or type(exc).__name__})") from exc
    try:
        if response.status_code >= 400:
            raise await _error_from(response, target)
        async with aclosing(iter_sse(response, None)) as events:
            async for event in events:
                yield event
    finally:
        await response.aclose()


def event_json(event: SseEvent) -> WireObject | None:
    """An event's data as a JSON object; None for OpenAI's ``[DONE]`` and non-objects."""
    try:
        value = json.loads(event.data)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


__all__ = ["Dialect", "GatewayModelError", "UpstreamHttpError", "UpstreamTarget", "event_json", "forwarded_headers",
           "open_stream", "post_json", "resolve_target", "split_gateway_model"]
