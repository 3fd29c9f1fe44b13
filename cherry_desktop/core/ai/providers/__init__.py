"""Chat model providers on httpx: OpenAI-compatible chat completions and Anthropic Messages."""

from cherry_desktop.core.ai.providers.httpx_cli import import_httpx_without_cli

import_httpx_without_cli()  # before the providers import httpx

from cherry_desktop.core.ai.providers.anthropic import AnthropicProvider
from cherry_desktop.core.ai.providers.base import ChatProvider, HttpStreamingProvider, error_message_from_body
from cherry_desktop.core.ai.providers.openai_compatible import OpenAICompatibleProvider
from cherry_desktop.core.ai.providers.registry import (
    ANTHROPIC_TYPES,
    OPENAI_COMPATIBLE_TYPES,
    UnknownProviderTypeError,
    create_provider,
)
from cherry_desktop.core.ai.providers.sse import SseDecoder, SseEvent, StreamAbortedError, iter_sse, race

__all__ = [
    "ANTHROPIC_TYPES",
    "OPENAI_COMPATIBLE_TYPES",
    "AnthropicProvider",
    "ChatProvider",
    "HttpStreamingProvider",
    "OpenAICompatibleProvider",
    "SseDecoder",
    "SseEvent",
    "StreamAbortedError",
    "UnknownProviderTypeError",
    "create_provider",
    "error_message_from_body",
    "iter_sse",
    "race",
]
