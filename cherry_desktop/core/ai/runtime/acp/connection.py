"""`AcpConnection`: one ACP agent child per session connection, driven with the
`agent-client-protocol` client over its stdio.

Start: ``initialize`` (the agent's capabilities), ``authenticate`` with the endpoint and key
when the agent takes them over ACP (`launch.auth_meta`), then ``session/load`` of the resume
token when the agent advertises it, else ``session/new``. A token the agent cannot load costs
the connection its one recovery: a new session, whose first answer carries
`HISTORY_RESET_METADATA_KEY` ("history not restored"); so does an agent without
``loadSession``.

A turn is one ``session/prompt``: its updates stream as chunks (`AcpStreamAdapter`), its
response settles it (``end_turn`` -> turn-complete; ``cancelled`` -> turn-complete
``aborted``; an error response -> `ErrorEvent`). Stop is ``session/cancel``. After a cancel or
an error the child is retired (claude-agent-acp 0.23 ends the next prompt at once on the
cancelled or failed query's leftover): the host's next turn starts a new child that loads the
session, so the conversation goes on. The agent's exit mid-turn salvages a partial answer (cut
short) or fails the turn (``stream-ended``). ACP has no mid-turn steer: no `redirect`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Collection
from typing import Any

import acp
from acp import schema

from cherry_desktop.core.ai.runtime.acp.approvals import AcpApprovals
from cherry_desktop.core.ai.runtime.acp.client import AcpClient
from cherry_desktop.core.ai.runtime.acp.launch import AcpLaunch
from cherry_desktop.core.ai.runtime.acp.mcp_relay import AcpMcpRelay
from cherry_desktop.core.ai.runtime.acp.process import AcpProcess
from cherry_desktop.core.ai.runtime.acp.stream_adapter import AcpStreamAdapter, tool_name_of
from cherry_desktop.core.ai.runtime.event_outlet import EventOutlet, EventSink
from cherry_desktop.core.ai.runtime.events import (
    CUT_SHORT_METADATA_KEY,
    HISTORY_RESET_METADATA_KEY,
    AgentRuntimeEvent,
    ChunkEvent,
    CutShortReason,
    ErrorEvent,
    ResumeTokenEvent,
    TurnCompleteEvent,
)
from cherry_desktop.core.ai.runtime.types import (
    ApprovalDecision,
    ContextUsage,
    PermissionMode,
    ReconcileInput,
    ReconcileResult,
    RuntimeSendInput,
)
from cherry_desktop.core.ai.runtime.user_text import runtime_input_images, runtime_input_text
from cherry_desktop.core.messages import MessageMetadataChunk
from cherry_desktop.core.messages.json_value import JsonValue
from cherry_desktop.core.net.key_relay import KeyRelay

log = logging.getLogger(__name__)

START_TIMEOUT_S = 60.0
CANCEL_GRACE_S = 5.0
_FINISH_REASONS = {"end_turn": "stop", "max_tokens": "length", "max_turn_requests": "length",
                   "refusal": "content-filter", "cancelled": "aborted"}


class AcpStartError(RuntimeError):
    """The agent did not start or did not speak ACP; `code` is stable."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


class AcpConnection:
    """A live ACP agent connection (see `AgentRuntimeConnection`)."""

    supports_redirect = False

    def __init__(self, *, launch: AcpLaunch, permission_mode: PermissionMode, disabled_tools: frozenset[str],
                 resume_token: str | None, start_timeout_s: float = START_TIMEOUT_S,
                 clock: Callable[[], float] = time.monotonic,
                 on_closed: Callable[[AcpConnection], None] | None = None,
                 key_relay: KeyRelay | None = None) -> None:
        self.launch = launch
        #: The agent's way to its provider (the launch names its URL and token); it closes with the connection.
        self.key_relay = key_relay
        self._clock = clock
        self._on_closed = on_closed
        self.event_outlet = EventOutlet()
        self._denied: set[str] = set()
        self._adapter = AcpStreamAdapter(denied_tool_ids=self._denied)
        self._approvals = AcpApprovals(self, outlet=self.event_outlet, denied_tool_ids=self._denied,
                                       toolset=launch.toolset, skill_names=launch.skill_names)
        self._relay: AcpMcpRelay | None = None
        self._permission_mode: PermissionMode = permission_mode
        self._disabled = set(disabled_tools)
        self._resume_token = resume_token
        self._start_timeout_s = start_timeout_s
        self.process = AcpProcess(launch.argv, cwd=launch.cwd, env=launch.env)
        self._conn: acp.ClientSideConnection | None = None
        self._turn: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._stopping = False
        self._closed = False
        self._dead = False
        self._reset_announced = False
        self.session_id: str | None = None
        self.recovered_from: str | None = None
        self.agent_info: schema.Implementation | None = None

    # ---- startup -------------------------------------------------------------------------

    async def start(self) -> None:
        try:
            stdin, stdout = await self.process.start()
        except OSError as exc:
            raise AcpStartError("acp-agent-missing", f"{self.launch.argv[0]}: {exc}") from exc
        self._conn = acp.connect_to_agent(AcpClient(self), stdin, stdout)
        self._watcher = asyncio.get_running_loop().create_task(self._watch_exit(), name="acp-exit-watch")
        try:
            async with asyncio.timeout(self._start_timeout_s):
                await self._handshake(self._conn)
        except (ConnectionError, acp.RequestError, TimeoutError) as exc:
            await self._close_relay()
            data = exc.data if isinstance(exc, acp.RequestError) and exc.data else ""
            words = self.process.last_words()
            raise AcpStartError("acp-start-failed", " ".join(str(p) for p in (exc, data, words) if p)) from exc
        except BaseException:
            await self._close_relay()
            raise

    async def _tool_servers(self, caps: schema.AgentCapabilities | None) -> list[schema.HttpMcpServer]:
        """``mcpServers`` for the session: Cherry's relay of the agent's tool servers, over MCP
        Streamable HTTP (the one transport that needs no child of the agent's own). An agent
        without it gets no tools: fail closed when the user chose MCP servers for it; without
        those only Cherry's own tools are missing (logged)."""
        toolset = self.launch.toolset
        if not toolset.servers:
            return []
        mcp_caps = caps.mcp_capabilities if caps is not None else None
        if not (mcp_caps is not None and mcp_caps.http):
            cherry_only = all(set(s.tool_names()) <= set(toolset.cherry_classes) for s in toolset.servers)
            if not cherry_only:
                raise AcpStartError("acp-mcp-unsupported",
                                    "this ACP agent does not take MCP servers over HTTP (mcpCapabilities.http)")
            log.warning("the ACP agent takes no MCP servers over HTTP; it runs without Cherry's tools")
            return []
        relay = AcpMcpRelay(toolset.servers, admit=self._approvals.admit)
        self._relay = relay
        await relay.start()
        return relay.mcp_servers()

    async def _close_relay(self) -> None:
        """Stop what Cherry serves the agent: its tools (`AcpMcpRelay`), its model endpoint."""
        relay, self._relay = self._relay, None
        if relay is not None:
            await relay.close()
        key_relay, self.key_relay = self.key_relay, None
        if key_relay is not None:
            await key_relay.stop()

    async def _handshake(self, conn: acp.ClientSideConnection) -> None:
        capabilities = schema.ClientCapabilities(
            # claude-agent-acp offers its "gateway" sign-in (endpoint and key over ACP) only to
            # a client that says it can use one.
            auth=schema.AuthCapabilities(field_meta={"gateway": True}))
        init = await conn.initialize(protocol_version=acp.PROTOCOL_VERSION, client_capabilities=capabilities,
                                     client_info=schema.Implementation(name="cherry-desktop", version="0"))
        self.agent_info = init.agent_info
        methods = {m.id for m in (init.auth_methods or [])}
        if self.launch.auth_meta is not None and "gateway" in methods:
            await conn.authenticate(method_id="gateway", **self.launch.auth_meta)
        caps = init.agent_capabilities
        can_load = bool(caps is not None and caps.load_session)
        servers: list[Any] = await self._tool_servers(caps)
        cwd = str(self.launch.cwd)
        token = self._resume_token
        if token and can_load:
            try:
                await conn.load_session(cwd=cwd, session_id=token, mcp_servers=servers, **self.launch.session_meta())
                self.session_id = token
                return
            except acp.RequestError as exc:
                log.warning("the ACP agent could not load session %s (%s); starting a new one", token, exc)
        if token:
            self.recovered_from = token
        session = await conn.new_session(cwd=cwd, mcp_servers=servers, **self.launch.session_meta())
        self.session_id = session.session_id

    # ---- events --------------------------------------------------------------------------

    def events(self) -> AsyncIterator[AgentRuntimeEvent]:
        return self.event_outlet.events()

    def set_event_sink(self, sink: EventSink | None) -> None:
        self.event_outlet.set_sink(sink)

    def on_update(self, update: object) -> None:
        for event in self._adapter.adapt(update, self._clock()):
            self.event_outlet.emit(event)

    async def on_permission(self, tool_call: schema.ToolCallUpdate,
                            options: list[schema.PermissionOption]) -> schema.RequestPermissionResponse:
        tool_id = tool_call.tool_call_id
        name = self._adapter.tool_name(tool_id) or tool_name_of(tool_call)
        raw: JsonValue = tool_call.model_dump(mode="json").get("raw_input") or {}

        def open_card() -> None:
            for event in self._adapter.ensure_tool(tool_call):
                self.event_outlet.emit(event)

        return await self._approvals.decide(tool_id, name, raw, options, open_card)

    # ---- turns ---------------------------------------------------------------------------

    async def send(self, input: RuntimeSendInput) -> None:
        conn = self._conn
        if conn is None or not self.is_alive or self.session_id is None:
            raise RuntimeError("the ACP connection is closed")
        if self.turn_active:
            raise RuntimeError("an ACP turn is already running")
        blocks: list[Any] = []
        text = runtime_input_text(input.message)
        if text:
            blocks.append(schema.TextContentBlock(type="text", text=text))
        for image in runtime_input_images(input.message):
            blocks.append(schema.ImageContentBlock(type="image", data=image.data_base64, mime_type=image.media_type))
        self._stopping = False
        for event in self._adapter.start_turn(self._clock()):
            self.event_outlet.emit(event)
        if self.recovered_from is not None and not self._reset_announced:
            self._reset_announced = True
            reset = MessageMetadataChunk(message_metadata={HISTORY_RESET_METADATA_KEY: True})
            self.event_outlet.emit(ChunkEvent(reset))
        self.event_outlet.emit(ResumeTokenEvent(self.session_id))
        self._turn = asyncio.get_running_loop().create_task(self._run_turn(conn, self.session_id, blocks),
                                                            name="acp-turn")

    async def _run_turn(self, conn: acp.ClientSideConnection, session_id: str, blocks: list[Any]) -> None:
        try:
            response = await conn.prompt(session_id=session_id, prompt=blocks)
        except ConnectionError:
            return  # the agent exited: `_watch_exit` settles the turn
        except acp.RequestError as exc:
            if self._dead or self.process.exited:
                return
            self._finish(None)
            self._approvals.resolve_all()
            if self._stopping:
                self.event_outlet.emit(TurnCompleteEvent(finish_reason="aborted"))
                return
            details = exc.data.get("details") if isinstance(exc.data, dict) else None
            message = str(details) if details else str(exc)
            # As after a cancel, the agent's next prompt would end at once on the failed
            # query's leftover: the child is retired and the next turn resumes the session.
            self._dead = True
            self.event_outlet.emit(ErrorEvent(message=message, code="api_error", fatal=True))
            return
        self._finish(response.usage)
        stop = "cancelled" if self._stopping else str(response.stop_reason)
        if stop == "cancelled":
            # claude-agent-acp 0.23 answers the prompt after a cancel with the cancelled query's
            # leftover end (an empty end_turn, no model request): this child is retired, and
            # the host's next turn resumes the session in a new one (session/load).
            self._dead = True
        self.event_outlet.emit(TurnCompleteEvent(finish_reason=_FINISH_REASONS.get(stop, stop)))

    def _finish(self, usage: object | None) -> None:
        for event in self._adapter.end_turn(self._clock(), usage, self.launch.model):
            self.event_outlet.emit(event)
        if self.session_id:
            self.event_outlet.emit(ResumeTokenEvent(self.session_id))

    async def _watch_exit(self) -> None:
        await self.process.wait()
        self._dead = True
        self._approvals.resolve_all()
        await self._close_relay()
        if self._adapter.in_turn and not self._closed:
            if self._adapter.turn_has_output:
                log.warning("the ACP agent exited mid-turn after output; the answer is cut short")
                self._finish(None)
                self.event_outlet.emit(ChunkEvent(MessageMetadataChunk(
                    message_metadata={CUT_SHORT_METADATA_KEY: CutShortReason.RUNTIME_EXITED.value})))
                self.event_outlet.emit(TurnCompleteEvent(finish_reason="truncated", salvaged=True))
            else:
                self._adapter.end_turn(self._clock(), None, None)
                message = f"the ACP agent exited during the turn {self.process.last_words()}".strip()
                self.event_outlet.emit(ErrorEvent(message=message, code="stream-ended"))
        self.event_outlet.emit(None)

    # ---- approvals -----------------------------------------------------------------------

    @property
    def always_allowed_tools(self) -> set[str]:
        """The session's always-allowed tools (`HoldsToolGrants`)."""
        return self._approvals.always_allowed_tools

    @always_allowed_tools.setter
    def always_allowed_tools(self, tools: set[str]) -> None:
        self._approvals.always_allowed_tools = tools

    @property
    def disabled_tools(self) -> Collection[str]:
        return self._disabled

    @property
    def stopping(self) -> bool:
        return self._stopping

    @property
    def permission_mode(self) -> PermissionMode:
        return self._permission_mode

    async def respond_tool_approval(self, approval_id: str, decision: ApprovalDecision) -> bool:
        return self._approvals.respond(approval_id, decision)

    # ---- host API ------------------------------------------------------------------------

    @property
    def is_alive(self) -> bool:
        return not self._closed and not self._dead and not self.process.exited

    @property
    def turn_active(self) -> bool:
        return self._turn is not None and not self._turn.done()

    @property
    def available_commands(self) -> list[str]:
        return list(self._adapter.available_commands)

    async def interrupt(self) -> None:
        """User Stop: ``session/cancel``; the prompt then answers ``cancelled``."""
        conn = self._conn
        if not self.turn_active or conn is None or self.session_id is None or not self.is_alive:
            return
        self._stopping = True
        self._approvals.resolve_all()
        with contextlib.suppress(Exception):
            await conn.cancel(session_id=self.session_id)

    def get_context_usage(self) -> ContextUsage | None:
        usage = self._adapter.context
        return ContextUsage(usage.used_tokens, usage.max_tokens) if usage else None

    async def reconcile(self, input: ReconcileInput) -> ReconcileResult:
        """Disabled tools apply live (Cherry's answer to each permission request); a model
        change is spawn-frozen (the agent's environment): rebuild."""
        if not self.is_alive:
            return "invalid"
        result: ReconcileResult = "current"
        if set(input.disabled_tools) != self._disabled:
            self._disabled = set(input.disabled_tools)
            result = "patched"
        if input.permission_mode != self._permission_mode:
            self._permission_mode = input.permission_mode
            result = "patched"
        model = input.model_id.split("::", 1)[-1] if input.model_id else None
        if model is not None and model != self.launch.model:
            return "rebuild"
        if (input.mcp_servers, input.skills) != (self.launch.mcp_servers, self.launch.skills):
            return "rebuild"  # the session's MCP servers and skills are spawn-frozen
        return result

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._approvals.resolve_all()
        conn = self._conn
        if self.turn_active and conn is not None and self.session_id is not None and not self.process.exited:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.cancel(session_id=self.session_id), CANCEL_GRACE_S)
        if self._turn is not None and not self._turn.done():
            self._turn.cancel()
        if conn is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.close(), CANCEL_GRACE_S)
        # The relay first: once the agent's process is gone the connection is all but closed.
        await self._close_relay()
        await self.process.terminate()
        if self._watcher is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._watcher, CANCEL_GRACE_S)
        self._dead = True
        self.event_outlet.emit(None)
        if self._on_closed is not None:
            self._on_closed(self)
