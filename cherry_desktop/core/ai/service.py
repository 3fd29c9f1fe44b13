"""`AiService`: the lifecycle service behind `AiStreamManager`'s `stream_text`.

Chat requests resolve `provider::model` through the provider records, read the key from the
keyring and stream through an httpx provider. Agent-session requests carry `RuntimeMetadata`
and go to the runtime stream handler the agent host registers; an `agent-session:` topic
without that metadata is refused (no per-turn CLI process behind the host's back).
Pre-stream failures raise from the await; mid-stream failures arrive as `error` chunks.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING

from cherry_desktop.core.ai.stream.types import AiStreamRequest, StreamManagerError
from cherry_desktop.core.attachments import AttachmentStore
from cherry_desktop.core.attachments.content import has_attachments, inline_attachments
from cherry_desktop.core.data import DatabaseService, Repositories, split_unique_model_id
from cherry_desktop.core.lifecycle.container import Application, Service
from cherry_desktop.core.messages import UIMessageChunk
from cherry_desktop.core.state.topics import AGENT_SESSION_TOPIC_PREFIX
from cherry_desktop.core.storage.credentials import CredentialStore, provider_key_name

if TYPE_CHECKING:
    import httpx

    from cherry_desktop.core.ai.providers.check import ConnectionResult, RemoteModel
    from cherry_desktop.core.data import ProviderRecord

log = logging.getLogger(__name__)


RuntimeStreamHandler = Callable[
    [AiStreamRequest], AsyncIterator[UIMessageChunk] | Awaitable[AsyncIterator[UIMessageChunk]]
]


class RuntimeMetadataRequiredError(StreamManagerError):
    """An agent-session stream reached `stream_text` without runtime metadata."""

    code = "runtime-metadata-required"


class RuntimeHandlerMissingError(StreamManagerError):
    """A runtime request arrived before the agent host registered its handler."""

    code = "runtime-handler-missing"


class ModelResolutionError(StreamManagerError):
    """The unique model id names no usable provider."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code


def default_timeout() -> httpx.Timeout:
    # httpx and the providers load on the first chat stream, off the path to the first window.
    import httpx

    # A reasoning model can think silently for a while; the manager's idle timeout is the
    # outer bound, this one only catches a dead socket.
    return httpx.Timeout(connect=15.0, read=180.0, write=30.0, pool=15.0)


class AiService(Service):
    name = "ai"
    depends_on = ("database",)

    def __init__(self, repos: Repositories | None = None, credentials: CredentialStore | None = None, *,
                 client: httpx.AsyncClient | None = None, timeout: httpx.Timeout | None = None) -> None:
        self.repos = repos
        self.credentials = credentials or CredentialStore()
        self._client = client
        self._owns_client = client is None
        self._timeout = timeout
        self._runtime_handler: RuntimeStreamHandler | None = None
        # Where chat messages' attachments are read from (None: they reach no model).
        self.attachments: AttachmentStore | None = None

    async def on_init(self, app: Application) -> None:
        if self.repos is None:
            self.repos = app.get("database", DatabaseService).repos

    async def on_stop(self) -> None:
        if self._client is not None and self._owns_client:
            await self._client.aclose()
            self._client = None

    @property
    def client(self) -> httpx.AsyncClient:
        if self._client is None:
            import httpx

            self._client = httpx.AsyncClient(timeout=self._timeout or default_timeout())
        return self._client

    def set_runtime_stream_handler(self, handler: RuntimeStreamHandler | None) -> None:
        """Where requests carrying `request.runtime` go (the agent-session host)."""
        self._runtime_handler = handler

    async def stream_text(self, request: AiStreamRequest) -> AsyncIterator[UIMessageChunk]:
        """The chunk stream for one execution (see module docstring)."""
        if request.runtime is not None:
            if self._runtime_handler is None:
                raise RuntimeHandlerMissingError("no agent runtime handler is registered")
            result = self._runtime_handler(request)
            # The host hands back its stream, or an awaitable of it (validation comes first).
            return result if isinstance(result, AsyncIterator) else await result
        if (request.topic_id or "").startswith(AGENT_SESSION_TOPIC_PREFIX):
            raise RuntimeMetadataRequiredError(
                f"agent-session topic {request.topic_id} reached stream_text without runtime metadata")
        if self.attachments is not None and has_attachments(request.messages):
            # Inline in memory for this request only; the rows keep their stored names.
            request.messages = await inline_attachments(self.attachments, request.messages)
        return self._chat_stream(request)

    def _provider_key(self, record: ProviderRecord) -> str | None:
        # The offline demo server takes no key: the keyring is not asked for one (its first use
        # imports its backends, ~13 MB with cryptography, for nothing).
        return None if record.settings.get("demo") else self.credentials.try_get(provider_key_name(record.id))

    def _find_provider(self, provider_id: str) -> ProviderRecord:
        record = self.repos.providers.find_provider(provider_id) if self.repos is not None else None
        if record is None:
            raise ModelResolutionError("provider-not-found", f"no provider {provider_id!r}")
        return record

    async def check_connection(self, provider_id: str, model: str | None) -> ConnectionResult:
        """One cheap request to the provider (see `providers.check`); raises `ProviderCheckError`."""
        from cherry_desktop.core.ai.providers.check import check_connection

        record = self._find_provider(provider_id)
        return await check_connection(record, self._provider_key(record), self.client, model)

    async def fetch_models(self, provider_id: str) -> list[RemoteModel]:
        """The provider's own model list; raises `ProviderCheckError`."""
        from cherry_desktop.core.ai.providers.check import fetch_models

        record = self._find_provider(provider_id)
        return await fetch_models(record, self._provider_key(record), self.client)

    def _chat_stream(self, request: AiStreamRequest) -> AsyncIterator[UIMessageChunk]:
        repos = self.repos
        if repos is None:
            raise ModelResolutionError("no-database", "AiService has no repositories")
        try:
            provider_id, model = split_unique_model_id(request.model_id)
        except ValueError as exc:
            raise ModelResolutionError("bad-model-id", str(exc)) from None
        record = repos.providers.find_provider(provider_id)
        if record is None:
            raise ModelResolutionError("provider-not-found", f"no provider {provider_id!r} for {request.model_id}")
        if not record.enabled:
            raise ModelResolutionError("provider-disabled", f"provider {record.name or record.id} is disabled")
        api_key = self._provider_key(record)
        from cherry_desktop.core.ai.providers import UnknownProviderTypeError, create_provider

        try:
            provider = create_provider(record, api_key, self.client)
        except UnknownProviderTypeError as exc:
            raise ModelResolutionError(exc.code, str(exc)) from None
        return provider.stream(model, request)
