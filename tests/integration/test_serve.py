"""`cherry-desktop serve --demo` as a subprocess: a tool turn over the API (approval included),
SIGTERM mid-turn (the row saved paused, [DONE] sent, no CLI left), a port in use, the lock."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest

from cherry_desktop.core.net.http_server import bind_loopback
from tests.gui.conftest import ARTIFACTS

pytestmark = pytest.mark.integration

KEY = "cs-sk-serve-test"
START_LIMIT_S = 60.0


class Serve:
    def __init__(self, proc: asyncio.subprocess.Process, url: str) -> None:
        self.proc = proc
        self.url = url

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=self.url, headers={"x-api-key": KEY}, timeout=START_LIMIT_S)


async def start_serve(data_dir: Path, *extra: str, delay_s: float = 0.0) -> asyncio.subprocess.Process:
    env = {**os.environ, "CHERRY_DESKTOP_DEMO_DELAY_S": str(delay_s)}
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "cherry_desktop", "serve", "--data-dir", str(data_dir), "--port", "0", "--key", KEY,
        "--demo", *extra, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env)


async def listening(proc: asyncio.subprocess.Process) -> str:
    assert proc.stdout is not None
    line = (await asyncio.wait_for(proc.stdout.readline(), START_LIMIT_S)).decode()
    assert line.startswith("cherry-desktop serve: listening on http://127.0.0.1:"), line
    return line.rsplit(" ", 1)[1].strip()


@pytest.fixture
async def serve(tmp_path: Path) -> AsyncIterator[Any]:
    procs: list[asyncio.subprocess.Process] = []

    async def _start(*extra: str, delay_s: float = 0.0) -> Serve:
        proc = await start_serve(tmp_path / "data", *extra, delay_s=delay_s)
        procs.append(proc)
        return Serve(proc, await listening(proc))

    try:
        yield _start
    finally:
        for proc in procs:
            if proc.returncode is None:
                proc.kill()
            await proc.wait()


def session_id(client_sessions: list[dict[str, Any]]) -> str:
    return next(s["id"] for s in client_sessions if s["agent_id"] == "cherry-demo-agent")


def rows(data_dir: Path, sid: str) -> list[tuple[str, str]]:
    db = next(data_dir.rglob("*.db"))
    with sqlite3.connect(db) as conn:
        return list(conn.execute("SELECT role, status FROM agent_session_message WHERE session_id = ? "
                                 "ORDER BY created_at, rowid", (sid,)))


async def sse_chunks(response: httpx.Response) -> AsyncIterator[dict[str, Any] | str]:
    async for line in response.aiter_lines():
        if line.startswith("data: "):
            data = line.removeprefix("data: ")
            yield data if data == "[DONE]" else json.loads(data)


async def test_a_tool_turn_over_the_api_then_sigterm_mid_turn(serve: Any, tmp_path: Path) -> None:
    server = await serve()
    async with server.client() as client:
        sid = session_id((await client.get("/v1/agent-sessions")).json()["data"])
        seen: list[Any] = []
        async with client.stream("POST", f"/v1/agent-sessions/{sid}/messages", json={"text": "a note"}) as response:
            assert response.status_code == 200
            async for chunk in sse_chunks(response):
                seen.append(chunk)
                if isinstance(chunk, dict) and chunk["type"] == "tool-approval-request":
                    answer = await client.post(f"/v1/agent-sessions/{sid}/approvals/{chunk['approval_id']}",
                                               json={"approved": True})
                    assert answer.status_code == 200
    assert seen[-1] == "[DONE]"
    types = [c["type"] for c in seen if isinstance(c, dict)]
    assert "tool-approval-request" in types and "tool-output-available" in types
    said = "".join(c["delta"] for c in seen if isinstance(c, dict) and c["type"] == "text-delta")
    assert "the note is in your workspace" in said
    assert rows(tmp_path / "data", sid) == [("user", "success"), ("assistant", "success")]
    server.proc.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(server.proc.wait(), START_LIMIT_S) == 0

    # Again with a slow demo: SIGTERM while the turn streams.
    server = await serve(delay_s=0.05)
    parent = psutil.Process(server.proc.pid)
    async with server.client() as client:
        async with client.stream("POST", f"/v1/agent-sessions/{sid}/messages", json={"text": "again"}) as response:
            tail: list[Any] = []
            children: list[psutil.Process] = []
            async for chunk in sse_chunks(response):
                tail.append(chunk)
                if not children and isinstance(chunk, dict) and chunk["type"] == "text-delta":
                    children = parent.children(recursive=True)
                    assert children, "the CLI runs under serve"
                    server.proc.send_signal(signal.SIGTERM)
    assert tail[-1] == "[DONE]"
    assert await asyncio.wait_for(server.proc.wait(), START_LIMIT_S) == 0
    _, alive = psutil.wait_procs(children, timeout=5)
    assert alive == []
    assert rows(tmp_path / "data", sid)[-2:] == [("user", "success"), ("assistant", "paused")]


async def test_a_second_serve_on_the_data_dir_and_a_port_in_use_are_refused(serve: Any, tmp_path: Path) -> None:
    first = await serve()
    second = await start_serve(tmp_path / "data")
    _, err = await asyncio.wait_for(second.communicate(), START_LIMIT_S)
    assert second.returncode == 1 and b"another instance" in err
    first.proc.send_signal(signal.SIGINT)
    assert await asyncio.wait_for(first.proc.wait(), START_LIMIT_S) == 0

    taken = bind_loopback(0)
    try:
        port = taken.getsockname()[1]
        other = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "cherry_desktop", "serve", "--data-dir", str(tmp_path / "other"), "--port",
            str(port), "--key", KEY, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await asyncio.wait_for(other.communicate(), START_LIMIT_S)
    finally:
        taken.close()
    assert other.returncode == 1 and out == b""
    assert f"port {port} on 127.0.0.1 is already in use".encode() in err and b"Traceback" not in err


async def test_curl_streams_a_chat_and_an_agent_turn_and_the_session_is_recorded(serve: Any) -> None:
    """The README's curl session against `serve --demo`, run with the real curl; its transcript
    goes to artifacts/gateway_curl.txt."""
    server = await serve()
    transcript: list[str] = []

    async def curl(*args: str) -> str:
        command = ["curl", "-sN", "-H", f"x-api-key: {KEY}", *args]
        proc = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE)
        out, _ = await asyncio.wait_for(proc.communicate(), START_LIMIT_S)
        assert proc.returncode == 0, command
        transcript.append("$ " + " ".join(a if " " not in a else f"'{a}'" for a in command) + "\n" + out.decode())
        return out.decode()

    models = json.loads(await curl(f"{server.url}/v1/models"))["data"]
    model = next(m["id"] for m in models if m["id"].startswith("cherry-demo:"))  # the demo's scripted model
    chat = await curl(f"{server.url}/v1/chat/completions", "-H", "content-type: application/json", "-d",
                      json.dumps({"model": model, "stream": True, "messages": [{"role": "user", "content": "hello"}]}))
    frames = [line.removeprefix("data: ") for line in chat.splitlines() if line.startswith("data: ")]
    assert frames[-1] == "[DONE]"
    said = "".join(c["delta"].get("content") or "" for f in frames[:-1] for c in json.loads(f)["choices"])
    assert said.strip()
    sid = session_id(json.loads(await curl(f"{server.url}/v1/agent-sessions"))["data"])
    # The demo agent writes a note, and asks first: the turn streams up to its approval request,
    # a second curl approves it, and the rest streams on to [DONE].
    command = ["curl", "-sN", "-H", f"x-api-key: {KEY}", f"{server.url}/v1/agent-sessions/{sid}/messages",
               "-d", json.dumps({"text": "hello"})]
    proc = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE)
    assert proc.stdout is not None
    lines: list[str] = []
    while not lines or lines[-1] != "data: [DONE]":
        line = (await asyncio.wait_for(proc.stdout.readline(), START_LIMIT_S)).decode().rstrip("\n")
        assert line or not proc.stdout.at_eof(), "the stream ended without [DONE]"
        if not line.startswith("data: "):
            continue
        lines.append(line)
        chunk = line.removeprefix("data: ")
        if chunk != "[DONE]" and json.loads(chunk)["type"] == "tool-approval-request":
            transcript.append("$ " + " ".join(command[:-1]) + f" '{command[-1]}'\n" + "\n".join(lines) + "\n...")
            approval = json.loads(chunk)["approval_id"]
            answer = await curl(f"{server.url}/v1/agent-sessions/{sid}/approvals/{approval}",
                                "-d", json.dumps({"approved": True}))
            assert json.loads(answer)
            lines = ["(the stream goes on)"]
    assert await asyncio.wait_for(proc.wait(), START_LIMIT_S) == 0
    transcript.append("\n".join(lines))
    deltas = [json.loads(line.removeprefix("data: ")) for line in lines[1:-1]]
    assert "tool-output-available" in [d["type"] for d in deltas]
    assert deltas[-1]["type"] in ("finish", "finish-step", "data-context-usage")
    assert "note is in your workspace" in "".join(d["delta"] for d in deltas if d["type"] == "text-delta")
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "gateway_curl.txt").write_text("\n".join(transcript), encoding="utf-8")


async def test_backup_create_and_a_window_launch_ask_the_running_serve(serve: Any, tmp_path: Path) -> None:
    # `serve` holds the data folder's lock like the app: `backup create` must be able to ask it
    # (as it asks the app), and a window launch must say a headless serve runs there.
    running = await serve()
    archive = tmp_path / "serve.cherry-backup"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}

    async def cli(*args: str) -> tuple[int | None, str]:
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "cherry_desktop", *args,
                                                    stdout=asyncio.subprocess.PIPE,
                                                    stderr=asyncio.subprocess.PIPE, env=env)
        _, err = await asyncio.wait_for(proc.communicate(), START_LIMIT_S)
        return proc.returncode, err.decode()

    code, err = await cli("backup", "create", "--data-dir", str(tmp_path / "data"), str(archive))
    assert code == 0, err
    assert archive.is_file() and archive.stat().st_size > 0
    code, err = await cli("--data-dir", str(tmp_path / "data"))
    [line] = err.strip().splitlines()
    assert code == 1 and "cherry-desktop serve" in line and "does not answer" not in line
    running.proc.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(running.proc.wait(), START_LIMIT_S) == 0
