"""`AgentSessionRuntimeService`: the type-agnostic host of agent-session turns.

The service is the registry of `LiveSession`s (one per live session: its state machine, see
`live_session.py`) and serves the spec's API: `begin_turn`, `open_turn_stream`,
`enqueue_user_message`, `start_next_turn`, the queue's edits (`pending_turns`),
`respond_tool_approval`, `close_session`, `stop`, and the write quiesce (`pause` /
`drain_in_flight` / `list_active_work`). It drives whichever runtime the agent type names through
`AgentSessionRuntimeDriver` / `AgentRuntimeConnection` and never branches on a concrete runtime.
Deleting or editing an agent or session goes through here (`sessions_admin.py`), so a live
runtime follows at once. Its parts reach it only through `SessionHost` (`host.py`), which it
implements. See `agent-session-runtime.md`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Literal, TypeVar

from cherry_desktop.core.ai.agent_session import sessions_admin, steering, tool_grants, turn_starts
from cherry_desktop.core.ai.agent_session.connections import (
    GatewayAccess,
    KeyReader,
    agent_toolset,
    build_connect_input,
)
from cherry_desktop.core.ai.agent_session.errors import RuntimeMetadataMissingError, UnknownRuntimeTurnError
from cherry_desktop.core.ai.agent_session.events import UsageBuffer
from cherry_desktop.core.ai.agent_session.follow_ups import FollowUpMode, FollowUpQueue, FollowUpResult
from cherry_desktop.core.ai.agent_session.host import HostSettings, RuntimeStreamHost, TurnCheckpoints, system_language
from cherry_desktop.core.ai.agent_session.live_session import LiveSession
from cherry_desktop.core.ai.agent_session.persistence import BeginTurnResult
from cherry_desktop.core.ai.agent_session.recovery import recover_interrupted_rows
from cherry_desktop.core.ai.agent_session.segments import segment_chunks, segment_listeners, segment_request
from cherry_desktop.core.ai.agent_session.sessions_admin import agent_session_runtime_key
from cherry_desktop.core.ai.agent_session.state import Segment, SessionStatus, TurnKind
from cherry_desktop.core.ai.agent_session.tasks import DrainResult, HostTasks
from cherry_desktop.core.ai.agent_session.validation import resolve_session_context
from cherry_desktop.core.ai.runtime.register_drivers import RuntimeDriverDeps, RuntimeDriverRegistry, register_drivers
from cherry_desktop.core.ai.runtime.types import ApprovalDecision, RuntimeConnectInput, RuntimeSessionContext
from cherry_desktop.core.ai.stream.quiesce import WriteHold, WriteQuiesce
from cherry_desktop.core.ai.stream.trace import LocalTraceStorage, TraceStorage
from cherry_desktop.core.ai.stream.types import ActiveWork, AiStreamRequest, RuntimeMetadata
from cherry_desktop.core.attachments import AttachmentStore
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.data.agent_repository import AgentSessionRepository
from cherry_desktop.core.data.records import PendingTurnRecord
from cherry_desktop.core.data.session_message_repository import AgentSessionMessageRepository
from cherry_desktop.core.lifecycle.container import Application, Service
from cherry_desktop.core.mcp.toolset import AgentToolProvider
from cherry_desktop.core.messages import UIMessage, UIMessageChunk
from cherry_desktop.core.state.shared_cache import SharedCache
from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.core.storage.paths import PathRegistry

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_IDLE_WINDOW_S = 300.0
# How long a stopped turn may take to settle in the runtime before its connection is dropped.
SETTLE_TIMEOUT_S = 10.0
CLOSE_TIMEOUT_S = 5.0


class AgentSessionRuntimeService(Service):
    """The agent-session runtime host (see module docstring); implements `SessionHost`."""

    name = "agent_session_runtime"
    # Stops before the checkpoints: a turn a shutdown stops still commits its end checkpoint.
    depends_on = ("database", "checkpoints")

    def __init__(self, *, repos: Repositories, paths: PathRegistry, stream_host: RuntimeStreamHost | None = None,
                 credentials: KeyReader | None = None, settings: Callable[[], HostSettings] | None = None,
                 registry: RuntimeDriverRegistry | None = None, driver_deps: RuntimeDriverDeps | None = None,
                 idle_window_s: float = DEFAULT_IDLE_WINDOW_S, shared_cache: SharedCache | None = None,
                 trace_storage: TraceStorage | None = None,
                 settle_timeout_s: float = SETTLE_TIMEOUT_S, checkpoints: TurnCheckpoints | None = None) -> None:
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
        self.checkpoints = checkpoints
        self.trace_storage = trace_storage or LocalTraceStorage(paths.get("feature.traces"))
        self.sessions: dict[str, LiveSession] = {}
        self.quiesce = WriteQuiesce()
        self.tasks = HostTasks()
        self.stopped = False
        # Sessions deleted in this run: no turn, prewarm or late write for them.
        self.deleted_sessions: set[str] = set()
        self.failed_driver_types: list[str] = []
        self._attachments: AttachmentStore | None = None
        # The API gateway, for sessions whose runtime reaches its provider only through it.
        self.gateway: GatewayAccess | None = None
        # The agents' MCP servers and Cherry's own tools (None: runtimes get only their own).
        self.tool_provider: AgentToolProvider | None = None

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

    def set_tool_provider(self, provider: AgentToolProvider | None) -> None:
        """Where each connection's toolset comes from (the MCP hub's cache, Cherry's tools)."""
        self.tool_provider = provider

    def set_gateway_access(self, gateway: GatewayAccess | None) -> None:
        """The running API gateway (gateway-owned connections are routed through it)."""
        self.gateway = gateway

    def gateway_message_id(self, session_id: str) -> str | None:
        """The assistant row a gateway-owned session's model request belongs to now."""
        session = self.sessions.get(session_id)
        turn = session.live_turn if session is not None else None
        return turn.request_row_id if turn is not None else None

    def host_settings(self) -> HostSettings:
        s = self.settings()
        return HostSettings(username=s.username, language=s.language or system_language())

    # -- SessionHost: what the host's parts reach -------------------------------------------------
    @property
    def streams(self) -> RuntimeStreamHost:
        if self.stream_host is None:
            raise RuntimeError("AgentSessionRuntimeService has no stream host (AiStreamManager)")
        return self.stream_host

    @property
    def messages(self) -> AgentSessionMessageRepository:
        return self.repos.session_messages

    @property
    def session_rows(self) -> AgentSessionRepository:
        return self.repos.sessions

    def is_deleted(self, session_id: str) -> bool:
        return session_id in self.deleted_sessions

    def spawn(self, coro: Coroutine[object, object, T], *, in_flight: str | None = None) -> asyncio.Task[T]:
        return self.tasks.spawn(coro, in_flight=in_flight)

    def publish(self, status: SessionStatus) -> None:
        if self.shared_cache is None or status.session_id in self.deleted_sessions:
            return
        self.shared_cache.set_shared(agent_session_runtime_key(status.session_id), status.as_shared())

    def forget(self, session_id: str, session: object) -> None:
        if self.sessions.get(session_id) is session:
            del self.sessions[session_id]

    def resolve_context(self, session_id: str) -> RuntimeSessionContext:
        return resolve_session_context(session_id, repos=self.repos, paths=self.paths, registry=self.registry)

    def connect_input(self, context: RuntimeSessionContext, resume_token: str | None) -> RuntimeConnectInput:
        settings = self.host_settings()
        session_id = context.session.id
        return build_connect_input(
            context, resume_token=resume_token, credentials=self.credentials,
            get_last_resume_token=lambda: self.repos.session_messages.get_last_runtime_resume_token(session_id),
            language=settings.language, username=settings.username,
            always_allowed_tools=self.repos.sessions.always_allowed_tools(session_id), gateway=self.gateway,
            tools=agent_toolset(context, self.tool_provider))

    # -- the registry -----------------------------------------------------------------------------
    def session(self, session_id: str) -> LiveSession:
        """The session's live object, created on first use."""
        session = self.sessions.get(session_id)
        if session is None:
            if self._attachments is None:
                self._attachments = AttachmentStore(self.paths.get("feature.attachments"))
            session = self.sessions[session_id] = LiveSession(
                self, session_id, pending_turns=FollowUpQueue(self.repos, session_id),
                usage=UsageBuffer(self.repos.usage, session_id), attachments=self._attachments)
        return session

    def get_entry(self, session_id: str) -> LiveSession | None:
        return self.sessions.get(session_id)

    def is_session_busy(self, session_id: str) -> bool:
        """True while the runtime owns a turn (or hands over to the next queued one)."""
        session = self.sessions.get(session_id)
        return session is not None and session.busy

    def is_session_settled(self, session_id: str) -> bool:
        """The runtime released the session and its topic has no live stream."""
        return (not self.is_session_busy(session_id)
                and not self.streams.has_live_stream(session_topic_id(session_id)))

    # -- turns ------------------------------------------------------------------------------
    def begin_turn(self, session_id: str, *, user_message: UIMessage, assistant_message_id: str, model_id: str,
                   context: RuntimeSessionContext | None = None, system_reminder: bool = False,
                   kind: TurnKind = "normal") -> BeginTurnResult:
        """Take runtime ownership for a turn whose rows are saved; return its listeners."""
        if session_id in self.deleted_sessions:
            raise UnknownRuntimeTurnError("unknown-runtime-turn", f"session {session_id} was deleted")
        seg = self.session(session_id).begin(user_message=user_message, assistant_message_id=assistant_message_id,
                                             model_id=model_id, context=context, system_reminder=system_reminder,
                                             kind=kind)
        return self.segment_listeners(seg)

    def segment_listeners(self, seg: Segment) -> BeginTurnResult:
        session_id = seg.turn.session_id
        return segment_listeners(self.sessions[session_id], seg, messages=self.repos.session_messages,
                                 trace_storage=self.trace_storage, is_dropped=lambda: self.is_deleted(session_id))

    def build_turn_request(self, session_id: str, turn_id: str, seed: list[UIMessage]) -> AiStreamRequest:
        """The stream request of a begun segment (`turn_id` as `begin_turn` returned it)."""
        session = self.sessions[session_id]
        return segment_request(session, session.segments[turn_id], seed)

    async def open_turn_stream(self, request: AiStreamRequest) -> AsyncIterator[UIMessageChunk]:
        """`AiService.stream_text` for agent-session requests: admit the turn, return its chunk
        source, which the execution pulls (the one way a chunk enters the broker).

        Pre-stream failures (no connection, send refused) raise from the await.
        """
        meta: RuntimeMetadata | None = request.runtime
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
        return await steering.enqueue_user_message(self, self.session(session_id), message, mode)

    def hand_over(self, session_id: str) -> bool:
        """An idle session with a queue hands over to its head now (`turn_starts.hand_over`)."""
        session = self.sessions.get(session_id)
        return session is not None and turn_starts.hand_over(self, session)

    async def start_next_turn(self, session_id: str) -> bool:
        """Start the head of `pending_turns` as a new runtime turn; False when it may not start
        now. Ownership is rechecked before the queue is read, so a premature call has no queue,
        database or stream-manager side effects."""
        session = self.sessions.get(session_id)
        return session is not None and await turn_starts.start_next_turn(self, session)

    async def start_continuation(self, seg: Segment) -> None:
        await turn_starts.start_continuation(self, self.sessions.get(seg.turn.session_id), seg)

    def list_pending_turns(self, session_id: str) -> list[PendingTurnRecord]:
        """Queued follow-ups of a session, in the order they will run."""
        return self.repos.pending_turns.list(session_id)

    def is_queue_held(self, session_id: str) -> bool:
        session = self.sessions.get(session_id)
        return session.queue_held if session is not None else bool(self.repos.pending_turns.list(session_id))

    def _queued(self, session_id: str, user_message_id: str) -> LiveSession | None:
        session = self.session(session_id)
        return session if session.pending_turns.contains(user_message_id) else None

    def edit_pending_turn(self, session_id: str, user_message_id: str, text: str) -> bool:
        session = self._queued(session_id, user_message_id)
        if session is None:
            return False
        session.pending_turns.edit(user_message_id, text)
        session.publish()
        return True

    def remove_pending_turn(self, session_id: str, user_message_id: str) -> bool:
        session = self._queued(session_id, user_message_id)
        if session is None:
            return False
        session.remove_pending_turn(user_message_id)
        return True

    def reorder_pending_turns(self, session_id: str, user_message_ids: list[str]) -> None:
        session = self.session(session_id)
        session.pending_turns.reorder(user_message_ids)
        session.publish()

    async def steer_now(self, session_id: str, user_message_id: str) -> Literal["injected", "started", "queued"]:
        """Send one queued follow-up now: steer it into the running turn when possible, start it
        when the session is idle, else move it to the head of the queue."""
        session = self._queued(session_id, user_message_id)
        if session is None:
            raise ValueError(f"{user_message_id} is not queued in session {session_id}")
        return await steering.steer_now(self, session, user_message_id)

    async def resume_pending_turns(self, session_id: str) -> bool:
        """Release a held queue (after a restart, Stop or error): the head starts when idle."""
        self.session(session_id).release_queue()
        return await self.start_next_turn(session_id)

    # -- agents and sessions (the UI's edits go through here: sessions_admin.py) --------------------
    async def close_session(self, session_id: str) -> bool:
        """Let go of the session's runtime now, as the idle timer does but on demand and with no
        prewarm: a running turn stops (its row kept as paused), the connection and its process
        close (a prewarmed one too) and the entry is cleared. The session stays: its rows, held
        queue and resume token; its next turn reconnects and resumes. False when none was live."""
        return await sessions_admin.close_session(self, session_id, self.sessions.get(session_id))

    async def delete_session(self, session_id: str) -> None:
        """Release the session's runtime at once (what it still wanted to save is dropped),
        then delete its rows."""
        self.deleted_sessions.add(session_id)
        session = self.sessions.get(session_id)
        if session is not None:
            session.usage.drop()
        await sessions_admin.close_session(self, session_id, session, reason="session-deleted",
                                           message="the session was deleted")
        self.repos.sessions.delete_session(session_id)
        if self.checkpoints is not None:
            await self.checkpoints.session_deleted(session_id)
        if self.shared_cache is not None:
            self.shared_cache.delete(agent_session_runtime_key(session_id))

    async def delete_agent(self, agent_id: str) -> None:
        for record in self.repos.sessions.list_sessions(agent_id):
            await self.delete_session(record.id)
        self.repos.agents.delete_agent(agent_id)

    def update_agent(self, agent_id: str, **changes: object) -> asyncio.Task[None] | None:
        """Save an agent's edit now; push it onto its live sessions' connections at once (the
        task returned; None when no session of the agent is live)."""
        self.repos.agents.update_agent(agent_id, **changes)
        if not self._live_sessions_of(agent_id):
            return None

        async def push_all() -> None:
            await self.reconcile_agent(agent_id)

        return self.spawn(push_all())

    async def reconcile_agent(self, agent_id: str) -> dict[str, sessions_admin.EditOutcome]:
        """Push the agent's saved rows onto its live sessions now; the outcome per session."""
        return {session.session_id: await sessions_admin.push_agent_edit(self, session)
                for session in self._live_sessions_of(agent_id)}

    def _live_sessions_of(self, agent_id: str) -> list[LiveSession]:
        return [s for s in self.sessions.values()
                if s.context is not None and s.context.agent.id == agent_id and not s.closed]

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

    def pause(self, reason: str = "") -> WriteHold:
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

    # -- tool approval (tool_grants.py) -------------------------------------------------------------
    async def respond_tool_approval(self, session_id: str, approval_id: str, decision: ApprovalDecision) -> bool:
        """Forward the user's decision on a runtime approval request (an "always" one is saved
        with the session)."""
        return await tool_grants.respond_tool_approval(self, self.sessions.get(session_id), approval_id, decision)

    def revoke_always_allowed_tools(self, session_id: str, tool_names: list[str] | None = None) -> tuple[str, ...]:
        """Ask again for these tools (None: all) in the session, the live connection included."""
        return tool_grants.revoke_tools(self, self.sessions.get(session_id), session_id, tool_names)
