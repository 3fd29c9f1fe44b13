"""The one door from widgets into core (the spec's IPC request channels).

One async method per channel: `open` (`Ai_Stream_Open`: submit / regenerate), `attach`,
`detach`, `abort`, `respond_tool_approval`; plus the agent host's queued follow-up actions
and the database reads a window needs. Widgets never touch a core service directly.

The app starts core's stream services just after the first window is painted: a request made
before then waits for them (`core.services_ready`) instead of failing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from cherry_desktop.core.data import StoredMessage
from cherry_desktop.core.state.topics import session_id_from_topic
from cherry_desktop.ui._bridge_attachments import AttachmentsBridge
from cherry_desktop.ui._bridge_gateway import GatewayBridge
from cherry_desktop.ui._bridge_multi_model import MultiModelBridge
from cherry_desktop.ui._bridge_search import SearchBridge

if TYPE_CHECKING:
    # The stream package loads with the stream services, after the first window is painted.
    from cherry_desktop.core.ai.stream.types import AiStreamOpenRequest, AttachResponse, DispatchResult

log = logging.getLogger(__name__)


class BridgeUnavailableError(RuntimeError):
    """The core service behind a channel is not there (yet)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


@dataclass(frozen=True)
class ChatModelChoice:
    """A model a chat can use: one of an enabled provider's models."""

    unique_model_id: str
    name: str
    provider_id: str
    provider_name: str


@dataclass(frozen=True)
class ChatIssue:
    """Why a chat topic cannot send yet; `code` is one of "no-model", "model-unavailable",
    "provider-disabled", "missing-key", "keyring-unavailable" (the UI words it)."""

    code: str
    provider_name: str = ""
    provider_id: str = ""

    @property
    def blocks_send(self) -> bool:
        """Whether a send would surely fail. A model missing from the records may still be
        served (its provider decides), and core words that failure if it comes."""
        return self.code not in ("model-unavailable", "extra-model-unavailable")


# The order the provider type selector lists them in (the registry's sets are unordered).
_TYPE_ORDER = ("openai-compatible", "anthropic", "openai", "openrouter", "ollama", "lmstudio", "vllm")


@dataclass(frozen=True)
class QueuedFollowUp:
    """One queued follow-up of an agent session, as the queue dock lists it."""

    message_id: str
    text: str
    is_steer: bool


class UiBridge(QObject):
    """Async request channels from the UI into core.

    Signals:
        queue_changed(str): the queued follow-ups of this session id changed.
        settings_changed(dict): the user settings after a change.
        providers_changed(): a provider, its models or its key changed.
    """

    queue_changed = Signal(str)
    settings_changed = Signal(dict)
    providers_changed = Signal()

    def __init__(self, core: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.core = core
        self.attachments = AttachmentsBridge(core)  # the files of messages (a facet of its own)
        self.multi_model = MultiModelBridge(self)  # several models per chat turn
        self.finder = SearchBridge(self)  # search across chats and sessions
        self.gateway = GatewayBridge(core, self)  # the local API gateway (Settings)

    # -- services -------------------------------------------------------------------------
    @property
    def repos(self) -> Any:
        return self.core.repos

    @property
    def stream_manager(self) -> Any:
        return getattr(self.core, "stream_manager", None)

    @property
    def agent_runtime(self) -> Any:
        return getattr(self.core, "agent_runtime", None)

    def services_running(self) -> bool:
        """Whether core's stream services run (the app starts them just after the first paint)."""
        return bool(self.core.services_ready.is_set())

    def running_work(self) -> int:
        """How many turns are streaming or starting now (0 before the services run)."""
        if not self.services_running():
            return 0
        count = len(self.core.stream_manager.list_active_work())
        runtime = self.agent_runtime
        if runtime is not None:
            count += len(runtime.list_active_work())
        return count

    async def services(self) -> None:
        """Wait until core's stream services run (at once when they already do)."""
        await self.core.services_ready.wait()

    def _manager(self) -> Any:
        manager = self.stream_manager
        if manager is None:
            raise BridgeUnavailableError("stream_manager")
        return manager

    # -- request channels -------------------------------------------------------------------
    async def open(self, request: AiStreamOpenRequest, subscriber: Any) -> DispatchResult:
        """`Ai_Stream_Open`: submit (or steer / queue) a user message, or regenerate."""
        await self.services()
        manager = self._manager()
        from cherry_desktop.core.ai.stream import dispatch_stream_request  # loaded with the services

        result = await dispatch_stream_request(manager, subscriber, request)
        session_id = session_id_from_topic(request.topic_id)
        if session_id and result.follow_up == "queued":
            self.queue_changed.emit(session_id)
        if session_id and result.follow_up == "injected" and result.user_message_id:
            self.mark_steer(result.user_message_id)
        return result

    def mark_steer(self, message_id: str) -> None:
        """Store that this agent-session user message was steered into a running turn (its
        row keeps the "steer" label after a reload)."""
        stored = self.repos.session_messages.find_message(message_id)
        if stored is not None:
            self.repos.session_messages.update_message(message_id, metadata={**stored.metadata, "steer": True})

    async def attach(self, topic_id: str, listener: Any) -> AttachResponse:
        """`Ai_Stream_Attach`: register the window's listener; compact replay when live."""
        await self.services()
        manager = self.stream_manager
        if manager is None:
            from cherry_desktop.core.ai.stream.types import AttachResponse

            return AttachResponse(status="not-found")
        return manager.attach(listener, topic_id)  # type: ignore[no-any-return]

    async def detach(self, topic_id: str, listener: Any) -> None:
        """`Ai_Stream_Detach`: unsubscribe; the stream goes on."""
        await self.services()
        manager = self.stream_manager
        if manager is None:
            return
        manager.detach(listener.id, topic_id)

    async def abort(self, topic_id: str) -> None:
        """`Ai_Stream_Abort`: stop the current generation (the partial persists as paused)."""
        await self.services()
        self._manager().abort(topic_id)

    async def respond_tool_approval(self, topic_id: str, approval_id: str, approved: bool,
                                    reason: str | None = None, *, always_allow: bool = False) -> bool:
        """`Ai_ToolApproval_Respond`: the user's decision on a pending tool call; with
        `always_allow`, the runtime allows this tool without asking for the rest of the session."""
        await self.services()
        runtime = self.agent_runtime
        session_id = session_id_from_topic(topic_id)
        if runtime is None or session_id is None:
            raise BridgeUnavailableError("agent_runtime")
        from cherry_desktop.core.ai.runtime.types import ApprovalDecision

        decision = ApprovalDecision(approved=approved, reason=reason, always_allow=always_allow and approved)
        return bool(await runtime.respond_tool_approval(session_id, approval_id, decision))

    # -- queued follow-ups (agent sessions) ---------------------------------------------------
    def list_queued(self, session_id: str) -> list[QueuedFollowUp]:
        runtime = self.agent_runtime
        # Before the stream services run, the persisted queue is the whole truth.
        rows = (runtime.list_pending_turns(session_id) if runtime is not None
                else self.repos.pending_turns.list(session_id))
        return [QueuedFollowUp(message_id=row.user_message_id, text=row.text, is_steer=row.is_steer)
                for row in rows]

    async def _runtime(self) -> Any:
        await self.services()
        runtime = self.agent_runtime
        if runtime is None:
            raise BridgeUnavailableError("agent_runtime")
        return runtime

    async def edit_queued(self, session_id: str, message_id: str, text: str) -> None:
        (await self._runtime()).edit_pending_turn(session_id, message_id, text)
        self.queue_changed.emit(session_id)

    async def remove_queued(self, session_id: str, message_id: str) -> None:
        (await self._runtime()).remove_pending_turn(session_id, message_id)
        self.queue_changed.emit(session_id)

    async def reorder_queued(self, session_id: str, message_ids: list[str]) -> None:
        (await self._runtime()).reorder_pending_turns(session_id, message_ids)
        self.queue_changed.emit(session_id)

    async def resume_queue(self, session_id: str) -> None:
        await (await self._runtime()).resume_pending_turns(session_id)
        self.queue_changed.emit(session_id)

    def is_queue_held(self, session_id: str) -> bool:
        runtime = self.agent_runtime
        return bool(runtime.is_queue_held(session_id)) if runtime is not None else False

    async def steer_queued_now(self, session_id: str, message_id: str) -> None:
        await (await self._runtime()).steer_now(session_id, message_id)
        self.mark_steer(message_id)
        self.queue_changed.emit(session_id)

    # -- runtime facts --------------------------------------------------------------------------
    @staticmethod
    def runtime_capabilities() -> dict[str, Any]:
        try:
            from cherry_desktop.core.ai.runtime.capabilities import (
                AGENT_RUNTIME_CAPABILITIES,
            )
        except ImportError:
            return {}
        return dict(AGENT_RUNTIME_CAPABILITIES)

    def can_steer(self, topic_id: str) -> bool:
        """Whether "Steer now" is offered. Chat topics steer by enqueue + yield + chain; agent
        sessions need a runtime (the host queues the steer when the connection cannot redirect,
        and `DispatchResult.follow_up` says which happened)."""
        session_id = session_id_from_topic(topic_id)
        if session_id is None:
            return True
        session = self.repos.sessions.find_session(session_id)
        agent = self.repos.agents.find_agent(session.agent_id) if session and session.agent_id else None
        caps = self.runtime_capabilities().get(agent.type) if agent else None
        if caps is None:
            return False
        explicit = getattr(caps, "supports_steer", None)
        return True if explicit is None else bool(explicit)

    # -- sessions and topics (sidebar actions) -----------------------------------------------------
    def create_session(self, agent_id: str, name: str = "") -> str:
        """A new session of `agent_id` in the agent's first workspace; returns its topic id."""
        from cherry_desktop.core.state.topics import session_topic_id

        agent = self.repos.agents.get_agent(agent_id)
        workspaces = self.repos.agents.list_workspaces(agent_id)
        session = self.repos.sessions.create_session(
            agent_id=agent_id, workspace_id=workspaces[0].id if workspaces else None, name=name,
            model=agent.model)
        return session_topic_id(session.id)

    def create_topic(self, name: str = "", model: str | None = None) -> str:
        return self.repos.topics.create_topic(name=name, model=model).id  # type: ignore[no-any-return]

    def rename_topic(self, topic_id: str, name: str) -> None:
        """The user's name (never auto-named again), told to every window."""
        from cherry_desktop.core.state.shared_cache import topic_title_key

        self.repos.names.rename(topic_id, name)
        self.core.shared_cache.set_shared(topic_title_key(topic_id), name)

    async def delete_topic(self, topic_id: str) -> None:
        """Stop a live stream first, then delete the rows."""
        await self.services()
        manager = self.stream_manager
        if manager is not None and manager.has_live_stream(topic_id):
            manager.abort(topic_id)
        session_id = session_id_from_topic(topic_id)
        runtime = self.agent_runtime
        if session_id is not None and runtime is not None:
            await runtime.delete_session(session_id)  # its runtime is released at once
        elif session_id is not None:
            self.repos.sessions.delete_session(session_id)
        else:
            self.repos.topics.delete_topic(topic_id)

    async def delete_agent(self, agent_id: str) -> None:
        """Delete an agent and its sessions (their runtimes released at once)."""
        await self.services()
        runtime = self.agent_runtime
        if runtime is not None:
            await runtime.delete_agent(agent_id)
        else:
            self.repos.agents.delete_agent(agent_id)

    def delete_message(self, topic_id: str, message_id: str) -> None:
        """Delete one stored message of a chat (its replies move up to its parent) or of an
        agent session. A row still streaming is not deleted (the caller offers no such action)."""
        session_id = session_id_from_topic(topic_id)
        if session_id is not None:
            self.repos.session_messages.delete_message(message_id)
        else:
            self.repos.messages.delete_message(message_id)

    def message_parent(self, topic_id: str, message_id: str) -> str | None:
        """The parent node of a chat message (None at the root, and for agent sessions)."""
        if session_id_from_topic(topic_id) is not None:
            return None
        stored = self.repos.messages.find_message(message_id)
        return stored.parent_id if stored is not None else None

    def start_branch_at_root(self, topic_id: str) -> None:
        """The next message of this chat starts a new branch at its root (editing its first
        message): the active node is cleared, so the new message has no parent."""
        if session_id_from_topic(topic_id) is None:
            self.repos.topics.set_active_node(topic_id, None)

    # -- agents, settings, keys ---------------------------------------------------------------------
    def save_agent(self, agent_id: str | None, values: dict[str, Any]) -> str:
        """Create or update an agent (and its workspace) from the agent dialog's values."""
        agents = self.repos.agents
        fields = {"name": values["name"], "permission_mode": values["permission_mode"],
                  "model": values.get("model"), "instructions": values.get("instructions", "")}
        runtime = self.agent_runtime
        if agent_id is None:
            agent_id = agents.create_agent(type=values["type"], **fields).id
        elif runtime is not None:
            # Through the host: a live session of the agent takes the edit at once.
            runtime.update_agent(agent_id, **fields)
        else:
            agents.update_agent(agent_id, **fields)
        workspace = values.get("workspace")
        if workspace and not any(w.path == workspace for w in agents.list_workspaces(agent_id)):
            from pathlib import Path

            agents.create_workspace(name=Path(workspace).name or workspace, path=workspace, agent_id=agent_id)
        return agent_id

    def settings_values(self) -> dict[str, Any]:
        return self.core.settings.settings.as_dict()  # type: ignore[no-any-return]

    def update_settings(self, **changes: Any) -> None:
        self.core.settings.update(**changes)
        manager = self.stream_manager
        mode = changes.get("background_mode")
        if mode and manager is not None:  # before the services run, the manager is built from settings
            manager.set_background_mode(mode)
        self.settings_changed.emit(self.settings_values())

    def has_api_key(self, provider_id: str) -> bool:
        from cherry_desktop.core.storage.credentials import provider_key_name

        return bool(self.core.credentials.try_get(provider_key_name(provider_id)))

    def keyring_available(self) -> bool:
        try:
            return bool(self.core.credentials.available())
        except Exception:  # a broken backend is as good as none
            log.exception("probing the keyring failed")
            return False

    def set_api_key(self, provider_id: str, key: str) -> None:
        """Store the key in the keyring (never the database); raises `KeyringUnavailableError`."""
        from cherry_desktop.core.storage.credentials import provider_key_name

        self.core.credentials.set(provider_key_name(provider_id), key)
        self.providers_changed.emit()

    def delete_api_key(self, provider_id: str) -> None:
        from cherry_desktop.core.storage.credentials import provider_key_name

        self.core.credentials.delete(provider_key_name(provider_id))
        self.providers_changed.emit()

    # -- providers and models -------------------------------------------------------------------
    @staticmethod
    def provider_types() -> list[str]:
        """Every provider type the registry can build, in display order."""
        from cherry_desktop.core.ai.providers.registry import ANTHROPIC_TYPES, OPENAI_COMPATIBLE_TYPES

        known = set(OPENAI_COMPATIBLE_TYPES | ANTHROPIC_TYPES)
        return [t for t in _TYPE_ORDER if t in known] + sorted(known - set(_TYPE_ORDER))

    def list_providers(self) -> list[Any]:
        return list(self.repos.providers.list_providers())

    def add_provider(self, *, name: str, type: str, base_url: str = "", enabled: bool = True) -> str:
        """A new provider record; returns its id (a slug of the name, made unique)."""
        import re

        base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "provider"
        provider_id, n = base, 1
        while self.repos.providers.find_provider(provider_id) is not None:
            n += 1
            provider_id = f"{base}-{n}"
        self.repos.providers.upsert_provider(id=provider_id, name=name, type=type, base_url=base_url,
                                             enabled=enabled)
        self.providers_changed.emit()
        return provider_id

    def update_provider(self, provider_id: str, **changes: Any) -> None:
        self.repos.providers.update_provider(provider_id, **changes)
        self.providers_changed.emit()

    def delete_provider(self, provider_id: str) -> None:
        """Delete the record with its models, and its key if the keyring is reachable."""
        from cherry_desktop.core.storage.credentials import KeyringUnavailableError, provider_key_name

        self.repos.providers.delete_provider(provider_id)
        try:
            self.core.credentials.delete(provider_key_name(provider_id))
        except KeyringUnavailableError:
            log.warning("keyring unavailable: the key of deleted provider %s stays where it was", provider_id)
        self.providers_changed.emit()

    def add_model(self, provider_id: str, model_id: str, name: str = "") -> str:
        umid = str(self.repos.providers.upsert_model(provider_id=provider_id, model_id=model_id,
                                                     name=name).unique_model_id)
        self.providers_changed.emit()
        return umid

    def remove_model(self, unique_model_id: str) -> None:
        self.repos.providers.delete_model(unique_model_id)
        self.providers_changed.emit()

    def chat_models(self) -> list[ChatModelChoice]:
        """The models of enabled providers, provider by provider."""
        out: list[ChatModelChoice] = []
        for provider in self.repos.providers.list_providers():
            if not provider.enabled:
                continue
            provider_name = provider.name or provider.id
            models = sorted(self.repos.providers.list_models(provider.id), key=lambda m: (m.name or m.model_id).lower())
            out.extend(ChatModelChoice(m.unique_model_id, m.name or m.model_id, provider.id, provider_name)
                       for m in models)
        return out

    def topic_model(self, topic_id: str) -> str | None:
        topic = self.repos.topics.find_topic(topic_id)
        return topic.model if topic else None

    def set_topic_model(self, topic_id: str, unique_model_id: str | None) -> None:
        self.repos.topics.set_model(topic_id, unique_model_id)

    def chat_issue(self, topic_id: str) -> ChatIssue | None:
        """What keeps a chat topic from sending (None: ready). Agent sessions are the host's."""
        if session_id_from_topic(topic_id) is not None:
            return None
        return self.model_issue(self.topic_model(topic_id))

    def model_issue(self, unique_model_id: str | None) -> ChatIssue | None:
        from cherry_desktop.core.data import split_unique_model_id
        from cherry_desktop.core.data.seed import provider_needs_key

        if not unique_model_id:
            return ChatIssue("no-model")
        try:
            provider_id, _ = split_unique_model_id(unique_model_id)
        except ValueError:
            return ChatIssue("model-unavailable")
        provider = self.repos.providers.find_provider(provider_id)
        if provider is None or self.repos.providers.find_model(unique_model_id) is None:
            return ChatIssue("model-unavailable", provider.name if provider else "", provider_id)
        name = provider.name or provider.id
        if not provider.enabled:
            return ChatIssue("provider-disabled", name, provider.id)
        if provider_needs_key(provider) and not self.has_api_key(provider.id):
            code = "missing-key" if self.keyring_available() else "keyring-unavailable"
            return ChatIssue(code, name, provider.id)
        return None

    def default_chat_model(self) -> str | None:
        """For a new chat: the model of the newest chat that still works, else the first model
        of a provider the user stored a key for, else, while the offline demo runs (`--demo`),
        its model (it answers without a key), else the first model at all (its header then says what is
        missing, which is the guidance a first run needs)."""
        from cherry_desktop.core.data.seed import is_demo_provider

        for topic in self.repos.topics.list_topics():
            if topic.model and self.model_issue(topic.model) is None:
                return str(topic.model)
        choices = self.chat_models()
        keyed = next((c for c in choices if self.has_api_key(c.provider_id)), None)
        # Only while its server runs: without `--demo` its provider's address is stale.
        demo_ids = ({p.id for p in self.repos.providers.list_providers() if is_demo_provider(p)}
                    if getattr(self.core, "demo", None) is not None else set())
        demo = next((c for c in choices if c.provider_id in demo_ids), None)
        chosen = keyed or demo or (choices[0] if choices else None)
        return chosen.unique_model_id if chosen else None

    # -- reads ------------------------------------------------------------------------------------
    def load_messages(self, topic_id: str, *, limit: int | None = None,
                      before_ordering: int | None = None) -> list[StoredMessage]:
        """Rows of a topic in order; with `limit`, the newest `limit` before `before_ordering`.
        An assistant row's stats carry its recorded usage (cache reads too) and its cost where
        its model has prices."""
        from cherry_desktop.ui._usage import with_usage

        rows = self._load_rows(topic_id, limit=limit, before_ordering=before_ordering)
        return with_usage(rows, self.repos.costs.by_message(r.id for r in rows if r.role == "assistant"))

    def _load_rows(self, topic_id: str, *, limit: int | None = None,
                   before_ordering: int | None = None) -> list[StoredMessage]:
        session_id = session_id_from_topic(topic_id)
        if session_id is not None:
            return self.repos.session_messages.list_messages(  # type: ignore[no-any-return]
                session_id, limit=limit, before_ordering=before_ordering)
        rows: list[StoredMessage] = self.repos.messages.branch(topic_id)
        if before_ordering is not None:
            rows = [r for r in rows if r.ordering < before_ordering]
        return rows[-limit:] if limit else rows

    def has_conversations(self) -> bool:
        """Whether any chat topic or agent session exists (the empty state's words)."""
        return bool(self.repos.topics.list_topics() or self.repos.sessions.list_sessions())

    def topic_title(self, topic_id: str) -> str:
        session_id = session_id_from_topic(topic_id)
        if session_id is not None:
            session = self.repos.sessions.find_session(session_id)
            return session.name if session else ""
        topic = self.repos.topics.find_topic(topic_id)
        return topic.name if topic else ""

    # -- agent session header -------------------------------------------------------------------
    def session_header_info(self, topic_id: str) -> Any:
        """A `SessionHeaderInfo` for an agent session's topic, else None."""
        from cherry_desktop.core.views.session_header import session_header_info

        session_id = session_id_from_topic(topic_id)
        if session_id is None:
            return None
        return session_header_info(self.repos, getattr(self.core, "agent_runtime", None), session_id)

    async def set_session_permission_mode(self, topic_id: str, mode: str) -> Any:
        """Save the mode (the session's agent's) and apply it live through the host's reconcile;
        returns a `PermissionOutcome`."""
        from cherry_desktop.core.views.session_header import apply_permission_mode

        session_id = session_id_from_topic(topic_id)
        if session_id is None:
            raise ValueError(f"{topic_id} is not an agent session")
        return await apply_permission_mode(self.repos, getattr(self.core, "agent_runtime", None), session_id, mode)

    # -- usage and prices -------------------------------------------------------------------------
    def usage_totals(self, topic_id: str) -> Any:
        """A chat's or session's `UsageSums` so far."""
        return self.repos.costs.topic_totals(topic_id)

    def model_pricing(self, unique_model_id: str) -> Any:
        return self.repos.costs.pricing(unique_model_id)

    def set_model_pricing(self, unique_model_id: str, prices: dict[str, float] | None) -> None:
        """Save a model's prices (USD per million tokens); None removes them. Raises
        `PricingError` for a price that is not a non-negative number."""
        from cherry_desktop.core.data.usage_cost import ModelPricing

        self.repos.costs.set_pricing(unique_model_id, ModelPricing(**prices) if prices is not None else None)

    async def translate_message(self, message_id: str, language: str, listener: Any) -> None:
        """Start translating a chat message (`listener` sees it stream; saved on success).
        Raises `TranslationError`."""
        from cherry_desktop.core.ai.translate import start_translation

        await self.services()
        start_translation(self._manager(), self.repos, message_id, language,
                          fallback_model=self.core.settings.settings.naming_model or None, listeners=[listener])
