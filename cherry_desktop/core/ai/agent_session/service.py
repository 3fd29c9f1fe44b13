"""`AgentSessionRuntimeService`: the type-agnostic host of agent-session turns.

The service is the registry of `LiveSession`s (one per live session: connection, event pump,
current turn, segments, idle timer, state) and serves the spec's API: `begin_turn`,
`open_turn_stream`, `enqueue_user_message`, `start_next_turn`, the queue's edits,
`respond_tool_approval`, `stop`, and the write quiesce (`pause` / `drain_in_flight` /
`list_active_work`). It drives whichever runtime the agent type names through
`AgentSessionRuntimeDriver` / `AgentRuntimeConnection` and never branches on a concrete
runtime. Deleting or editing an agent or session goes through here (`sessions_admin.py`), so
a live runtime follows at once. See `agent-session-runtime.md`.
"""

from __future__ import annotations

import asyncio
import locale
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Literal

from cherry_desktop.core.ai.agent_session import sessions_admin, tool_grants, turn_starts
from cherry_desktop.core.ai.agent_session.connections import GatewayAccess, build_connect_input
from cherry_desktop.core.ai.agent_session.errors import RuntimeMetadataMissingError, UnknownRuntimeTurnError
from cherry_desktop.core.ai.agent_session.follow_ups import FollowUpMode, FollowUpResult
from cherry_desktop.core.ai.agent_session.host import RuntimeStreamHost
from cherry_desktop.core.ai.agent_session.live_session import LiveSession, SessionState
from cherry_desktop.core.ai.agent_session.recovery import recover_interrupted_rows
from cherry_desktop.core.ai.agent_session.segments import BeginTurnResult, segment_chunks, segment_listeners
from cherry_desktop.core.ai.agent_session.sessions_admin import agent_session_runtime_key
from cherry_desktop.core.ai.agent_session.state import RuntimeTurn, Segment, TurnKind
from cherry_desktop.core.ai.agent_session.tasks import DrainResult, HostTasks
from cherry_desktop.core.ai.agent_session.validation import resolve_session_context
from cherry_desktop.core.ai.runtime.register_drivers import RuntimeDriverDeps, RuntimeDriverRegistry, register_drivers
from cherry_desktop.core.ai.runtime.types import ApprovalDecision, RuntimeConnectInput, RuntimeSessionContext
from cherry_desktop.core.ai.stream.quiesce import WriteQuiesce
from cherry_desktop.core.ai.stream.trace import LocalTraceStorage, TraceStorage
from cherry_desktop.core.ai.stream.types import (
    ActiveWork,
    AiStreamRequest,
    RuntimeMetadata,
)
from cherry_desktop.core.app.container import Application, Service
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.data.records import PendingTurnRecord
from cherry_desktop.core.messages import UIMessage, UIMessageChunk, new_id
from cherry_desktop.core.state.shared_cache import SharedCache
from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.core.storage.paths import PathRegistry

log = logging.getLogger(__name__)

DEFAULT_IDLE_WINDOW_S = 300.0
# How long a stopped turn may take to settle in the runtime before its connection is dropped.
SETTLE_TIMEOUT_S = 10.0
CLOSE_TIMEOUT_S = 5.0
@dataclass(frozen=True)
class HostSettings:
    username: str = ""
    language: str = ""


def _system_language() -> str:
    try:
        lang = locale.getlocale()[0]
    except ValueError:
        lang = None
    return lang or "en-US"


class AgentSessionRuntimeService(Service):
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
        self.stream_host = stream_host
        self.credentials = credentials
        self.settings = settings or HostSettings
        self.registry = registry or RuntimeDriverRegistry()
        self.driver_deps = driver_deps or RuntimeDriverDeps(paths=paths, repos=repos, credentials=credentials)
        self.idle_window_s = idle_window_s
        self.settle_timeout_s = settle_timeout_s
        self.shared_cache = shared_cache
        self.trace_storage = trace_storage or LocalTraceStorage(paths.get("feature.traces"))
        self.sessions: dict[str, LiveSession] = {}
        self.quiesce = WriteQuiesce()
        self.tasks = HostTasks()
        self.stopped = False
        # Sessions deleted in this run: no turn, prewarm or late write for them.
        self.deleted_sessions: set[str] = set()
        self.failed_driver_types: list[str] = []
        # The API gateway, for sessions whose runtime reaches its provider only through it.
        self.gateway: GatewayAccess | None = None

    # -- lifecycle --------------------------------------------------------------------------
    async def on_init(self, app: Application) -> None:
        self.initialize()

    def initialize(self) -> None:
        """Register the drivers and recover what a crash left behind."""
        self.failed_driver_types = register_drivers(self.registry, self.driver_deps)
        recovered = recover_interrupted_rows(self.repos)
        if recovered:
            log.info("boot recovery: %d interrupted assistant row(s) marked as errors", recovered)

    async def on_stop(self) -> None:
        await self.stop()

    def set_gateway_access(self, gateway: GatewayAccess | None) -> None:
        """The running API gateway (gateway-owned connections are routed through it)."""
        self.gateway = gateway

    def gateway_message_id(self, session_id: str) -> str | None:
        """The assistant row a gateway-owned session's model request belongs to now: the
        continuation row reserved at a steer injection, else the live turn's current row."""
        session = self.sessions.get(session_id)
        turn = session.live_turn if session is not None else None
        if turn is None:
            return None
        if turn.reserved_continuation_id is not None:
            return turn.reserved_continuation_id
        segment = turn.active_segment
        return segment.assistant_message_id if segment is not None else None

    def set_stream_host(self, host: RuntimeStreamHost) -> None:
        self.stream_host = host

    @property
    def host(self) -> RuntimeStreamHost:
        if self.stream_host is None:
            raise RuntimeError("AgentSessionRuntimeService has no stream host (AiStreamManager)")
        return self.stream_host

    def host_settings(self) -> HostSettings:
        s = self.settings()
        return HostSettings(username=s.username, language=s.language or _system_language())

    # -- the registry -----------------------------------------------------------------------------
    def session(self, session_id: str) -> LiveSession:
        """The session's live object, created on first use."""
        session = self.sessions.get(session_id)
        if session is None:
            session = self.sessions[session_id] = LiveSession(self, session_id)
        return session

    def get_entry(self, session_id: str) -> LiveSession | None:
        return self.sessions.get(session_id)

    def forget(self, session: LiveSession) -> None:
        if self.sessions.get(session.session_id) is session:
            del self.sessions[session.session_id]

    def is_session_busy(self, session_id: str) -> bool:
        """True while the runtime owns a turn (or hands over to the next queued one)."""
        session = self.sessions.get(session_id)
        return session is not None and session.busy

    def is_session_settled(self, session_id: str) -> bool:
        """The runtime released the session and its topic has no live stream."""
        return (not self.is_session_busy(session_id)
                and not self.host.has_live_stream(session_topic_id(session_id)))

    def may_prewarm(self, session_id: str) -> bool:
        return not self.stopped and session_id not in self.deleted_sessions

    def publish(self, session: LiveSession) -> None:
        if self.shared_cache is None or session.session_id in self.deleted_sessions:
            return
        issue = session.issue
        self.shared_cache.set_shared(agent_session_runtime_key(session.session_id), {
            "busy": session.busy, "state": session.state.value, "pending": session.queue.ids(),
            "held": session.queue_held,
            "issue": {"code": issue.code, "detail": issue.detail} if issue is not None else None,
        })

    def spawn(self, coro: Coroutine[Any, Any, Any], *, in_flight: str | None = None) -> asyncio.Task[Any]:
        return self.tasks.spawn(coro, in_flight=in_flight)

    def resolve_context(self, session_id: str) -> RuntimeSessionContext:
        return resolve_session_context(session_id, repos=self.repos, paths=self.paths, registry=self.registry)

    def connect_input(self, session: LiveSession, context: RuntimeSessionContext) -> RuntimeConnectInput:
        settings = self.host_settings()
        session_id = session.session_id
        return build_connect_input(
            context, resume_token=session.last_resume_token, credentials=self.credentials,
            get_last_resume_token=lambda: self.repos.session_messages.get_last_runtime_resume_token(session_id),
            language=settings.language, username=settings.username,
            always_allowed_tools=self.repos.sessions.always_allowed_tools(session_id), gateway=self.gateway)

    # -- turns ------------------------------------------------------------------------------
    def begin_turn(self, session_id: str, *, user_message: UIMessage, assistant_message_id: str, model_id: str,
                   context: RuntimeSessionContext | None = None, system_reminder: bool = False,
                   kind: TurnKind = "normal") -> BeginTurnResult:
        """Take runtime ownership for a turn whose rows are saved; return its listeners."""
        if session_id in self.deleted_sessions:
            raise UnknownRuntimeTurnError("unknown-runtime-turn", f"session {session_id} was deleted")
        session = self.session(session_id)
        turn = RuntimeTurn(id=new_id(), session_id=session_id, topic_id=session.topic_id, user_message=user_message,
                           model_id=model_id, system_reminder=system_reminder, kind=kind)
        seg = Segment(id=new_id(), turn=turn, assistant_message_id=assistant_message_id, model_id=model_id,
                      placeholder_saved=True)
        if context is not None:
            session.context = context
        session.begin(turn, seg)
        return self.segment_listeners(session, seg)

    def segment_listeners(self, session: LiveSession, seg: Segment) -> BeginTurnResult:
        return segment_listeners(self, session, seg)

    def build_turn_request(self, session_id: str, turn_id: str, seed: list[UIMessage]) -> AiStreamRequest:
        """The stream request of a begun segment (`turn_id` as `begin_turn` returned it)."""
        session = self.sessions[session_id]
        seg = session.segments[turn_id]
        return AiStreamRequest(model_id=seg.model_id, messages=seed, topic_id=session.topic_id,
                               message_id=seg.assistant_message_id,
                               runtime=RuntimeMetadata(session_id=session_id, turn_id=seg.id))

    async def open_turn_stream(self, request: AiStreamRequest) -> AsyncIterator[UIMessageChunk]:
        """`AiService.stream_text` for agent-session requests: admit the turn, return its chunk
        source, which the execution pulls (the one way a chunk enters the broker).

        Pre-stream failures (no connection, send refused) raise from the await.
        """
        meta = request.runtime
        if meta is None:
            raise RuntimeMetadataMissingError(detail=request.topic_id or "")
        session = self.sessions.get(meta.session_id)
        seg = session.segments.get(meta.turn_id) if session is not None else None
        if session is None or seg is None or seg.opened:
            raise UnknownRuntimeTurnError(detail=meta.turn_id)
        await session.open_segment(seg)
        return segment_chunks(session, seg)

    # -- follow-ups and the queue -----------------------------------------------------------------
    async def enqueue_user_message(self, session_id: str, message: UIMessage,
                                   mode: FollowUpMode = "steer") -> FollowUpResult:
        """Hand a persisted follow-up user row to the runtime: redirect it into the open normal
        turn when the driver can steer, else queue it behind what is already queued."""
        session = self.session(session_id)
        outcome = await session.try_redirect(message) if mode == "steer" else None
        if outcome is not None:
            # "requeued": the runtime took the steer, then settled without it while the
            # redirect was in flight; it is queued already (or running as the next turn).
            session.publish()
            return "injected" if outcome == "injected" else "queued"
        turn = session.current
        after_stop = turn is not None and turn.interrupted
        if turn is not None and after_stop:
            # Sent once the user pressed Stop (the runtime is still settling): the next turn.
            turn.sent_after_stop.add(message.id)
        session.queue.add(message, is_steer=mode == "steer" and not after_stop)
        if not self.hand_over(session):
            session.publish()
        return "queued"

    def hand_over(self, session: LiveSession) -> bool:
        """An idle session with a queue hands over to its head now (holding a topic stream
        that is still finishing, so no send meanwhile finds it neither live nor owned)."""
        if not session.claim_handover(hold_topic=not self.quiesce.paused):
            return False
        self.kick(session)
        return True

    def kick(self, session: LiveSession) -> None:
        if not self.stopped and session.state is SessionState.HANDING_OVER:
            self.spawn(turn_starts.launch_successor(self, session), in_flight=f"start:{session.session_id}")

    async def start_next_turn(self, session_id: str) -> bool:
        """Start the head of the queue as a new runtime turn; False when it may not start now.

        Ownership is rechecked before the queue is read, so a premature call has no queue,
        database or stream-manager side effects.
        """
        session = self.sessions.get(session_id)
        if session is None or not session.claim_handover(hold_topic=not self.quiesce.paused):
            return False
        return await turn_starts.launch_successor(self, session)

    async def start_continuation(self, session: LiveSession, seg: Segment) -> None:
        await turn_starts.start_continuation(self, session, seg)

    def list_pending_turns(self, session_id: str) -> list[PendingTurnRecord]:
        """Queued follow-ups of a session, in the order they will run."""
        return self.repos.pending_turns.list(session_id)

    def is_queue_held(self, session_id: str) -> bool:
        session = self.sessions.get(session_id)
        if session is None:
            return bool(self.repos.pending_turns.list(session_id))
        return session.queue_held

    def _queued(self, session_id: str, user_message_id: str) -> LiveSession | None:
        session = self.session(session_id)
        return session if session.queue.contains(user_message_id) else None

    def edit_pending_turn(self, session_id: str, user_message_id: str, text: str) -> bool:
        session = self._queued(session_id, user_message_id)
        if session is None:
            return False
        session.queue.edit(user_message_id, text)
        session.publish()
        return True

    def remove_pending_turn(self, session_id: str, user_message_id: str) -> bool:
        session = self._queued(session_id, user_message_id)
        if session is None:
            return False
        session.queue.remove(user_message_id)
        if not session.queue.ids():
            session.queue_held = False
            session.issue = None
        session.publish()
        return True

    def reorder_pending_turns(self, session_id: str, user_message_ids: list[str]) -> None:
        session = self.session(session_id)
        session.queue.reorder(user_message_ids)
        session.publish()

    async def steer_now(self, session_id: str, user_message_id: str) -> Literal["injected", "started", "queued"]:
        """Send one queued follow-up now: steer it into the running turn when possible, start it
        when the session is idle, else move it to the head of the queue."""
        session = self._queued(session_id, user_message_id)
        if session is None:
            raise ValueError(f"{user_message_id} is not queued in session {session_id}")
        row = self.repos.session_messages.find_message(user_message_id)
        outcome = await session.try_redirect(row.to_ui_message()) if row is not None else None
        if outcome == "injected":
            session.queue.take(user_message_id)
            session.publish()
            return "injected"
        if not session.queue.contains(user_message_id):
            session.publish()  # reported undelivered and already started as the next turn
            return "started"
        session.queue.move_to_front(user_message_id)
        # Only this message is sent now: a held queue stays held behind it.
        was_held, session.queue_held = session.queue_held, False
        try:
            started = await self.start_next_turn(session_id)
        finally:
            session.queue_held = session.queue_held or was_held
        session.publish()
        return "started" if started else "queued"

    async def resume_pending_turns(self, session_id: str) -> bool:
        """Release a held queue (after a restart, Stop or error): the head starts when idle."""
        session = self.session(session_id)
        session.queue_held = False
        session.issue = None
        session.publish()
        return await self.start_next_turn(session_id)

    # -- agents and sessions (the UI's edits go through here) ---------------------------------------
    async def delete_session(self, session_id: str) -> None:
        """Release the session's runtime at once, then delete its rows."""
        await sessions_admin.delete_session(self, session_id)

    async def delete_agent(self, agent_id: str) -> None:
        await sessions_admin.delete_agent(self, agent_id)

    def update_agent(self, agent_id: str, **changes: Any) -> asyncio.Task[None] | None:
        """Save an agent's edit now; push it onto its live sessions' connections at once (the
        task returned; None when no session of the agent is live)."""
        return sessions_admin.update_agent(self, agent_id, **changes)

    async def reconcile_agent(self, agent_id: str) -> dict[str, sessions_admin.EditOutcome]:
        """Push the agent's saved rows onto its live sessions now; the outcome per session."""
        return await sessions_admin.reconcile_agent(self, agent_id)

    # -- stop, write quiesce ---------------------------------------------------------------------
    async def stop(self) -> None:
        """Close every session (connections, timers) and shut the drivers down."""
        self.stopped = True
        for session in list(self.sessions.values()):
            await session.close("shutdown", "the app is shutting down")
        self.sessions.clear()
        # Closes already under way (a torn-down connection, an idle close and its prewarm)
        # finish before the drivers shut down instead of being cut mid-way.
        await self.tasks.finish(CLOSE_TIMEOUT_S)
        for driver in self.registry.drivers():
            try:
                async with asyncio.timeout(CLOSE_TIMEOUT_S):
                    await driver.shutdown()
            except Exception:
                log.exception("driver %s failed to shut down", driver.type)
        self.tasks.cancel_all()

    def pause(self, reason: str = "") -> Any:
        """Hold successor/continuation starts (backup restore); dispose the result to resume."""
        return self.quiesce.pause(reason)

    @property
    def writes_paused(self) -> bool:
        return self.quiesce.paused

    async def drain_in_flight(self, timeout_ms: float = 10_000) -> DrainResult:
        """Await launches admitted before the pause (placeholder write + handoff)."""
        return await self.tasks.drain_in_flight(timeout_ms)

    def list_active_work(self) -> list[ActiveWork]:
        return self.tasks.list_active_work()

    # -- tool approval ------------------------------------------------------------------------------
    async def respond_tool_approval(self, session_id: str, approval_id: str, decision: ApprovalDecision) -> bool:
        """Forward the user's decision on a runtime approval request (an "always" one is saved
        with the session: `tool_grants.py`)."""
        return await tool_grants.respond_tool_approval(self, session_id, approval_id, decision)

    def revoke_always_allowed_tools(self, session_id: str, tool_names: list[str] | None = None) -> tuple[str, ...]:
        """Ask again for these tools (None: all) in the session, the live connection included."""
        return tool_grants.revoke_tools(self, session_id, tool_names)
