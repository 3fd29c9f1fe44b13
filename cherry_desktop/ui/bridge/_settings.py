"""The user's settings (theme, language, background mode, notifications, naming model, ...)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal

from cherry_desktop.ui.bridge._base import CoreBridge


class SettingsBridge(CoreBridge):
    """Reads and changes the settings; a change reaches the running stream broker at once.

    Signals:
        settings_changed(dict): the user settings after a change.
    """

    settings_changed = Signal(dict)

    def settings_values(self) -> dict[str, Any]:
        return self.core.settings.settings.as_dict()

    def update_settings(self, **changes: Any) -> None:
        self.core.settings.update(**changes)
        manager = self._stream_manager()
        mode = changes.get("background_mode")
        if mode and manager is not None:  # before the services run, the manager is built from settings
            manager.set_background_mode(mode)
        self.settings_changed.emit(self.settings_values())

    def last_topic(self) -> str:
        """The conversation last open in a window ("" none)."""
        return self.core.settings.settings.last_topic_id

    def remember_last_topic(self, topic_id: str) -> None:
        """A window opened `topic_id`: saved for the next start (not a preference: no
        `settings_changed`)."""
        if topic_id != self.core.settings.settings.last_topic_id:
            self.core.settings.update(last_topic_id=topic_id)

    def remember_sidebar_visible(self, visible: bool) -> None:
        """A window showed or hid its sidebar: the next window opens that way (saved, not a
        preference broadcast: no `settings_changed`, the other windows keep theirs)."""
        if visible != self.core.settings.settings.sidebar_visible:
            self.core.settings.update(sidebar_visible=visible)
