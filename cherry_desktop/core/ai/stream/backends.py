"""Persistence backends: the SQLite message tree, temporary in-memory chats, translations.

Each backend only writes; `PersistenceListener` has already folded errors and projected
stats. Writes are short synchronous SQLite statements on the loop (WAL, one row each).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Protocol

from cherry_desktop.core.ai.stream.persistence import PersistInput
from cherry_desktop.core.data import NotFoundError, Repositories, StoredMessage
from cherry_desktop.core.data.sibling_groups import continue_from_first_finished
from cherry_desktop.core.messages import DataPart, MessagePart, UIMessage, new_id

log = logging.getLogger(__name__)


class MessageServiceBackend:
    """Finalises a pending assistant placeholder of a chat topic (`kind = "sqlite"`).

    `prefix_parts` are the parts the row already had (a `continue-conversation` appends to
    its anchor). `checkpoint` writes the running partial onto the still-pending row.
    """

    kind = "sqlite"

    def __init__(self, repos: Repositories, *, message_id: str, topic_id: str | None = None,
                 prefix_parts: list[MessagePart] | None = None) -> None:
        self.repos = repos
        self.message_id = message_id
        self.topic_id = topic_id
        self.prefix_parts = list(prefix_parts or [])
        self.checkpoints = 0

    def _parts(self, message: UIMessage | None) -> list[MessagePart]:
        return [*self.prefix_parts, *(message.parts if message is not None else [])]

    async def persist_assistant(self, input: PersistInput) -> None:
        message = input.final_message
        # Message metadata is free-form JSON (tokens, finish reason, a provider's extras).
        metadata: dict[str, Any] = dict(message.metadata) if message is not None else {}
        if input.model_id:
            metadata.setdefault("model_id", input.model_id)
        self.repos.messages.update_message(self.message_id, parts=self._parts(message), status=input.status,
                                           stats=input.stats or {}, metadata=metadata)
        if input.status == "success":
            # One answer of a multi-model turn: the first to finish is the one the chat
            # continues from (unless the user chose), from the moment it shows.
            continue_from_first_finished(self.repos, self.message_id)
        if input.status == "success" and input.stats and input.stats.get("total_tokens"):
            self._record_usage(input)

    def _record_usage(self, input: PersistInput) -> None:
        stats = input.stats or {}
        try:
            self.repos.usage.add(topic_id=self.topic_id, message_id=self.message_id, model_id=input.model_id,
                                 input_tokens=int(stats.get("prompt_tokens", 0)),
                                 output_tokens=int(stats.get("completion_tokens", 0)),
                                 reasoning_tokens=int(stats.get("thoughts_tokens", 0)),
                                 time_first_token_ms=stats.get("time_first_token_ms"),
                                 time_completion_ms=stats.get("time_completion_ms"))
        except Exception:
            log.exception("usage record for %s failed", self.message_id)

    async def checkpoint(self, partial: UIMessage) -> None:
        if self.repos.messages.checkpoint_pending(self.message_id, self._parts(partial)):
            self.checkpoints += 1


@dataclass
class TemporaryTopic:
    id: str
    model_id: str | None
    messages: list[UIMessage] = field(default_factory=list)


class TemporaryChatService:
    """In-memory chats: never written to disk, gone at restart."""

    def __init__(self) -> None:
        self._topics: dict[str, TemporaryTopic] = {}

    def create_topic(self, *, model_id: str | None = None, topic_id: str | None = None) -> TemporaryTopic:
        topic = TemporaryTopic(id=topic_id or f"temp:{new_id()}", model_id=model_id)
        self._topics[topic.id] = topic
        return topic

    def has_topic(self, topic_id: str) -> bool:
        return topic_id in self._topics

    def get_topic(self, topic_id: str) -> TemporaryTopic:
        try:
            return self._topics[topic_id]
        except KeyError:
            raise NotFoundError(f"temporary topic {topic_id}") from None

    def messages(self, topic_id: str) -> list[UIMessage]:
        return list(self.get_topic(topic_id).messages)

    def append(self, topic_id: str, message: UIMessage) -> None:
        self.get_topic(topic_id).messages.append(message)

    def delete_topic(self, topic_id: str) -> None:
        self._topics.pop(topic_id, None)


class TemporaryChatBackend:
    """Appends the assistant message to a temporary topic (`kind = "temp"`)."""

    kind = "temp"

    def __init__(self, service: TemporaryChatService, topic_id: str) -> None:
        self.service = service
        self.topic_id = topic_id

    async def persist_assistant(self, input: PersistInput) -> None:
        if input.final_message is None:
            return
        m = input.final_message
        metadata = {**m.metadata, "status": input.status, "stats": input.stats or {}}
        if input.model_id:
            metadata.setdefault("model_id", input.model_id)
        self.service.append(self.topic_id, UIMessage.model_construct(id=m.id, role="assistant",
                                                                     parts=list(m.parts), metadata=metadata))


class TranslatableMessages(Protocol):
    """The message table a translation's target is in: chat messages (`repos.messages`) or
    agent-session messages (`repos.session_messages`)."""

    def find_message(self, message_id: str) -> StoredMessage | None: ...

    def update_message(self, message_id: str, *, parts: list[MessagePart] | None = None) -> None: ...


class TranslationBackend:
    """On success, writes the translated text as a `data-translation` part of the target message."""

    kind = "translation"

    def __init__(self, messages: TranslatableMessages, *, target_message_id: str, target_language: str) -> None:
        self.messages = messages
        self.target_message_id = target_message_id
        self.target_language = target_language

    async def persist_assistant(self, input: PersistInput) -> None:
        if input.status != "success" or input.final_message is None:
            return
        target = self.messages.find_message(self.target_message_id)
        if target is None:
            return  # the message was deleted while its translation streamed: nothing to keep
        part = DataPart(type="data-translation", id=self.target_language,
                        data={"text": input.final_message.text(), "target_language": self.target_language,
                              "model_id": input.model_id})
        parts: list[MessagePart] = [p for p in target.parts
                                    if not (isinstance(p, DataPart) and p.type == "data-translation"
                                            and p.id == self.target_language)]
        parts.append(part)
        try:
            self.messages.update_message(self.target_message_id, parts=parts)
        except NotFoundError:
            pass  # deleted between the read and the write
