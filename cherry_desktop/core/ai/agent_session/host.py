"""The host's two seams: what it needs from the stream manager (`RuntimeStreamHost`,
`AiStreamManager` satisfies it), and what its parts need from the service (`SessionHost`)."""

from __future__ import annotations

import asyncio
import locale
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

from cherry_desktop.core.ai.agent_session.persistence import BeginTurnResult
from cherry_desktop.core.ai.agent_session.state import Segment, SessionStatus, TurnKind
from cherry_desktop.core.ai.runtime.register_drivers import RuntimeDriverRegistry
from cherry_desktop.core.ai.runtime.types import RuntimeConnectInput, RuntimeSessionContext
from cherry_desktop.core.ai.stream.quiesce import WriteQuiesce
from cherry_desktop.core.ai.stream.types import (
    AiStreamRequest,
    SendResult,
    SerializedError,
    StreamListener,
    UniqueModelId,
)
from cherry_desktop.core.data.agent_repository import AgentSessionRepository
from cherry_desktop.core.data.session_message_repository import AgentSessionMessageRepository
from cherry_desktop.core.messages import UIMessage


@dataclass(frozen=True)
class HostSettings:
    """Who the user is and their language, as a runtime's prompt names them."""

    username: str = ""
    language: str = ""


def system_language() -> str:
    """The OS locale's language ("en-US" when it names none)."""
    try:
        lang = locale.getlocale()[0]
    except ValueError:
        lang = None
    return lang or "en-US"


class RuntimeStreamHost(Protocol):
    def has_live_stream(self, topic_id: str) -> bool: ...

    def will_continue_topic(self, topic_id: str) -> bool:
        """Keep the topic stream open across its next terminal (a continuation follows)."""
        ...

    def start_runtime_turn(self, *, topic_id: str, model_id: UniqueModelId, request: AiStreamRequest,
                           listeners: Sequence[StreamListener] = (),
                           anchor_message_id: str | None = None) -> SendResult:
        """Launch a runtime turn's execution on the topic, carrying its subscribers."""
        ...

    async def terminate_held_topic_stream(self, topic_id: str,
                                          error: SerializedError | str | None = None) -> bool:
        """A continuation could not start: end the held topic as `error`."""
        ...

    def clear_awaiting_approval(self, topic_id: str, model_id: UniqueModelId | None = None) -> None:
        """The runtime took the user's answer to an approval: the topic streams on."""
        ...

    def abort(self, topic_id: str, reason: str = "user") -> None: ...


T = TypeVar("T")


class TurnCheckpoints(Protocol):
    """Checkpoints of a session's workspace around each runtime turn (`CheckpointService`),
    taken by the host for every runtime alike."""

    async def turn_started(self, session_id: str, workspace: Path, user_message_id: str,
                           assistant_message_id: str) -> None:
        """Before the turn's message goes to the runtime: returns once the workspace is captured
        (never raises: a turn runs without a checkpoint rather than not at all)."""
        ...

    def turn_ended(self, session_id: str, user_message_id: str, assistant_message_ids: list[str]) -> None:
        """The turn is over (its steer continuations included): checkpoint in the background."""
        ...

    async def session_deleted(self, session_id: str) -> None: ...


class SessionHost(Protocol):
    """What the host's parts (`LiveSession` and its `SessionConnection`, `steering`,
    `turn_starts`, `sessions_admin`, `tool_grants`) need from their owner,
    `AgentSessionRuntimeService`. They reach the service through this only, never its class;
    sessions are named by id (so this module needs no `LiveSession`: no import cycle)."""

    @property
    def idle_window_s(self) -> float: ...

    @property
    def settle_timeout_s(self) -> float:
        """How long a stopped turn may take to settle before its connection is dropped."""
        ...

    @property
    def stopped(self) -> bool: ...

    @property
    def quiesce(self) -> WriteQuiesce: ...

    @property
    def streams(self) -> RuntimeStreamHost:
        """The stream manager (raises before one is set)."""
        ...

    @property
    def messages(self) -> AgentSessionMessageRepository: ...

    @property
    def session_rows(self) -> AgentSessionRepository: ...

    @property
    def registry(self) -> RuntimeDriverRegistry: ...

    @property
    def checkpoints(self) -> TurnCheckpoints | None:
        """The workspace checkpoints around each turn (None: not taken)."""
        ...

    def is_deleted(self, session_id: str) -> bool:
        """Deleted in this run: no turn, prewarm or late write for it."""
        ...

    def spawn(self, coro: Coroutine[object, object, T], *, in_flight: str | None = None) -> asyncio.Task[T]:
        """Run `coro` in the background (`in_flight`: a launch the write quiesce drains)."""
        ...

    def publish(self, status: SessionStatus) -> None:
        """Mirror a session's runtime state for the windows."""
        ...

    def forget(self, session_id: str, session: object) -> None:
        """Drop `session` from the registry if it is still the one under `session_id`."""
        ...

    def resolve_context(self, session_id: str) -> RuntimeSessionContext:
        """Validate the session now (raises `AgentSessionValidationError`)."""
        ...

    def connect_input(self, context: RuntimeSessionContext, resume_token: str | None) -> RuntimeConnectInput: ...

    def begin_turn(self, session_id: str, *, user_message: UIMessage, assistant_message_id: str, model_id: str,
                   context: RuntimeSessionContext | None = None, system_reminder: bool = False,
                   kind: TurnKind = "normal") -> BeginTurnResult: ...

    def segment_listeners(self, seg: Segment) -> BeginTurnResult:
        """The listeners of a begun segment of a live session."""
        ...

    def hand_over(self, session_id: str) -> bool:
        """An idle session with a queue hands over to its head now."""
        ...

    async def start_continuation(self, seg: Segment) -> None:
        """Start the steer continuation `seg` (A2) once its pre-steer segment ended."""
        ...
