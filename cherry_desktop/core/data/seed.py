"""Default providers: the presets a new user starts from, and the first-run seeding.

A new data directory has no provider records, so no chat model and no agent model could be
picked. At start, `seed_default_providers` creates the well-known providers (Anthropic,
OpenAI, OpenRouter, and the local Ollama and LM Studio servers) with a few of their models.

"First run" means: the provider table holds no provider of the user's. The offline demo's own
provider (``settings["demo"]``) does not count, so a data dir that only ever ran ``--demo``
still gets the defaults. Seeding only inserts ids that do not exist; once the user has any
provider, nothing here runs again, so a renamed, disabled or edited provider and a removed
model stay as the user left them.

Keys are never part of a preset: they go to the keyring from the UI.
"""

from __future__ import annotations

import ipaddress
import logging
from dataclasses import dataclass
from urllib.parse import urlsplit

from cherry_desktop.core.data.models import database_proxy
from cherry_desktop.core.data.records import ProviderRecord
from cherry_desktop.core.data.service import DatabaseService, Repositories
from cherry_desktop.core.lifecycle.container import Application, Service

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ModelPreset:
    model_id: str
    name: str


@dataclass(frozen=True)
class ProviderPreset:
    """One well-known provider: its record's fields and a few of its models.

    `type` is a provider type of `core.ai.providers.registry` ("anthropic" or one of the
    OpenAI-compatible family).
    """

    id: str
    name: str
    type: str
    base_url: str
    models: tuple[ModelPreset, ...] = ()
    enabled: bool = True


# Each provider's current models (late 2025); "Fetch models…" in Providers reads the rest from the
# provider's own model list.
DEFAULT_PROVIDERS: tuple[ProviderPreset, ...] = (
    ProviderPreset(
        id="anthropic", name="Anthropic", type="anthropic",
        # Exactly the first-party address: Claude Code keeps using the user's own login with it.
        base_url="https://api.anthropic.com",
        models=(ModelPreset("claude-sonnet-4-5", "Claude Sonnet 4.5"),
                ModelPreset("claude-opus-4-5", "Claude Opus 4.5"),
                ModelPreset("claude-haiku-4-5", "Claude Haiku 4.5")),
    ),
    ProviderPreset(
        id="openai", name="OpenAI", type="openai", base_url="https://api.openai.com/v1",
        models=(ModelPreset("gpt-5.1", "GPT-5.1"), ModelPreset("gpt-5-mini", "GPT-5 mini"),
                ModelPreset("gpt-4o", "GPT-4o")),
    ),
    ProviderPreset(
        id="openrouter", name="OpenRouter", type="openrouter", base_url="https://openrouter.ai/api/v1",
        models=(ModelPreset("anthropic/claude-sonnet-4.5", "Claude Sonnet 4.5"),
                ModelPreset("openai/gpt-5.1", "GPT-5.1"),
                ModelPreset("google/gemini-2.5-pro", "Gemini 2.5 Pro")),
    ),
    ProviderPreset(
        id="ollama", name="Ollama", type="ollama", base_url="http://127.0.0.1:11434/v1",
        models=(ModelPreset("llama3.2", "Llama 3.2"), ModelPreset("qwen3", "Qwen 3")),
    ),
    # LM Studio serves whichever model the user loaded: its id is theirs to add (or fetched).
    ProviderPreset(id="lmstudio", name="LM Studio", type="lmstudio", base_url="http://127.0.0.1:1234/v1"),
)


def is_demo_provider(provider: ProviderRecord) -> bool:
    return bool(provider.settings.get("demo"))


def is_local_endpoint(base_url: str) -> bool:
    """Whether `base_url` points at this machine (a local model server needs no key)."""
    host = (urlsplit(base_url.strip()).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def provider_needs_key(provider: ProviderRecord) -> bool:
    """Whether a chat through `provider` needs an API key from the keyring.

    An explicit ``settings["needs_key"]`` wins; the demo brings its own placeholder key; a
    server on this machine (Ollama, LM Studio) needs none; anything else does.
    """
    explicit = provider.settings.get("needs_key")
    if isinstance(explicit, bool):
        return explicit
    if is_demo_provider(provider):
        return False
    # No base URL means the type's default cloud endpoint.
    return not provider.base_url or not is_local_endpoint(provider.base_url)


SEEDED_KEY = "providers.seeded"


def has_user_providers(repos: Repositories) -> bool:
    return any(not is_demo_provider(p) for p in repos.providers.list_providers())


def seed_default_providers(repos: Repositories,
                           presets: tuple[ProviderPreset, ...] = DEFAULT_PROVIDERS) -> list[str]:
    """Create the default providers on first run; return the ids created (empty otherwise).

    Idempotent, and never touches an existing record (see the module docstring). Runs once per
    database: a user who deleted the defaults does not get them back at the next start.
    """
    if repos.meta.get(SEEDED_KEY) is not None:
        return []
    if has_user_providers(repos):
        repos.meta.set(SEEDED_KEY, "existing")
        return []
    created: list[str] = []
    with database_proxy.atomic():
        for preset in presets:
            if repos.providers.find_provider(preset.id) is not None:
                continue
            repos.providers.upsert_provider(id=preset.id, name=preset.name, type=preset.type,
                                            base_url=preset.base_url, enabled=preset.enabled)
            for model in preset.models:
                repos.providers.upsert_model(provider_id=preset.id, model_id=model.model_id, name=model.name)
            created.append(preset.id)
        repos.meta.set(SEEDED_KEY, "defaults")
    if created:
        log.info("first run: created default providers %s", ", ".join(created))
    return created


class ProviderSeedService(Service):
    """Seeds the default providers once the database is open (before any window reads it)."""

    name = "provider_seed"
    depends_on = ("database",)

    def __init__(self, repos: Repositories | None = None) -> None:
        self.repos = repos
        self.created: list[str] = []

    async def on_init(self, app: Application) -> None:
        repos = self.repos if self.repos is not None else app.get("database", DatabaseService).repos
        self.created = seed_default_providers(repos)


def preset_by_id(preset_id: str) -> ProviderPreset | None:
    return next((p for p in DEFAULT_PROVIDERS if p.id == preset_id), None)
