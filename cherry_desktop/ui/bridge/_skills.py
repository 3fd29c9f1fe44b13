"""The bridge's skills facet: Cherry-managed skills for Settings and the agent dialog.

`Bridges.skills`. Core's `SkillStore` is the one writer of the skills folder.
"""

from __future__ import annotations

from pathlib import Path

from cherry_desktop.core.skills import Skill, SkillStore
from cherry_desktop.ui.bridge._base import BridgeUnavailableError, CoreBridge


class SkillsBridge(CoreBridge):
    """List, import (a folder or a zip) and remove skills."""

    def _store(self) -> SkillStore:
        if self.core.skills is None:
            raise BridgeUnavailableError("skills")
        return self.core.skills

    @property
    def available(self) -> bool:
        return self.core.skills is not None

    def skills(self) -> list[Skill]:
        return self._store().list() if self.available else []

    def import_path(self, path: Path) -> Skill:
        """Import a skill folder or a ``.zip`` (raises `SkillError`)."""
        store = self._store()
        return store.import_zip(path) if path.suffix.lower() == ".zip" else store.import_folder(path)

    def delete(self, name: str) -> None:
        self._store().delete(name)
