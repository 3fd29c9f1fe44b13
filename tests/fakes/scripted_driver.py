"""A scripted agent-session runtime driver for host tests (never in the shipped driver list).

Events are emitted on cue (`connection.emit(...)`, or a per-send `script`), redirect support is
switched on or off, and failures happen on cue (`fail_connect`, `fail_send`, `reconcile_result`,
`emit(ErrorEvent(...))`).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from cherry_desktop.core.ai.runtime.events import AgentRuntimeEvent, ChunkEvent, TurnCompleteEvent
from cherry_desktop.core.ai.runtime.types import (
    ApprovalDecision,
    ContextUsage,
    ReconcileInput,
    ReconcileResult,
    RuntimeConnectInput,
    RuntimeRedirectInput,
    RuntimeSendInput,
    RuntimeSessionContext,
    RuntimeValidationError,
    ToolDescriptor,
)
from cherry_desktop.core.messages import TextDeltaChunk, TextEndChunk, TextStartChunk, new_id

_CLOSE = object()


def text_events(text: str, *, part_id: str | None = None) -> list[AgentRuntimeEvent]:
    pid = part_id or new_id()
    return [ChunkEvent(TextStartChunk(id=pid)), ChunkEvent(TextDeltaChunk(id=pid, delta=text)),
            ChunkEvent(TextEndChunk(id=pid))]


class ScriptedConnection:
    def __init__(self, driver: ScriptedDriver, input: RuntimeConnectInput) -> None:
        self.driver = driver
        self.input = input
        self.supports_redirect = driver.supports_redirect
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self.sent: list[RuntimeSendInput] = []
        self.redirects: list[RuntimeRedirectInput] = []
        self.reconciles: list[ReconcileInput] = []
        self.approvals: list[tuple[str, ApprovalDecision]] = []
        self.interrupts = 0
        self.closed = False
        self.send_event = asyncio.Event()
        self._feeder: asyncio.Task[None] | None = None
        if driver.event_sink:
            # Offered only in sink mode: the host then takes the callback path, not events().
            self.set_event_sink = self._set_event_sink

    def _set_event_sink(self, sink: Callable[[AgentRuntimeEvent | None], None] | None) -> None:
        """Like `ClaudeCodeConnection.set_event_sink`: a reader task of the connection calls
        `sink` with each event, then with None once the stream ended (or failed)."""
        if self._feeder is not None:
            self._feeder.cancel()
            self._feeder = None
        if sink is None:
            return

        async def feed() -> None:
            try:
                async for event in self.events():
                    sink(event)
            except Exception:
                pass
            sink(None)

        self._feeder = asyncio.get_running_loop().create_task(feed())

    def emit(self, *events: AgentRuntimeEvent) -> None:
        for event in events:
            self._queue.put_nowait(event)

    def emit_text(self, text: str) -> None:
        self.emit(*text_events(text))

    def complete(self, text: str | None = None, *, resume_token: str | None = None) -> None:
        from cherry_desktop.core.ai.runtime.events import ResumeTokenEvent

        if text is not None:
            self.emit_text(text)
        if resume_token is not None:
            self.emit(ResumeTokenEvent(resume_token))
        self.emit(TurnCompleteEvent(finish_reason="stop"))

    async def events(self) -> AsyncIterator[AgentRuntimeEvent]:
        while True:
            item = await self._queue.get()
            if item is _CLOSE:
                return
            if isinstance(item, BaseException):
                raise item
            yield item

    async def send(self, input: RuntimeSendInput) -> None:
        if self.driver.fail_send:
            raise RuntimeError("send refused (scripted)")
        self.sent.append(input)
        self.send_event.set()
        if self.driver.script is not None:
            self.driver.script(self, input)

    async def wait_sent(self, count: int) -> RuntimeSendInput:
        while len(self.sent) < count:
            self.send_event.clear()
            await self.send_event.wait()
        return self.sent[count - 1]

    async def redirect(self, input: RuntimeRedirectInput) -> bool:
        if not self.supports_redirect:
            return False
        self.redirects.append(input)
        return True

    async def reconcile(self, input: ReconcileInput) -> ReconcileResult:
        self.reconciles.append(input)
        return self.driver.reconcile_result

    async def interrupt(self) -> None:
        self.interrupts += 1
        if self.driver.complete_on_interrupt:
            self.emit(TurnCompleteEvent(finish_reason="aborted"))

    async def respond_tool_approval(self, approval_id: str, decision: ApprovalDecision) -> bool:
        self.approvals.append((approval_id, decision))
        return True

    def get_context_usage(self) -> ContextUsage | None:
        return None

    @property
    def is_alive(self) -> bool:
        return not self.closed

    async def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._queue.put_nowait(_CLOSE)
            if self.driver.close_gate is not None:  # a runtime slow to close
                await self.driver.close_gate.wait()

    def die(self, error: BaseException | None = None) -> None:
        """The runtime goes away on its own (the event stream ends or raises)."""
        self._queue.put_nowait(error if error is not None else _CLOSE)


class ScriptedDriver:
    capabilities: Sequence[str] = ("agent-session",)

    #: Connections offer `set_event_sink` (the host's callback path); the agent-session tests
    #: run once with and once without it.
    default_event_sink = False

    def __init__(self, *, type: str = "scripted", supports_redirect: bool = True,
                 script: Callable[[ScriptedConnection, RuntimeSendInput], None] | None = None,
                 event_sink: bool | None = None) -> None:
        self.type = type
        self.event_sink = ScriptedDriver.default_event_sink if event_sink is None else event_sink
        self.supports_redirect = supports_redirect
        self.script = script
        self.fail_connect = False
        self.fail_send = False
        self.complete_on_interrupt = True
        self.reconcile_result: ReconcileResult = "current"
        self.invalid_code: str | None = None
        self.connections: list[ScriptedConnection] = []
        self.connect_inputs: list[RuntimeConnectInput] = []
        self.validated: list[RuntimeSessionContext] = []
        self.idle_inputs: list[RuntimeConnectInput] = []
        self.idle_event = asyncio.Event()
        self.connected = asyncio.Event()
        #: Set: each connection's `close` returns only once the gate opens.
        self.close_gate: asyncio.Event | None = None
        self.shut_down = False

    def validate_session(self, context: RuntimeSessionContext) -> None:
        self.validated.append(context)
        if self.invalid_code:
            raise RuntimeValidationError(self.invalid_code, "scripted")

    def list_available_tools(self, mcp_ids: Sequence[str] = ()) -> list[ToolDescriptor]:
        return [ToolDescriptor("Read", "read", False), ToolDescriptor("Bash", "execute", True)]

    async def connect(self, input: RuntimeConnectInput) -> ScriptedConnection:
        if self.fail_connect:
            raise RuntimeError("connect failed (scripted)")
        conn = ScriptedConnection(self, input)
        self.connections.append(conn)
        self.connect_inputs.append(input)
        self.connected.set()
        return conn

    @property
    def last(self) -> ScriptedConnection:
        return self.connections[-1]

    async def wait_connection(self, count: int = 1) -> ScriptedConnection:
        while len(self.connections) < count:
            self.connected.clear()
            await self.connected.wait()
        return self.connections[count - 1]

    async def on_session_idle(self, input: RuntimeConnectInput) -> None:
        self.idle_inputs.append(input)
        self.idle_event.set()

    async def shutdown(self) -> None:
        self.shut_down = True
