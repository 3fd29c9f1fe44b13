"""`AgentChatContextProvider`: `agent-session:<sessionId>` topics -> the runtime host.

Fresh turn: validate the session, save the user row and the pending assistant row in one
transaction, `begin_turn`, and return one model dispatch carrying the runtime metadata.
Live follow-up (the topic has a live stream, or the runtime still owns a turn): save the user
row, hand it to `enqueue_user_message` ("steer" or "queue" as the user chose), and return a
dispatch with no models so `AiStreamManager.send` only upserts the subscriber.
"""

from __future__ import annotations

from cherry_desktop.core.ai.agent_session import sessions_admin
from cherry_desktop.core.ai.agent_session.errors import AgentSessionError, AgentSessionValidationError
from cherry_desktop.core.ai.agent_session.service import AgentSessionRuntimeService
from cherry_desktop.core.ai.stream.types import (
    AiStreamOpenRequest,
    DispatchContext,
    DispatchError,
    MainDispatchRequest,
    ModelDispatch,
    PreparedDispatch,
    StreamListener,
)
from cherry_desktop.core.messages import UIMessage
from cherry_desktop.core.state.topics import AGENT_SESSION_TOPIC_PREFIX, session_id_from_topic


class AgentChatContextProvider:
    """The first provider of `dispatch_stream_request` (Agent -> Temporary -> Persistent)."""

    def __init__(self, runtime: AgentSessionRuntimeService) -> None:
        self.runtime = runtime

    @property
    def name(self) -> str:
        return "agent-session"

    def can_handle(self, topic_id: str) -> bool:
        return topic_id.startswith(AGENT_SESSION_TOPIC_PREFIX)

    async def prepare_dispatch(self, subscriber: StreamListener | None, req: MainDispatchRequest,
                               ctx: DispatchContext) -> PreparedDispatch:
        session_id = session_id_from_topic(req.topic_id)
        if session_id is None:
            raise DispatchError("session-not-found", req.topic_id)
        if not isinstance(req, AiStreamOpenRequest) or req.trigger != "submit-message":
            # Approvals go through respond_tool_approval; agent sessions have no regenerate.
            raise DispatchError("unsupported-trigger", f"{req.trigger} on {req.topic_id}")
        if not req.user_message_parts:
            raise DispatchError("empty-message", req.topic_id)
        listeners: list[StreamListener] = [subscriber] if subscriber is not None else []
        runtime = self.runtime
        repos = runtime.repos
        await sessions_admin.finish_closing(runtime, session_id, runtime.get_entry(session_id))
        if ctx.has_live_stream or runtime.is_session_busy(session_id) or runtime.streams.has_live_stream(req.topic_id):
            if repos.sessions.find_session(session_id) is None:
                raise AgentSessionValidationError("session-not-found", session_id)
            row = repos.session_messages.create_message(session_id=session_id, role="user",
                                                        parts=list(req.user_message_parts))
            follow_up = await runtime.enqueue_user_message(session_id, row.to_ui_message(),
                                                           mode=req.follow_up_mode)
            return PreparedDispatch(topic_id=req.topic_id, models=[], listeners=listeners,
                                    user_message_id=row.id, follow_up=follow_up)
        # Refused with a typed error before anything is written or spawned.
        context = runtime.resolve_context(session_id)
        model_id = context.model_id or ""
        user, assistant = repos.session_messages.create_turn(session_id=session_id,
                                                             user_parts=list(req.user_message_parts),
                                                             model_id=model_id)
        user_message = user.to_ui_message()
        try:
            begun = runtime.begin_turn(session_id, user_message=user_message, assistant_message_id=assistant.id,
                                       model_id=model_id, context=context)
        except AgentSessionError:
            repos.session_messages.update_message(assistant.id, status="error")
            raise
        seed = [user_message, UIMessage(id=assistant.id, role="assistant")]
        request = runtime.build_turn_request(session_id, begun.turn_id, seed)
        return PreparedDispatch(
            topic_id=req.topic_id,
            models=[ModelDispatch(model_id=model_id, request=request, anchor_message_id=assistant.id)],
            listeners=[*listeners, *begun.listeners], user_message_id=user.id,
            reserved_messages=seed,
        )
