"""`AttachmentService`: the attachments folder follows the rows that refer to it.

Every way a message row leaves (a deleted message, its topic, its session, the session's
agent through the foreign-key cascades, an edit that replaced its parts) runs a delete or an
update on `message` / `agent_session_message`. Temporary SQLite triggers on the app's
connection see those rows (only those holding an attachment) and name their conversation to
this service, which sweeps that conversation's folder a moment later, from the rows as they
are then (`AttachmentStore.collect_garbage`): a transaction rolled back leaves rows that still
refer to their files, and those files stay. One sweep of every folder runs at start, for what
a crash left behind (a send killed between copying its files and saving its row).

The triggers are TEMP: they live on this process's connection and change nothing in the
database file (no migration; another build opening the file sees no trace of them).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from cherry_desktop.core.attachments.store import AttachmentStore, parse_scope
from cherry_desktop.core.data import DatabaseService
from cherry_desktop.core.data.models import AgentSession, AgentSessionMessage, Message, Topic
from cherry_desktop.core.lifecycle.container import Application, Service

if TYPE_CHECKING:
    from peewee import SqliteDatabase

log = logging.getLogger(__name__)

#: Deletes come in bursts (a topic's rows, an agent's sessions): one sweep after the burst.
SWEEP_DELAY_S = 0.2
#: The start-up sweep waits this long: it is never on the path to the first window.
STARTUP_SWEEP_DELAY_S = 2.0
_FUNCTION = "cherry_attachment_rows_changed"
#: (table, owner column, scope kind)
_TABLES = (("message", "topic_id", "chat"), ("agent_session_message", "session_id", "session"))
_MARKER = '"type":"attachment"'


def install_triggers(db: SqliteDatabase, on_change: Callable[[str, str], None]) -> None:
    """Temp triggers on `db`'s connection calling `on_change(kind, owner_id)` for each deleted
    or re-written message row that held an attachment."""
    db.register_function(on_change, _FUNCTION, 2)
    for table, owner, kind in _TABLES:
        db.execute_sql(
            f'CREATE TEMP TRIGGER IF NOT EXISTS "{table}_attachments_deleted" AFTER DELETE ON main."{table}" '
            f"WHEN instr(old.data, '{_MARKER}') > 0 "
            f"BEGIN SELECT {_FUNCTION}('{kind}', old.\"{owner}\"); END")
        db.execute_sql(
            f'CREATE TEMP TRIGGER IF NOT EXISTS "{table}_attachments_rewritten" AFTER UPDATE OF data '
            f"ON main.\"{table}\" WHEN instr(old.data, '{_MARKER}') > 0 AND old.data IS NOT new.data "
            f"BEGIN SELECT {_FUNCTION}('{kind}', old.\"{owner}\"); END")


def _names_in(rows: Iterable[tuple[str | None]]) -> set[str]:
    """The stored names in rows of one `data` column (a `.tuples()` query's rows)."""
    names: set[str] = set()
    for (data,) in rows:
        try:
            parts = json.loads(data or "[]")
        except ValueError:
            continue  # an unreadable row keeps nothing alive, but is reported where it is read
        for part in parts if isinstance(parts, list) else []:
            if isinstance(part, dict) and part.get("type") == "attachment" and part.get("stored_name"):
                names.add(str(part["stored_name"]))
    return names


def referenced_names(scope: str) -> set[str] | None:
    """The stored names the rows of a conversation refer to; None when it is gone."""
    parsed = parse_scope(scope)
    if parsed is None:
        return set()
    kind, owner = parsed
    # Any: peewee's stubs type a `.tuples()` query's rows as model instances.
    query: Any
    if kind == "chat":
        if not Topic.select().where(Topic.id == owner).exists():
            return None
        query = Message.select(Message.data).where((Message.topic == owner) & Message.data.contains(_MARKER))
    else:
        if not AgentSession.select().where(AgentSession.id == owner).exists():
            return None
        query = AgentSessionMessage.select(AgentSessionMessage.data).where(
            (AgentSessionMessage.session == owner) & AgentSessionMessage.data.contains(_MARKER))
    return _names_in(query.tuples())


class AttachmentService(Service):
    """Keeps the attachments folder in step with the rows (see module docstring)."""

    name = "attachments"
    depends_on = ("database",)

    def __init__(self, store: AttachmentStore) -> None:
        self.store = store
        self._dirty: set[str] = set()
        self._timer: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def on_init(self, app: Application) -> None:
        db = app.get("database", DatabaseService).db
        self._loop = asyncio.get_running_loop()
        if db is not None:
            install_triggers(db, self._on_rows_changed)
        if self.store.scopes():
            self._timer = self._loop.call_later(STARTUP_SWEEP_DELAY_S, self._startup_sweep)

    async def on_stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._flush()

    def _on_rows_changed(self, kind: str, owner_id: str) -> None:
        # Called by SQLite inside the statement: remember, never touch the database here.
        try:
            self._dirty.add(("chat-" if kind == "chat" else "session-") + str(owner_id))
            if self._timer is None and self._loop is not None and not self._loop.is_closed():
                self._timer = self._loop.call_later(SWEEP_DELAY_S, self._flush)
        except Exception:  # an exception here would fail the user's delete
            log.exception("noting a changed attachment row failed")

    def _startup_sweep(self) -> None:
        self._timer = None
        self.sweep(grace_s=0.0)
        self._flush()

    def _flush(self) -> None:
        self._timer = None
        dirty, self._dirty = self._dirty, set()
        if dirty:
            self.sweep(dirty)

    def sweep(self, scopes: set[str] | None = None, *, grace_s: float | None = None) -> int:
        """Sweep now (`scopes`: every folder when None); returns how many files went."""
        try:
            if grace_s is None:
                return self.store.collect_garbage(referenced_names, scopes)
            return self.store.collect_garbage(referenced_names, scopes, grace_s=grace_s)
        except Exception:
            log.exception("sweeping the attachments folder failed")
            return 0
