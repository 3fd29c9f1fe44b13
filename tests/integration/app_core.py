"""The whole app core for end-to-end tests, for either agent runtime: `start_core` (AiService ->
AiStreamManager -> AgentSessionRuntimeService -> the runtime's driver -> the real CLI or pi)
against the scripted model server, with the demo's provider / agent / workspace / session
records (`ensure_demo_records`, plus `ensure_pi_demo_records` for pi).

The fixtures `open_app` (claude-code) and `open_pi_app` (pi) in conftest.py are `app_opener`
for one agent type."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

from cherry_desktop.core.ai.runtime.acp.driver import AcpRuntimeDriver
from cherry_desktop.core.ai.runtime.claude_code.driver import ClaudeCodeRuntimeDriver
from cherry_desktop.core.ai.runtime.pi.driver import PiRuntimeDriver
from cherry_desktop.core.ai.runtime.pi.install import PiInstallation
from cherry_desktop.core.ai.stream import AiStreamOpenRequest, DispatchResult, dispatch_stream_request
from cherry_desktop.core.app.bootstrap import CoreServices, start_core
from cherry_desktop.core.data.records import StoredMessage
from cherry_desktop.core.messages import TextPart
from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.core.storage.paths import build_path_registry
from cherry_desktop.demo import ScriptedModelServer
from cherry_desktop.demo.bootstrap import (
    DEMO_MODEL_ID,
    DEMO_PROVIDER_ID,
    demo_provider_settings,
    ensure_acp_demo_records,
    ensure_demo_records,
    ensure_pi_demo_records,
)
from tests.unit.agent_session.harness import Subscriber
from tests.waiting import until

AgentType = Literal["claude-code", "pi", "acp"]
DriverT = TypeVar("DriverT")

BOGUS_TOKEN = "00000000-0000-4000-8000-000000000000"
# Waits bound a hang, they are never what a test asserts.
TURN_LIMIT_S = 30.0

DRIVER_CLASSES: dict[AgentType, type[Any]] = {"claude-code": ClaudeCodeRuntimeDriver, "pi": PiRuntimeDriver,
                                              "acp": AcpRuntimeDriver}


def row_text(row: StoredMessage) -> str:
    return "".join(p.text for p in row.parts if isinstance(p, TextPart))


@dataclass
class App(Generic[DriverT]):
    """One running core with a demo session of one agent type, and a window-like subscriber."""

    core: CoreServices
    agent_type: AgentType
    session_id: str
    workspace: Path
    subscriber: Subscriber = field(default_factory=Subscriber)

    @property
    def claude_tools(self) -> bool:
        """Claude Code's tool names and arguments: the Claude runtime, and the ACP demo agent
        (claude-agent-acp wraps the same CLI). pi has its own."""
        return self.agent_type != "pi"

    @property
    def topic(self) -> str:
        return session_topic_id(self.session_id)

    @property
    def driver(self) -> DriverT:
        driver = self.core.agent_runtime.registry.get(self.agent_type)
        assert isinstance(driver, DRIVER_CLASSES[self.agent_type])
        return driver  # type: ignore[no-any-return]

    async def send(self, message: str, *, mode: str = "steer") -> DispatchResult:
        request = AiStreamOpenRequest(topic_id=self.topic, user_message_parts=[TextPart(text=message, state="done")],
                                      follow_up_mode=mode)  # type: ignore[arg-type]
        return await dispatch_stream_request(self.core.stream_manager, self.subscriber, request)

    def rows(self) -> list[StoredMessage]:
        return self.core.repos.session_messages.list_messages(self.session_id)

    def row(self, message_id: str) -> StoredMessage:
        return self.core.repos.session_messages.get_message(message_id)

    def is_idle(self) -> bool:
        return bool(self.core.agent_runtime.is_session_settled(self.session_id))

    async def idle(self) -> None:
        await until(self.is_idle, limit=TURN_LIMIT_S)

    async def finished(self, message_id: str) -> StoredMessage:
        """The row once terminal persistence wrote it and the runtime went idle."""
        await until(lambda: self.row(message_id).status != "pending", limit=TURN_LIMIT_S)
        await self.idle()
        return self.row(message_id)

    async def start_streaming(self, message: str) -> str:
        """Start a fresh turn and wait for its first text; returns the assistant row id."""
        result = await self.send(message)
        assistant_id = result.placeholder_ids[0]
        await until(lambda: self.text_streamed(assistant_id), limit=TURN_LIMIT_S)
        return assistant_id

    async def settled_rows(self, count: int) -> list[StoredMessage]:
        """The session's rows once there are `count`, none pending, and the runtime is idle."""
        await until(lambda: len(rows := self.rows()) == count and all(r.status != "pending" for r in rows),
                    limit=TURN_LIMIT_S)
        await self.idle()
        return self.rows()

    async def turn(self, message: str) -> StoredMessage:
        """A fresh turn from an idle session, to its finished assistant row."""
        result = await self.send(message)
        assert result.mode == "started"
        return await self.finished(result.placeholder_ids[0])

    def text_streamed(self, message_id: str) -> str:
        return self.subscriber.text_for(message_id)

    def approval_ids(self) -> list[str]:
        """The approval ids the session asked for so far, oldest first."""
        return [c.approval_id for _, c in self.subscriber.chunks  # type: ignore[attr-defined]
                if c.type == "tool-approval-request"]


OpenApp = Callable[..., Awaitable[App[Any]]]


def _set_provider_env(core: CoreServices, extra_env: dict[str, str]) -> None:
    settings = demo_provider_settings()
    settings["env"].update(extra_env)
    provider = core.repos.providers.get_provider(DEMO_PROVIDER_ID)
    core.repos.providers.upsert_provider(id=provider.id, name=provider.name, type=provider.type,
                                         base_url=provider.base_url, settings=settings)
    # Replacing the provider row drops its models: put the demo model back.
    core.repos.providers.upsert_model(provider_id=DEMO_PROVIDER_ID, model_id=DEMO_MODEL_ID, name="Demo model")


@asynccontextmanager
async def app_opener(tmp_path: Path, model_server: ScriptedModelServer, agent_type: AgentType, *,
                     pi_installation: PiInstallation | None = None,
                     acp_install_root: Path | None = None) -> AsyncIterator[OpenApp]:
    """Yields `open()`: start a core on `tmp_path/data` (the same data dir each call: a restart)
    with the demo records pointing at the scripted server, and the demo session of
    `agent_type`. `open(extra_env={...})` adds to the demo provider's child environment. Every
    core opened is stopped on exit."""
    cores: list[CoreServices] = []

    async def _open(*, extra_env: dict[str, str] | None = None) -> App[Any]:
        core = await start_core(build_path_registry(tmp_path / "data"))
        cores.append(core)
        root = core.paths.get("feature.agents.workspaces")
        _, session_id, workspace = ensure_demo_records(core.repos, root, model_server.base_url)
        if agent_type == "pi":
            _, session_id, workspace = ensure_pi_demo_records(core.repos, root)
        elif agent_type == "acp":
            _, session_id, workspace = ensure_acp_demo_records(core.repos, root)
        if extra_env:
            _set_provider_env(core, extra_env)
        app: App[Any] = App(core=core, agent_type=agent_type, session_id=session_id, workspace=workspace)
        if pi_installation is not None:
            app.driver.use_installation(pi_installation)
        if acp_install_root is not None:
            app.driver.install_root = acp_install_root
        return app

    try:
        yield _open
    finally:
        for core in cores:
            await core.stop()
