"""A backup taken while agents (the real Claude Code CLI, the real pi) and a chat stream,
against the scripted server: the streams are neither aborted nor awaited, and the archive restored into an
empty data dir has every row persisted at the snapshot, nothing stuck "pending", and the agent
resumes its conversation from the transcript the backup carried."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from cherry_desktop.core.ai.agent_session import AgentSessionValidationError
from cherry_desktop.core.ai.runtime.pi.install import PiInstallation
from cherry_desktop.core.ai.stream import AiStreamOpenRequest, dispatch_stream_request
from cherry_desktop.core.app.bootstrap import start_core
from cherry_desktop.core.backup import stage_restore
from cherry_desktop.core.backup.restore import claude_project_slug
from cherry_desktop.core.backup.snapshot import claude_config_dir
from cherry_desktop.core.messages import TextPart, message_text
from cherry_desktop.core.storage.credentials import provider_key_name
from cherry_desktop.core.storage.paths import build_path_registry
from cherry_desktop.demo import ScriptedModelServer, slow_text, text
from tests.integration.app_core import TURN_LIMIT_S, App, OpenApp, row_text
from tests.integration.pi_helpers import pi_demo_session
from tests.unit.agent_session.harness import Subscriber
from tests.waiting import until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]

LONG = "streaming on and on " * 12


async def test_a_backup_mid_stream_restores_with_nothing_stuck_and_the_agent_resumes(
        open_app: OpenApp, model_server: ScriptedModelServer, tmp_path: Path) -> None:
    app: App[object] = await open_app()
    core = app.core
    model_server.enqueue(text("I will remember kumquat."))
    first = await app.turn("remember the word kumquat")
    assert first.status == "success" and first.runtime_resume_token
    # The agent's second turn and a chat turn are streaming when the backup is taken.
    model_server.enqueue(slow_text(LONG, delay_s=0.03))
    agent_reply = await app.start_streaming("tell me more")
    # A chat provider on the scripted server (not the demo's canned chat answer).
    core.repos.providers.upsert_provider(id="scripted", name="Scripted", type="anthropic",
                                         base_url=model_server.base_url)
    core.repos.providers.upsert_model(provider_id="scripted", model_id="m", name="m")
    core.credentials.set(provider_key_name("scripted"), "sk-scripted")
    topic = core.repos.topics.create_topic(name="live chat", model="scripted::m")
    chat_key = hashlib.sha256(b"sk-scripted").hexdigest()
    model_server.add_rule(lambda r: r.key_sha256 == chat_key, slow_text(LONG, delay_s=0.03))
    chat = Subscriber("wc:chat")
    opened = await dispatch_stream_request(core.stream_manager, chat, AiStreamOpenRequest(
        topic_id=topic.id, user_message_parts=[TextPart(text="and you, chat?", state="done")]))
    chat_reply = opened.placeholder_ids[0]
    await until(lambda: chat.text_for(chat_reply), limit=TURN_LIMIT_S)

    archive = tmp_path / "live.cherry-backup"
    assert core.backup is not None
    await core.backup.create(archive)
    # Neither stream was aborted by the backup: both finish in full.
    assert app.text_streamed(agent_reply) != LONG  # still streaming when the backup ended
    assert row_text(await app.finished(agent_reply)) == LONG
    await until(lambda: core.repos.messages.get_message(chat_reply).status == "success", limit=TURN_LIMIT_S)
    assert message_text(core.repos.messages.get_message(chat_reply).to_ui_message()) == LONG
    session_id, token = app.session_id, first.runtime_resume_token
    await core.stop()

    # Another machine: an empty data dir, and Claude Code's own transcripts gone.
    shutil.rmtree(claude_config_dir() / "projects")
    restored = build_path_registry(tmp_path / "restored")
    restored.ensure_all()
    stage_restore(restored, archive)
    core = await start_core(restored)
    # The transcript came back under the project folder of the workspace's new path.
    new_cwd = str(restored.get("feature.agents.workspaces") / "demo")
    assert (claude_config_dir() / "projects" / claude_project_slug(new_cwd) / f"{token}.jsonl").is_file()
    try:
        rows = core.repos.session_messages.list_messages(session_id)
        assert [r.role for r in rows] == ["user", "assistant", "user", "assistant"]
        assert rows[1].status == "success" and row_text(rows[1]) == "I will remember kumquat."
        # The turn that was streaming is there as far as it was persisted, and not "pending".
        assert rows[3].id == agent_reply and rows[3].status != "pending"
        chat_rows = core.repos.messages.list_messages(topic.id)
        assert [m.role for m in chat_rows] == ["user", "assistant"]
        assert all(m.status != "pending" for m in chat_rows)
        # The restored agent runs nothing until the user allows it (no process, no row) ...
        again = App(core=core, agent_type="claude-code", session_id=session_id,
                    workspace=restored.get("feature.agents.workspaces") / "demo")
        requests_before = len(model_server.requests)
        with pytest.raises(AgentSessionValidationError) as refused:
            await again.send("are you there?")
        assert refused.value.code == "agent-unconfirmed"
        assert len(core.repos.session_messages.list_messages(session_id)) == 4
        assert len(model_server.requests) == requests_before
        [agent] = core.repos.agents.restored_unconfirmed()
        core.repos.agents.allow_restored(agent.id)
        # ... then it resumes its conversation in the restored copy.
        model_server.enqueue(text("The word was kumquat."))
        result = await again.send("what was the word?")
        answer = await again.finished(result.placeholder_ids[0])
        assert answer.status == "success" and row_text(answer) == "The word was kumquat."
        assert "remember the word kumquat" in model_server.last_model_request().all_text()
        assert token
    finally:
        await core.stop()


async def test_three_agent_sessions_and_a_chat_streaming_through_a_backup_all_resume(
        open_app: OpenApp, model_server: ScriptedModelServer, tmp_path: Path,
        pi_installation: PiInstallation) -> None:
    """Two Claude Code sessions and a pi session (the real CLI and the real pi) each with a
    finished turn, then each streaming when the backup is taken, and a chat streaming too:
    restored into an empty data dir, each agent (once allowed) resumes its own conversation."""
    claude = await open_app()
    core = claude.core
    pi_session = pi_demo_session(core, model_server.base_url, pi_installation)
    second_id = core.repos.sessions.create_session(
        agent_id=core.repos.sessions.get_session(claude.session_id).agent_id,
        workspace_id=core.repos.sessions.get_session(claude.session_id).workspace_id, name="Second").id
    apps = {
        "kumquat": claude,
        "papaya": App(core=core, agent_type="claude-code", session_id=second_id, workspace=claude.workspace),
        "quince": App(core=core, agent_type="pi", session_id=pi_session,
                      workspace=core.paths.get("feature.agents.workspaces") / "demo-pi"),
    }
    for word, app in apps.items():
        model_server.enqueue(text(f"I will remember {word}."))
        assert (await app.turn(f"remember the word {word}")).status == "success"
    streaming = {}
    for word, app in apps.items():
        model_server.enqueue(slow_text(LONG, delay_s=0.03))
        streaming[word] = await app.start_streaming("tell me more")
    archive = tmp_path / "three.cherry-backup"
    assert core.backup is not None
    await core.backup.create(archive)
    for word, app in apps.items():
        assert row_text(await app.finished(streaming[word])) == LONG, word
    await core.stop()

    shutil.rmtree(claude_config_dir() / "projects")
    restored = build_path_registry(tmp_path / "restored3")
    restored.ensure_all()
    staged = stage_restore(restored, archive)
    assert set(staged.agents_held) == {"Demo agent", "Demo pi agent"}
    core = await start_core(restored)
    try:
        for agent in core.repos.agents.restored_unconfirmed():
            core.repos.agents.allow_restored(agent.id)
        driver = core.agent_runtime.registry.get("pi")
        driver.use_installation(pi_installation)  # type: ignore[union-attr]
        for word, app in apps.items():
            rows = core.repos.session_messages.list_messages(app.session_id)
            assert [r.role for r in rows] == ["user", "assistant", "user", "assistant"], word
            assert rows[3].status != "pending", word
            again = App(core=core, agent_type=app.agent_type, session_id=app.session_id,
                        workspace=app.workspace)
            model_server.enqueue(text(f"The word was {word}."))
            result = await again.send("what was the word?")
            answer = await again.finished(result.placeholder_ids[0])
            assert answer.status == "success" and row_text(answer) == f"The word was {word}.", word
            assert f"remember the word {word}" in model_server.last_model_request().all_text(), word
    finally:
        await core.stop()
