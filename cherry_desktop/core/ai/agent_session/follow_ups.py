"""`FollowUpQueue`: one session's queued follow-ups (`pending_turns`), persisted so a restart
offers them again.

A follow-up taken in "steer" mode that cannot be redirected is queued with `is_steer`, so its
turn wraps it in a steer system-reminder. Queued follow-ups run one per completed turn; after a
restart, a Stop or an error they are *held* (`LiveSession.queue_held`) and wait for the user —
never silently sent or dropped.
"""

from __future__ import annotations

from typing import Literal

from cherry_desktop.core.data import Repositories
from cherry_desktop.core.data.records import PendingTurnRecord
from cherry_desktop.core.messages import TextPart, UIMessage, message_text

FollowUpMode = Literal["steer", "queue"]
FollowUpResult = Literal["injected", "queued"]


class FollowUpQueue:
    """The persisted queue of one session, in run order.

    Every change of a live session's queue goes through here, so its rows are read once and kept
    until the next change (each change forgets them before it writes): the host reads the queue
    at every turn's start and end, which would otherwise be a query each.
    """

    def __init__(self, repos: Repositories, session_id: str) -> None:
        self.repos = repos
        self.session_id = session_id
        self._records: list[PendingTurnRecord] | None = None

    def records(self) -> list[PendingTurnRecord]:
        if self._records is None:
            self._records = self.repos.pending_turns.list(self.session_id)
        return list(self._records)

    def ids(self) -> list[str]:
        return [r.user_message_id for r in self.records()]

    def contains(self, user_message_id: str) -> bool:
        return user_message_id in self.ids()

    def head(self) -> PendingTurnRecord | None:
        records = self.records()
        return records[0] if records else None

    def add(self, message: UIMessage, *, is_steer: bool, first: bool = False) -> None:
        self._records = None
        self.repos.pending_turns.add(session_id=self.session_id, user_message_id=message.id,
                                     text=message_text(message), is_steer=is_steer)
        if first:
            self.move_to_front(message.id)

    def take(self, user_message_id: str) -> None:
        """The follow-up runs (its user row stays)."""
        self._records = None
        self.repos.pending_turns.remove_by_message(user_message_id)

    def move_to_front(self, user_message_id: str) -> None:
        ids = self.ids()
        ids.remove(user_message_id)
        self._records = None
        self.repos.pending_turns.reorder(self.session_id, [user_message_id, *ids])

    def edit(self, user_message_id: str, text: str) -> None:
        """Change a queued follow-up's text (its user row follows; its attached files stay)."""
        self._records = None
        self.repos.pending_turns.update_text(user_message_id, text)
        row = self.repos.session_messages.find_message(user_message_id)
        files = [p for p in row.parts if p.type == "attachment"] if row is not None else []
        self.repos.session_messages.update_message(user_message_id, parts=[TextPart(text=text, state="done"), *files])

    def remove(self, user_message_id: str) -> None:
        """Drop a queued follow-up and its never-answered user row."""
        self._records = None
        self.repos.pending_turns.remove_by_message(user_message_id)
        self.repos.session_messages.delete_message(user_message_id)

    def reorder(self, user_message_ids: list[str]) -> None:
        if sorted(self.ids()) != sorted(user_message_ids):
            raise ValueError("reorder must name exactly the queued follow-ups")
        self._records = None
        self.repos.pending_turns.reorder(self.session_id, user_message_ids)
