"""In-memory state of the runtime host: a session's state, runtime turns and their UI segments.

A *runtime turn* is one `connection.send(...)` up to the driver's turn-complete (or error). It
is shown as one or more *segments*: one execution of the stream manager writing one assistant
row. A steer injected mid-turn splits the turn at the steer boundary: the pre-steer segment
(A1a) is finalised and a continuation segment (A2) carries the rest, so the steer's user row
sorts between the two assistant rows. `RuntimeMetadata.turn_id` names a segment.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections import deque
from dataclasses import dataclass, field
from typing import Literal

from cherry_desktop.core.messages import UIMessage, UIMessageChunk, new_id

log = logging.getLogger(__name__)

TurnKind = Literal["normal", "autonomous"]
TerminalStatus = Literal["success", "paused", "error"]


class SessionState(enum.Enum):
    """Where a `LiveSession` is (its module docstring draws the transitions)."""

    IDLE = "idle"
    CONNECTING = "connecting"
    RUNNING = "running"
    SETTLING = "settling"
    HANDING_OVER = "handing-over"
    CLOSING = "closing"
    CLOSED = "closed"


#: While in one of these the runtime owns the session: a message sent then joins the queue.
BUSY_STATES = frozenset({SessionState.CONNECTING, SessionState.RUNNING, SessionState.SETTLING,
                         SessionState.HANDING_OVER})


@dataclass(frozen=True)
class SessionIssue:
    """Why the session's queue is held (a typed code the UI words), published for the windows."""

    code: str
    detail: str = ""


@dataclass(frozen=True)
class SessionStatus:
    """A session's runtime state as the windows see it (published under its SharedCache key)."""

    session_id: str
    state: SessionState
    busy: bool
    pending: tuple[str, ...]
    held: bool
    issue: SessionIssue | None
    # The commands the runtime announced (the composer's "/" list; () until it does).
    slash_commands: tuple[str, ...] = ()

    def as_shared(self) -> dict[str, object]:
        issue = self.issue
        return {"busy": self.busy, "state": self.state.value, "pending": list(self.pending), "held": self.held,
                "issue": {"code": issue.code, "detail": issue.detail} if issue is not None else None,
                "slash_commands": list(self.slash_commands)}


class End:
    """Queue sentinel: the segment's chunk stream ends normally."""


@dataclass(frozen=True)
class Failure:
    """Queue sentinel: the segment's chunk stream ends with an error."""

    message: str
    code: str | None = None


END = End()
SegmentItem = UIMessageChunk | End | Failure


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

    def push(self, item: SegmentItem) -> None:
        """Queue an item for the segment's execution, which pulls it (the one way in)."""
        if self.ended:
            return
        if type(item) is End or type(item) is Failure:
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
    # The workspace was checkpointed before the turn was sent (its end is checkpointed too).
    checkpointed: bool = False
    # The driver settled the turn (turn-complete or error).
    settled: bool = False
    settled_event: asyncio.Event = field(default_factory=asyncio.Event)
    interrupted: bool = False
    segments: list[Segment] = field(default_factory=list)
    # Steers redirected into this turn and not yet rolled at a boundary.
    redirected: list[UIMessage] = field(default_factory=list)
    # The continuation row's id, reserved when a steer was injected (before the runtime's next
    # model request, which a gateway-owned connection's usage binds to); used by the roll.
    reserved_continuation_id: str | None = None
    # Steers of this turn the runtime reported undelivered (or the settle's safety net
    # caught): they were put back in the queue.
    undelivered: set[str] = field(default_factory=set)
    # User messages sent after this turn was stopped, while it settled: new turns, not part
    # of the queue the Stop holds.
    sent_after_stop: set[str] = field(default_factory=set)

    @property
    def active_segment(self) -> Segment | None:
        return self.segments[-1] if self.segments else None

    @property
    def request_row_id(self) -> str | None:
        """The assistant row the runtime's model request belongs to now: the continuation row
        reserved at a steer injection, else the current segment's row."""
        if self.reserved_continuation_id is not None:
            return self.reserved_continuation_id
        segment = self.active_segment
        return segment.assistant_message_id if segment is not None else None

    def settle(self) -> None:
        self.settled = True
        self.settled_event.set()

    def stop_now(self) -> None:
        """Over at once (its connection is torn down): the terminal does not wait for it."""
        self.interrupted = True
        self.settle()

    # -- steers --------------------------------------------------------------------------------
    def expect_steer(self, message: UIMessage) -> None:
        """`message` is on its way into the turn (counted before the runtime answers)."""
        self.redirected.append(message)

    def drop_steer(self, message_id: str) -> bool:
        """The redirect of `message_id` is over; True when it was still awaiting a boundary."""
        pending = any(m.id == message_id for m in self.redirected)
        self.redirected = [m for m in self.redirected if m.id != message_id]
        return pending

    def reserve_continuation_id(self) -> str:
        """The continuation row's id, reserved at a steer injection (once until the roll)."""
        if self.reserved_continuation_id is None:
            self.reserved_continuation_id = new_id()
        return self.reserved_continuation_id

    def take_continuation_id(self) -> str:
        """The id the steer boundary's continuation row gets: the reserved one, else a new one."""
        taken, self.reserved_continuation_id = self.reserved_continuation_id or new_id(), None
        return taken

    def roll_segment(self, old: Segment, message_ids: tuple[str, ...]) -> Segment:
        """The steer boundary: `old` (A1a) is rolled and a continuation segment (A2) led by the
        injected steers is appended; its row id is the one reserved at the injection, if any."""
        leads = self.take_steers(message_ids)
        new = Segment(id=new_id(), turn=self, assistant_message_id=self.take_continuation_id(), model_id=old.model_id,
                      lead_message_ids=tuple(m.id for m in leads) or tuple(message_ids))
        old.rolled = True
        self.segments.append(new)
        return new

    def take_steers(self, message_ids: tuple[str, ...]) -> list[UIMessage]:
        """The redirected steers a steer boundary injected (they lead the continuation)."""
        taken = [m for m in self.redirected if m.id in message_ids]
        self.redirected = [m for m in self.redirected if m.id not in message_ids]
        return taken

    def mark_undelivered(self, message_id: str) -> None:
        self.drop_steer(message_id)
        self.undelivered.add(message_id)
