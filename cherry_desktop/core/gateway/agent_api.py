"""The agent and topic API: Cherry's agents, sessions and topics over HTTP, turns as SSE.

- ``POST /v1/agent-sessions/{id}/messages`` ``{"text": "..."}``: starts a turn, or steers the
  live one, exactly as the composer does (`dispatch_stream_request` with the same request);
  the answer streams the turn (`SseListener`: one ``data:`` line per `UIMessageChunk`, then
  ``data: [DONE]``). The API's composition is `SseListener` + the session's persistence
  listener (stream-manager.md, "API server SSE").
- ``GET /v1/agents``, ``/v1/agent-sessions``, ``/v1/topics``: ``{"data": [...]}``.
- ``GET /v1/topics/{id}/stream``: attach to a live topic (compact replay, live chunks, [DONE]).
- ``POST /v1/topics/{id}/abort``: the user's Stop.
- ``POST /v1/agent-sessions/{id}/approvals/{approval_id}`` ``{"approved": true|false}``: the
  answer to a ``tool-approval-request`` chunk, as the approval card gives it.

Errors are ``{"error": {"type": <code>, "message": ...}}`` with a 4xx/5xx status; nothing is
streamed for a request that was refused.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cherry_desktop.core.ai.agent_session import AgentSessionRuntimeService
from cherry_desktop.core.ai.agent_session.errors import AgentSessionError
from cherry_desktop.core.ai.runtime.types import ApprovalDecision
from cherry_desktop.core.ai.stream import (
    AiStreamManager,
    AiStreamOpenRequest,
    SseListener,
    TopicStatusSnapshotEntry,
    user_parts,
)
from cherry_desktop.core.ai.stream.errors import StreamManagerError
from cherry_desktop.core.data import AgentSessionRecord, Repositories
from cherry_desktop.core.gateway.responses import sse_response
from cherry_desktop.core.gateway.to_openai import openai_error
from cherry_desktop.core.gateway.wire import WireObject
from cherry_desktop.core.state.shared_cache import SharedCache, topic_stream_status_key
from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.core.storage.storage_faults import StorageFault, classify

log = logging.getLogger(__name__)


class ApiCore(Protocol):
    """What the API reads from core (`CoreServices` has it)."""

    repos: Repositories
    shared_cache: SharedCache
    services_ready: asyncio.Event
    stream_manager: AiStreamManager
    agent_runtime: AgentSessionRuntimeService


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse(openai_error(code, message), status_code=status)


def mark_steer(repos: Repositories, message_id: str) -> None:
    """A user message steered into a running turn keeps its "steer" label (as the UI marks it)."""
    stored = repos.session_messages.find_message(message_id)
    if stored is not None:
        repos.session_messages.update_message(message_id, metadata={**stored.metadata, "steer": True})


class AgentApi:
    def __init__(self, core: ApiCore) -> None:
        self.core = core

    def routes(self) -> list[Route]:
        return [
            Route("/v1/agents", self.agents, methods=["GET"]),
            Route("/v1/agent-sessions", self.sessions, methods=["GET"]),
            Route("/v1/agent-sessions/{session_id}/messages", self.send_message, methods=["POST"]),
            Route("/v1/topics", self.topics, methods=["GET"]),
            Route("/v1/topics/{topic_id:path}/stream", self.attach, methods=["GET"]),
            Route("/v1/topics/{topic_id:path}/abort", self.abort, methods=["POST"]),
            Route("/v1/agent-sessions/{session_id}/approvals/{approval_id}", self.approve, methods=["POST"]),
        ]

    def _status(self, topic_id: str) -> str:
        entry = self.core.shared_cache.get(topic_stream_status_key(topic_id))
        return entry.status if isinstance(entry, TopicStatusSnapshotEntry) else "idle"

    # -- lists --------------------------------------------------------------------------------

    async def agents(self, _: Request) -> Response:
        return JSONResponse({"data": [{"id": a.id, "title": a.name, "type": a.type, "model": a.model,
                                       "description": a.description}
                                      for a in self.core.repos.agents.list_agents()]})

    def _session_item(self, session: AgentSessionRecord) -> WireObject:
        topic_id = session_topic_id(session.id)
        return {"id": session.id, "title": session.name, "agent_id": session.agent_id, "topic_id": topic_id,
                "model": session.model, "status": self._status(topic_id)}

    async def sessions(self, _: Request) -> Response:
        return JSONResponse({"data": [self._session_item(s) for s in self.core.repos.sessions.list_sessions()]})

    async def topics(self, _: Request) -> Response:
        chats = [{"id": t.id, "title": t.name, "kind": "chat", "model": t.model, "status": self._status(t.id)}
                 for t in self.core.repos.topics.list_topics()]
        sessions = [{**self._session_item(s), "id": session_topic_id(s.id), "kind": "agent-session",
                     "session_id": s.id} for s in self.core.repos.sessions.list_sessions()]
        return JSONResponse({"data": chats + sessions})

    # -- turns ----------------------------------------------------------------------------------

    async def send_message(self, request: Request) -> Response:
        session_id = request.path_params["session_id"]
        try:
            body = await request.json()
        except ValueError:
            return _error(400, "invalid_request_error", "the request body is not JSON")
        text = body.get("text") if isinstance(body, dict) else None
        if not isinstance(text, str) or not text.strip():
            return _error(400, "invalid_request_error", 'the body must be {"text": "..."} with some text')
        if self.core.repos.sessions.find_session(session_id) is None:
            return _error(404, "session-not-found", f"no agent session {session_id!r}")
        await self.core.services_ready.wait()
        from cherry_desktop.core.ai.stream import dispatch_when_writable

        listener = SseListener()
        open_request = AiStreamOpenRequest(topic_id=session_topic_id(session_id), user_message_parts=user_parts(text))
        try:
            # A backup's write hold (milliseconds) is waited through, as in the composer.
            result = await dispatch_when_writable(self.core.stream_manager, listener, open_request)
        except (StreamManagerError, AgentSessionError) as exc:
            listener.close()
            code = exc.code
            return _error(409 if code in ("writes-paused", "session-busy") else 400, code, str(exc))
        except Exception as exc:
            fault = classify(exc)
            if fault is None:
                raise
            # A full or read-only disk refused the user row: nothing was sent; say so in JSON.
            listener.close()
            log.error("a message to session %s was not saved: %s", session_id, fault)
            return _error(507 if fault.fault is StorageFault.DISK_FULL else 503, fault.fault.value,
                          f"the message was not saved: {fault}")
        if result.follow_up == "injected" and result.user_message_id:
            mark_steer(self.core.repos, result.user_message_id)
        if result.follow_up == "queued":
            listener.end()  # queued for the next turn: nothing of it streams now
        headers = {"x-cherry-mode": result.mode, "x-cherry-user-message-id": result.user_message_id or ""}
        if result.follow_up:
            headers["x-cherry-follow-up"] = result.follow_up
        response = sse_response(listener.frames())
        response.headers.update(headers)
        return response

    async def attach(self, request: Request) -> Response:
        topic_id = request.path_params["topic_id"]
        await self.core.services_ready.wait()
        listener = SseListener()
        attached = self.core.stream_manager.attach(listener, topic_id)
        if attached.status != "streaming":  # only a live stream registers the listener
            listener.close()
            return _error(404, "no-live-stream", f"topic {topic_id!r} has no live stream ({attached.status})")
        for replay in attached.replays:
            listener.replay(replay.chunks)
        return sse_response(listener.frames())

    async def abort(self, request: Request) -> Response:
        topic_id = request.path_params["topic_id"]
        await self.core.services_ready.wait()
        manager = self.core.stream_manager
        if not manager.has_live_stream(topic_id):
            return _error(404, "no-live-stream", f"topic {topic_id!r} has no live stream")
        manager.abort(topic_id)
        return JSONResponse({"ok": True, "topic_id": topic_id})


    async def approve(self, request: Request) -> Response:
        session_id, approval_id = request.path_params["session_id"], request.path_params["approval_id"]
        try:
            body = await request.json()
        except ValueError:
            body = None
        approved = body.get("approved") if isinstance(body, dict) else None
        if not isinstance(approved, bool):
            return _error(400, "invalid_request_error", 'the body must be {"approved": true} or {"approved": false}')
        await self.core.services_ready.wait()
        reason = body.get("reason") if isinstance(body.get("reason"), str) else None
        taken = await self.core.agent_runtime.respond_tool_approval(
            session_id, approval_id, ApprovalDecision(approved=approved, reason=reason))
        if not taken:
            return _error(404, "approval-not-found", f"no pending approval {approval_id!r} in session {session_id!r}")
        return JSONResponse({"ok": True})


__all__ = ["AgentApi", "ApiCore", "mark_steer"]
