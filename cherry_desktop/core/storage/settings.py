"""User settings: a frozen dataclass with a schema version, stored as JSON in the config dir.

Keys are never stored here (they live in the keyring). A corrupt or unreadable file is logged
and replaced by defaults in memory; the bad file is kept aside, never silently overwritten.

Not a pydantic model on purpose: the first window needs the theme and language before it
paints, and importing pydantic's model machinery costs ~85 ms here; seven typed fields check
themselves in `__post_init__` instead (pydantic loads with the stream services, after the paint).
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

# `Any`: settings as stored (a JSON object, validated field by field in `__post_init__`) and
# the keyword changes `update` validates the same way.
from typing import Any, Literal

log = logging.getLogger(__name__)

SETTINGS_VERSION = 1
SETTINGS_FILE = "settings.json"

Theme = Literal["system", "light", "dark"]
BackgroundMode = Literal["continue", "abort"]
_CHOICES: dict[str, tuple[str, ...]] = {
    "theme": ("system", "light", "dark"),
    "background_mode": ("continue", "abort"),
}


class SettingsError(ValueError):
    """A settings value of the wrong type or outside its choices."""


@dataclass(frozen=True)
class AppSettings:
    """The user's settings; every field has the type of its default (checked on creation)."""

    version: int = SETTINGS_VERSION
    # Empty: follow the system locale.
    language: str = ""
    theme: Theme = "system"
    background_mode: BackgroundMode = "continue"
    username: str = ""
    notify_on_completion: bool = True
    agent_idle_window_s: int = 300
    # The model that names topics after their first exchange ("" the topic's own model).
    naming_model: str = ""
    # A reply whose model sends nothing for this long (no tool running, no approval awaited)
    # is stopped and kept as `paused`; 0 never stops it.
    stream_idle_timeout_s: int = 300
    # A tool approval waiting while no window is open (no tray to live in) is given up after
    # this long: the turn stops as the Stop button stops it (the partial is kept), so the
    # windowless process ends; 0 waits for ever. The default is the approval timeout (2 h).
    background_approval_wait_s: int = 7200
    # The local API gateway (`core.gateway`): off until the user turns it on; 127.0.0.1 only.
    gateway_enabled: bool = False
    gateway_port: int = 23333
    # Automatic backups (`core.backup.auto`): once a day into `auto_backup_folder`, keeping the
    # newest `auto_backup_keep` of them; off until the user picks a folder and turns them on.
    auto_backup_enabled: bool = False
    auto_backup_folder: str = ""
    auto_backup_keep: int = 7
    # The conversation (a chat's or an agent session's topic id) last open in a window: the
    # next start opens it again when it still exists ("" none yet).
    last_topic_id: str = ""
    # Whether a new window shows its sidebar (the last choice of View › Show sidebar).
    sidebar_visible: bool = True

    def __post_init__(self) -> None:
        values = asdict(self)
        for spec in fields(self):
            value = values[spec.name]
            expected = type(spec.default)
            if type(value) is not expected:  # exact: True is not an int setting, 1 not a bool
                raise SettingsError(f"settings.{spec.name}: expected {expected.__name__}, got {value!r}")
            choices = _CHOICES.get(spec.name)
            if choices is not None and value not in choices:
                raise SettingsError(f"settings.{spec.name}: {value!r} is not one of {', '.join(choices)}")
        for name in ("agent_idle_window_s", "stream_idle_timeout_s", "background_approval_wait_s"):
            if values[name] < 0:
                raise SettingsError(f"settings.{name}: {values[name]} is negative")
        if values["auto_backup_keep"] < 1:
            raise SettingsError(f"settings.auto_backup_keep: {values['auto_backup_keep']} is below 1")
        if not 1 <= values["gateway_port"] <= 65535:
            raise SettingsError(f"settings.gateway_port: {values['gateway_port']} is not a TCP port (1-65535)")

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> AppSettings:
        """Build from a stored object; unknown keys (a newer or older app's) are ignored."""
        known = {spec.name for spec in fields(cls)}
        return cls(**{key: value for key, value in raw.items() if key in known})

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _migrate(raw: dict[str, Any]) -> dict[str, Any]:
    """Forward migrations of the settings file, by its `version`."""
    version = int(raw.get("version", 0) or 0)
    if version < 1:
        raw = dict(raw)
        raw["version"] = 1
    return raw


class SettingsStore:
    def __init__(self, config_dir: Path) -> None:
        self.path = config_dir / SETTINGS_FILE
        self.settings = self._load()

    def _load(self) -> AppSettings:
        if not self.path.exists():
            return AppSettings()
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(raw, dict):
                raise ValueError("settings file is not an object")
            return AppSettings.from_dict(_migrate(raw))
        except (OSError, ValueError, TypeError) as exc:
            aside = self.path.with_suffix(".corrupt.json")
            log.error("unreadable settings %s (%s); defaults used, file kept as %s", self.path, exc, aside)
            try:
                self.path.replace(aside)
            except OSError:
                pass
            return AppSettings()

    def update(self, **changes: Any) -> AppSettings:
        """Apply `changes` and save; raises `SettingsError` (nothing changed) on a bad value
        and `TypeError` on an unknown key."""
        self.settings = replace(self.settings, **changes)
        self.save()
        return self.settings

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.settings.as_dict(), indent=2, ensure_ascii=False), encoding="utf-8")
        tmp.replace(self.path)
