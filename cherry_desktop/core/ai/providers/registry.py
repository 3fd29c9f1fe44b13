"""Provider records -> provider objects, by `ProviderRecord.type`."""

from __future__ import annotations

import httpx

from cherry_desktop.core.ai.providers.anthropic import AnthropicProvider
from cherry_desktop.core.ai.providers.base import HttpStreamingProvider
from cherry_desktop.core.ai.providers.openai_compatible import OpenAICompatibleProvider
from cherry_desktop.core.data import ProviderRecord

OPENAI_COMPATIBLE_TYPES = frozenset({"openai-compatible", "openai", "ollama", "lmstudio", "vllm", "openrouter"})
ANTHROPIC_TYPES = frozenset({"anthropic"})


class UnknownProviderTypeError(ValueError):
    code = "unknown-provider-type"


def create_provider(record: ProviderRecord, api_key: str | None, client: httpx.AsyncClient) -> HttpStreamingProvider:
    if record.type in OPENAI_COMPATIBLE_TYPES:
        return OpenAICompatibleProvider(record, api_key, client)
    if record.type in ANTHROPIC_TYPES:
        return AnthropicProvider(record, api_key, client)
    raise UnknownProviderTypeError(f"provider {record.id} has an unsupported type {record.type!r}")
