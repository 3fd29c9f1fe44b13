"""`PiConnection`: one ``pi --mode rpc`` child per session connection.

Turn lifecycle (pi events): ``agent_start`` opens the run, ``agent_end`` settles it (auto-retry
is switched off at start, so nothing follows ``agent_end``). The last assistant message's
``stopReason`` says how: ``error`` -> a non-fatal `ErrorEvent` (pi and its session stay
usable), ``aborted`` -> turn-complete ``aborted`` (user Stop, partial kept), else turn-complete.

Steering: `redirect` sends pi's ``steer``; pi delivers it after the current assistant message
or tool, as a user message. That message's ``message_start`` marks the redirect point: the
next assistant ``message_start`` is preceded by `SteerBoundaryEvent`. Steers still stashed at
``agent_end`` become `SteerUndeliveredEvent`s; pi keeps undelivered steers in its own queue
and its RPC cannot clear it, so the connection then reports itself dead (the host reconnects
and resumes the session file) rather than let pi replay them into the next turn.

Approvals: every tool call waits in Cherry's gate extension (`gate.py`) until `policy.decide`
allows it, refuses it (disabled) or the user answers the approval card.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import AsyncIterator, Callable, Collection
from enum import Enum
from pathlib import Path

from cherry_desktop.core.ai.runtime.event_outlet import EventOutlet, EventSink
from cherry_desktop.core.ai.runtime.events import (
    CUT_SHORT_METADATA_KEY,
    AgentRuntimeEvent,
    ChunkEvent,
    CutShortReason,
    ErrorEvent,
    ResumeTokenEvent,
    SteerBoundaryEvent,
    SteerUndeliveredEvent,
    TurnCompleteEvent,
)
from cherry_desktop.core.ai.runtime.pi.approvals import PiApprovals
from cherry_desktop.core.ai.runtime.pi.launch import PiLaunch, pi_model_name, remove_home
from cherry_desktop.core.ai.runtime.pi.records import parse_record
from cherry_desktop.core.ai.runtime.pi.rpc import PiProcessError, PiRpcProcess
from cherry_desktop.core.ai.runtime.pi.stream_adapter import PiStreamAdapter
from cherry_desktop.core.ai.runtime.pi.tool_relay import PiToolRelay
from cherry_desktop.core.ai.runtime.types import (
    ApprovalDecision,
    ContextUsage,
    PermissionMode,
    ReconcileInput,
    ReconcileResult,
    RuntimeRedirectInput,
    RuntimeSendInput,
    wrap_steer_reminder,
)
from cherry_desktop.core.ai.runtime.user_text import runtime_input_images, runtime_input_text
from cherry_desktop.core.messages import MessageMetadataChunk
from cherry_desktop.core.messages.json_value import JsonObject

log = logging.getLogger(__name__)

_HTTP_STATUS = re.compile(r"^([1-5]\d\d)\b")


class PiGateMissingError(RuntimeError):
    """pi started without Cherry's approval gate: the connection refuses to run (fail closed)."""


class TurnState(Enum):
    IDLE = "idle"
    SENDING = "sending"  # prompt written, pi's agent_start not seen yet
    RUNNING = "running"
    ABORTING = "aborting"


def _user_text(message: JsonObject) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(c.get("text", "")) for c in content if isinstance(c, dict) and c.get("type") == "text")
    return ""


class PiConnection:
    """A live pi connection (see `AgentRuntimeConnection`)."""

    supports_redirect = True

    def __init__(
        self,
        *,
        launch: PiLaunch,
        permission_mode: PermissionMode,
        disabled_tools: frozenset[str],
        write_roots: list[Path],
        clock: Callable[[], float] = time.monotonic,
        on_closed: Callable[[PiConnection], None] | None = None,
    ) -> None:
        self.launch = launch
        self._clock = clock
        self._on_closed = on_closed
        self.event_outlet = EventOutlet()
        self._denied: set[str] = set()
        self._adapter = PiStreamAdapter(denied_tool_ids=self._denied)
        self._permission_mode: PermissionMode = permission_mode
        self._frozen_mode: PermissionMode | None = None
        self._disabled = set(disabled_tools)
        self._spawn_disabled = frozenset(disabled_tools)
        self._spawn_skills = launch.skills
        self._reconcile_lock = asyncio.Lock()
        self._relay = PiToolRelay(launch.toolset.servers, self._send)
        self._approvals = PiApprovals(self, launch=launch, write_roots=write_roots, outlet=self.event_outlet,
                                      send=self._send, released=self._tool_released, denied_tool_ids=self._denied)
        self._state = TurnState.IDLE
        self._user_messages_in_run = 0
        self._stashed_steers: list[tuple[str, str]] = []
        self._boundary_ids: list[str] = []
        self._pi_steering: list[str] = []
        self._closed = False
        self._dead = False
        self.process = PiRpcProcess(launch.argv, cwd=launch.cwd, env=launch.env, on_record=self._on_record,
                                    on_exit=self._on_exit, parse=parse_record)
        self.session_id: str | None = None
        self.session_file: str | None = None
        self.recovered_from: str | None = None

    # ---- startup -------------------------------------------------------------------------

    async def start(self) -> None:
        state = await self.process.start()
        if not self._approvals.gate_ready:
            await self.process.terminate()
            raise PiGateMissingError("pi started without Cherry's approval gate")
        await self.process.command({"type": "set_auto_retry", "enabled": False})
        await self.process.command({"type": "set_steering_mode", "mode": "all"})
        self._adopt_state(state)

    def _adopt_state(self, state: JsonObject) -> None:
        session_id = state.get("sessionId")
        self.session_id = str(session_id) if session_id else None
        self.session_file = str(state.get("sessionFile") or "") or None
        model = state.get("model")
        window = model.get("contextWindow") if isinstance(model, dict) else None
        if isinstance(window, int):
            self._adapter.context_window = window

    # ---- events --------------------------------------------------------------------------

    def events(self) -> AsyncIterator[AgentRuntimeEvent]:
        return self.event_outlet.events()

    def set_event_sink(self, sink: EventSink | None) -> None:
        """Optional host fast path: hand events to `sink` as they happen (from the reader, in
        order, then None at the end) instead of queueing them for `events()`; events queued
        before are handed over first. None detaches (later events queue again)."""
        self.event_outlet.set_sink(sink)

    # ---- pi records ----------------------------------------------------------------------

    def _on_record(self, record: JsonObject) -> None:
        kind = record.get("type")
        now = self._clock()
        if kind == "message_update":  # nearly every record of a turn
            for event in self._adapter.adapt(record, now):
                self.event_outlet.emit(event)
            return
        if kind == "extension_ui_request":
            if not self._relay.on_ui_request(record):
                self._approvals.on_ui_request(record)
            return
        if kind == "agent_start":
            if self._state is TurnState.ABORTING:
                self._send({"type": "abort"})  # a Stop that came before pi began the run
            else:
                self._state = TurnState.RUNNING
            self._user_messages_in_run = 0
            if self.session_id:
                self.event_outlet.emit(ResumeTokenEvent(self.session_id))
            return
        if kind == "agent_end":
            self._finish_turn(now)
            return
        if kind == "queue_update":
            steering = record.get("steering")
            self._pi_steering = [str(s) for s in steering] if isinstance(steering, list) else []
            return
        if kind == "message_start":
            message = record.get("message")
            role = message.get("role") if isinstance(message, dict) else None
            if role == "user" and isinstance(message, dict):
                self._on_user_message(_user_text(message))
                return
            if role == "assistant" and self._boundary_ids:
                # The post-steer assistant message starts: the host rolls A1a -> A2 here.
                self.event_outlet.emit(SteerBoundaryEvent(message_ids=tuple(self._boundary_ids)))
                self._boundary_ids = []
        elif kind == "extension_error":
            log.warning("pi extension error: %s", record.get("error"))
        for event in self._adapter.adapt(record, now):
            self.event_outlet.emit(event)

    def _on_user_message(self, text: str) -> None:
        self._user_messages_in_run += 1
        if self._user_messages_in_run == 1 or not self._stashed_steers:
            return  # the prompt itself
        index = next((i for i, (_, t) in enumerate(self._stashed_steers) if t == text), 0)
        message_id, _ = self._stashed_steers.pop(index)
        self._boundary_ids.append(message_id)

    def _finish_turn(self, now: float) -> None:
        if self._state is TurnState.IDLE:
            return
        for event in self._adapter.close_open_step(now):
            self.event_outlet.emit(event)
        undelivered, self._stashed_steers = self._stashed_steers, []
        for message_id, _ in undelivered:
            self.event_outlet.emit(SteerUndeliveredEvent(message_id=message_id))
        if undelivered or self._pi_steering:
            # pi keeps them queued and would replay them into the next turn; its RPC cannot
            # clear the queue, so this child is retired (the host reconnects and resumes).
            self._dead = True
        self._boundary_ids = []
        last = self._adapter.last_assistant or {}
        stop = last.get("stopReason")
        if self.session_id:
            self.event_outlet.emit(ResumeTokenEvent(self.session_id))
        aborted = self._state is TurnState.ABORTING or stop == "aborted"
        self._state = TurnState.IDLE
        if self._frozen_mode is not None:
            self._permission_mode, self._frozen_mode = self._frozen_mode, None
        if stop == "error" and not aborted:
            message = str(last.get("errorMessage") or "pi reported an error")
            status = _HTTP_STATUS.match(message)  # pi words API failures "<status> <body>"
            self.event_outlet.emit(ErrorEvent(message=message, code="api_error", fatal=self._dead,
                                  status=int(status.group(1)) if status else None))
            return
        context = self._adapter.context_usage()
        if context is not None:
            self.event_outlet.emit(context)
        self.event_outlet.emit(TurnCompleteEvent(finish_reason="aborted" if aborted else str(stop or "stop")))

    def _on_exit(self) -> None:
        self._dead = True
        self._approvals.resolve_all(allow=False, reason="pi exited")
        self._relay.cancel_all("pi exited")
        if self._state is not TurnState.IDLE and not self._closed:
            if self._adapter.turn_has_output:
                # Salvage: the partial answer is kept and the turn settles, but the row says it
                # was cut short (never a plain success).
                log.warning("pi exited mid-turn after output; the answer is cut short")
                for event in self._adapter.close_open_step(self._clock()):
                    self.event_outlet.emit(event)
                self.event_outlet.emit(ChunkEvent(MessageMetadataChunk(
                    message_metadata={CUT_SHORT_METADATA_KEY: CutShortReason.RUNTIME_EXITED.value})))
                self.event_outlet.emit(TurnCompleteEvent(finish_reason="truncated", salvaged=True))
            else:
                tail = self.process.stderr_tail[-1] if self.process.stderr_tail else ""
                message = f"pi exited during the turn {tail}".strip()
                self.event_outlet.emit(ErrorEvent(message=message, code="stream-ended"))
        self._state = TurnState.IDLE
        self.event_outlet.emit(None)

    # ---- approvals (`PiApprovals`) -------------------------------------------------------

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
        return self._state is TurnState.ABORTING

    def _tool_released(self, tool_call_id: str) -> None:
        self._adapter.tool_released(tool_call_id, self._clock())

    async def respond_tool_approval(self, approval_id: str, decision: ApprovalDecision) -> bool:
        return self._approvals.respond(approval_id, decision)

    def _send(self, record: JsonObject) -> None:
        with contextlib.suppress(PiProcessError, ConnectionError, RuntimeError):
            self.process.send_record(record)

    # ---- host API ------------------------------------------------------------------------

    @property
    def is_alive(self) -> bool:
        return not self._closed and not self._dead and not self.process.exited

    @property
    def turn_active(self) -> bool:
        return self._state is not TurnState.IDLE

    @property
    def permission_mode(self) -> PermissionMode:
        return self._permission_mode

    def apply_policy(self, permission_mode: PermissionMode, disabled_tools: frozenset[str]) -> None:
        """Adopt a session's live policy (a prewarmed connection taken by its session)."""
        self._permission_mode = permission_mode
        self._disabled = set(disabled_tools)

    async def send(self, input: RuntimeSendInput) -> None:
        if not self.is_alive:
            raise RuntimeError("the pi connection is closed")
        text = runtime_input_text(input.message)
        if input.system_reminder:
            text = wrap_steer_reminder(text)
        command: JsonObject = {"type": "prompt", "message": text}
        images = runtime_input_images(input.message)
        if images:
            # pi's RPC `prompt` takes images as pi-ai `ImageContent` (text files are in `text`).
            command["images"] = [{"type": "image", "data": i.data_base64, "mimeType": i.media_type} for i in images]
        self._adapter.start_turn(self._clock())
        self._state = TurnState.SENDING
        try:
            await self.process.command(command)
        except Exception:
            self._state = TurnState.IDLE
            raise

    async def redirect(self, input: RuntimeRedirectInput) -> bool:
        if not self.is_alive or self._state not in (TurnState.SENDING, TurnState.RUNNING):
            return False
        text = wrap_steer_reminder(runtime_input_text(input.message))
        self._stashed_steers.append((input.message.id, text))
        try:
            await self.process.command({"type": "steer", "message": text})
        except Exception:
            self._stashed_steers = [s for s in self._stashed_steers if s[0] != input.message.id]
            return False
        return True

    async def interrupt(self) -> None:
        if self._state is TurnState.IDLE or not self.is_alive:
            return
        self._state = TurnState.ABORTING
        self._approvals.resolve_all(allow=False, reason="Stopped by the user.")
        self._relay.cancel_all("Stopped by the user.")
        with contextlib.suppress(Exception):
            await self.process.command({"type": "abort"})

    def get_context_usage(self) -> ContextUsage | None:
        usage = self._adapter.context_usage()
        return ContextUsage(usage.used_tokens, usage.max_tokens) if usage else None

    async def reconcile(self, input: ReconcileInput) -> ReconcileResult:
        """Hot-apply the permission mode and disabled tools (the gate reads them live); a model
        or tool-list change is spawn-frozen (``--model``/``--tools``): rebuild."""
        async with self._reconcile_lock:
            if not self.is_alive:
                return "invalid"
            result: ReconcileResult = "current"
            disabled = set(input.disabled_tools)
            if disabled != self._disabled:
                self._disabled = disabled  # live tightening lands first
                result = "patched"
            if input.permission_mode != (self._frozen_mode or self._permission_mode):
                if self.turn_active:
                    self._frozen_mode = input.permission_mode  # frozen for the active turn
                else:
                    self._permission_mode = input.permission_mode
                result = "patched"
            if input.model_id is not None and pi_model_name(input.model_id) != self.launch.model:
                return "rebuild"
            if frozenset(disabled) != self._spawn_disabled:
                return "rebuild"  # the model still sees the old tool list
            if input.skills != self._spawn_skills:
                return "rebuild"  # `--skill` paths are spawn-frozen
            return result

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._approvals.resolve_all(allow=False, reason="connection closed")
        self._relay.cancel_all("connection closed")
        if self.turn_active and not self.process.exited:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.process.command({"type": "abort"}), 2.0)
        await self.process.terminate()
        remove_home(self.launch)
        self._dead = True
        self.event_outlet.emit(None)
        if self._on_closed is not None:
            self._on_closed(self)
