"""A window's multi-model actions: which models the chat asks, stopping one model's answer,
and continuing the conversation from the answer the user picks.

Each is saved through the bridge, which publishes it on the shared cache; every window of the
chat (this one too) follows from there (`ChatWindow` on `topic_extra_models_key` and
`topic_continuation_key`)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QCoreApplication

from cherry_desktop.ui.bridge import SiblingChoiceError
from cherry_desktop.ui.common import spawn

if TYPE_CHECKING:
    from cherry_desktop.ui.bridge import Bridges
    from cherry_desktop.ui.chat import ChatHeader, MessageView


class MultiModelWindow(Protocol):
    """What these actions need of their window."""

    topic_id: str | None
    bridges: Bridges
    message_view: MessageView
    chat_header: ChatHeader

    def regenerate(self, message_id: str) -> asyncio.Task[Any] | None: ...

    def is_streaming(self) -> bool: ...

    def show_error(self, message: str) -> None: ...


def _words(code: str) -> str:
    if code == "not-finished":
        return QCoreApplication.translate(
            "MultiModel", "Only an answer that finished can be used. Regenerate it, or use another.")
    if code == "group-continued":
        return QCoreApplication.translate(
            "MultiModel", "The conversation already went on from another answer of this turn.")
    return QCoreApplication.translate("MultiModel", "This answer cannot be used to continue the conversation.")


def connect_window(window: MultiModelWindow) -> None:
    """Wire the window's message view groups and chat header to the actions below."""
    groups = window.message_view.groups
    groups.regenerate_requested.connect(window.regenerate)
    groups.stop_requested.connect(lambda model_id: stop_answer(window, model_id))
    groups.choose_requested.connect(lambda message_id: choose_answer(window, message_id))
    window.chat_header.extra_models_chosen.connect(lambda ids: set_extra_models(window, ids))


def set_extra_models(window: MultiModelWindow, unique_model_ids: list[str]) -> None:
    """The user picked the models the chat asks besides its own: saved with the chat, and
    every window of it follows."""
    if window.topic_id is not None:
        window.bridges.multi_model.set_extra_models(window.topic_id, unique_model_ids)


def stop_answer(window: MultiModelWindow, unique_model_id: str) -> asyncio.Task[Any] | None:
    """Stop one model's answer; the other models of the turn go on."""
    if window.topic_id is None:
        return None
    return spawn(window.bridges.streams.abort(window.topic_id, model_id=unique_model_id))


def choose_answer(window: MultiModelWindow, message_id: str) -> bool:
    """"Use this answer": the next message continues from it (saved; every window shows it)."""
    topic_id = window.topic_id
    if topic_id is None or window.is_streaming():
        return False
    try:
        window.bridges.multi_model.choose(topic_id, message_id)
    except SiblingChoiceError as exc:
        window.show_error(_words(exc.code))
        return False
    return True
