"""`AgentSessionRuntimeService`: the type-agnostic host of agent-session turns.

It owns Cherry's side of a session (UI turns, persistence listeners, the follow-up queue,
resume tokens, the idle window, write quiesce) and drives whichever runtime the agent type
names through `AgentSessionRuntimeDriver` / `AgentRuntimeConnection`; it never branches on a
concrete runtime. See `agent-session-runtime.md`.

Life of a turn: the context provider saves the user row and a pending assistant row and calls
`begin_turn`; the stream manager's execution reaches `AiService.stream_text`, which sees the
runtime metadata and calls `open_turn_stream`; that ensures a connection and admits the turn
with `connection.send`. One pump task per connection routes the connection's events to the
running segment's chunk queue (`events.py`). The segment's terminal listener (after its
persistence listener) returns the runtime to idle and kicks the next queued turn.
"""

from __future__ import annotations

import asyncio
import locale
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from cherry_desktop.core.ai.agent_session.errors import (
    RuntimeMetadataMissingError,
    SessionBusyError,
    UnknownRuntimeTurnError,
)
from cherry_desktop.core.ai.agent_session.events import RuntimeEventsMixin
from cherry_desktop.core.ai.agent_session.follow_ups import FollowUpQueueMixin
from cherry_desktop.core.ai.agent_session.host import RuntimeStreamHost
from cherry_desktop.core.ai.agent_session.persistence import (
    AgentSessionMessageBackend,
    RuntimeTerminalListener,
)
from cherry_desktop.core.ai.agent_session.recovery import recover_interrupted_rows
from cherry_desktop.core.ai.agent_session.state import (
    END,
    RuntimeTurn,
    Segment,
    SessionEntry,
    TurnKind,
    _Failure,
)
from cherry_desktop.core.ai.agent_session.validation import SessionContextCache, resolve_session_context
from cherry_desktop.core.ai.runtime.register_drivers import (
    RuntimeDriverDeps,
    RuntimeDriverRegistry,
    register_drivers,
)
from cherry_desktop.core.ai.runtime.types import (
    AgentRuntimeConnection,
    ApprovalDecision,
    PermissionMode,
    ReconcileInput,
    RuntimeConnectInput,
    RuntimeSendInput,
    RuntimeSessionContext,
)
from cherry_desktop.core.ai.stream.persistence import PersistenceListener, PersistStatus
from cherry_desktop.core.ai.stream.quiesce import WriteQuiesce
from cherry_desktop.core.ai.stream.trace import LocalTraceStorage, TraceFlushListener, TraceStorage
from cherry_desktop.core.ai.stream.types import (
    ActiveWork,
    AiStreamRequest,
    RuntimeMetadata,
    StreamListener,
    StreamTerminalResult,
)
from cherry_desktop.core.container import Application, Service
from cherry_desktop.core.credentials import provider_key_name
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.data.records import ProviderRecord
from cherry_desktop.core.messages import ErrorChunk, UIMessage, UIMessageChunk, new_id
from cherry_desktop.core.paths import PathRegistry
from cherry_desktop.core.shared_cache import SharedCache
from cherry_desktop.core.topics import session_topic_id

log = logging.getLogger(__name__)

DEFAULT_IDLE_WINDOW_S = 300.0
# How long a stopped turn may take to settle in the runtime before its connection is dropped.
SETTLE_TIMEOUT_S = 10.0
CLOSE_TIMEOUT_S = 5.0
RUNTIME_STATE_PREFIX = "agent.session.runtime."


def agent_session_runtime_key(session_id: str) -> str:
    """SharedCache key of a session's runtime state: {busy, pending, held}."""
    return RUNTIME_STATE_PREFIX + session_id


@dataclass(frozen=True)
class HostSettings:
    username: str = ""
    language: str = ""


@dataclass
class BeginTurnResult:
    """What `begin_turn` hands the context provider."""

    turn_id: str
    persistence_listener: StreamListener
    terminal_listener: RuntimeTerminalListener
    trace_listener: TraceFlushListener

    @property
    def listeners(self) -> list[StreamListener]:
        # Order matters: the manager dispatches terminals in order, and the terminal listener
        # must see the row already persisted.
        return [self.persistence_listener, self.terminal_listener, self.trace_listener]


@dataclass(frozen=True)
class DrainResult:
    straggler_ids: list[str]


def _system_language() -> str:
    try:
        lang = locale.getlocale()[0]
    except ValueError:
        lang = None
    return lang or "en-US"


class AgentSessionRuntimeService(RuntimeEventsMixin, FollowUpQueueMixin, Service):
    """The agent-session runtime host (see module docstring)."""

    name = "agent_session_runtime"
    depends_on = ("database",)

    def __init__(self, *, repos: Repositories, paths: PathRegistry, stream_host: RuntimeStreamHost | None = None,
                 credentials: Any = None, settings: Callable[[], HostSettings] | None = None,
                 registry: RuntimeDriverRegistry | None = None, driver_deps: RuntimeDriverDeps | None = None,
                 idle_window_s: float = DEFAULT_IDLE_WINDOW_S, shared_cache: SharedCache | None = None,
                 trace_storage: TraceStorage | None = None,
                 settle_timeout_s: float = SETTLE_TIMEOUT_S) -> None:
        self.repos = repos
        self.paths = paths
        self._host = stream_host
        self.credentials = credentials
        self._settings = settings or HostSettings
        self.registry = registry or RuntimeDriverRegistry()
        self._driver_deps = driver_deps or RuntimeDriverDeps(paths=paths, repos=repos, credentials=credentials)
        self.idle_window_s = idle_window_s
        self.settle_timeout_s = settle_timeout_s
        self.shared_cache = shared_cache
        self._trace_storage = trace_storage or LocalTraceStorage(paths.get("feature.traces"))
        self._entries: dict[str, SessionEntry] = {}
        self._segments: dict[str, tuple[SessionEntry, Segment]] = {}
        self._quiesce = WriteQuiesce()
        self._in_flight: dict[asyncio.Task[Any], str] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stopped = False
        self.failed_driver_types: list[str] = []
        # Validated sessions' rows between turns (each turn still validates; see validation.py).
        self.session_context_cache = SessionContextCache()

    # -- lifecycle --------------------------------------------------------------------------
    async def on_init(self, app: Application) -> None:
        self.initialize()

    def initialize(self) -> None:
        """Register the drivers and recover what a crash left behind."""
        self.failed_driver_types = register_drivers(self.registry, self._driver_deps)
        recovered = recover_interrupted_rows(self.repos)
        if recovered:
            log.info("boot recovery: %d interrupted assistant row(s) marked as errors", recovered)

    async def on_stop(self) -> None:
        await self.stop()

    def set_stream_host(self, host: RuntimeStreamHost) -> None:
        self._host = host

    @property
    def host(self) -> RuntimeStreamHost:
        if self._host is None:
            raise RuntimeError("AgentSessionRuntimeService has no stream host (AiStreamManager)")
        return self._host

    def host_settings(self) -> HostSettings:
        s = self._settings()
        return HostSettings(username=s.username, language=s.language or _system_language())

    # -- entries ----------------------------------------------------------------------------
    def _entry(self, session_id: str) -> SessionEntry:
        entry = self._entries.get(session_id)
        if entry is None:
            entry = SessionEntry(session_id=session_id, topic_id=session_topic_id(session_id))
            # Follow-ups persisted by an earlier run are offered again, never sent on their own.
            entry.queue_held = bool(self.repos.pending_turns.list(session_id))
            entry.steer_message_ids = {r.user_message_id for r in self.repos.pending_turns.list(session_id)
                                       if r.is_steer}
            self._entries[session_id] = entry
        return entry

    def get_entry(self, session_id: str) -> SessionEntry | None:
        return self._entries.get(session_id)

    def is_session_busy(self, session_id: str) -> bool:
        """True while the runtime owns a turn (or a successor launch waits on a quiesce hold)."""
        entry = self._entries.get(session_id)
        return entry is not None and entry.busy

    def is_session_settled(self, session_id: str) -> bool:
        """The runtime released the session and its topic has no live stream (a turn is over,
        persisted, and the next one may start)."""
        return (not self.is_session_busy(session_id)
                and not self.host.has_live_stream(session_topic_id(session_id)))

    def _publish(self, entry: SessionEntry) -> None:
        if self.shared_cache is None:
            return
        pending = [r.user_message_id for r in self.repos.pending_turns.list(entry.session_id)]
        self.shared_cache.set_shared(agent_session_runtime_key(entry.session_id), {
            "busy": entry.busy, "pending": pending, "held": entry.queue_held,
        })

    def _spawn(self, coro: Coroutine[Any, Any, Any], *, in_flight: str | None = None) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        if in_flight is not None:
            self._in_flight[task] = in_flight
            task.add_done_callback(lambda t: self._in_flight.pop(t, None))
        return task

    # -- turns ------------------------------------------------------------------------------
    def begin_turn(self, session_id: str, *, user_message: UIMessage, assistant_message_id: str, model_id: str,
                   context: RuntimeSessionContext | None = None, system_reminder: bool = False,
                   kind: TurnKind = "normal") -> BeginTurnResult:
        """Take runtime ownership for a turn whose rows are saved; return its listeners."""
        entry = self._entry(session_id)
        if entry.current is not None:
            raise SessionBusyError(detail=session_id)
        self._cancel_idle(entry)
        entry.closed = False
        if context is not None:
            entry.context = context
        turn = RuntimeTurn(id=new_id(), session_id=session_id, topic_id=entry.topic_id, user_message=user_message,
                           model_id=model_id, system_reminder=system_reminder, kind=kind)
        seg = Segment(id=new_id(), turn=turn, assistant_message_id=assistant_message_id, model_id=model_id,
                      placeholder_saved=True)
        turn.segments.append(seg)
        entry.current = turn
        self._segments[seg.id] = (entry, seg)
        result = self._segment_listeners(entry, seg)
        self._publish(entry)
        return result

    def _segment_listeners(self, entry: SessionEntry, seg: Segment) -> BeginTurnResult:
        backend = AgentSessionMessageBackend(self.repos.session_messages, message_id=seg.assistant_message_id,
                                             get_resume_token=lambda: entry.last_resume_token)
        persistence = PersistenceListener(backend=backend, topic_id=entry.topic_id, model_id=seg.model_id)

        async def on_terminal(status: PersistStatus, result: StreamTerminalResult) -> None:
            await self._on_segment_terminal(entry, seg, status, result)

        terminal = RuntimeTerminalListener(topic_id=entry.topic_id, anchor_message_id=seg.assistant_message_id,
                                           on_terminal=on_terminal)
        trace = TraceFlushListener(entry.topic_id, self._trace_storage)
        return BeginTurnResult(turn_id=seg.id, persistence_listener=persistence, terminal_listener=terminal,
                               trace_listener=trace)

    def build_request(self, entry: SessionEntry, seg: Segment, seed: list[UIMessage]) -> AiStreamRequest:
        return AiStreamRequest(model_id=seg.model_id, messages=seed, topic_id=entry.topic_id,
                               message_id=seg.assistant_message_id,
                               runtime=RuntimeMetadata(session_id=entry.session_id, turn_id=seg.id))

    async def open_turn_stream(self, request: AiStreamRequest) -> AsyncIterator[UIMessageChunk]:
        """`AiService.stream_text` for agent-session requests: admit the turn, stream its chunks.

        Pre-stream failures (no connection, send refused) raise from the await.
        """
        meta = request.runtime
        if meta is None:
            raise RuntimeMetadataMissingError(detail=request.topic_id or "")
        found = self._segments.get(meta.turn_id)
        if found is None or found[1].opened:
            raise UnknownRuntimeTurnError(detail=meta.turn_id)
        entry, seg = found
        turn = seg.turn
        seg.opened = True
        if not turn.sent:
            conn = await self._ensure_connection(entry, turn)
            if entry.current is not turn or turn.settled:
                raise UnknownRuntimeTurnError("unknown-runtime-turn", "the turn ended before it was sent")
            await conn.send(RuntimeSendInput(message=turn.user_message, system_reminder=turn.system_reminder,
                                             turn_id=turn.id))
            turn.sent = True
        return self._segment_chunks(entry, seg)

    async def _segment_chunks(self, entry: SessionEntry, seg: Segment) -> AsyncIterator[UIMessageChunk]:
        finished = False
        try:
            while True:
                item = await seg.queue.get()
                if item is END:
                    finished = True
                    return
                if isinstance(item, _Failure):
                    finished = True
                    yield ErrorChunk(error_text=item.message)
                    return
                yield item  # type: ignore[misc]
        finally:
            if not finished:
                # The execution was stopped (user Stop, idle timeout, shutdown): stop the
                # runtime turn too; the terminal listener waits for it to settle.
                self._interrupt_turn(entry, seg.turn)

    def _interrupt_turn(self, entry: SessionEntry, turn: RuntimeTurn) -> None:
        if turn.settled or turn.interrupted:
            return
        turn.interrupted = True
        conn = entry.connection
        if conn is not None and turn.sent:
            self._spawn(self._call_interrupt(conn))

    @staticmethod
    async def _call_interrupt(conn: AgentRuntimeConnection) -> None:
        try:
            await conn.interrupt()
        except Exception:
            log.exception("interrupting the runtime turn failed")

    # -- connection ---------------------------------------------------------------------------
    def _context(self, entry: SessionEntry) -> RuntimeSessionContext:
        if entry.context is None:
            entry.context = resolve_session_context(entry.session_id, repos=self.repos, paths=self.paths,
                                                    registry=self.registry, cache=self.session_context_cache)
        return entry.context

    def _connect_input(self, entry: SessionEntry, context: RuntimeSessionContext) -> RuntimeConnectInput:
        agent = context.agent
        provider = context.provider
        settings = self.host_settings()
        creds = self.credentials
        session_id = entry.session_id

        def get_api_key() -> str | None:
            if creds is None or provider is None:
                return None
            key: str | None = creds.try_get(provider_key_name(provider.id))
            return key

        return RuntimeConnectInput(
            context=context, resume_token=entry.last_resume_token,
            permission_mode=_permission_mode(agent.permission_mode), disabled_tools=frozenset(agent.disabled_tools),
            get_api_key=get_api_key,
            get_last_resume_token=lambda: self.repos.session_messages.get_last_runtime_resume_token(session_id),
            extra_env=provider_child_env(provider), language=settings.language, username=settings.username,
        )

    async def _ensure_connection(self, entry: SessionEntry, turn: RuntimeTurn) -> AgentRuntimeConnection:
        async with entry.connect_lock:
            context = self._context(entry)
            context.model_id = turn.model_id
            conn = entry.connection
            if conn is not None and not conn.is_alive:
                await self._drop_connection(entry)
                conn = None
            if conn is not None:
                agent = context.agent
                result = await conn.reconcile(ReconcileInput(
                    permission_mode=_permission_mode(agent.permission_mode),
                    disabled_tools=frozenset(agent.disabled_tools), model_id=turn.model_id))
                if result in ("current", "patched"):
                    return conn
                # rebuild: spawn-frozen facts changed; invalid/failed: fail closed.
                log.info("session %s: reconcile said %s, reconnecting", entry.session_id, result)
                await self._drop_connection(entry)
            driver = self.registry.get(context.agent.type)
            if entry.last_resume_token is None:
                # A cold session resumes from the newest persisted token.
                entry.last_resume_token = self.repos.session_messages.get_last_runtime_resume_token(entry.session_id)
            connect_input = self._connect_input(entry, context)
            conn = await driver.connect(connect_input)
            entry.driver = driver
            entry.connect_input = connect_input
            entry.connection = conn
            entry.pump_task = self._spawn(self._pump(entry, conn))
            return conn

    async def _drop_connection(self, entry: SessionEntry) -> None:
        conn, entry.connection = entry.connection, None
        pump, entry.pump_task = entry.pump_task, None
        if conn is not None:
            await self._close_connection(entry, conn)
        if pump is not None and not pump.done() and pump is not asyncio.current_task():
            pump.cancel()

    @staticmethod
    async def _close_connection(entry: SessionEntry, conn: AgentRuntimeConnection) -> None:
        """Close one connection, bounded in time (`close()` is idempotent)."""
        try:
            async with asyncio.timeout(CLOSE_TIMEOUT_S):
                await conn.close()
        except Exception:
            log.exception("closing the runtime connection of %s failed", entry.session_id)

    # -- terminal / ownership -----------------------------------------------------------------
    async def _on_segment_terminal(self, entry: SessionEntry, seg: Segment, status: PersistStatus,
                                   result: StreamTerminalResult) -> None:
        seg.terminal_status = status
        self._segments.pop(seg.id, None)
        turn = seg.turn
        if seg.rolled:
            nxt = turn.segments[turn.segments.index(seg) + 1]
            if status == "success" and not turn.interrupted:
                await self._start_continuation(entry, nxt)
                return
            # The pre-steer row ended badly: the continuation never starts.
            self._segments.pop(nxt.id, None)
            self._interrupt_turn(entry, turn)
            await self._end_held_topic(entry, status)
        if not turn.settled:
            if status == "success":
                # The stream ended without the runtime settling (should not happen): fail closed.
                log.warning("session %s: segment ended before the runtime turn settled", entry.session_id)
                turn.settle()
                await self._drop_connection(entry)
            else:
                self._interrupt_turn(entry, turn)
                if turn.sent and entry.connection is not None:
                    self._spawn(self._release_after_settle(entry, turn, status))
                    return
                turn.settle()
        self._release(entry, turn, status)

    async def _end_held_topic(self, entry: SessionEntry, status: PersistStatus) -> None:
        host = self.host
        if status == "paused":
            host.abort(entry.topic_id, "user")
        else:
            await host.terminate_held_topic_stream(entry.topic_id, "the turn ended before its continuation")

    async def _release_after_settle(self, entry: SessionEntry, turn: RuntimeTurn, status: PersistStatus) -> None:
        try:
            await asyncio.wait_for(turn.settled_event.wait(), self.settle_timeout_s)
        except TimeoutError:
            log.warning("session %s: stopped turn did not settle; dropping the connection", entry.session_id)
            turn.settle()
            await self._drop_connection(entry)
        self._release(entry, turn, status)

    def _release(self, entry: SessionEntry, turn: RuntimeTurn, status: PersistStatus) -> None:
        """Terminal persistence is done: the runtime returns to idle."""
        if entry.current is not turn:
            return
        entry.current = None
        for seg in turn.segments:
            self._segments.pop(seg.id, None)
        queued = {r.user_message_id for r in self.repos.pending_turns.list(entry.session_id)}
        has_queue = bool(queued)
        if status != "success" and has_queue and not queued <= turn.sent_after_stop:
            # After a Stop or an error the queue waits for the user instead of firing on; what
            # the user sent after pressing Stop is not part of it and runs.
            entry.queue_held = True
        self._publish(entry)
        if has_queue and not entry.queue_held and not self._stopped:
            self._kick(entry.session_id)
        else:
            self._arm_idle(entry)

    def _kick(self, session_id: str) -> None:
        if self._stopped:
            return
        self._spawn(self.start_next_turn(session_id), in_flight=f"start:{session_id}")

    # -- idle window ------------------------------------------------------------------------------
    def _cancel_idle(self, entry: SessionEntry) -> None:
        if entry.idle_handle is not None:
            entry.idle_handle.cancel()
            entry.idle_handle = None

    def _arm_idle(self, entry: SessionEntry) -> None:
        self._cancel_idle(entry)
        if self._stopped:
            return
        loop = asyncio.get_running_loop()
        entry.idle_handle = loop.call_later(self.idle_window_s, lambda: self._spawn(self._close_idle(entry)))

    async def _close_idle(self, entry: SessionEntry) -> None:
        """Idle window over: close the connection, prewarm when a resume token is known."""
        entry.idle_handle = None
        if entry.busy or self._entries.get(entry.session_id) is not entry:
            return
        entry.closed = True
        driver, connect_input = entry.driver, entry.connect_input
        await self._drop_connection(entry)
        if entry.busy:
            return
        del self._entries[entry.session_id]
        # The persisted queue stays (offered again, held) — never silently dropped.
        token = entry.last_resume_token
        if driver is not None and connect_input is not None and token:
            connect_input.resume_token = token
            try:
                await driver.on_session_idle(connect_input)
            except Exception:
                log.exception("on_session_idle of %s failed", entry.session_id)

    async def stop(self) -> None:
        """Close every entry (connections, timers) and shut the drivers down."""
        self._stopped = True
        for entry in list(self._entries.values()):
            self._cancel_idle(entry)
            turn = entry.current
            if turn is not None and not turn.settled:
                turn.settle()
                for seg in turn.segments:
                    seg.push(_Failure("the app is shutting down", "shutdown"))
            await self._drop_connection(entry)
        self._entries.clear()
        # Closes already under way (a torn-down connection, an idle close and its prewarm)
        # finish before the drivers shut down instead of being cut mid-way.
        pending = {t for t in self._tasks if not t.done() and t is not asyncio.current_task()}
        if pending:
            await asyncio.wait(pending, timeout=CLOSE_TIMEOUT_S)
        for driver in self.registry.drivers():
            try:
                async with asyncio.timeout(CLOSE_TIMEOUT_S):
                    await driver.shutdown()
            except Exception:
                log.exception("driver %s failed to shut down", driver.type)
        for task in list(self._tasks):
            if not task.done():
                task.cancel()

    # -- write quiesce ----------------------------------------------------------------------------
    def pause(self, reason: str = "") -> Any:
        """Hold successor/continuation starts (backup restore); dispose the result to resume."""
        return self._quiesce.pause(reason)

    @property
    def writes_paused(self) -> bool:
        return self._quiesce.paused

    async def drain_in_flight(self, timeout_ms: float = 10_000) -> DrainResult:
        """Await launches admitted before the pause (placeholder write + handoff)."""
        pending = dict(self._in_flight)
        if not pending:
            return DrainResult(straggler_ids=[])
        _, still = await asyncio.wait(pending.keys(), timeout=max(0.0, timeout_ms) / 1000.0)
        return DrainResult(straggler_ids=sorted(pending[t] for t in still))

    def list_active_work(self) -> list[ActiveWork]:
        return [ActiveWork(id=label, topic_id=session_topic_id(label.split(":", 1)[-1]), model_id="",
                           anchor_message_id=None, started_at=0.0)
                for task, label in self._in_flight.items() if not task.done()]

    # -- tool approval ------------------------------------------------------------------------------
    async def respond_tool_approval(self, session_id: str, approval_id: str, decision: ApprovalDecision) -> bool:
        """Forward the user's decision on a runtime approval request."""
        entry = self._entries.get(session_id)
        conn = entry.connection if entry is not None else None
        if conn is None:
            return False
        ok = await conn.respond_tool_approval(approval_id, decision)
        clear = getattr(self._host, "clear_awaiting_approval", None)
        if ok and entry is not None and callable(clear):
            clear(entry.topic_id)
        return ok


def provider_child_env(provider: ProviderRecord | None) -> dict[str, str]:
    """Non-secret environment a provider hands its runtime child (`settings["env"]`), e.g. the
    offline demo's placeholder key; real keys come from the keyring at connect time."""
    if provider is None:
        return {}
    env = provider.settings.get("env")
    if not isinstance(env, dict):
        return {}
    return {str(k): str(v) for k, v in env.items()}


def _permission_mode(value: str) -> PermissionMode:
    if value in ("default", "acceptEdits", "plan", "bypassPermissions"):
        return value  # type: ignore[return-value]
    return "default"
