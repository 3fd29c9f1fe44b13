"""User settings: a pydantic model with a schema version, stored as JSON in the config dir.

Keys are never stored here (they live in the keyring). A corrupt or unreadable file is logged
and replaced by defaults in memory; the bad file is kept aside, never silently overwritten.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

log = logging.getLogger(__name__)

SETTINGS_VERSION = 1
SETTINGS_FILE = "settings.json"

Theme = Literal["system", "light", "dark"]


class AppSettings(BaseModel):
    model_config = ConfigDict(extra="ignore", validate_assignment=True)

    version: int = SETTINGS_VERSION
    # Empty: follow the system locale.
    language: str = ""
    theme: Theme = "system"
    background_mode: Literal["continue", "abort"] = "continue"
    username: str = ""
    notify_on_completion: bool = True
    agent_idle_window_s: int = 300


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
            return AppSettings.model_validate(_migrate(raw))
        except (OSError, ValueError, ValidationError) as exc:
            aside = self.path.with_suffix(".corrupt.json")
            log.error("unreadable settings %s (%s); defaults used, file kept as %s", self.path, exc, aside)
            try:
                self.path.replace(aside)
            except OSError:
                pass
            return AppSettings()

    def update(self, **changes: Any) -> AppSettings:
        data = self.settings.model_dump()
        data.update(changes)
        self.settings = AppSettings.model_validate(data)
        self.save()
        return self.settings

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(self.settings.model_dump_json(indent=2), encoding="utf-8")
        tmp.replace(self.path)
