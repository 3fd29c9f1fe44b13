"""`TemporaryChatContextProvider`: in-memory chats (single model, no regenerate, no tree)."""

from __future__ import annotations

from cherry_desktop.core.ai.stream.backends import TemporaryChatBackend, TemporaryChatService
from cherry_desktop.core.ai.stream.context.model_resolution import resolve_models
from cherry_desktop.core.ai.stream.persistence import PersistenceListener
from cherry_desktop.core.ai.stream.types import (
    AiStreamOpenRequest,
    AiStreamRequest,
    DispatchContext,
    DispatchError,
    MainDispatchRequest,
    MainSteerContinuationRequest,
    ModelDispatch,
    PreparedDispatch,
    StreamListener,
)
from cherry_desktop.core.messages import ErrorCode, UIMessage, new_id


class TemporaryChatContextProvider:
    name = "temporary"

    def __init__(self, service: TemporaryChatService) -> None:
        self.service = service

    def can_handle(self, topic_id: str) -> bool:
        return self.service.has_topic(topic_id)

    async def prepare_dispatch(self, subscriber: StreamListener | None, req: MainDispatchRequest,
                               ctx: DispatchContext) -> PreparedDispatch:
        topic = self.service.get_topic(req.topic_id)
        listeners: list[StreamListener] = [subscriber] if subscriber is not None else []
        if isinstance(req, MainSteerContinuationRequest):
            model_id = resolve_models(req.model_ids[:1], topic.model_id)[0]
            return self._turn(listeners, req.topic_id, model_id, req.steer_user_message_id)
        if not isinstance(req, AiStreamOpenRequest) or req.trigger != "submit-message":
            raise DispatchError(ErrorCode.UNSUPPORTED, "temporary chats support submit only")
        if not req.user_message_parts:
            raise DispatchError(ErrorCode.EMPTY_MESSAGE, "the user message has no parts")
        user = UIMessage(id=new_id(), role="user", parts=list(req.user_message_parts))
        self.service.append(req.topic_id, user)
        if ctx.has_live_stream:
            return PreparedDispatch(topic_id=req.topic_id, models=[], listeners=listeners,
                                    user_message_id=user.id, pending_steer_user_message_id=user.id)
        model_id = resolve_models(req.mentioned_model_ids[:1], topic.model_id)[0]
        return self._turn(listeners, req.topic_id, model_id, user.id)

    def _turn(self, listeners: list[StreamListener], topic_id: str, model_id: str, user_id: str) -> PreparedDispatch:
        message_id = new_id()
        request = AiStreamRequest(model_id=model_id, messages=self.service.messages(topic_id), topic_id=topic_id,
                                  message_id=message_id)
        backend = TemporaryChatBackend(self.service, topic_id)
        listeners = [*listeners, PersistenceListener(backend=backend, topic_id=topic_id, model_id=model_id)]
        return PreparedDispatch(topic_id=topic_id, models=[ModelDispatch(model_id, request, message_id)],
                                listeners=listeners, user_message_id=user_id)
