"""Small helpers every part of the screen uses: tasks spawned from widgets, a flow layout, a text
dialog sized to its text, a field as wide as its placeholder, file pickers whose columns read,
the locales the app is translated into, a question box awaited from a task."""

from __future__ import annotations

from cherry_desktop.ui.common._day_timer import DayTimer
from cherry_desktop.ui.common._file_dialog import ReadableFileDialog, existing_directory, open_file_names
from cherry_desktop.ui.common._flow_layout import FlowLayout, flow_policy
from cherry_desktop.ui.common._json import Json, JsonObject
from cherry_desktop.ui.common._locales import LOCALES
from cherry_desktop.ui.common._placeholder_edit import PlaceholderLineEdit
from cherry_desktop.ui.common._question import answer_of
from cherry_desktop.ui.common._tasks import drain, spawn
from cherry_desktop.ui.common._text_dialog import ask_text, text_dialog

__all__ = [
    "LOCALES",
    "DayTimer",
    "FlowLayout",
    "Json",
    "JsonObject",
    "PlaceholderLineEdit",
    "ReadableFileDialog",
    "answer_of",
    "ask_text",
    "drain",
    "existing_directory",
    "flow_policy",
    "open_file_names",
    "spawn",
    "text_dialog",
]
