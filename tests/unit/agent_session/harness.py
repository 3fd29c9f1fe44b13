"""A real AiStreamManager + AgentSessionRuntimeService on real SQLite, driven by ScriptedDriver,
wired as the app wires them (`core/app/bootstrap.py`): the manager streams through
`AiService.stream_text`, which hands agent-session requests to the host's `open_turn_stream`."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

from cherry_desktop.core.ai.agent_session import AgentChatContextProvider, AgentSessionRuntimeService
from cherry_desktop.core.ai.runtime.register_drivers import RuntimeDriverRegistry
from cherry_desktop.core.ai.service import AiService
from cherry_desktop.core.ai.stream.context.dispatch import dispatch_stream_request
from cherry_desktop.core.ai.stream.manager import AiStreamManager
from cherry_desktop.core.ai.stream.types import (
    AiStreamOpenRequest,
    DispatchResult,
    StreamDoneResult,
    StreamErrorResult,
    StreamPausedResult,
    StreamTerminalResult,
    UniqueModelId,
)
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.data.records import AgentSessionRecord, StoredMessage
from cherry_desktop.core.messages import TextPart, UIMessageChunk
from cherry_desktop.core.state.shared_cache import SharedCache
from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.core.storage.paths import PathRegistry, build_path_registry
from tests.fakes.scripted_driver import ScriptedConnection, ScriptedDriver
from tests.waiting import until

MODEL = "demo::sonnet"


class Subscriber:
    """A window-like listener: records chunks with their anchors, and terminals."""

    def __init__(self, name: str = "wc:1") -> None:
        self._id = name
        self.chunks: list[tuple[str | None, UIMessageChunk]] = []
        self.terminals: list[StreamTerminalResult] = []

    @property
    def id(self) -> str:
        return self._id

    def is_alive(self) -> bool:
        return True

    def on_chunk(self, chunk: UIMessageChunk, source_model_id: UniqueModelId | None = None,
                 anchor_message_id: str | None = None) -> None:
        self.chunks.append((anchor_message_id, chunk))

    async def on_done(self, result: StreamDoneResult) -> None:
        self.terminals.append(result)

    async def on_paused(self, result: StreamPausedResult) -> None:
        self.terminals.append(result)

    async def on_error(self, result: StreamErrorResult) -> None:
        self.terminals.append(result)

    def text_for(self, anchor: str) -> str:
        return "".join(getattr(c, "delta", "") for a, c in self.chunks if a == anchor and c.type == "text-delta")


@dataclass(eq=False)
class Harness:
    repos: Repositories
    paths: PathRegistry
    driver: ScriptedDriver
    runtime: AgentSessionRuntimeService
    manager: AiStreamManager
    provider: AgentChatContextProvider
    session: AgentSessionRecord
    workspace: Path
    ai_service: AiService
    subscriber: Subscriber = field(default_factory=Subscriber)

    @property
    def topic(self) -> str:
        return session_topic_id(self.session.id)

    async def send(self, text: str, *, mode: str = "steer", subscriber: Subscriber | None = None) -> DispatchResult:
        req = AiStreamOpenRequest(topic_id=self.topic, user_message_parts=[TextPart(text=text, state="done")],
                                  follow_up_mode=mode)  # type: ignore[arg-type]
        return await dispatch_stream_request(self.manager, subscriber or self.subscriber, req, [self.provider])

    def rows(self) -> list[StoredMessage]:
        return self.repos.session_messages.list_messages(self.session.id)

    def row(self, message_id: str) -> StoredMessage:
        return self.repos.session_messages.get_message(message_id)

    def topic_status(self) -> str | None:
        snap = self.manager.inspect(self.topic)
        return snap.status if snap is not None else None

    async def first_turn(self, text: str) -> ScriptedConnection:
        """Send `text` as the harness's first turn; return its connection once the runtime has it."""
        await self.send(text)
        conn = await self.driver.wait_connection()
        await conn.wait_sent(1)
        return conn

    async def idle(self) -> None:
        """Wait until the runtime released the session and the topic is no longer live."""
        await until(lambda: self.runtime.is_session_settled(self.session.id))

    async def aclose(self) -> None:
        """Stop as the app stops (core/app/bootstrap.py): the streams first, then the runtime
        (its sessions, their connections and event pumps)."""
        OPEN_HARNESSES.pop(self, None)
        await self.manager.shutdown()
        await self.runtime.stop()


# The harnesses not yet closed, with the loop each was made on (None: made outside one).
OPEN_HARNESSES: dict[Harness, asyncio.AbstractEventLoop | None] = {}


async def close_open_harnesses() -> None:
    """Stop the harnesses made on the running loop (tests/unit/agent_session/conftest.py does,
    after each test); forget those of loops already gone (a test elsewhere that failed before
    its own `aclose()`: its loop's end cancelled their tasks)."""
    loop = asyncio.get_running_loop()
    for harness, made_on in list(OPEN_HARNESSES.items()):
        if made_on is loop:
            await harness.aclose()
        else:
            OPEN_HARNESSES.pop(harness, None)


def add_model(repos: Repositories, unique_model_id: str) -> None:
    """The provider and model rows a turn on `unique_model_id` needs (a turn on a model that no
    longer exists is refused)."""
    provider_id, _, model_id = unique_model_id.partition("::")
    if repos.providers.find_provider(provider_id) is None:
        repos.providers.upsert_provider(id=provider_id, name=provider_id, type="anthropic",
                                        base_url="http://127.0.0.1:9")
    repos.providers.upsert_model(provider_id=provider_id, model_id=model_id, name=model_id)


def make_harness(repos: Repositories, tmp_path: Path, *, supports_redirect: bool = True,
                 idle_window_s: float = 300.0, driver: ScriptedDriver | None = None,
                 model: str | None = MODEL) -> Harness:
    paths = build_path_registry(tmp_path / "data")
    workspace = tmp_path / "ws"
    workspace.mkdir(exist_ok=True)
    driver = driver or ScriptedDriver(supports_redirect=supports_redirect)
    registry = RuntimeDriverRegistry()
    registry.register(driver)  # type: ignore[arg-type]
    for name in ("sonnet", "opus", "m"):
        add_model(repos, f"demo::{name}")
    if model is not None:
        add_model(repos, model)
    agent = repos.agents.create_agent(type=driver.type, name="Ada", model=model)
    ws = repos.agents.create_workspace(name="ws", path=str(workspace), agent_id=agent.id)
    session = repos.sessions.create_session(agent_id=agent.id, workspace_id=ws.id)
    return attach_harness(repos, paths, driver, registry, session, workspace, idle_window_s=idle_window_s)


def attach_harness(repos: Repositories, paths: PathRegistry, driver: ScriptedDriver, registry: RuntimeDriverRegistry,
                   session: AgentSessionRecord, workspace: Path, *, idle_window_s: float = 300.0) -> Harness:
    cache = SharedCache()
    # Composed in the app's order (bootstrap.add_stream_services): the manager, then the host
    # on it, then the AI service's runtime handler.
    ai_service = AiService(repos)
    manager = AiStreamManager(stream_text=ai_service.stream_text, shared_cache=cache,
                              grace_period_ms=50, idle_timeout_ms=0, checkpoint_interval_ms=0)
    runtime = AgentSessionRuntimeService(repos=repos, paths=paths, registry=registry, idle_window_s=idle_window_s,
                                         shared_cache=cache, stream_host=manager)
    runtime.initialize()
    ai_service.set_runtime_stream_handler(runtime.open_turn_stream)
    provider = AgentChatContextProvider(runtime)
    manager.set_context_providers([provider])
    harness = Harness(repos=repos, paths=paths, driver=driver, runtime=runtime, manager=manager, provider=provider,
                      session=session, workspace=workspace, ai_service=ai_service)
    try:
        OPEN_HARNESSES[harness] = asyncio.get_running_loop()
    except RuntimeError:
        OPEN_HARNESSES[harness] = None
    return harness
