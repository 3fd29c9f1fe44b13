"""A window's multi-model actions: which models the chat asks, stopping one model's answer,
and continuing the conversation from the answer the user picks."""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import QCoreApplication

from cherry_desktop.ui.common import spawn


def _words(code: str) -> str:
    if code == "not-finished":
        return QCoreApplication.translate(
            "MultiModel", "Only an answer that finished can be used. Regenerate it, or use another.")
    if code == "group-continued":
        return QCoreApplication.translate(
            "MultiModel", "The conversation already went on from another answer of this turn.")
    return QCoreApplication.translate("MultiModel", "This answer cannot be used to continue the conversation.")


def connect_window(window: Any) -> None:
    """Wire the window's message view groups and chat header to the actions below."""
    groups = window.message_view.groups
    groups.regenerate_requested.connect(window.regenerate)
    groups.stop_requested.connect(lambda model_id: stop_answer(window, model_id))
    groups.choose_requested.connect(lambda message_id: choose_answer(window, message_id))
    window.chat_header.extra_models_chosen.connect(lambda ids: set_extra_models(window, ids))


def extra_model_issue(bridge: Any, topic_id: str) -> Any:
    """What keeps one of the other models the chat asks from answering (no key, provider
    off): said before sending, as for the chat's own model. None: all can answer."""
    for model_id in bridge.multi_model.models_to_ask(topic_id)[1:]:
        issue = bridge.model_issue(model_id)
        if issue is not None and issue.blocks_send:
            return issue
    return None


def header_issue(bridge: Any, topic_id: str) -> Any:
    """The chat header's notice: what keeps the chat's own model from answering, else a model
    it also asked that was deleted since (no longer asked). None: nothing to say."""
    return bridge.chat_issue(topic_id) or bridge.multi_model.dropped_issue(topic_id)


def set_extra_models(window: Any, unique_model_ids: list[str]) -> None:
    """The user picked the models the chat asks besides its own: saved with the chat, and
    every window of it follows."""
    topic_id = window.topic_id
    if topic_id is None:
        return
    bridge = window.bridge
    bridge.multi_model.set_extra_models(topic_id, unique_model_ids)
    extra, issue = bridge.multi_model.extra_models(topic_id), header_issue(bridge, topic_id)
    for other in window.controller.windows_for(topic_id):
        other.chat_header.set_extra_models(extra)
        other.chat_header.set_issue(issue)


def stop_answer(window: Any, unique_model_id: str) -> asyncio.Task[Any] | None:
    """Stop one model's answer; the other models of the turn go on."""
    if window.topic_id is None:
        return None
    return spawn(window.bridge.multi_model.stop(window.topic_id, unique_model_id))


def choose_answer(window: Any, message_id: str) -> bool:
    """"Use this answer": the next message continues from it (saved; every window shows it)."""
    from cherry_desktop.core.views.sibling_groups import SiblingChoiceError

    topic_id = window.topic_id
    if topic_id is None or window.is_streaming():
        return False
    try:
        window.bridge.multi_model.choose(message_id)
    except SiblingChoiceError as exc:
        window.last_error = _words(exc.code)
        window.statusBar().showMessage(window.last_error, 8000)
        return False
    for other in window.controller.windows_for(topic_id):
        other.message_view.reload()
    return True
