"""The stream channels (the spec's IPC request channels): `open` (`Ai_Stream_Open`: submit,
steer or queue a user message, or regenerate), `attach`, `detach`, `abort`,
`respond_tool_approval`, and a message's translation (a stream of its own).

The app starts core's stream services just after the first window is painted: a request made
before then waits for them (`core.services_ready`) instead of failing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from PySide6.QtCore import QObject

from cherry_desktop.core.state.topics import session_id_from_topic
from cherry_desktop.ui.bridge._base import BridgeUnavailableError, CoreBridge

if TYPE_CHECKING:
    # The stream package loads with the stream services, after the first window is painted.
    from cherry_desktop.core.ai.stream.types import (
        AiStreamOpenRequest,
        AttachResponse,
        DispatchResult,
        StreamListener,
    )
    from cherry_desktop.core.app.bootstrap import CoreServices
    from cherry_desktop.core.messages import MessagePart
    from cherry_desktop.ui.bridge._sessions import SessionsBridge


class TranslationRefusedError(Exception):
    """A translation core would not start; `code` is "no-text", "no-model" or "busy" (the UI
    words it)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class StreamsBridge(CoreBridge):
    """Opens, follows and stops a topic's streams.

    A follow-up queued or steered into an agent session's running turn is told to `sessions`
    (its `queue_changed`), and a steer is stored with the message.

    Signals:
        (none: a window hears its stream through its `QtStreamListener`, and every window hears
        a topic's status through the shared-cache mirror)
    """

    def __init__(self, core: CoreServices, sessions: SessionsBridge, parent: QObject | None = None) -> None:
        super().__init__(core, parent)
        self.sessions = sessions

    def running_work(self) -> int:
        """How many turns are streaming or starting now (0 before the services run)."""
        if not self.services_running():
            return 0
        count = len(self.core.stream_manager.list_active_work())
        runtime = self._agent_runtime()
        if runtime is not None:
            count += len(runtime.list_active_work())
        return count

    # -- request channels -------------------------------------------------------------------
    async def submit(self, topic_id: str, parts: list[MessagePart], listener: StreamListener, *,
                     follow_up_mode: Literal["steer", "queue"] = "steer", parent_anchor_id: str | None = None,
                     mentioned_model_ids: list[str] | None = None) -> DispatchResult:
        """`Ai_Stream_Open` with a user message: a new turn, a steer into the running turn, or a
        queued turn (agent sessions, `follow_up_mode`)."""
        from cherry_desktop.core.ai.stream.types import AiStreamOpenRequest  # loaded with the services

        return await self._open(AiStreamOpenRequest(
            topic_id=topic_id, user_message_parts=parts, follow_up_mode=follow_up_mode,
            parent_anchor_id=parent_anchor_id, mentioned_model_ids=list(mentioned_model_ids or [])), listener)

    async def regenerate(self, topic_id: str, message_id: str, listener: StreamListener) -> DispatchResult:
        """`Ai_Stream_Open` with `regenerate-message`: another answer to the same question."""
        from cherry_desktop.core.ai.stream.types import AiStreamOpenRequest  # loaded with the services

        return await self._open(AiStreamOpenRequest(topic_id=topic_id, trigger="regenerate-message",
                                                    message_id=message_id), listener)

    async def _open(self, request: AiStreamOpenRequest, subscriber: StreamListener) -> DispatchResult:
        from cherry_desktop.core.ai.stream import dispatch_when_writable  # loaded with the services

        await self.services()
        # A send during a backup's snapshot waits for it (well under a second), never fails.
        result = await dispatch_when_writable(self._manager(), subscriber, request)
        session_id = session_id_from_topic(request.topic_id)
        if session_id and result.follow_up == "queued":
            self.sessions.tell_queue_changed(session_id)
        if session_id and result.follow_up == "injected" and result.user_message_id:
            self._repos.session_messages.mark_steer(result.user_message_id)
        return result

    async def attach(self, topic_id: str, listener: StreamListener) -> AttachResponse:
        """`Ai_Stream_Attach`: register the window's listener; compact replay when live."""
        await self.services()
        manager = self._stream_manager()
        if manager is None:
            from cherry_desktop.core.ai.stream.types import AttachResponse

            return AttachResponse(status="not-found")
        return manager.attach(listener, topic_id)

    async def detach(self, topic_id: str, listener: StreamListener) -> None:
        """`Ai_Stream_Detach`: unsubscribe; the stream goes on."""
        await self.services()
        manager = self._stream_manager()
        if manager is None:
            return
        manager.detach(listener.id, topic_id)

    async def abort(self, topic_id: str, *, model_id: str | None = None) -> None:
        """`Ai_Stream_Abort`: stop the current generation (the partial persists as paused); with
        `model_id`, only that model's answer of a multi-model turn (the others go on)."""
        await self.services()
        if model_id is None:
            self._manager().abort(topic_id)
            return
        manager = self._stream_manager()
        if manager is not None:
            manager.abort(topic_id, model_id=model_id)

    async def respond_tool_approval(self, topic_id: str, approval_id: str, approved: bool,
                                    reason: str | None = None, *, always_allow: bool = False) -> bool:
        """`Ai_ToolApproval_Respond`: the user's decision on a pending tool call; with
        `always_allow`, the runtime allows this tool without asking for the rest of the session."""
        await self.services()
        runtime = self._agent_runtime()
        session_id = session_id_from_topic(topic_id)
        if runtime is None or session_id is None:
            raise BridgeUnavailableError("agent_runtime")
        from cherry_desktop.core.ai.runtime.types import ApprovalDecision

        decision = ApprovalDecision(approved=approved, reason=reason, always_allow=always_allow and approved)
        answered = bool(await runtime.respond_tool_approval(session_id, approval_id, decision))
        if decision.always_allow:  # every window of the session lists the new grant
            self.sessions.publish_always_allowed(topic_id)
        return answered

    async def translate_message(self, message_id: str, language: str, listener: StreamListener) -> None:
        """Start translating a chat message (`listener` sees it stream; saved on success).
        Raises `TranslationRefusedError`."""
        from cherry_desktop.core.ai.translate import TranslationError, start_translation

        await self.services()
        try:
            start_translation(self._manager(), self._repos, message_id, language,
                              fallback_model=self.core.settings.settings.naming_model or None, listeners=[listener])
        except TranslationError as exc:
            raise TranslationRefusedError(exc.issue.value) from exc
