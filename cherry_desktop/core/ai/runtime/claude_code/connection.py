"""`ClaudeCodeConnection`: one long-lived `ClaudeSDKClient` (streaming input) per session.

One reader task pumps the SDK's messages through `ClaudeStreamAdapter` into an event queue the
host iterates. Steering, tool approval, tool timing and corrupt-resume recovery live here;
message -> event mapping lives in the adapter.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

from cherry_desktop.core.ai.runtime.claude_code.callbacks import CallbackRouter
from cherry_desktop.core.ai.runtime.claude_code.process_manager import ClaudeCodeProcessManager
from cherry_desktop.core.ai.runtime.claude_code.query_builder import QueryRequest, build_sdk_options
from cherry_desktop.core.ai.runtime.claude_code.sdk import load_sdk
from cherry_desktop.core.ai.runtime.claude_code.stream_adapter import (
    MISSING_CONVERSATION_TEXT,
    ClaudeStreamAdapter,
    is_duplicate_tool_id_error,
    result_error_text,
)
from cherry_desktop.core.ai.runtime.claude_code.warm_query import WarmQuery, close_client
from cherry_desktop.core.ai.runtime.event_outlet import EventOutlet, EventSink
from cherry_desktop.core.ai.runtime.types import (
    CUT_SHORT_METADATA_KEY,
    DENIED_MESSAGE,
    DISABLED_MESSAGE,
    HISTORY_RESET_METADATA_KEY,
    AgentRuntimeEvent,
    ApprovalDecision,
    ChunkEvent,
    ContextUsage,
    CutShortReason,
    ErrorEvent,
    PermissionMode,
    ReconcileInput,
    ReconcileResult,
    RuntimeRedirectInput,
    RuntimeSendInput,
    SteerBoundaryEvent,
    SteerInjectedEvent,
    SteerUndeliveredEvent,
    ToolApprovalRequestEvent,
    TurnCompleteEvent,
    wrap_steer_reminder,
)
from cherry_desktop.core.ai.runtime.user_text import anthropic_user_blocks, runtime_input_text, typed_text
from cherry_desktop.core.messages import MessageMetadataChunk

log = logging.getLogger(__name__)

#: How long `close()` waits for a live turn's interrupt before disconnecting anyway.
INTERRUPT_ON_CLOSE_TIMEOUT_S = 2.0


class RecoveryBudget:
    """One corrupt-resume recovery per connection, shared by both reasons."""

    def __init__(self) -> None:
        self.used = False

    def take(self) -> bool:
        if self.used:
            return False
        self.used = True
        return True


def is_valid_resume_token(token: str) -> bool:
    """A Claude Code session id is a UUID (canonical form)."""
    try:
        return str(uuid.UUID(token)) == token.lower()
    except ValueError:
        return False


class ClaudeCodeConnection:
    """A live Claude Code connection (see `AgentRuntimeConnection`)."""

    supports_redirect = True

    def __init__(
        self,
        *,
        request: QueryRequest,
        process_manager: ClaudeCodeProcessManager,
        clock: Callable[[], float] = time.monotonic,
        on_closed: Callable[[ClaudeCodeConnection], None] | None = None,
    ) -> None:
        self._request = request
        self._pm = process_manager
        self._clock = clock
        self._on_closed = on_closed
        self.event_outlet = EventOutlet()
        self._router = CallbackRouter(self)
        self._client: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._budget = RecoveryBudget()
        self._denied: set[str] = set()
        self._durations: dict[str, float] = {}
        self._adapter = ClaudeStreamAdapter(denied_tool_ids=self._denied, tool_durations=self._durations)
        self._permission_mode: PermissionMode = request.permission_mode  # type: ignore[assignment]
        self._disabled_tools: set[str] = set(request.disabled_tools)
        self._model = request.model
        self._reconcile_lock = asyncio.Lock()
        self._approvals: dict[str, asyncio.Future[ApprovalDecision]] = {}
        # Tools the user chose to always allow in this session (its approval card; the driver
        # seeds it with the session's saved grants). Not in plan mode, never a disabled tool.
        self.always_allowed_tools: set[str] = set()
        self._turn_active = False
        # The prompt of the running turn (text, or content blocks with files), for a replay.
        self._pending_input: str | list[dict[str, Any]] | None = None
        self._stashed_steers: list[tuple[str, str]] = []
        self._boundary_ids: list[str] = []
        self._closed = False
        self._dead = False
        self.resume_token: str | None = request.resume
        self.recovered_from: str | None = None
        self._reset_announced = False

    # ---- startup -------------------------------------------------------------------------

    async def start(self, warm: WarmQuery | None = None) -> None:
        """Adopt a warm query or connect a new client (recovering once from a missing history)."""
        if warm is not None:
            warm.router.target = self
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

    async def _connect_client(self, resume: str | None) -> Any:
        options = build_sdk_options(
            self._request,
            resume=resume,
            hooks=self._router.hooks(),
            can_use_tool=self._router.can_use_tool,
        )
        if self._permission_mode != self._request.permission_mode or self._disabled_tools != set(
            self._request.disabled_tools
        ):
            options.permission_mode = self._permission_mode
            options.disallowed_tools = sorted(self._disabled_tools)
        client = self._pm.new_client(options, api_key=self._request.api_key)
        try:
            await client.connect()
        except Exception as exc:
            # Any refusal of the resume (unknown id, a malformed one, its file gone) gets the
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
            while True:
                outcome = await self._pump(self._client)
                if outcome != "rebuild":
                    break
                if not await self._rebuild_and_replay():
                    break
        except asyncio.CancelledError:
            pass
        finally:
            self._dead = True
            self._resolve_approvals(ApprovalDecision(approved=False, reason="connection closed"))
            self.event_outlet.emit(None)

    async def _pump(self, client: Any) -> str:
        """Read one client's messages; returns 'closed', 'dead' or 'rebuild'."""
        # Bound once: this loop runs for every message of the connection's life.
        adapt, clock, emit = self._adapter.adapt, self._clock, self.event_outlet.emit
        # A gateway-owned connection's usage is recorded by the gateway, from the provider call.
        drop_usage = self._request.gateway_owned
        try:
            async for message in client.receive_messages():
                if type(message).__name__ == "ResultMessage":
                    if self._handle_result(message) == "rebuild":
                        return "rebuild"
                    if self._dead:
                        return "dead"
                    continue
                if self._boundary_ids and _is_top_level_message_start(message):
                    # The post-steer assistant message starts: the host rolls A1a -> A2 here.
                    emit(SteerBoundaryEvent(message_ids=tuple(self._boundary_ids)))
                    self._boundary_ids = []
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
                return "closed"
            log.warning("Claude Code stream failed", exc_info=True)
            self._end_truncated_turn(str(exc) or type(exc).__name__)
            return "dead"
        if not self._closed and self._turn_active:
            self._end_truncated_turn("Claude Code exited during the turn")
        return "dead" if not self._closed else "closed"

    def _end_truncated_turn(self, reason: str) -> None:
        self._flush_undelivered()
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

    def _handle_result(self, result: Any) -> str:
        error = result_error_text(result)
        # Duplicate-id recovery only before visible output (a replay could repeat it); a
        # missing conversation refused at request time is not activity-gated (spec).
        refused = error is not None and (
            (is_duplicate_tool_id_error(error) and not self._adapter.turn_has_output)
            or MISSING_CONVERSATION_TEXT in error
        )
        if refused and self._pending_input is not None and self._budget.take():
            log.warning("the resumed history was refused (%s); rebuilding without resume", error)
            self.recovered_from = self.resume_token
            return "rebuild"
        self._flush_undelivered()
        events = self._adapter.finish_result(result)
        for event in events:
            if event.type == "resume-token":
                self.resume_token = event.token
            elif event.type == "usage" and self._request.gateway_owned:
                continue  # recorded by the gateway
            self.event_outlet.emit(event)
        self._turn_active = False
        self._pending_input = None
        self._boundary_ids = []
        if error is not None:
            self._dead = True  # failed result: the connection is torn down
        return "ok"

    async def _rebuild_and_replay(self) -> bool:
        old, self._client = self._client, None
        await close_client(old)
        self.resume_token = None
        self._router = CallbackRouter(self)
        try:
            self._client = await self._connect_client(None)
            self._adapter.start_turn(self._clock())
            self._announce_history_reset()
            await self._client.query(sdk_prompt(self._pending_input or ""))
        except Exception as exc:
            log.warning("rebuilding the Claude Code query failed", exc_info=True)
            self.event_outlet.emit(ErrorEvent(message=str(exc) or "rebuild failed", code="recovery-failed"))
            return False
        return True

    def _flush_undelivered(self) -> None:
        for message_id, _text in self._stashed_steers:
            self.event_outlet.emit(SteerUndeliveredEvent(message_id=message_id))
        self._stashed_steers = []

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
        if not self.is_alive:
            raise RuntimeError("the Claude Code connection is closed")
        # With files, the typed text is the first of the message's content blocks (images,
        # text files); without, the prompt is the text as before.
        blocks = anthropic_user_blocks(input.message, "")
        text = typed_text(input.message) if blocks is not None else runtime_input_text(input.message)
        if input.system_reminder:
            text = wrap_steer_reminder(text)
        prompt: str | list[dict[str, Any]] = text if blocks is None else (
            [{"type": "text", "text": text}, *blocks] if text else blocks)
        self._pending_input = prompt
        self._turn_active = True
        self._durations.clear()
        self._adapter.start_turn(self._clock())
        self._announce_history_reset()
        await self._client.query(sdk_prompt(prompt))

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
        self._stashed_steers.append((input.message.id, runtime_input_text(input.message)))
        return True

    async def interrupt(self) -> None:
        self._resolve_approvals(ApprovalDecision(approved=False, reason="stopped by the user"))
        if self.is_alive and self._turn_active:
            with contextlib.suppress(Exception):
                await self._client.interrupt()

    async def respond_tool_approval(self, approval_id: str, decision: ApprovalDecision) -> bool:
        future = self._approvals.pop(approval_id, None)
        if future is None or future.done():
            return False
        future.set_result(decision)
        return True

    def get_context_usage(self) -> ContextUsage | None:
        usage = self._adapter.context_usage()
        return ContextUsage(usage.used_tokens, usage.max_tokens) if usage else None

    async def reconcile(self, input: ReconcileInput) -> ReconcileResult:
        """Carry live agent edits onto this connection (serialised per connection)."""
        async with self._reconcile_lock:
            if not self.is_alive:
                return "invalid"
            from cherry_desktop.core.ai.runtime.claude_code.query_builder import sdk_model_name

            if input.model_id is not None and sdk_model_name(input.model_id) != self._model:
                return "rebuild"
            result: ReconcileResult = "current"
            if input.permission_mode == "bypassPermissions" and self._request.permission_mode != "bypassPermissions":
                # The CLI refuses bypass unless launched with it: a spawn-frozen difference.
                return "rebuild"
            if input.permission_mode != self._permission_mode:
                try:
                    await self._client.set_permission_mode(input.permission_mode)
                except Exception:
                    log.warning("set_permission_mode(%s) was rejected", input.permission_mode, exc_info=True)
                    return "failed"
                self._permission_mode = input.permission_mode
                result = "patched"
            if set(input.disabled_tools) != self._disabled_tools:
                # Applied in place: the PreToolUse hook and can_use_tool read this set live.
                self._disabled_tools.clear()
                self._disabled_tools.update(input.disabled_tools)
                result = "patched"
            return result

    async def close(self) -> None:
        """Close gracefully, bounded in time."""
        if self._closed:
            return
        self._closed = True
        self._resolve_approvals(ApprovalDecision(approved=False, reason="connection closed"))
        if self._turn_active and not self._dead and self._client is not None:
            # The CLI finishes its in-flight model request before it honours stdin EOF, so a
            # bare disconnect mid-turn sits out the SDK's grace period (5 s) and our own close
            # timeout cancels the SDK's SIGTERM escalation, leaving the child alive. Interrupted
            # first, it settles the turn and exits on EOF within a few hundred ms.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._client.interrupt(), INTERRUPT_ON_CLOSE_TIMEOUT_S)
        reader = self._reader
        if reader is not None and reader is not asyncio.current_task():
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
        if self._client is not None:
            await close_client(self._client)
        self._dead = True
        if reader is None:
            self.event_outlet.emit(None)
        if self._on_closed is not None:
            self._on_closed(self)

    # ---- SDK callbacks (through the router) ----------------------------------------------

    async def on_pre_tool_use(self, data: dict[str, Any], tool_use_id: str | None) -> dict[str, Any]:
        tool_name = str(data.get("tool_name", ""))
        if tool_name in self._disabled_tools:
            return {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": DISABLED_MESSAGE,
                }
            }
        if not self._stashed_steers or not self._turn_active:
            return {}
        steers, self._stashed_steers = self._stashed_steers, []
        self._boundary_ids.extend(message_id for message_id, _ in steers)
        # Now, before the CLI's next request: the host reserves the continuation row's id.
        self.event_outlet.emit(SteerInjectedEvent(message_ids=tuple(message_id for message_id, _ in steers)))
        text = "\n\n".join(t for _, t in steers)
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": wrap_steer_reminder(text)}}

    def on_post_tool_use(self, data: dict[str, Any], tool_use_id: str | None) -> None:
        duration = data.get("duration_ms")
        tool_id = tool_use_id or data.get("tool_use_id")
        # A hook with no active UI turn is not attached to the last message.
        if self._turn_active and isinstance(duration, int | float) and tool_id:
            self._durations[str(tool_id)] = float(duration)

    async def on_can_use_tool(self, tool_name: str, tool_input: dict[str, Any], context: Any) -> Any:
        sdk = load_sdk()
        tool_call_id = str(getattr(context, "tool_use_id", None) or uuid.uuid4())
        if tool_name in self._disabled_tools:
            self._denied.add(tool_call_id)
            return sdk.PermissionResultDeny(message=DISABLED_MESSAGE)
        if tool_name in self.always_allowed_tools and self._permission_mode != "plan":
            return sdk.PermissionResultAllow(updated_input=tool_input)
        approval_id = f"approval-{uuid.uuid4().hex}"
        future: asyncio.Future[ApprovalDecision] = asyncio.get_running_loop().create_future()
        self._approvals[approval_id] = future
        self.event_outlet.emit(
            ToolApprovalRequestEvent(
                approval_id=approval_id, tool_call_id=tool_call_id, tool_name=tool_name, input=tool_input
            )
        )
        try:
            decision = await future
        finally:
            self._approvals.pop(approval_id, None)
        if decision.approved and decision.always_allow:
            self.always_allowed_tools.add(tool_name)
        if decision.approved:
            updated = decision.updated_input if isinstance(decision.updated_input, dict) else tool_input
            return sdk.PermissionResultAllow(updated_input=updated)
        self._denied.add(tool_call_id)
        return sdk.PermissionResultDeny(message=decision.reason or DENIED_MESSAGE)

    def _resolve_approvals(self, decision: ApprovalDecision) -> None:
        approvals, self._approvals = self._approvals, {}
        for future in approvals.values():
            if not future.done():
                future.set_result(decision)


def sdk_prompt(prompt: str | list[dict[str, Any]]) -> str | AsyncIterator[dict[str, Any]]:
    """What `ClaudeSDKClient.query` takes: the text, or one streaming-input user message whose
    content is the blocks (the SDK writes it to the CLI as it is)."""
    if isinstance(prompt, str):
        return prompt

    async def one_message() -> AsyncIterator[dict[str, Any]]:
        yield {"type": "user", "message": {"role": "user", "content": prompt}, "parent_tool_use_id": None}

    return one_message()


def _is_top_level_message_start(message: Any) -> bool:
    if type(message).__name__ != "StreamEvent" or getattr(message, "parent_tool_use_id", None):
        return False
    return bool((getattr(message, "event", None) or {}).get("type") == "message_start")
