"""First-run default providers on a real SQLite file: created once, never over user edits."""

from __future__ import annotations

from pathlib import Path

import pytest

from cherry_desktop.core.ai.providers import ANTHROPIC_TYPES, OPENAI_COMPATIBLE_TYPES
from cherry_desktop.core.ai.runtime.capabilities import AGENT_RUNTIME_CAPABILITIES
from cherry_desktop.core.ai.runtime.claude_code.query_builder import child_api_key, child_env
from cherry_desktop.core.ai.runtime.types import RuntimeConnectInput, RuntimeSessionContext
from cherry_desktop.core.app.bootstrap import start_core
from cherry_desktop.core.data import ProviderRecord, Repositories
from cherry_desktop.core.data.seed import (
    DEFAULT_PROVIDERS,
    is_local_endpoint,
    provider_needs_key,
    seed_default_providers,
)
from cherry_desktop.core.storage.paths import build_path_registry


def _ids(repos: Repositories) -> list[str]:
    return [p.id for p in repos.providers.list_providers()]


def test_empty_database_gets_the_default_providers_and_models(repos: Repositories) -> None:
    created = seed_default_providers(repos)
    assert created == ["anthropic", "openai", "openrouter", "ollama", "lmstudio"]
    assert _ids(repos) == created
    anthropic = repos.providers.get_provider("anthropic")
    assert (anthropic.type, anthropic.base_url, anthropic.enabled) == ("anthropic", "https://api.anthropic.com", True)
    assert repos.providers.get_provider("openai").base_url == "https://api.openai.com/v1"
    assert repos.providers.get_provider("ollama").base_url == "http://127.0.0.1:11434/v1"
    assert repos.providers.get_provider("lmstudio").base_url == "http://127.0.0.1:1234/v1"
    assert {m.model_id for m in repos.providers.list_models("anthropic")} == \
        {"claude-sonnet-4-5", "claude-opus-4-5", "claude-haiku-4-5"}
    assert {"gpt-5.1", "gpt-5-mini", "gpt-4o"} <= {m.model_id for m in repos.providers.list_models("openai")}
    # Every preset type is one the provider registry can build.
    for preset in DEFAULT_PROVIDERS:
        assert preset.type in OPENAI_COMPATIBLE_TYPES | ANTHROPIC_TYPES, preset


def test_seeding_is_idempotent_and_keeps_user_edits(repos: Repositories) -> None:
    seed_default_providers(repos)
    repos.providers.update_provider("openai", name="My OpenAI", base_url="http://127.0.0.1:9/v1", enabled=False)
    repos.providers.delete_model("anthropic::claude-opus-4-5")
    repos.providers.delete_provider("openrouter")
    repos.providers.upsert_model(provider_id="ollama", model_id="mistral")
    assert seed_default_providers(repos) == []
    openai = repos.providers.get_provider("openai")
    assert (openai.name, openai.base_url, openai.enabled) == ("My OpenAI", "http://127.0.0.1:9/v1", False)
    assert repos.providers.find_model("anthropic::claude-opus-4-5") is None
    assert repos.providers.find_provider("openrouter") is None
    assert repos.providers.find_model("ollama::mistral") is not None
    # Editing in place keeps the provider's models (an upsert would cascade them away).
    assert {m.model_id for m in repos.providers.list_models("openai")} == {"gpt-5.1", "gpt-5-mini", "gpt-4o"}


def test_deleting_every_default_does_not_bring_them_back(repos: Repositories) -> None:
    created = seed_default_providers(repos)
    assert created
    for provider_id in created:
        repos.providers.delete_provider(provider_id)
    assert seed_default_providers(repos) == []
    assert _ids(repos) == []


def test_a_user_provider_means_no_seeding(repos: Repositories) -> None:
    repos.providers.upsert_provider(id="mine", name="Mine", type="openai-compatible", base_url="http://127.0.0.1:8/v1")
    assert seed_default_providers(repos) == []
    assert _ids(repos) == ["mine"]


def test_a_demo_only_database_still_gets_the_defaults(repos: Repositories) -> None:
    repos.providers.upsert_provider(id="cherry-demo", name="Demo", type="anthropic", base_url="http://127.0.0.1:7",
                                    settings={"demo": True})
    repos.providers.upsert_model(provider_id="cherry-demo", model_id="claude-demo")
    assert "anthropic" in seed_default_providers(repos)
    # The demo's own record is left alone.
    assert repos.providers.get_provider("cherry-demo").base_url == "http://127.0.0.1:7"
    assert repos.providers.find_model("cherry-demo::claude-demo") is not None


def test_claude_code_takes_every_enabled_model_the_others_through_the_gateway(repos: Repositories) -> None:
    seed_default_providers(repos)
    caps = AGENT_RUNTIME_CAPABILITIES["claude-code"]
    providers = {p.id: p for p in repos.providers.list_providers()}
    models = repos.providers.list_models()
    compatible = [m.unique_model_id for m in models if caps.is_model_compatible(providers.get(m.provider_id), m)]
    assert sorted(compatible) == sorted(m.unique_model_id for m in models if providers[m.provider_id].enabled)
    direct = [m.unique_model_id for m in models if not caps.via_gateway(providers[m.provider_id])]
    assert sorted(direct) == ["anthropic::claude-haiku-4-5", "anthropic::claude-opus-4-5",
                              "anthropic::claude-sonnet-4-5"]


def test_without_a_stored_key_claude_code_keeps_the_users_own_login(repos: Repositories, tmp_path: Path) -> None:
    """The seeded Anthropic endpoint is exactly the first-party address the CLI treats as its
    own, and no key goes into the child's env: the CLI signs in with the user's login."""
    seed_default_providers(repos)
    agent = repos.agents.create_agent(type="claude-code", name="Coder", model="anthropic::claude-sonnet-4-5")
    ws = repos.agents.create_workspace(name="ws", path=str(tmp_path), agent_id=agent.id)
    session = repos.sessions.create_session(agent_id=agent.id, workspace_id=ws.id, model=agent.model)
    provider = repos.providers.get_provider("anthropic")
    context = RuntimeSessionContext(session=session, agent=agent, workspace=ws, workspace_path=tmp_path,
                                    agent_data_dir=tmp_path / "data", model_id=agent.model, provider=provider)
    connect = RuntimeConnectInput(context=context, resume_token=None, permission_mode="default",
                                  disabled_tools=frozenset(), get_api_key=lambda: None,
                                  get_last_resume_token=lambda: None)
    env = child_env(connect)
    assert env["ANTHROPIC_BASE_URL"] == "https://api.anthropic.com"
    assert "ANTHROPIC_API_KEY" not in env


def test_a_key_in_the_providers_env_is_used_without_asking_the_keyring(repos: Repositories,
                                                                       tmp_path: Path) -> None:
    seed_default_providers(repos)
    agent = repos.agents.create_agent(type="claude-code", name="Coder", model="anthropic::claude-sonnet-4-5")
    session = repos.sessions.create_session(agent_id=agent.id, workspace_id=None, model=agent.model)
    context = RuntimeSessionContext(session=session, agent=agent, workspace=None, workspace_path=tmp_path,
                                    agent_data_dir=tmp_path / "data", model_id=agent.model,
                                    provider=repos.providers.get_provider("anthropic"))
    asked: list[str] = []

    def keyring_key() -> str:
        asked.append("keyring")
        return "sk-from-keyring"

    def connect(extra_env: dict[str, str]) -> RuntimeConnectInput:
        return RuntimeConnectInput(context=context, resume_token=None, permission_mode="default",
                                   disabled_tools=frozenset(), get_api_key=keyring_key,
                                   get_last_resume_token=lambda: None, extra_env=extra_env)

    assert child_env(connect({"ANTHROPIC_API_KEY": "demo-key"}))["ANTHROPIC_API_KEY"] == "demo-key"
    assert child_api_key(connect({"ANTHROPIC_API_KEY": "demo-key"})) is None
    assert asked == []
    # The keyring's key never goes into the child's env (its tools could read it there).
    assert "ANTHROPIC_API_KEY" not in child_env(connect({}))
    assert asked == []
    assert child_api_key(connect({})) == "sk-from-keyring"
    assert asked == ["keyring"]


@pytest.mark.parametrize(("base_url", "local"), [
    ("http://127.0.0.1:11434/v1", True), ("http://localhost:1234/v1", True), ("http://[::1]:8080", True),
    ("https://api.openai.com/v1", False), ("http://192.168.1.20:8000/v1", False), ("", False),
])
def test_local_endpoints(base_url: str, local: bool) -> None:
    assert is_local_endpoint(base_url) is local


def test_which_providers_need_a_key() -> None:
    def rec(base_url: str, **settings: object) -> ProviderRecord:
        return ProviderRecord(id="p", name="P", type="openai", base_url=base_url, enabled=True, settings=settings)

    assert provider_needs_key(rec("https://api.openai.com/v1"))
    assert provider_needs_key(rec(""))  # the type's default cloud endpoint
    assert not provider_needs_key(rec("http://127.0.0.1:11434/v1"))
    assert not provider_needs_key(rec("http://127.0.0.1:7", demo=True))
    assert not provider_needs_key(rec("http://10.0.0.2/v1", needs_key=False))


async def test_start_core_seeds_once(tmp_path: Path) -> None:
    paths = build_path_registry(tmp_path / "root")
    core = await start_core(paths)
    try:
        assert len(core.repos.providers.list_providers()) == len(DEFAULT_PROVIDERS)
        core.repos.providers.update_provider("anthropic", name="Work Anthropic")
    finally:
        await core.stop()
    core = await start_core(paths)
    try:
        assert core.repos.providers.get_provider("anthropic").name == "Work Anthropic"
        assert len(core.repos.providers.list_providers()) == len(DEFAULT_PROVIDERS)
    finally:
        await core.stop()
