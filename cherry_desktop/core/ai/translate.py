"""Translate a chat or agent-session message: a prompt stream (`AiStreamManager.stream_prompt`,
the silent lifecycle) asks a model for the message's text in another language;
`TranslationBackend` saves the answer as the message's `data-translation` part (one per
language), and the caller's listeners see it stream. The model is the message's own, else its
chat's or session's, else the `naming_model` setting's (passed by the caller)."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cherry_desktop.core.ai.prompt_streams import PromptStreams
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.messages import TextPart

if TYPE_CHECKING:
    from cherry_desktop.core.ai.stream import SendResult, StreamListener

#: Marks the translation request (the scripted model server answers it).
TRANSLATION_MARKER = "[cherry:translate]"
TRANSLATION_STREAM_PREFIX = "translate:"

#: Target languages by code, named as the model is asked.
LANGUAGES = {"en": "English", "zh-CN": "Simplified Chinese", "zh-TW": "Traditional Chinese", "ja": "Japanese",
             "ko": "Korean", "fr": "French", "de": "German", "es": "Spanish"}


class TranslationIssue(enum.Enum):
    NO_TEXT = "no-text"
    NO_MODEL = "no-model"
    UNKNOWN_LANGUAGE = "unknown-language"
    BUSY = "busy"


class TranslationError(Exception):
    def __init__(self, issue: TranslationIssue) -> None:
        super().__init__(issue.value)
        self.issue = issue


def translation_stream_id(message_id: str) -> str:
    return TRANSLATION_STREAM_PREFIX + message_id


def translation_system_prompt(language: str) -> str:
    return (f"{TRANSLATION_MARKER} Translate the user's text into {LANGUAGES[language]}. Keep its Markdown and "
            "code as they are. Reply with the translation only.")


def start_translation(manager: PromptStreams, repos: Repositories, message_id: str, language: str, *,
                      fallback_model: str | None = None, listeners: Sequence[StreamListener] = ()) -> SendResult:
    """Start translating the chat or agent-session message into `language` (a `LANGUAGES`
    code); returns the stream's `SendResult`. Raises `TranslationError`."""
    from cherry_desktop.core.ai.stream import PersistenceListener, TranslationBackend
    from cherry_desktop.core.ai.stream.backends import TranslatableMessages

    if language not in LANGUAGES:
        raise TranslationError(TranslationIssue.UNKNOWN_LANGUAGE)
    messages: TranslatableMessages = repos.messages
    message = repos.messages.find_message(message_id)
    if message is not None:
        topic = repos.topics.find_topic(message.owner_id)
        owner_model = topic.model if topic is not None else None
    else:
        # An agent-session message: translated by a chat model (the session's, which may
        # need a provider key the runtime itself does without), never through the runtime.
        messages = repos.session_messages
        message = repos.session_messages.get_message(message_id)
        session = repos.sessions.find_session(message.owner_id)
        owner_model = session.model if session is not None else None
    text = "\n".join(p.text for p in message.parts if isinstance(p, TextPart)).strip()
    if not text:
        raise TranslationError(TranslationIssue.NO_TEXT)
    model = message.model_id or owner_model or fallback_model
    if not model:
        raise TranslationError(TranslationIssue.NO_MODEL)
    stream_id = translation_stream_id(message_id)
    if manager.has_live_stream(stream_id):
        raise TranslationError(TranslationIssue.BUSY)
    backend = TranslationBackend(messages, target_message_id=message_id, target_language=language)
    persist = PersistenceListener(backend=backend, topic_id=stream_id, model_id=model)
    return manager.stream_prompt(stream_id=stream_id, unique_model_id=model, prompt=text,
                                 system=translation_system_prompt(language), listener=[persist, *listeners])
