"""``system`` SDK messages -> runtime events: ``init`` gives the resume token, ``status`` marks a
model request's start and the compaction's progress, ``compact_boundary`` ends a compaction
(with what was compacted). Typed against the SDK (imported for type checking only)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from cherry_desktop.core.ai.runtime.types import (
    AgentRuntimeEvent,
    CompactionCompleteEvent,
    CompactionErrorEvent,
    CompactionStartEvent,
    ResumeTokenEvent,
)
from cherry_desktop.core.messages.json_value import JsonObject, JsonValue, json_object

if TYPE_CHECKING:
    from claude_agent_sdk import SystemMessage

#: type -> is it the SDK's `SystemMessage` or one of its subclasses (task and hook notices).
_SYSTEM_TYPES: dict[type, bool] = {}


def is_system_message(cls: type) -> bool:
    system = _SYSTEM_TYPES.get(cls)
    if system is None:
        system = _SYSTEM_TYPES[cls] = any(base.__name__ == "SystemMessage" for base in cls.__mro__)
    return system


@dataclass
class SystemFolded:
    """What one system message meant."""

    events: list[AgentRuntimeEvent] = field(default_factory=list)
    #: The CLI started a model request (``status: requesting``): its clock starts now.
    request_started: bool = False
    #: The SDK session id ``init`` reported.
    session_id: str | None = None


class SystemMessageFold:
    """Folds one connection's system messages; remembers whether a compaction is under way."""

    def __init__(self) -> None:
        self.compacting = False

    def fold(self, message: SystemMessage) -> SystemFolded:
        subtype = message.subtype
        data: JsonObject = message.data or {}
        if subtype == "init":
            session_id = data.get("session_id")
            if isinstance(session_id, str) and session_id:
                return SystemFolded([ResumeTokenEvent(session_id)], session_id=session_id)
            return SystemFolded()
        if subtype == "compact_boundary":
            self.compacting = False
            metadata = json_object(data.get("compact_metadata"))
            anchor = data.get("uuid") or metadata.get("preserved_segment_anchor")
            # The CLI's compact_metadata: {trigger: "manual" | "auto", pre_tokens, post_tokens?}.
            pre_tokens = metadata.get("pre_tokens")
            return SystemFolded([CompactionCompleteEvent(
                anchor=str(anchor) if anchor else None,
                tokens_before=pre_tokens if isinstance(pre_tokens, int) else None,
                trigger=_compaction_trigger(metadata.get("trigger")))])
        if subtype == "status":
            return self._status(data)
        return SystemFolded()

    def _status(self, data: JsonObject) -> SystemFolded:
        folded = SystemFolded(request_started=data.get("status") == "requesting")
        if data.get("status") == "compacting" and not self.compacting:
            self.compacting = True
            folded.events.append(CompactionStartEvent())
        result = data.get("compact_result")
        if result == "success" and self.compacting:
            # Settled without a boundary message: complete once, no anchor.
            self.compacting = False
            folded.events.append(CompactionCompleteEvent(anchor=None))
        elif result == "failed" or data.get("compact_error"):
            self.compacting = False
            folded.events.append(CompactionErrorEvent(message=str(data.get("compact_error") or "compaction failed")))
        return folded


def _compaction_trigger(value: JsonValue) -> Literal["auto", "manual"] | None:
    if value == "auto":
        return "auto"
    return "manual" if value == "manual" else None
