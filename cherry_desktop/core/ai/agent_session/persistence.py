"""Agent-session persistence: the `agents-db` backend (used through the stream manager's one
`PersistenceListener`) and the turn's terminal-side listeners.

`AgentSessionMessageBackend` finalises the pending assistant row of one segment (parts, status,
stats) and stamps the session's latest runtime resume token on it at terminal time, error rows
included, so the next connection can resume from the newest driver-known state.

`RuntimeTerminalListener` filters by `anchor_message_id`: a steer continuation runs on the same
topic and model as the segment before it, and only the anchor tells the two rows apart.
`BeginTurnResult` bundles a segment's three listeners, in the order the manager must run them.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from cherry_desktop.core.ai.stream.listeners import ChunkBlindListener
from cherry_desktop.core.ai.stream.persistence import PersistInput, PersistStatus
from cherry_desktop.core.ai.stream.trace import TraceFlushListener
from cherry_desktop.core.ai.stream.types import (
    StreamDoneResult,
    StreamErrorResult,
    StreamListener,
    StreamPausedResult,
    StreamTerminalResult,
)
from cherry_desktop.core.data.agent_repository import NotFoundError
from cherry_desktop.core.data.session_message_repository import AgentSessionMessageRepository
from cherry_desktop.core.messages import MessagePart, UIMessage, without_open_approvals

log = logging.getLogger(__name__)


class AgentSessionMessageBackend:
    """Writes a segment's assistant row in `agent_session_message` (a `PersistenceBackend`)."""

    def __init__(self, messages: AgentSessionMessageRepository, *, message_id: str,
                 get_resume_token: Callable[[], str | None],
                 on_persisted: Callable[[PersistStatus], None] | None = None,
                 is_dropped: Callable[[], bool] = lambda: False) -> None:
        self._messages = messages
        self.message_id = message_id
        self._get_resume_token = get_resume_token
        self._is_dropped = is_dropped
        self._on_persisted = on_persisted
        self.persisted: PersistStatus | None = None

    @property
    def kind(self) -> str:
        return "agents-db"

    async def persist_assistant(self, input: PersistInput) -> None:
        message = input.final_message
        parts: list[MessagePart] = list(message.parts) if message is not None else []
        if input.status != "success":
            parts = without_open_approvals(parts)
        metadata = dict(message.metadata) if message is not None and message.metadata else None
        try:
            if self._is_dropped():
                return  # the session was deleted: a late save is dropped quietly
            try:
                self._messages.update_message(self.message_id, parts=parts, status=input.status,
                                              stats=input.stats, metadata=metadata,
                                              runtime_resume_token=self._get_resume_token())
            except NotFoundError:
                if not self._is_dropped():
                    raise
        finally:
            self.persisted = input.status
            if self._on_persisted is not None:
                self._on_persisted(input.status)

    async def checkpoint(self, partial: UIMessage) -> None:
        """Crash safety: the partial parts land on the still-pending row."""
        if self.persisted is None and not self._is_dropped():
            self._messages.update_message(self.message_id, parts=list(partial.parts))


class RuntimeTerminalListener(ChunkBlindListener):
    """Tells the host a segment reached terminal (after its persistence listener ran);
    terminal-only and never offered chunks."""

    def __init__(self, *, topic_id: str, anchor_message_id: str,
                 on_terminal: Callable[[PersistStatus, StreamTerminalResult], Awaitable[None]]) -> None:
        self._id = f"runtime:terminal:{topic_id}"
        self.anchor_message_id = anchor_message_id
        self._on_terminal = on_terminal
        self.fired = False

    @property
    def id(self) -> str:
        return self._id

    async def _fire(self, status: PersistStatus, result: StreamTerminalResult) -> None:
        if result.anchor_message_id != self.anchor_message_id or self.fired:
            return
        self.fired = True
        await self._on_terminal(status, result)

    async def on_done(self, result: StreamDoneResult) -> None:
        await self._fire("success", result)

    async def on_paused(self, result: StreamPausedResult) -> None:
        await self._fire("paused", result)

    async def on_error(self, result: StreamErrorResult) -> None:
        await self._fire("error", result)


@dataclass
class BeginTurnResult:
    """What `begin_turn` hands the context provider (and a host-started turn the broker)."""

    turn_id: str
    persistence_listener: StreamListener
    terminal_listener: RuntimeTerminalListener
    trace_listener: TraceFlushListener

    @property
    def listeners(self) -> list[StreamListener]:
        # Order matters: the manager dispatches terminals in order, and the terminal listener
        # must see the row already persisted.
        return [self.persistence_listener, self.terminal_listener, self.trace_listener]
