"""Per-turn checkpoints through the whole app core, for every runtime (the real CLI and the
real pi against the scripted server, real git, real files): a turn's Changes list what its
tools wrote (a shell command's file too), a rewind restores them and names what the user
edited by hand, a steer's continuation belongs to the same turn, and rewinds work after a
restart and are refused while a turn runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cherry_desktop.core.checkpoints import CheckpointError, CheckpointFault
from cherry_desktop.core.checkpoints.fork import FORK_NOTICE_KEY, fork_conversation
from cherry_desktop.demo import HangReply, Reply, ScriptedModelServer, text, tool_use, tool_uses
from cherry_desktop.demo.replies import TextBlock, ToolUseBlock
from tests.integration.app_core import TURN_LIMIT_S, App, OpenApp, row_text
from tests.waiting import until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(150)]


def names(app: App[Any]) -> dict[str, str]:
    if app.claude_tools:
        return {"write": "Write", "edit": "Edit", "read": "Read", "bash": "Bash"}
    return {"write": "write", "edit": "edit", "read": "read", "bash": "bash"}


def write(app: App[Any], path: Path, content: str) -> tuple[str, dict[str, Any]]:
    key = "file_path" if app.claude_tools else "path"
    return names(app)["write"], {key: str(path), "content": content}


def edit(app: App[Any], path: Path, old: str, new: str) -> tuple[str, dict[str, Any]]:
    if app.claude_tools:
        return "Edit", {"file_path": str(path), "old_string": old, "new_string": new}
    return "edit", {"path": str(path), "oldText": old, "newText": new}


def shell(app: App[Any], command: str) -> tuple[str, dict[str, Any]]:
    args: dict[str, Any] = {"command": command}
    if app.claude_tools:
        args["description"] = "run a command"
    return names(app)["bash"], args


def allow_tools(app: App[Any]) -> None:
    app.core.repos.sessions.update_always_allowed_tools(app.session_id, add=list(names(app).values()))


def script_three_file_turn(app: App[Any], server: ScriptedModelServer) -> None:
    """Write `new.txt`, edit `notes.txt`, and a shell command that creates `made-by-shell.txt`."""
    ws = app.workspace
    notes = ws / "notes.txt"
    if app.claude_tools:
        # Claude Code edits only a file it has read in the session.
        server.enqueue(tool_uses([(names(app)["read"], {"file_path": str(notes)})]))
    server.enqueue(tool_uses([write(app, ws / "new.txt", "brand new\n"),
                              edit(app, notes, "two", "TWO"),
                              shell(app, f"echo from the shell > {ws / 'made-by-shell.txt'}")]),
                   text("Done: three files."))


async def test_changes_list_the_turns_files_and_rewind_restores_them(
    open_runtime_app: OpenApp, model_server: ScriptedModelServer
) -> None:
    app = await open_runtime_app()
    ws = app.workspace
    (ws / "notes.txt").write_text("one\ntwo\nthree\n")
    (ws / "mine.txt").write_text("the user's\n")
    allow_tools(app)
    script_three_file_turn(app, model_server)
    row = await app.turn("change three files")
    assert row.status == "success"
    assert (ws / "notes.txt").read_text() == "one\nTWO\nthree\n"

    checkpoints = app.core.checkpoints
    changes = await checkpoints.turn_changes(app.session_id, row.id)
    assert [(f.path, f.kind) for f in changes.files] == [
        ("made-by-shell.txt", "added"), ("new.txt", "added"), ("notes.txt", "modified")]
    diff = await checkpoints.file_diff(app.session_id, row.id, "notes.txt")
    assert "-two" in diff and "+TWO" in diff
    assert "+from the shell" in await checkpoints.file_diff(app.session_id, row.id, "made-by-shell.txt")

    # The user edits a file by hand after the turn; the rewind names it before doing anything.
    (ws / "mine.txt").write_text("edited by hand\n")
    user_id = app.rows()[0].id
    plan = await checkpoints.plan_rewind(app.session_id, user_id)
    assert {f.path for f in plan.files} == {"made-by-shell.txt", "new.txt", "notes.txt", "mine.txt"}
    assert plan.edited_by_user == ("mine.txt",)
    assert (ws / "new.txt").exists()                      # planning changes nothing
    await checkpoints.rewind(plan)
    assert (ws / "notes.txt").read_text() == "one\ntwo\nthree\n"
    assert (ws / "mine.txt").read_text() == "the user's\n"
    assert not (ws / "new.txt").exists() and not (ws / "made-by-shell.txt").exists()
    # The rewind is undoable.
    assert await checkpoints.undo_rewind(app.session_id)
    assert (ws / "mine.txt").read_text() == "edited by hand\n" and (ws / "new.txt").exists()


async def test_rewind_after_restart(open_runtime_app: OpenApp, model_server: ScriptedModelServer) -> None:
    app = await open_runtime_app()
    ws = app.workspace
    allow_tools(app)
    # Each turn's replies queued for that turn only: a request more in the first (a client's
    # retry under load) must not take the second turn's write, which left it changing nothing.
    model_server.enqueue(tool_use(*write(app, ws / "kept.txt", "v1\n")), text("one"))
    await app.turn("first")
    assert (ws / "kept.txt").read_text() == "v1\n"
    model_server.enqueue(tool_use(*write(app, ws / "kept.txt", "v2\n")), text("two"))
    second = await app.turn("second")
    assert (ws / "kept.txt").read_text() == "v2\n"
    await app.core.stop()

    app = await open_runtime_app()
    checkpoints = app.core.checkpoints
    changes = await checkpoints.turn_changes(app.session_id, second.id)
    assert [(f.path, f.kind) for f in changes.files] == [("kept.txt", "modified")]
    second_user = app.rows()[2].id
    await checkpoints.rewind(await checkpoints.plan_rewind(app.session_id, second_user))
    assert (ws / "kept.txt").read_text() == "v1\n"


# ACP has no way into a running turn: a steer there is queued as the next turn (its own checkpoint).
@pytest.mark.parametrize("runtime_under_test", ["claude-code", "pi"], indirect=True)
async def test_a_steers_continuation_is_part_of_the_same_turn(
    open_runtime_app: OpenApp, model_server: ScriptedModelServer
) -> None:
    app = await open_runtime_app()
    ws = app.workspace
    allow_tools(app)
    first_write = write(app, ws / "before-steer.txt", "a1\n")
    model_server.enqueue(
        Reply(blocks=(TextBlock("Writing the first file, slowly enough to be steered."),
                      ToolUseBlock(*first_write)), delay_s=0.03, chunk_size=4),
        tool_use(*write(app, ws / "after-steer.txt", "a2\n")),
        text("Both written."))
    first = await app.start_streaming("write two files")
    steer = await app.send("and a second one", mode="steer")
    assert steer.follow_up == "injected"
    rows = await app.settled_rows(4)
    a1a, a2 = rows[1], rows[3]
    assert (ws / "after-steer.txt").exists()
    checkpoints = app.core.checkpoints
    for row_id in (a1a.id, a2.id):
        changes = await checkpoints.turn_changes(app.session_id, row_id)
        assert [f.path for f in changes.files] == ["after-steer.txt", "before-steer.txt"]
    assert a1a.id == first
    # Rewinding "before this message" on the steer row is the turn's own start.
    with pytest.raises(CheckpointError) as caught:
        await checkpoints.plan_rewind(app.session_id, steer.user_message_id)
    assert caught.value.fault is CheckpointFault.NO_CHECKPOINT


async def test_rewind_is_refused_while_a_turn_runs(open_runtime_app: OpenApp,
                                                   model_server: ScriptedModelServer) -> None:
    app = await open_runtime_app()
    allow_tools(app)
    model_server.enqueue(tool_use(*write(app, app.workspace / "x.txt", "x\n")), text("ok"),
                         HangReply(text_before="thinking "))
    first = await app.turn("first")
    result = await app.send("hang")
    await until(lambda: "thinking" in app.text_streamed(result.placeholder_ids[0]), limit=TURN_LIMIT_S)
    checkpoints = app.core.checkpoints
    with pytest.raises(CheckpointError) as caught:
        await checkpoints.plan_rewind(app.session_id, app.rows()[0].id)
    assert caught.value.fault is CheckpointFault.TURN_RUNNING
    # The running turn's Changes so far are shown (against the workspace now).
    running = await checkpoints.turn_changes(app.session_id, result.placeholder_ids[0])
    assert running.running and running.files == ()
    assert (await checkpoints.turn_changes(app.session_id, first.id)).files[0].path == "x.txt"
    app.core.stream_manager.abort(app.topic, "user")
    await app.idle()


async def test_the_store_goes_with_its_session(open_app: OpenApp, model_server: ScriptedModelServer) -> None:
    app = await open_app()
    model_server.enqueue(text("nothing to write"))
    await app.turn("hello")
    store_dir = app.core.paths.get("feature.checkpoints") / app.session_id
    assert (store_dir / "turns.json").exists()
    # A store whose session is gone (a crash between the two deletes) is swept at start.
    orphan = app.core.paths.get("feature.checkpoints") / "gone-session"
    orphan.mkdir()
    await app.core.agent_runtime.delete_session(app.session_id)
    assert not store_dir.exists()
    assert app.core.checkpoints.sweep() == 1 and not orphan.exists()


async def test_files_outside_the_workspace_are_neither_listed_nor_restored(
    open_runtime_app: OpenApp, model_server: ScriptedModelServer, tmp_path: Path
) -> None:
    app = await open_runtime_app()
    allow_tools(app)
    outside = tmp_path / "outside.txt"
    model_server.enqueue(tool_uses([write(app, outside, "not the workspace's\n"),
                                    write(app, app.workspace / "inside.txt", "inside\n")]), text("both"))
    row = await app.turn("write inside and outside")
    assert outside.exists()
    checkpoints = app.core.checkpoints
    assert [f.path for f in (await checkpoints.turn_changes(app.session_id, row.id)).files] == ["inside.txt"]
    await checkpoints.rewind(await checkpoints.plan_rewind(app.session_id, app.rows()[0].id))
    assert not (app.workspace / "inside.txt").exists()
    assert outside.read_text() == "not the workspace's\n"


async def test_restore_files_and_conversation_forks_a_session_seeded_with_the_earlier_rows(
    open_runtime_app: OpenApp, model_server: ScriptedModelServer
) -> None:
    app = await open_runtime_app()
    allow_tools(app)
    ws = app.workspace
    model_server.enqueue(text("Noted: kumquat."),
                         tool_use(*write(app, ws / "second.txt", "turn two\n")), text("Wrote it."))
    await app.turn("remember the word kumquat")
    await app.turn("write the second file")
    assert (ws / "second.txt").exists()
    source_rows = [r.id for r in app.rows()]
    second_user = app.rows()[2].id

    checkpoints = app.core.checkpoints
    await checkpoints.rewind(await checkpoints.plan_rewind(app.session_id, second_user))
    fork = fork_conversation(app.core.repos, app.session_id, second_user, "Forked")
    assert not (ws / "second.txt").exists()
    fork_app = App(core=app.core, agent_type=app.agent_type, session_id=fork.id, workspace=ws)
    copied = fork_app.rows()
    assert [(r.role, row_text(r)) for r in copied] == [("user", "remember the word kumquat"),
                                                      ("assistant", "Noted: kumquat.")]
    assert copied[0].metadata[FORK_NOTICE_KEY] == app.session_id
    assert [r.id for r in app.rows()] == source_rows           # the source session is as it was

    # The fork's runtime starts a session of its own, seeded with the earlier rows.
    model_server.enqueue(text("The word was kumquat."), text("Still here."))
    row = await fork_app.turn("what was the word?")
    assert row_text(row) == "The word was kumquat."
    first = model_server.last_model_request()
    assert "remember the word kumquat" in first.all_text() and "Noted: kumquat." in first.all_text()
    assert "write the second file" not in first.all_text()
    assert app.core.repos.sessions.fork_seed(fork.id) == ""
    assert [row_text(r) for r in fork_app.rows()][2] == "what was the word?"  # the row is the user's text
    await fork_app.turn("and now?")
    assert "<earlier-conversation>" not in model_server.last_model_request().last_user_text()
