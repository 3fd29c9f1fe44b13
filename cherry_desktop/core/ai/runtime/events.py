"""The events an agent runtime connection emits (`AgentRuntimeEvent` and its members), and
the message-metadata keys a settled turn carries (adding-an-agent-runtime.md, "events")."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from cherry_desktop.core.messages import UIMessageChunk
from cherry_desktop.core.messages.json_value import JsonValue


@dataclass(frozen=True)
class ChunkEvent:
    chunk: UIMessageChunk
    type: Literal["chunk"] = "chunk"


@dataclass(frozen=True)
class ToolApprovalRequestEvent:
    """The runtime waits for the user's decision on a tool call."""

    approval_id: str
    tool_call_id: str
    tool_name: str
    input: JsonValue = None
    type: Literal["tool-approval-request"] = "tool-approval-request"


@dataclass(frozen=True)
class UsageEvent:
    """Per-request usage and timing (one model invocation); never split from totals."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    reasoning_tokens: int = 0
    time_first_token_ms: int | None = None
    time_completion_ms: int | None = None
    model: str | None = None
    type: Literal["usage"] = "usage"


@dataclass(frozen=True)
class ResumeTokenEvent:
    token: str
    type: Literal["resume-token"] = "resume-token"


#: Message-metadata key of a turn that ended before the runtime finished it (value: a
#: `CutShortReason`). The row keeps its partial text; the window says why it is cut short.
CUT_SHORT_METADATA_KEY = "cut_short"


#: Message-metadata key set (True) on the first answer after the runtime refused to resume
#: the stored conversation and a new one was started: the window tells the user the agent no
#: longer remembers the earlier messages.
HISTORY_RESET_METADATA_KEY = "history_reset"


class CutShortReason(StrEnum):
    """Why a turn's answer is incomplete although it settled."""

    RUNTIME_EXITED = "runtime-exited"  # the agent process ended (or its stream broke) mid-turn


@dataclass(frozen=True)
class TurnCompleteEvent:
    """The turn is settled; the host closes the UI turn on this event."""

    finish_reason: str | None = None
    salvaged: bool = False
    type: Literal["turn-complete"] = "turn-complete"


@dataclass(frozen=True)
class SteerUndeliveredEvent:
    """The turn ended before a redirected steer was injected: queue it as the next turn."""

    message_id: str
    type: Literal["steer-undelivered"] = "steer-undelivered"


@dataclass(frozen=True)
class SteerInjectedEvent:
    """A stashed steer was handed to the running turn (before the model's next request).

    Emitted synchronously from the injection point, so the host can reserve the continuation
    row's id before a gateway-owned connection's next request reaches the gateway."""

    message_ids: tuple[str, ...]
    type: Literal["steer-injected"] = "steer-injected"


@dataclass(frozen=True)
class SteerBoundaryEvent:
    """Emitted just before the model's post-steer assistant message."""

    message_ids: tuple[str, ...]
    type: Literal["steer-boundary"] = "steer-boundary"


@dataclass(frozen=True)
class CompactionStartEvent:
    type: Literal["compaction-start"] = "compaction-start"


@dataclass(frozen=True)
class CompactionCompleteEvent:
    anchor: str | None = None
    # What was compacted, where the runtime says: the context's size before (tokens), and
    # whether the runtime compacted on its own ("auto": the context was full) or was asked.
    tokens_before: int | None = None
    trigger: Literal["auto", "manual"] | None = None
    type: Literal["compaction-complete"] = "compaction-complete"


@dataclass(frozen=True)
class CompactionErrorEvent:
    message: str = ""
    type: Literal["compaction-error"] = "compaction-error"


@dataclass(frozen=True)
class ContextUsageEvent:
    used_tokens: int
    max_tokens: int | None = None
    type: Literal["context-usage"] = "context-usage"


@dataclass(frozen=True)
class SlashCommandsEvent:
    """The commands the runtime takes in a message of its own (each with its leading "/"), as
    it announced them: Claude Code's ``init`` message, ACP's ``available_commands_update``.
    The composer offers them in place of the descriptor's `slash_commands`."""

    commands: tuple[str, ...]
    type: Literal["slash-commands"] = "slash-commands"

    @classmethod
    def of(cls, names: Iterable[object]) -> SlashCommandsEvent:
        """From the runtime's names ("compact" or "/compact"), in order, each once; a name
        that starts with "_" is the runtime's own (Claude Code's "__remote-workflow")."""
        bare = (n.strip().lstrip("/") for n in names if isinstance(n, str))
        return cls(tuple(dict.fromkeys(f"/{n}" for n in bare if n and not n.startswith("_"))))


@dataclass(frozen=True)
class ErrorEvent:
    """The turn failed. `fatal` means the connection is torn down (must be rebuilt)."""

    message: str
    code: str | None = None
    status: int | None = None
    fatal: bool = True
    type: Literal["error"] = "error"


AgentRuntimeEvent = (
    ChunkEvent
    | ToolApprovalRequestEvent
    | UsageEvent
    | ResumeTokenEvent
    | TurnCompleteEvent
    | SteerUndeliveredEvent
    | SteerInjectedEvent
    | SteerBoundaryEvent
    | CompactionStartEvent
    | CompactionCompleteEvent
    | CompactionErrorEvent
    | ContextUsageEvent
    | SlashCommandsEvent
    | ErrorEvent
)
