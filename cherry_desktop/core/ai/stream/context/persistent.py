"""`PersistentChatContextProvider`: chat topics stored as a message tree in SQLite (catch-all).

Submit: the user row and one pending placeholder per model are created in one transaction;
regenerate: new placeholders as siblings under the same user row; continue-conversation: the
anchor row goes back to pending and the continuation appends to its parts; steer (a submit
while the topic is live): the user row is persisted and the dispatch is enqueue-only;
steer-continuation: placeholders under the queued steer row.
"""

from __future__ import annotations

from collections.abc import Sequence

from cherry_desktop.core.ai.stream.backends import MessageServiceBackend
from cherry_desktop.core.ai.stream.context.model_resolution import resolve_models, siblings_group_id
from cherry_desktop.core.ai.stream.persistence import PersistenceListener
from cherry_desktop.core.ai.stream.trace import TraceFlushListener, TraceStorage
from cherry_desktop.core.ai.stream.types import (
    AiStreamOpenRequest,
    AiStreamRequest,
    DispatchContext,
    DispatchError,
    MainContinueConversationRequest,
    MainDispatchRequest,
    MainSteerContinuationRequest,
    ModelDispatch,
    PreparedDispatch,
    StreamListener,
    UniqueModelId,
)
from cherry_desktop.core.data import NotFoundError, Repositories, StoredMessage
from cherry_desktop.core.data.models import database_proxy
from cherry_desktop.core.data.sibling_groups import continuation_anchor
from cherry_desktop.core.messages import ErrorCode, MessagePart, UIMessage


class PersistentChatContextProvider:
    name = "persistent"

    def __init__(self, repos: Repositories, *, trace_storage: TraceStorage | None = None,
                 default_model_id: UniqueModelId | None = None) -> None:
        self.repos = repos
        self.trace_storage = trace_storage
        self.default_model_id = default_model_id

    def can_handle(self, topic_id: str) -> bool:
        return True

    async def prepare_dispatch(self, subscriber: StreamListener | None, req: MainDispatchRequest,
                               ctx: DispatchContext) -> PreparedDispatch:
        topic = self.repos.topics.find_topic(req.topic_id)
        if topic is None:
            raise DispatchError(ErrorCode.TOPIC_NOT_FOUND, req.topic_id)
        if isinstance(req, MainSteerContinuationRequest):
            return self._steer_continuation(req)
        if isinstance(req, MainContinueConversationRequest):
            return self._continue(subscriber, req)
        if req.trigger == "regenerate-message":
            if ctx.has_live_stream:
                raise DispatchError(ErrorCode.TOPIC_BUSY, "cannot regenerate while the topic is streaming")
            return self._regenerate(subscriber, req)
        if ctx.has_live_stream:
            return self._steer(subscriber, req, topic.active_node_id)
        models = resolve_models(req.mentioned_model_ids, topic.model or self.default_model_id)
        if not req.user_message_parts:
            raise DispatchError(ErrorCode.EMPTY_MESSAGE, "the user message has no parts")
        # After a multi-model turn: under the answer the user chose (else the first that succeeded).
        parent = req.parent_anchor_id or continuation_anchor(self.repos, topic)
        with database_proxy.atomic():
            user = self.repos.messages.create_message(topic_id=req.topic_id, role="user",
                                                      parts=list(req.user_message_parts), parent_id=parent)
            prepared = self._placeholders(subscriber, req.topic_id, user, models)
        prepared.user_message_id = user.id
        prepared.reserved_messages.insert(0, user.to_ui_message())
        return prepared

    # -- branches ---------------------------------------------------------------------------------
    def _steer(self, subscriber: StreamListener | None, req: AiStreamOpenRequest,
               parent: str | None) -> PreparedDispatch:
        if not req.user_message_parts:
            raise DispatchError(ErrorCode.EMPTY_MESSAGE, "the user message has no parts")
        user = self.repos.messages.create_message(topic_id=req.topic_id, role="user",
                                                  parts=list(req.user_message_parts), parent_id=parent)
        self.repos.topics.set_active_node(req.topic_id, user.id)
        return PreparedDispatch(topic_id=req.topic_id, models=[], listeners=self._subscriber(subscriber),
                                user_message_id=user.id, pending_steer_user_message_id=user.id,
                                reserved_messages=[user.to_ui_message()])

    def _regenerate(self, subscriber: StreamListener | None, req: AiStreamOpenRequest) -> PreparedDispatch:
        if req.message_id is None:
            raise DispatchError(ErrorCode.MESSAGE_NOT_FOUND, "regenerate needs the assistant message id")
        target = self._get(req.message_id)
        if target.role != "assistant" or target.parent_id is None:
            raise DispatchError(ErrorCode.NOT_REGENERABLE, f"message {target.id} is not an assistant reply")
        parent = self._get(target.parent_id)
        models = resolve_models(req.mentioned_model_ids, target.model_id or self.default_model_id)
        group = target.siblings_group_id
        with database_proxy.atomic():
            # One answer of a multi-model turn: its new version joins the same group, and the
            # conversation moves onto it only when it continued from the old one; otherwise
            # the answer it continues from stays (pinned: the default must not shift).
            effective = continuation_anchor(self.repos, self.repos.topics.get_topic(req.topic_id))
            make_active = group is None or effective == target.id
            if not make_active and effective is not None:
                self.repos.topics.set_active_node(req.topic_id, effective)
            prepared = self._placeholders(subscriber, req.topic_id, parent, models, group=group,
                                          make_active=make_active)
        prepared.user_message_id = parent.id
        return prepared

    def _continue(self, subscriber: StreamListener | None, req: MainContinueConversationRequest) -> PreparedDispatch:
        anchor = self._get(req.anchor_message_id)
        self.repos.messages.update_message(anchor.id, status="pending")
        history = self._history(req.topic_id, anchor.id, include_pending_id=anchor.id)
        request = AiStreamRequest(model_id=req.model_id, messages=history, topic_id=req.topic_id,
                                  message_id=anchor.id)
        backend = MessageServiceBackend(self.repos, message_id=anchor.id, topic_id=req.topic_id,
                                        prefix_parts=list(anchor.parts))
        listeners = [*self._subscriber(subscriber), *self._trace(req.topic_id),
                     PersistenceListener(backend=backend, topic_id=req.topic_id, model_id=req.model_id)]
        return PreparedDispatch(topic_id=req.topic_id, models=[ModelDispatch(req.model_id, request, anchor.id)],
                                listeners=listeners, is_multi_model=False)

    def _steer_continuation(self, req: MainSteerContinuationRequest) -> PreparedDispatch:
        steer = self._get(req.steer_user_message_id)
        models = resolve_models(req.model_ids, self.default_model_id)
        with database_proxy.atomic():
            prepared = self._placeholders(None, req.topic_id, steer, models)
        prepared.user_message_id = steer.id
        return prepared

    # -- helpers ----------------------------------------------------------------------------------
    def _placeholders(self, subscriber: StreamListener | None, topic_id: str, parent: StoredMessage,
                      models: Sequence[UniqueModelId], *, group: int | None = None,
                      make_active: bool = True) -> PreparedDispatch:
        """One pending assistant row per model under `parent` (call inside a transaction);
        a multi-model turn's rows share a new siblings group (or `group`, given)."""
        if group is None:
            group = siblings_group_id(self.repos, topic_id, list(models))
        history = self._history(topic_id, parent.id)
        dispatches: list[ModelDispatch] = []
        listeners: list[StreamListener] = [*self._subscriber(subscriber), *self._trace(topic_id)]
        reserved: list[UIMessage] = []
        for model_id in models:
            row = self.repos.messages.create_message(topic_id=topic_id, role="assistant", parts=[],
                                                     parent_id=parent.id, status="pending", model_id=model_id,
                                                     siblings_group_id=group)
            reserved.append(row.to_ui_message())
            request = AiStreamRequest(model_id=model_id, messages=list(history), topic_id=topic_id,
                                      message_id=row.id)
            dispatches.append(ModelDispatch(model_id=model_id, request=request, anchor_message_id=row.id))
            backend = MessageServiceBackend(self.repos, message_id=row.id, topic_id=topic_id)
            listeners.append(PersistenceListener(backend=backend, topic_id=topic_id, model_id=model_id))
        if dispatches and make_active:
            anchor = dispatches[0].anchor_message_id
            self.repos.topics.set_active_node(topic_id, anchor)
        return PreparedDispatch(topic_id=topic_id, models=dispatches, listeners=listeners,
                                reserved_messages=reserved, siblings_group_id=group,
                                is_multi_model=len(dispatches) > 1)

    def _history(self, topic_id: str, leaf_id: str, include_pending_id: str | None = None) -> list[UIMessage]:
        """The branch root -> leaf as model input (pending placeholders left out)."""
        out: list[UIMessage] = []
        for m in self.repos.messages.branch(topic_id, leaf_id):
            if m.status == "pending" and m.id != include_pending_id:
                continue
            if not m.parts:
                continue
            out.append(m.to_ui_message())
        return out

    def _get(self, message_id: str) -> StoredMessage:
        try:
            return self.repos.messages.get_message(message_id)
        except NotFoundError:
            raise DispatchError(ErrorCode.MESSAGE_NOT_FOUND, message_id) from None

    @staticmethod
    def _subscriber(subscriber: StreamListener | None) -> list[StreamListener]:
        return [subscriber] if subscriber is not None else []

    def _trace(self, topic_id: str) -> list[StreamListener]:
        return [TraceFlushListener(topic_id, self.trace_storage)] if self.trace_storage is not None else []


def user_parts(text: str) -> list[MessagePart]:
    """Convenience for callers building an `AiStreamOpenRequest` from plain text."""
    return list(UIMessage.user_text(text).parts)
