"""The model list shapes providers answer with, and the one-token request per provider type."""

from __future__ import annotations

import httpx
import pytest

from cherry_desktop.core.ai.providers.check import ProviderCheckError, RemoteModel, parse_model_list
from cherry_desktop.core.ai.providers.registry import create_provider
from cherry_desktop.core.data import ProviderRecord
from cherry_desktop.core.messages import ErrorCode


def test_model_lists_of_openai_anthropic_openrouter_and_bare_servers() -> None:
    assert parse_model_list({"object": "list", "data": [{"id": "gpt-5.1", "object": "model"}, {"id": "gpt-4o"}]}) == \
        [RemoteModel("gpt-4o"), RemoteModel("gpt-5.1")]
    assert parse_model_list({"data": [{"id": "claude-opus-4-5", "display_name": "Claude Opus 4.5"}],
                             "has_more": False}) == [RemoteModel("claude-opus-4-5", "Claude Opus 4.5")]
    assert parse_model_list({"data": [{"id": "openai/gpt-5.1", "name": "OpenAI: GPT-5.1"},
                                      {"id": "openai/gpt-5.1", "name": "again"}, {"name": ""}, 7]}) == \
        [RemoteModel("openai/gpt-5.1", "OpenAI: GPT-5.1")]
    assert parse_model_list({"models": [{"name": "llama3.2"}]}) == [RemoteModel("llama3.2")]
    assert parse_model_list(["a", "b"]) == [RemoteModel("a"), RemoteModel("b")]
    with pytest.raises(ProviderCheckError) as caught:
        parse_model_list({"error": "nope"})
    assert caught.value.code is ErrorCode.MALFORMED_RESPONSE


def record(kind: str, base_url: str) -> ProviderRecord:
    return ProviderRecord(id=kind, name=kind, type=kind, base_url=base_url, enabled=True, settings={})


async def test_each_type_asks_one_token_at_its_own_address() -> None:
    async with httpx.AsyncClient() as client:
        openai = create_provider(record("openai", "https://x/v1"), "k", client)
        assert openai.ping_body("gpt-5.1")["max_completion_tokens"] == 1 and "max_tokens" not in openai.ping_body("m")
        assert openai.models_url() == "https://x/v1/models" and openai.auth_headers() == {"Authorization": "Bearer k"}
        local = create_provider(record("ollama", "http://127.0.0.1:1/v1"), None, client)
        assert local.ping_body("m")["max_tokens"] == 1 and local.auth_headers() == {}
        claude = create_provider(record("anthropic", ""), "sk", client)
        assert claude.models_url() == "https://api.anthropic.com/v1/models?limit=1000"
        assert claude.auth_headers() == {"anthropic-version": "2023-06-01", "x-api-key": "sk"}
