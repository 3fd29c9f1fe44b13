"""In-memory state of the runtime host: session entries, runtime turns and their UI segments.

A *runtime turn* is one `connection.send(...)` up to the driver's turn-complete (or error). It
is shown as one or more *segments*: one execution of the stream manager writing one assistant
row. A steer injected mid-turn splits the turn at the steer boundary: the pre-steer segment
(A1a) is finalised and a continuation segment (A2) carries the rest, so the steer's user row
sorts between the two assistant rows. `RuntimeMetadata.turn_id` names a segment.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Literal

from cherry_desktop.core.ai.runtime.types import (
    AgentRuntimeConnection,
    AgentSessionRuntimeDriver,
    ContextUsage,
    RuntimeConnectInput,
    RuntimeSessionContext,
)
from cherry_desktop.core.messages import UIMessage, UIMessageChunk

log = logging.getLogger(__name__)

TurnKind = Literal["normal", "autonomous"]
TerminalStatus = Literal["success", "paused", "error"]


class _End:
    """Queue sentinel: the segment's chunk stream ends normally."""


@dataclass(frozen=True)
class _Failure:
    """Queue sentinel: the segment's chunk stream ends with an error."""

    message: str
    code: str | None = None


END = _End()
SegmentItem = UIMessageChunk | _End | _Failure


class SegmentQueue:
    """The chunk queue of one segment: one producer (the event router), one reader (the
    segment's execution). `asyncio.Queue` minus what a single unbounded reader never needs
    (bounds, putters, task accounting), since every chunk of a turn passes through here."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: deque[SegmentItem] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: SegmentItem) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def get(self) -> SegmentItem:
        while not self._items:
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                if self._waiter is waiter:
                    self._waiter = None
        return self._items.popleft()

    def qsize(self) -> int:
        return len(self._items)

    def empty(self) -> bool:
        return not self._items


@dataclass(eq=False)
class Segment:
    """One execution / one assistant row of a runtime turn."""

    id: str
    turn: RuntimeTurn
    assistant_message_id: str
    model_id: str
    # User rows shown right before this segment (the steer messages of a continuation).
    lead_message_ids: tuple[str, ...] = ()
    queue: SegmentQueue = field(default_factory=SegmentQueue)
    placeholder_saved: bool = False
    opened: bool = False
    ended: bool = False
    # A continuation follows this segment: its terminal does not release the runtime.
    rolled: bool = False
    continuation_deferred: bool = False
    terminal_status: TerminalStatus | None = None

    def push(self, item: SegmentItem) -> None:
        """Queue an item for the segment's execution, which pulls it (the one way in)."""
        if self.ended:
            return
        if type(item) is _End or type(item) is _Failure:
            self.ended = True
        self.queue.put_nowait(item)


@dataclass(eq=False)
class RuntimeTurn:
    """One runtime-level turn of a session."""

    id: str
    session_id: str
    topic_id: str
    user_message: UIMessage
    model_id: str
    system_reminder: bool = False
    kind: TurnKind = "normal"
    # The user message was handed to the connection (the stream is open: steering is valid).
    sent: bool = False
    # The driver settled the turn (turn-complete or error).
    settled: bool = False
    settled_event: asyncio.Event = field(default_factory=asyncio.Event)
    interrupted: bool = False
    segments: list[Segment] = field(default_factory=list)
    # Steers redirected into this turn and not yet rolled at a boundary.
    redirected: list[UIMessage] = field(default_factory=list)
    # User messages sent after this turn was stopped, while it settled: new turns, not part
    # of the queue the Stop holds.
    sent_after_stop: set[str] = field(default_factory=set)

    @property
    def active_segment(self) -> Segment | None:
        return self.segments[-1] if self.segments else None

    def settle(self) -> None:
        self.settled = True
        self.settled_event.set()


@dataclass(eq=False)
class SessionEntry:
    """The host's state of one agent session."""

    session_id: str
    topic_id: str
    driver: AgentSessionRuntimeDriver | None = None
    connection: AgentRuntimeConnection | None = None
    connect_input: RuntimeConnectInput | None = None
    # The validated session (re-validated for queued successors).
    context: RuntimeSessionContext | None = None
    pump_task: asyncio.Task[None] | None = None
    last_resume_token: str | None = None
    # Ids of queued user messages the next turn wraps in a steer system-reminder.
    steer_message_ids: set[str] = field(default_factory=set)
    current: RuntimeTurn | None = None
    # A successor / continuation launch is between its ownership check and its handoff.
    starting: bool = False
    # Queued follow-ups wait for the user (after a restart, a Stop or an error).
    queue_held: bool = False
    idle_handle: asyncio.TimerHandle | None = None
    connect_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    context_usage: ContextUsage | None = None
    # Usage records of the live turn's requests, written once it settles (`_record_usage`).
    pending_usage: list[dict[str, Any]] = field(default_factory=list)
    closed: bool = False

    # A successor start was suppressed by a write-quiesce hold (re-kicked on resume).
    suppressed: bool = False

    @property
    def busy(self) -> bool:
        return self.current is not None or self.starting or self.suppressed
