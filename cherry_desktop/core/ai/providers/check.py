"""A provider's connection test and its model list, each one request.

`check_connection` sends the cheapest chat request there is (one word in, one token out, not
streamed) to a model of the provider: that checks the address, the key and the model at once.
Without a model it asks the model list instead. `fetch_models` reads the provider's model list
endpoint (`GET /models`, OpenAI's and Anthropic's shape). Both raise `ProviderCheckError` with
an `ErrorCode` (the UI words it) and the provider's own detail.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cherry_desktop.core.ai.providers.base import error_message_from_body
from cherry_desktop.core.ai.providers.registry import create_provider
from cherry_desktop.core.messages import ErrorCode, code_for_status

if TYPE_CHECKING:
    import httpx

    from cherry_desktop.core.ai.providers.base import HttpStreamingProvider
    from cherry_desktop.core.data import ProviderRecord


class ProviderCheckError(Exception):
    """A check failed: `code` says what kind of failure, `detail` is the provider's words;
    `status` is the HTTP status when the provider answered."""

    def __init__(self, code: ErrorCode, detail: str, status: int | None = None) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail
        self.status = status

    @property
    def no_model_list(self) -> bool:
        """The provider has no model list endpoint (it answered 404 or 405 to it)."""
        return self.status in (404, 405)


@dataclass(frozen=True)
class RemoteModel:
    """One model the provider lists: its id and the name it gives it ('' when none)."""

    model_id: str
    name: str = ""


@dataclass(frozen=True)
class ConnectionResult:
    """What answered: the model asked (None when the model list was asked instead) and how
    many models the list held (None when a model was asked)."""

    model: str | None
    model_count: int | None = None


async def _request(client: httpx.AsyncClient, method: str, url: str, headers: dict[str, str],
                   body: dict[str, Any] | None = None) -> Any:
    import httpx

    try:
        response = await client.request(method, url, headers=headers, json=body)
    except httpx.TimeoutException:
        raise ProviderCheckError(ErrorCode.TIMEOUT, f"the request to {url} timed out") from None
    except httpx.HTTPError as exc:
        raise ProviderCheckError(ErrorCode.NETWORK_ERROR,
                                 f"could not reach {url} ({exc or type(exc).__name__})") from None
    if response.status_code >= 400:
        detail = error_message_from_body(response.content)
        text = f"HTTP {response.status_code} {response.reason_phrase or ''}".rstrip()
        text += f": {detail}" if detail else ""
        raise ProviderCheckError(code_for_status(response.status_code) or ErrorCode.PROVIDER_ERROR, text,
                                 response.status_code)
    try:
        return response.json()
    except ValueError:
        raise ProviderCheckError(ErrorCode.MALFORMED_RESPONSE, f"{url} answered with no JSON") from None


def _provider(record: ProviderRecord, api_key: str | None, client: httpx.AsyncClient) -> HttpStreamingProvider:
    from cherry_desktop.core.ai.providers.registry import UnknownProviderTypeError

    try:
        return create_provider(record, api_key, client)
    except UnknownProviderTypeError as exc:
        raise ProviderCheckError(ErrorCode.UNSUPPORTED, str(exc)) from None


def parse_model_list(data: Any) -> list[RemoteModel]:
    """The models of a `GET /models` answer (`{"data": [{"id", "name" | "display_name"}]}`; some
    servers send the list bare), sorted by id, without duplicates."""
    items = data.get("data", data.get("models")) if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise ProviderCheckError(ErrorCode.MALFORMED_RESPONSE, "the model list holds no list of models")
    seen: dict[str, RemoteModel] = {}
    for item in items:
        if isinstance(item, str):
            item = {"id": item}
        if not isinstance(item, dict):
            continue
        model_id = item.get("id") or item.get("model") or item.get("name")
        if not isinstance(model_id, str) or not model_id.strip():
            continue
        name = item.get("display_name") or item.get("name") or ""
        name = name if isinstance(name, str) and name != model_id else ""
        seen.setdefault(model_id.strip(), RemoteModel(model_id.strip(), name.strip()))
    return sorted(seen.values(), key=lambda m: m.model_id.lower())


async def fetch_models(record: ProviderRecord, api_key: str | None, client: httpx.AsyncClient) -> list[RemoteModel]:
    """The provider's own model list (one `GET`)."""
    provider = _provider(record, api_key, client)
    headers = {"Accept": "application/json", **provider.auth_headers(), **provider.extra_headers()}
    return parse_model_list(await _request(client, "GET", provider.models_url(), headers))


async def check_connection(record: ProviderRecord, api_key: str | None, client: httpx.AsyncClient,
                          model: str | None) -> ConnectionResult:
    """One cheap request: a one-token reply of `model`, else the model list."""
    if not model:
        return ConnectionResult(None, len(await fetch_models(record, api_key, client)))
    provider = _provider(record, api_key, client)
    headers = {"Accept": "application/json", **provider.auth_headers(), **provider.extra_headers()}
    data = await _request(client, "POST", provider.url(), headers, provider.ping_body(model))
    if isinstance(data, dict) and data.get("error"):
        err = data["error"]
        raise ProviderCheckError(ErrorCode.PROVIDER_ERROR,
                                 str(err.get("message", err) if isinstance(err, dict) else err))
    if not isinstance(data, dict):
        raise ProviderCheckError(ErrorCode.MALFORMED_RESPONSE, "the reply is not a JSON object")
    return ConnectionResult(model)
