"""Bundled built-in agent definitions (`resources/agents/<id>.json`), localized.

A built-in agent row stores `built_in_id` and, until the user edits it, an empty `instructions`
field: the prompt materializer then resolves the *current* localized bundled text, so an app
update or a language switch reaches every untouched built-in agent. A non-empty DB instruction
is the user's and is never replaced.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path

from cherry_desktop.core.messages.json_value import JsonObject, JsonValue
from cherry_desktop.core.storage.assets import asset_dir

log = logging.getLogger(__name__)

SUPPORTED_LOCALES: tuple[str, ...] = ("en-US", "zh-CN", "zh-TW")
DEFAULT_LOCALE = "en-US"

# The Assistant's last resort when its bundle is missing or unreadable (a broken install must
# still produce a usable agent, not an empty role).
FAIL_SAFE_INSTRUCTIONS = (
    "You are {{agent_name}}, a helpful assistant working in the user's workspace. "
    "Be accurate and concise, explain what you change, and say so when you are unsure."
)

_BUNDLE_DIR = asset_dir("resources") / "agents"


def bundle_dir() -> Path:
    """Where the bundled definitions live (inside the package, shipped as package data)."""
    return _BUNDLE_DIR


def normalize_locale(language: str | None) -> str:
    """Map an app language ("zh_CN", "zh-Hant", "en") to one of `SUPPORTED_LOCALES`."""
    if not language:
        return DEFAULT_LOCALE
    lang = language.replace("_", "-").strip()
    for loc in SUPPORTED_LOCALES:
        if lang.lower() == loc.lower():
            return loc
    low = lang.lower()
    if low.startswith("zh"):
        if any(tag in low for tag in ("-tw", "-hk", "-mo", "-hant")):
            return "zh-TW"
        return "zh-CN"
    return DEFAULT_LOCALE


@dataclass(frozen=True)
class BuiltinAgentDefinition:
    """One built-in agent in one locale."""

    id: str
    type: str
    locale: str
    name: str
    description: str
    instructions: str
    soul: str = ""
    user: str = ""
    permission_mode: str = "default"


def _read_bundle(built_in_id: str, directory: Path | None) -> JsonObject | None:
    path = (directory or bundle_dir()) / f"{built_in_id}.json"
    try:
        data: JsonValue = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        log.warning("built-in agent bundle %s unreadable: %s", path, exc)
        return None
    return data if isinstance(data, dict) else None


def load_builtin_agent(built_in_id: str, language: str | None = None, *,
                       directory: Path | None = None) -> BuiltinAgentDefinition | None:
    """The bundled definition in the best locale for `language`; None when unavailable."""
    data = _read_bundle(built_in_id, directory)
    if data is None:
        return None
    locales = data.get("locales")
    if not isinstance(locales, dict):
        return None
    locale = normalize_locale(language)
    entry = locales.get(locale) or locales.get(DEFAULT_LOCALE)
    if not isinstance(entry, dict) or not str(entry.get("instructions", "")).strip():
        return None
    if locale not in locales:
        locale = DEFAULT_LOCALE
    return BuiltinAgentDefinition(
        id=str(data.get("id", built_in_id)), type=str(data.get("type", "claude-code")), locale=locale,
        name=str(entry.get("name", built_in_id)), description=str(entry.get("description", "")),
        instructions=str(entry["instructions"]), soul=str(entry.get("soul", "")),
        user=str(entry.get("user", "")), permission_mode=str(data.get("permission_mode", "default")),
    )


def list_builtin_agent_ids(directory: Path | None = None) -> list[str]:
    d = directory or bundle_dir()
    if not d.is_dir():
        return []
    return sorted(p.stem for p in d.glob("*.json"))
