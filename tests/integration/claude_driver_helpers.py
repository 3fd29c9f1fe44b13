"""Helpers to drive `ClaudeCodeRuntimeDriver` directly against the scripted server."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cherry_desktop.core.ai.runtime.events import AgentRuntimeEvent
from cherry_desktop.core.ai.runtime.types import (
    AgentRuntimeConnection,
    PermissionMode,
    RuntimeConnectInput,
    RuntimeSendInput,
    RuntimeSessionContext,
)
from cherry_desktop.core.data.records import AgentRecord, AgentSessionRecord, ProviderRecord, WorkspaceRecord
from cherry_desktop.core.messages import UIMessage
from cherry_desktop.demo import ScriptedModelServer, build_cli_env

TERMINAL = ("turn-complete", "error")


def make_context(tmp_path: Path, workspace: Path, *, session_id: str = "session-1",
                 base_url: str = "http://127.0.0.1:9") -> RuntimeSessionContext:
    agent = AgentRecord(
        id="agent-1",
        type="claude-code",
        name="Coder",
        description="",
        instructions="",
        built_in_id=None,
        model="anthropic:claude-sonnet-4-5",
        permission_mode="default",
        disabled_tools=[],
        config={},
        created_at=0,
        updated_at=0,
    )
    session = AgentSessionRecord(
        id=session_id,
        agent_id=agent.id,
        workspace_id="ws-1",
        name="s",
        model=agent.model,
        created_at=0,
        updated_at=0,
    )
    ws = WorkspaceRecord(id="ws-1", agent_id=agent.id, name="ws", path=str(workspace), kind="user")
    return RuntimeSessionContext(
        session=session,
        agent=agent,
        workspace=ws,
        workspace_path=workspace,
        agent_data_dir=tmp_path / "agent-data",
        model_id=agent.model,
        # Claude Code runs only against a configured endpoint (the scripted server).
        provider=ProviderRecord(id="anthropic", name="A", type="anthropic", base_url=base_url, enabled=True,
                                settings={}),
    )


@dataclass
class Harness:
    """A server, a throwaway CLI home and connect inputs for one session."""

    server: ScriptedModelServer
    tmp_path: Path
    workspace: Path
    last_token: list[str | None] = field(default_factory=lambda: [None])

    def connect_input(
        self,
        *,
        resume_token: str | None = None,
        permission_mode: PermissionMode = "bypassPermissions",
        disabled_tools: frozenset[str] = frozenset(),
        no_retries: bool = True,
        get_last: Callable[[], str | None] | None = None,
    ) -> RuntimeConnectInput:
        env = build_cli_env(self.server.base_url, home=self.tmp_path / "cli-home", no_retries=no_retries)
        return RuntimeConnectInput(
            context=make_context(self.tmp_path, self.workspace, base_url=self.server.base_url),
            resume_token=resume_token,
            permission_mode=permission_mode,
            disabled_tools=disabled_tools,
            get_api_key=lambda: None,
            get_last_resume_token=get_last or (lambda: self.last_token[0]),
            extra_env=env,
        )


class EventReader:
    """Reads a connection's single event iterator across turns."""

    def __init__(self, connection: AgentRuntimeConnection) -> None:
        self.connection = connection
        self._iter: AsyncIterator[AgentRuntimeEvent] = connection.events()
        self.all: list[AgentRuntimeEvent] = []

    async def next(self, timeout: float = 15.0) -> AgentRuntimeEvent:
        event = await asyncio.wait_for(anext(self._iter), timeout)
        self.all.append(event)
        return event

    async def read_until(
        self, predicate: Callable[[AgentRuntimeEvent], bool], timeout: float = 15.0
    ) -> list[AgentRuntimeEvent]:
        """Read events until one matches `predicate`; returns those read, the match last."""
        seen: list[AgentRuntimeEvent] = []
        while True:
            event = await self.next(timeout)
            seen.append(event)
            if predicate(event):
                return seen

    async def turn(self, timeout: float = 15.0) -> list[AgentRuntimeEvent]:
        return await self.read_until(lambda e: e.type in TERMINAL, timeout)


async def send_text(connection: AgentRuntimeConnection, text: str) -> UIMessage:
    message = UIMessage.user_text(text)
    await connection.send(RuntimeSendInput(message=message))
    return message


def chunk_types(events: list[Any]) -> list[str]:
    return [e.chunk.type for e in events if e.type == "chunk"]


def text_of(events: list[Any]) -> str:
    return "".join(e.chunk.delta for e in events if e.type == "chunk" and e.chunk.type == "text-delta")
