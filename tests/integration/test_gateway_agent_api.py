"""The agent and topic API over SSE (`SseListener`), with the real Claude Code CLI behind a real
core, called by httpx: a turn, attach mid-stream, a caller that leaves, the key, two callers."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from cherry_desktop.core.gateway import ApiGateway, GatewayKeyCheck
from cherry_desktop.core.gateway.agent_api import AgentApi
from cherry_desktop.core.storage.credentials import CredentialStore
from cherry_desktop.demo import ScriptedModelServer, slow_text, text
from tests.integration.app_core import TURN_LIMIT_S, App, OpenApp, row_text

pytestmark = pytest.mark.integration

KEY = "cs-sk-agent-api"


@pytest.fixture
async def app(open_app: OpenApp) -> App[Any]:
    return await open_app()


@pytest.fixture
async def api(app: App[Any]) -> AsyncIterator[httpx.AsyncClient]:
    gateway = ApiGateway(app.core.repos, CredentialStore(), GatewayKeyCheck(fixed_key=KEY), port=0,
                         agent_api=AgentApi(app.core))
    await gateway.start()
    try:
        async with httpx.AsyncClient(base_url=gateway.base_url, headers={"authorization": f"Bearer {KEY}"},
                                     timeout=TURN_LIMIT_S) as client:
            yield client
    finally:
        await gateway.stop()


def chunks_of(lines: list[str]) -> tuple[list[dict[str, Any]], bool]:
    """The chunk objects of an SSE body's lines, and whether it ended with [DONE]."""
    datas = [line.removeprefix("data: ") for line in lines if line.startswith("data: ")]
    done = bool(datas) and datas[-1] == "[DONE]"
    return [json.loads(d) for d in datas if d != "[DONE]"], done


def streamed_text(chunks: list[dict[str, Any]]) -> str:
    return "".join(c["delta"] for c in chunks if c["type"] == "text-delta")


async def test_lists(api: httpx.AsyncClient, app: App[Any]) -> None:
    agents = (await api.get("/v1/agents")).json()["data"]
    assert any(a["id"] == app.core.repos.sessions.get_session(app.session_id).agent_id and a["title"]
               for a in agents)
    sessions = (await api.get("/v1/agent-sessions")).json()["data"]
    mine = next(s for s in sessions if s["id"] == app.session_id)
    assert mine["topic_id"] == f"agent-session:{app.session_id}" and mine["status"] == "idle"
    assert mine["agent_id"] and "title" in mine
    topics = (await api.get("/v1/topics")).json()["data"]
    assert any(t["id"] == app.topic and t["kind"] == "agent-session" for t in topics)


async def test_a_turn_streams_its_chunks_and_persists(api: httpx.AsyncClient, app: App[Any],
                                                      model_server: ScriptedModelServer) -> None:
    model_server.enqueue(text("Hello over the API."))
    async with api.stream("POST", f"/v1/agent-sessions/{app.session_id}/messages", json={"text": "hi"}) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        assert response.headers["x-cherry-mode"] == "started"
        lines = [line async for line in response.aiter_lines()]
    chunks, done = chunks_of(lines)
    assert done
    assert streamed_text(chunks) == "Hello over the API."
    rows = await app.settled_rows(2)
    assert rows[0].role == "user" and row_text(rows[0]) == "hi"
    assert rows[1].status == "success" and row_text(rows[1]) == "Hello over the API."


async def test_attach_mid_stream_replay_plus_live_equals_the_row(api: httpx.AsyncClient, app: App[Any],
                                                                 model_server: ScriptedModelServer) -> None:
    words = "one two three four five six seven eight nine ten eleven twelve"
    model_server.enqueue(slow_text(words, delay_s=0.05, chunk_size=4))
    assistant_id = await app.start_streaming("count")  # started from the window, attached to by the API

    async def attach() -> list[dict[str, Any]]:
        async with api.stream("GET", f"/v1/topics/{app.topic}/stream") as response:
            assert response.status_code == 200
            chunks, done = chunks_of([line async for line in response.aiter_lines()])
        assert done
        return chunks

    # Two callers at once: both get the whole reply.
    first, second = await asyncio.gather(attach(), attach())
    row = await app.finished(assistant_id)
    assert row.status == "success"
    assert streamed_text(first) == streamed_text(second) == row_text(row) == words


async def test_a_caller_that_leaves_never_stops_the_turn(api: httpx.AsyncClient, app: App[Any],
                                                         model_server: ScriptedModelServer) -> None:
    words = "the turn goes on after the caller left and is saved whole"
    model_server.enqueue(slow_text(words, delay_s=0.04, chunk_size=4))
    async with api.stream("POST", f"/v1/agent-sessions/{app.session_id}/messages", json={"text": "go"}) as response:
        async for line in response.aiter_lines():
            if '"text-delta"' in line:
                break  # leave after the first words
    rows = await app.settled_rows(2)
    assert rows[1].status == "success" and row_text(rows[1]) == words


async def test_abort_pauses_the_turn(api: httpx.AsyncClient, app: App[Any],
                                     model_server: ScriptedModelServer) -> None:
    model_server.enqueue(slow_text("a long answer that will be stopped " * 5, delay_s=0.05, chunk_size=4))
    assistant_id = await app.start_streaming("long")
    response = await api.post(f"/v1/topics/{app.topic}/abort")
    assert response.status_code == 200 and response.json()["ok"]
    row = await app.finished(assistant_id)
    assert row.status == "paused"
    missing = await api.post(f"/v1/topics/{app.topic}/abort")
    assert missing.status_code == 404


@pytest.mark.parametrize("headers", [{}, {"authorization": "Bearer cs-sk-wrong"}, {"x-api-key": ""}])
async def test_no_or_wrong_key_is_401_and_starts_nothing(api: httpx.AsyncClient, app: App[Any],
                                                         headers: dict[str, str]) -> None:
    async with httpx.AsyncClient(base_url=str(api.base_url), headers=headers) as anonymous:
        sent = await anonymous.post(f"/v1/agent-sessions/{app.session_id}/messages", json={"text": "hi"})
        listed = await anonymous.get("/v1/agent-sessions")
    assert sent.status_code == listed.status_code == 401
    assert app.rows() == []


async def test_bad_requests(api: httpx.AsyncClient, app: App[Any]) -> None:
    missing = await api.post("/v1/agent-sessions/nope/messages", json={"text": "hi"})
    assert missing.status_code == 404 and missing.json()["error"]["type"] == "session-not-found"
    empty = await api.post(f"/v1/agent-sessions/{app.session_id}/messages", json={"text": "  "})
    assert empty.status_code == 400
    not_live = await api.get(f"/v1/topics/{app.topic}/stream")
    assert not_live.status_code == 404
    assert app.rows() == []


async def test_a_message_a_full_disk_cannot_save_is_a_507_in_json(api: httpx.AsyncClient, app: App[Any]) -> None:
    # SQLite's own "database or disk is full" (its page limit reached) when the user row is
    # written: the caller hears why in the API's JSON error (it got a bare "Internal Server
    # Error"), and nothing is left behind.
    from cherry_desktop.core.data.models import database_proxy

    pages = database_proxy.execute_sql("PRAGMA page_count").fetchone()[0]
    database_proxy.execute_sql(f"PRAGMA max_page_count = {pages}")
    try:
        sent = await api.post(f"/v1/agent-sessions/{app.session_id}/messages", json={"text": "hi " * 5000})
    finally:
        database_proxy.execute_sql("PRAGMA max_page_count = 1073741823")
    assert sent.status_code == 507 and sent.json()["error"]["type"] == "disk-full"
    assert app.rows() == []
    listed = (await api.get("/v1/agent-sessions")).json()["data"]
    assert next(s for s in listed if s["id"] == app.session_id)["status"] == "idle"
