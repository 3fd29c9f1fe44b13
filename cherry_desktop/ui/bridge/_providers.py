"""Providers, their API keys (in the OS keyring, never the database) and models, the models a
chat can use and what keeps a chat from sending, and each model's prices."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Signal

from cherry_desktop.core.state.topics import session_id_from_topic
from cherry_desktop.core.storage.credentials import KeyringUnavailableError, provider_key_name
from cherry_desktop.ui.bridge._base import CoreBridge
from cherry_desktop.ui.bridge._cache_keys import topic_model_key
from cherry_desktop.ui.bridge._types import ChatIssue, ChatModelChoice

if TYPE_CHECKING:
    # core.messages loads pydantic: after the first paint, where a check runs.
    from cherry_desktop.core.ai.providers.check import ConnectionResult, RemoteModel
    from cherry_desktop.core.data import ModelRecord, ProviderRecord
    from cherry_desktop.core.data.seed import ProviderPreset
    from cherry_desktop.core.data.usage_cost import ModelPricing
    from cherry_desktop.core.messages import ErrorCode

log = logging.getLogger(__name__)

# The order the provider type selector lists them in (the registry's sets are unordered).
_TYPE_ORDER = ("openai-compatible", "anthropic", "openai", "openrouter", "ollama", "lmstudio", "vllm")


class ProviderCheckFailedError(Exception):
    """A connection test or a model list failed: `code` (an `ErrorCode` the UI words), the
    provider's own `detail`, and whether the provider has no model list endpoint at all."""

    def __init__(self, code: ErrorCode, detail: str, *, no_model_list: bool = False) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.no_model_list = no_model_list


class ProvidersBridge(CoreBridge):
    """Providers, keys, models and prices (see module docstring).

    Signals:
        providers_changed(): a provider, its models or its key changed.
    """

    providers_changed = Signal()

    # -- providers ------------------------------------------------------------------------------
    @staticmethod
    def provider_types() -> list[str]:
        """Every provider type the registry can build, in display order."""
        from cherry_desktop.core.ai.providers.registry import ANTHROPIC_TYPES, OPENAI_COMPATIBLE_TYPES

        known = set(OPENAI_COMPATIBLE_TYPES | ANTHROPIC_TYPES)
        return [t for t in _TYPE_ORDER if t in known] + sorted(known - set(_TYPE_ORDER))

    @staticmethod
    def presets() -> tuple[ProviderPreset, ...]:
        """The providers the "Add" menu offers ready-made."""
        from cherry_desktop.core.data.seed import DEFAULT_PROVIDERS

        return tuple(DEFAULT_PROVIDERS)

    @staticmethod
    def preset(preset_id: str) -> ProviderPreset | None:
        from cherry_desktop.core.data.seed import preset_by_id

        return preset_by_id(preset_id)

    @staticmethod
    def is_local_endpoint(base_url: str) -> bool:
        """Whether `base_url` is on this machine (such a provider needs no key)."""
        from cherry_desktop.core.data.seed import is_local_endpoint

        return is_local_endpoint(base_url)

    def list_providers(self) -> list[ProviderRecord]:
        return list(self._repos.providers.list_providers())

    def find_provider(self, provider_id: str) -> ProviderRecord | None:
        return self._repos.providers.find_provider(provider_id)

    def add_provider(self, *, name: str, type: str, base_url: str = "", enabled: bool = True) -> str:
        """A new provider record; returns its id (a slug of the name, made unique)."""
        base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "provider"
        provider_id, n = base, 1
        while self._repos.providers.find_provider(provider_id) is not None:
            n += 1
            provider_id = f"{base}-{n}"
        self._repos.providers.upsert_provider(id=provider_id, name=name, type=type, base_url=base_url,
                                              enabled=enabled)
        self.providers_changed.emit()
        return provider_id

    def update_provider(self, provider_id: str, **changes: Any) -> None:
        self._repos.providers.update_provider(provider_id, **changes)
        self.providers_changed.emit()

    def delete_provider(self, provider_id: str) -> None:
        """Delete the record with its models, and its key if the keyring is reachable."""
        self._repos.providers.delete_provider(provider_id)
        try:
            self.core.credentials.delete(provider_key_name(provider_id))
        except KeyringUnavailableError:
            log.warning("keyring unavailable: the key of deleted provider %s stays where it was", provider_id)
        self.providers_changed.emit()

    # -- keys -----------------------------------------------------------------------------------
    def has_api_key(self, provider_id: str) -> bool:
        return bool(self.core.credentials.try_get(provider_key_name(provider_id)))

    def keyring_available(self) -> bool:
        try:
            return bool(self.core.credentials.available())
        except Exception:  # a broken backend is as good as none
            log.exception("probing the keyring failed")
            return False

    def set_api_key(self, provider_id: str, key: str) -> None:
        """Store the key in the keyring (never the database); raises `KeyringUnavailableError`."""
        self.core.credentials.set(provider_key_name(provider_id), key)
        self.providers_changed.emit()

    def delete_api_key(self, provider_id: str) -> None:
        self.core.credentials.delete(provider_key_name(provider_id))
        self.providers_changed.emit()

    # -- models ---------------------------------------------------------------------------------
    def list_models(self, provider_id: str | None = None) -> list[ModelRecord]:
        return list(self._repos.providers.list_models(provider_id))

    def add_model(self, provider_id: str, model_id: str, name: str = "") -> str:
        umid = str(self._repos.providers.upsert_model(provider_id=provider_id, model_id=model_id,
                                                      name=name).unique_model_id)
        self.providers_changed.emit()
        return umid

    def add_models(self, provider_id: str, models: list[tuple[str, str]]) -> list[str]:
        """Add (model id, name) pairs at once (one change signal); returns their unique ids."""
        umids = [str(self._repos.providers.upsert_model(provider_id=provider_id, model_id=model_id,
                                                        name=name).unique_model_id) for model_id, name in models]
        if umids:
            self.providers_changed.emit()
        return umids

    # -- checks (one request each, through core's HTTP client) ---------------------------------
    async def check_connection(self, provider_id: str, model_id: str | None) -> ConnectionResult:
        """One cheap request (a one-token reply of `model_id`, else the model list); raises
        `ProviderCheckFailedError`."""
        from cherry_desktop.core.ai.providers.check import ProviderCheckError

        # A click, after the first paint: the services start now if they do not run yet.
        await self.core.start_services()
        try:
            return await self.core.ai_service.check_connection(provider_id, model_id)
        except ProviderCheckError as exc:
            raise ProviderCheckFailedError(exc.code, exc.detail, no_model_list=exc.no_model_list) from None

    async def fetch_models(self, provider_id: str) -> list[RemoteModel]:
        """The provider's own model list; raises `ProviderCheckFailedError`."""
        from cherry_desktop.core.ai.providers.check import ProviderCheckError

        await self.core.start_services()
        try:
            return await self.core.ai_service.fetch_models(provider_id)
        except ProviderCheckError as exc:
            raise ProviderCheckFailedError(exc.code, exc.detail, no_model_list=exc.no_model_list) from None

    def remove_model(self, unique_model_id: str) -> None:
        self._repos.providers.delete_model(unique_model_id)
        self.providers_changed.emit()

    def model_name(self, unique_model_id: str | None) -> str:
        if not unique_model_id:
            return ""
        record = self._repos.providers.find_model(unique_model_id)
        return str(record.name or record.model_id) if record is not None else unique_model_id

    def chat_models(self) -> list[ChatModelChoice]:
        """The models of enabled providers, provider by provider (those of a provider that needs
        a key not stored yet are not `usable`)."""
        from cherry_desktop.core.data.seed import provider_needs_key

        out: list[ChatModelChoice] = []
        for provider in self._repos.providers.list_providers():
            if not provider.enabled:
                continue
            provider_name = provider.name or provider.id
            usable = not provider_needs_key(provider) or self.has_api_key(provider.id)
            models = sorted(self._repos.providers.list_models(provider.id),
                            key=lambda m: (m.name or m.model_id).lower())
            out.extend(ChatModelChoice(m.unique_model_id, m.name or m.model_id, provider.id, provider_name, usable)
                       for m in models)
        return out

    def topic_model(self, topic_id: str) -> str | None:
        topic = self._repos.topics.find_topic(topic_id)
        return topic.model if topic else None

    def set_topic_model(self, topic_id: str, unique_model_id: str | None) -> None:
        """Save the chat's model; every window of the chat follows (`topic_model_key`)."""
        self._repos.topics.set_model(topic_id, unique_model_id)
        self.core.shared_cache.set_shared(topic_model_key(topic_id), unique_model_id)

    def chat_issue(self, topic_id: str) -> ChatIssue | None:
        """What keeps a chat topic from sending (None: ready). Agent sessions are the host's."""
        if session_id_from_topic(topic_id) is not None:
            return None
        return self.model_issue(self.topic_model(topic_id))

    def model_issue(self, unique_model_id: str | None) -> ChatIssue | None:
        from cherry_desktop.core.data import split_unique_model_id
        from cherry_desktop.core.data.seed import provider_needs_key

        if not unique_model_id:
            return ChatIssue("no-model")
        try:
            provider_id, _ = split_unique_model_id(unique_model_id)
        except ValueError:
            return ChatIssue("model-unavailable")
        provider = self._repos.providers.find_provider(provider_id)
        if provider is None or self._repos.providers.find_model(unique_model_id) is None:
            return ChatIssue("model-unavailable", provider.name if provider else "", provider_id)
        name = provider.name or provider.id
        if not provider.enabled:
            return ChatIssue("provider-disabled", name, provider.id)
        if provider_needs_key(provider) and not self.has_api_key(provider.id):
            code = "missing-key" if self.keyring_available() else "keyring-unavailable"
            return ChatIssue(code, name, provider.id)
        return None

    def default_chat_model(self) -> str | None:
        """For a new chat: the model of the newest chat that still works, else the first model
        of a provider the user stored a key for, else, while the offline demo runs (`--demo`),
        its model (it answers without a key), else the first model at all (its header then says what is
        missing, which is the guidance a first run needs)."""
        from cherry_desktop.core.data.seed import is_demo_provider

        for topic in self._repos.topics.list_topics():
            if topic.model and self.model_issue(topic.model) is None:
                return str(topic.model)
        choices = self.chat_models()
        keyed = next((c for c in choices if self.has_api_key(c.provider_id)), None)
        # Only while its server runs: without `--demo` its provider's address is stale.
        demo_ids = ({p.id for p in self._repos.providers.list_providers() if is_demo_provider(p)}
                    if self.core.demo is not None else set())
        demo = next((c for c in choices if c.provider_id in demo_ids), None)
        chosen = keyed or demo or (choices[0] if choices else None)
        return chosen.unique_model_id if chosen else None

    # -- prices ---------------------------------------------------------------------------------
    def model_pricing(self, unique_model_id: str) -> ModelPricing | None:
        return self._repos.costs.pricing(unique_model_id)

    def set_model_pricing(self, unique_model_id: str, prices: dict[str, float] | None) -> None:
        """Save a model's prices (USD per million tokens); None removes them. Raises
        `PricingError` for a price that is not a non-negative number."""
        from cherry_desktop.core.data.usage_cost import ModelPricing

        self._repos.costs.set_pricing(unique_model_id, ModelPricing(**prices) if prices is not None else None)
