"""`ClaudeCodeConnection`: one long-lived `ClaudeSDKClient` (streaming input) per session.

One reader task pumps the SDK's messages through `ClaudeStreamAdapter` into the connection's
event outlet. Turns, reconcile and corrupt-resume recovery (`recovery`) live here; what happens
around each tool call (disabled tools, approvals, steer injection, tool timing) is the
`ToolCallBroker`'s; message -> event mapping is the adapter's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from enum import Enum
from typing import TYPE_CHECKING, cast

from cherry_desktop.core.ai.runtime.claude_code.query_builder import QueryRequest, sdk_model_name
from cherry_desktop.core.ai.runtime.claude_code.recovery import (
    RecoveryBudget,
    is_valid_resume_token,
    refuses_resumed_history,
)
from cherry_desktop.core.ai.runtime.claude_code.sdk_client import (
    CallbackRouter,
    ClientFactory,
    SdkClient,
    close_client,
    sdk_prompt,
)
from cherry_desktop.core.ai.runtime.claude_code.sdk_messages import result_error_text
from cherry_desktop.core.ai.runtime.claude_code.stream_adapter import ClaudeStreamAdapter
from cherry_desktop.core.ai.runtime.claude_code.tool_calls import ToolCallBroker
from cherry_desktop.core.ai.runtime.claude_code.warm_query import WarmQuery
from cherry_desktop.core.ai.runtime.event_outlet import EventOutlet, EventSink
from cherry_desktop.core.ai.runtime.events import (
    CUT_SHORT_METADATA_KEY,
    HISTORY_RESET_METADATA_KEY,
    AgentRuntimeEvent,
    ChunkEvent,
    CutShortReason,
    ErrorEvent,
    TurnCompleteEvent,
)
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
from cherry_desktop.core.ai.runtime.user_text import anthropic_user_blocks, runtime_input_text, typed_text
from cherry_desktop.core.messages import MessageMetadataChunk
from cherry_desktop.core.messages.json_value import JsonValue

if TYPE_CHECKING:
    from claude_agent_sdk import Message, ResultMessage, StreamEvent

log = logging.getLogger(__name__)

#: How long `close()` waits for a live turn's interrupt before disconnecting anyway.
INTERRUPT_ON_CLOSE_TIMEOUT_S = 2.0


class PumpOutcome(Enum):
    """How reading one client's messages ended."""

    CLOSED = "closed"  # the connection was closed
    DEAD = "dead"  # the CLI ended, or a failed result tore the connection down
    REBUILD = "rebuild"  # the resumed history was refused: replay on a new conversation


class ClaudeCodeConnection:
    """A live Claude Code connection (see `AgentRuntimeConnection`)."""

    supports_redirect = True

    def __init__(
        self,
        *,
        request: QueryRequest,
        process_manager: ClientFactory,
        clock: Callable[[], float] = time.monotonic,
        on_closed: Callable[[ClaudeCodeConnection], None] | None = None,
    ) -> None:
        self._request = request
        self._clients = process_manager
        self._clock = clock
        self._on_closed = on_closed
        self.event_outlet = EventOutlet()
        self._permission_mode: PermissionMode = request.permission_mode
        self._turn_active = False
        self._broker = ToolCallBroker(self, self.event_outlet, request.disabled_tools, request.tools)
        self._router = CallbackRouter(self._broker)
        self._client: SdkClient | None = None
        self._reader: asyncio.Task[None] | None = None
        self._budget = RecoveryBudget()
        self._adapter = ClaudeStreamAdapter(denied_tool_ids=self._broker.denied_tool_ids,
                                            tool_durations=self._broker.tool_durations)
        self._model = request.model
        self._reconcile_lock = asyncio.Lock()
        # The prompt of the running turn (text, or content blocks with files), for a replay.
        self._pending_input: str | list[JsonValue] | None = None
        self._closed = False
        self._dead = False
        self.resume_token: str | None = request.resume
        self.recovered_from: str | None = None
        self._reset_announced = False

    @property
    def always_allowed_tools(self) -> set[str]:
        """The session's always-allowed tools (`HoldsToolGrants`): the broker's live set."""
        return self._broker.always_allowed_tools

    # ---- startup -------------------------------------------------------------------------

    async def start(self, warm: WarmQuery | None = None) -> None:
        """Adopt a warm query or connect a new client (recovering once from a missing history)."""
        if warm is not None:
            warm.router.target = self._broker
            self._router = warm.router
            self._client = warm.client
        else:
            resume = self._request.resume
            if resume is not None and not is_valid_resume_token(resume):
                # Never hand the CLI a token that cannot be a session id (it would refuse it,
                # or read it as a session title or a path).
                log.warning("discarding a malformed resume token %r; starting a new SDK session", resume)
                self.recovered_from, self.resume_token, resume = resume, None, None
            self._client = await self._connect_client(resume)
        self._reader = asyncio.get_running_loop().create_task(self._run(), name="claude-code-reader")

    async def _connect_client(self, resume: str | None) -> SdkClient:
        # A rebuild after a reconcile starts the CLI with the connection's live policy.
        launch = self._request.launch(resume, permission_mode=self._permission_mode,
                                      disabled_tools=self._broker.disabled_tools)
        client = self._clients.new_client(launch, self._router)
        try:
            await client.connect()
        except Exception as exc:
            # Every refusal of the resume (unknown id, a malformed one, its file gone) gets the
            # one recovery: a new conversation. If that fails too, the first error stands and
            # the token is kept (the failure was not the resume's).
            if resume and self._budget.take():
                log.warning("Claude Code refused to resume %s (%s); starting a new SDK session", resume, exc)
                try:
                    fresh = await self._connect_client(None)
                except Exception:
                    raise exc from None
                self.recovered_from = resume
                self.resume_token = None
                return fresh
            raise
        return client

    # ---- events --------------------------------------------------------------------------

    def events(self) -> AsyncIterator[AgentRuntimeEvent]:
        return self.event_outlet.events()

    def set_event_sink(self, sink: EventSink | None) -> None:
        """Optional host fast path: hand events to `sink` as they happen (from the reader, in
        order, then None at the end) instead of queueing them for `events()`; events queued
        before are handed over first. None detaches (later events queue again)."""
        self.event_outlet.set_sink(sink)

    # ---- reader --------------------------------------------------------------------------

    async def _run(self) -> None:
        try:
            while self._client is not None:
                if await self._pump(self._client) is not PumpOutcome.REBUILD:
                    break
                if not await self._rebuild_and_replay():
                    break
        except asyncio.CancelledError:
            pass
        finally:
            self._dead = True
            self._broker.resolve_all(ApprovalDecision(approved=False, reason="connection closed"))
            self.event_outlet.emit(None)

    async def _pump(self, client: SdkClient) -> PumpOutcome:
        """Read one client's messages until it ends, the connection dies or a rebuild is due."""
        # Bound once: this loop runs for every message of the connection's life.
        adapt, clock, emit, broker = self._adapter.adapt, self._clock, self.event_outlet.emit, self._broker
        # A gateway-owned connection's usage is recorded by the gateway, from the provider call.
        drop_usage = self._request.gateway_owned
        try:
            async for message in client.receive_messages():
                if type(message).__name__ == "ResultMessage":
                    if self._handle_result(cast("ResultMessage", message)) is PumpOutcome.REBUILD:
                        return PumpOutcome.REBUILD
                    if self._dead:
                        return PumpOutcome.DEAD
                    continue
                if broker.has_boundary and _is_top_level_message_start(message):
                    # The post-steer assistant message starts: the host rolls A1a -> A2 here.
                    boundary = broker.take_boundary()
                    if boundary is not None:
                        emit(boundary)
                for event in adapt(message, clock()):
                    if event.type == "resume-token":
                        self.resume_token = event.token
                    elif event.type == "usage" and drop_usage:
                        continue
                    emit(event)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if self._closed:
                return PumpOutcome.CLOSED
            log.warning("Claude Code stream failed", exc_info=True)
            self._end_truncated_turn(str(exc) or type(exc).__name__)
            return PumpOutcome.DEAD
        if not self._closed and self._turn_active:
            self._end_truncated_turn("Claude Code exited during the turn")
        return PumpOutcome.CLOSED if self._closed else PumpOutcome.DEAD

    def _end_truncated_turn(self, reason: str) -> None:
        self._broker.end_turn()
        if self._turn_active and self._adapter.turn_has_output:
            # Salvage: the partial answer is kept and the turn settles (the session stays
            # usable), but the row says it was cut short: never a plain success.
            log.warning("Claude Code ended mid-turn after output (%s); the answer is cut short", reason)
            for event in self._adapter.close_open_blocks():
                self.event_outlet.emit(event)
            self.event_outlet.emit(ChunkEvent(MessageMetadataChunk(
                message_metadata={CUT_SHORT_METADATA_KEY: CutShortReason.RUNTIME_EXITED.value})))
            self.event_outlet.emit(TurnCompleteEvent(finish_reason="truncated", salvaged=True))
        else:
            self.event_outlet.emit(ErrorEvent(message=reason, code="stream-ended"))
        self._turn_active = False
        self._dead = True

    def _handle_result(self, result: ResultMessage) -> PumpOutcome | None:
        error = result_error_text(result)
        refused = refuses_resumed_history(error, turn_has_output=self._adapter.turn_has_output)
        if refused and self._pending_input is not None and self._budget.take():
            log.warning("the resumed history was refused (%s); rebuilding without resume", error)
            self.recovered_from = self.resume_token
            return PumpOutcome.REBUILD
        self._broker.end_turn()
        for event in self._adapter.finish_result(result):
            if event.type == "resume-token":
                self.resume_token = event.token
            elif event.type == "usage" and self._request.gateway_owned:
                continue  # recorded by the gateway
            self.event_outlet.emit(event)
        self._turn_active = False
        self._pending_input = None
        if error is not None:
            self._dead = True  # failed result: the connection is torn down
        return None

    async def _rebuild_and_replay(self) -> bool:
        old, self._client = self._client, None
        if old is not None:
            await close_client(old)
        self.resume_token = None
        self._router = CallbackRouter(self._broker)
        try:
            client = self._client = await self._connect_client(None)
            self._adapter.start_turn(self._clock())
            self._announce_history_reset()
            await client.query(sdk_prompt(self._pending_input or ""))
        except Exception as exc:
            log.warning("rebuilding the Claude Code query failed", exc_info=True)
            self.event_outlet.emit(ErrorEvent(message=str(exc) or "rebuild failed", code="recovery-failed"))
            return False
        return True

    # ---- host API ------------------------------------------------------------------------

    @property
    def is_alive(self) -> bool:
        return not self._closed and not self._dead and self._client is not None

    @property
    def turn_active(self) -> bool:
        return self._turn_active

    @property
    def permission_mode(self) -> PermissionMode:
        return self._permission_mode

    async def send(self, input: RuntimeSendInput) -> None:
        client = self._client
        if not self.is_alive or client is None:
            raise RuntimeError("the Claude Code connection is closed")
        # With files, the typed text is the first of the message's content blocks (images,
        # text files); without, the prompt is the text as before.
        blocks = anthropic_user_blocks(input.message, "")
        text = typed_text(input.message) if blocks is not None else runtime_input_text(input.message)
        if input.system_reminder:
            text = wrap_steer_reminder(text)
        prompt: str | list[JsonValue] = text if blocks is None else (
            [{"type": "text", "text": text}, *blocks] if text else blocks)
        self._pending_input = prompt
        self._turn_active = True
        self._broker.start_turn()
        self._adapter.start_turn(self._clock())
        self._announce_history_reset()
        await client.query(sdk_prompt(prompt))

    def _announce_history_reset(self) -> None:
        """Once per recovery: the answer carries the note that earlier history is gone."""
        if self.recovered_from is not None and not self._reset_announced:
            self._reset_announced = True
            reset = MessageMetadataChunk(message_metadata={HISTORY_RESET_METADATA_KEY: True})
            self.event_outlet.emit(ChunkEvent(reset))

    async def redirect(self, input: RuntimeRedirectInput) -> bool:
        """Stash a steer; the next PreToolUse hook of this turn injects it."""
        if not self.is_alive or not self._turn_active:
            return False
        self._broker.stash_steer(input.message.id, runtime_input_text(input.message))
        return True

    async def interrupt(self) -> None:
        self._broker.resolve_all(ApprovalDecision(approved=False, reason="stopped by the user"))
        client = self._client
        if self.is_alive and self._turn_active and client is not None:
            with contextlib.suppress(Exception):
                await client.interrupt()

    async def respond_tool_approval(self, approval_id: str, decision: ApprovalDecision) -> bool:
        return self._broker.respond(approval_id, decision)

    def get_context_usage(self) -> ContextUsage | None:
        usage = self._adapter.context_usage()
        return ContextUsage(usage.used_tokens, usage.max_tokens) if usage else None

    async def reconcile(self, input: ReconcileInput) -> ReconcileResult:
        """Carry live agent edits onto this connection (serialised per connection)."""
        async with self._reconcile_lock:
            client = self._client
            if not self.is_alive or client is None:
                return "invalid"
            if input.model_id is not None and sdk_model_name(input.model_id) != self._model:
                return "rebuild"
            if (input.mcp_servers, input.skills) != (self._request.mcp_servers, self._request.skills):
                return "rebuild"  # the CLI's MCP servers and skills plugin are spawn-frozen
            result: ReconcileResult = "current"
            if input.permission_mode == "bypassPermissions" and self._request.permission_mode != "bypassPermissions":
                # The CLI refuses bypass unless launched with it: a spawn-frozen difference.
                return "rebuild"
            if input.permission_mode != self._permission_mode:
                try:
                    await client.set_permission_mode(input.permission_mode)
                except Exception:
                    log.warning("set_permission_mode(%s) was rejected", input.permission_mode, exc_info=True)
                    return "failed"
                self._permission_mode = input.permission_mode
                result = "patched"
            disabled = self._broker.disabled_tools
            if set(input.disabled_tools) != disabled:
                # Applied in place: the PreToolUse hook and can_use_tool read this set live.
                disabled.clear()
                disabled.update(input.disabled_tools)
                result = "patched"
            return result

    async def close(self) -> None:
        """Close gracefully, bounded in time."""
        if self._closed:
            return
        self._closed = True
        self._broker.resolve_all(ApprovalDecision(approved=False, reason="connection closed"))
        client = self._client
        if self._turn_active and not self._dead and client is not None:
            # The CLI finishes its in-flight model request before it honours stdin EOF, so a
            # bare disconnect mid-turn sits out the transport's grace period (5 s) and our own
            # close timeout then cuts its escalation short. Interrupted first, it settles the turn
            # and exits on EOF within a few hundred ms.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.interrupt(), INTERRUPT_ON_CLOSE_TIMEOUT_S)
        reader = self._reader
        if reader is not None and reader is not asyncio.current_task():
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
        if self._client is not None:  # a rebuild may have replaced it meanwhile
            await close_client(self._client)
        self._dead = True
        if reader is None:
            self.event_outlet.emit(None)
        if self._on_closed is not None:
            self._on_closed(self)


def _is_top_level_message_start(message: Message) -> bool:
    if type(message).__name__ != "StreamEvent":
        return False
    stream = cast("StreamEvent", message)
    return not stream.parent_tool_use_id and (stream.event or {}).get("type") == "message_start"
