"""`SessionCheckpoints` with the real git on real files: capture, review, rewind, and its
refusals (a deleted or read-only workspace, a stale plan, a pruned checkpoint), the size cap,
binary files, `.gitignore`, and a workspace that is the user's own git repository."""

from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from cherry_desktop.core.checkpoints import CheckpointError, CheckpointFault, SessionCheckpoints


def make_store(tmp_path: Path, workspace: Path, **caps: int) -> SessionCheckpoints:
    return SessionCheckpoints(tmp_path / "store" / "s1", "s1", workspace.resolve(), **caps)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    path = tmp_path / "ws"
    path.mkdir()
    (path / "a.txt").write_text("one\ntwo\n")
    (path / "keep.txt").write_text("untouched\n")
    return path


async def agent_turn(store: SessionCheckpoints, user_id: str, work: object, assistant: str = "") -> None:
    """A turn: checkpoint at its start, the "agent" edits files, checkpoint at its end."""
    await store.turn_started(user_id)
    work()  # type: ignore[operator]
    await store.turn_ended(user_id, [assistant or f"a-{user_id}"])


async def test_turn_changes_list_added_modified_deleted_with_diffs(tmp_path: Path, ws: Path) -> None:
    store = make_store(tmp_path, ws)

    def work() -> None:
        (ws / "a.txt").write_text("one\nTWO\n")
        (ws / "b.txt").write_text("new\n")
        (ws / "keep.txt").unlink()

    await agent_turn(store, "u1", work, "a1")
    changes = await store.changes("a1")
    assert [(f.path, f.kind, f.added_lines, f.removed_lines) for f in changes.files] == [
        ("a.txt", "modified", 1, 1), ("b.txt", "added", 1, 0), ("keep.txt", "deleted", 0, 1)]
    diff = await store.file_diff("a1", "a.txt")
    assert "-two" in diff and "+TWO" in diff
    assert diff[0].startswith("--- a/a.txt")


async def test_rewind_restores_and_names_files_the_user_edited(tmp_path: Path, ws: Path) -> None:
    store = make_store(tmp_path, ws)
    await agent_turn(store, "u1", lambda: (ws / "a.txt").write_text("agent 1\n"))
    (ws / "by-hand.txt").write_text("mine\n")     # the user, between turns
    (ws / "keep.txt").write_text("mine too\n")
    await agent_turn(store, "u2", lambda: (ws / "c.txt").write_text("agent 2\n"))
    plan = await store.plan_rewind("u1")
    assert {f.path for f in plan.files} == {"a.txt", "by-hand.txt", "keep.txt", "c.txt"}
    assert plan.edited_by_user == ("by-hand.txt", "keep.txt")
    await store.rewind(plan)
    assert (ws / "a.txt").read_text() == "one\ntwo\n"
    assert (ws / "keep.txt").read_text() == "untouched\n"
    assert not (ws / "c.txt").exists() and not (ws / "by-hand.txt").exists()
    # Undoable, after a restart too: the state before the rewind comes back.
    store = make_store(tmp_path, ws)
    assert await store.undo_rewind()
    assert not await store.undo_rewind()          # once
    assert (ws / "by-hand.txt").read_text() == "mine\n"
    assert (ws / "c.txt").read_text() == "agent 2\n"


async def test_rewind_after_restart_uses_the_saved_turns(tmp_path: Path, ws: Path) -> None:
    store = make_store(tmp_path, ws)
    await agent_turn(store, "u1", lambda: (ws / "a.txt").write_text("changed\n"))
    again = make_store(tmp_path, ws)      # a new process reads the same folder
    assert again.turn_of("a-u1") is not None
    await again.rewind(await again.plan_rewind("u1"))
    assert (ws / "a.txt").read_text() == "one\ntwo\n"


async def test_a_same_size_rewrite_in_the_captures_second_is_seen(tmp_path: Path, ws: Path) -> None:
    """The touch-update-touch race: the file is written, captured and rewritten at the same
    size within one second, and the next index write (the commit's write-tree) lands in the
    next second. git must re-check that entry when it writes the index; it did not when git
    ran from the store's folder (its check is by relative path), so the rewrite stayed
    "clean" for good and the turn changed nothing. Failed in CI as
    test_rewind_after_restart_uses_the_saved_turns and test_rewind_after_restart[pi]."""
    snapshots = make_store(tmp_path, ws).snapshots
    await snapshots.git.init()
    while time.time() % 1 > 0.2:     # arrange the race: start early in a second
        await asyncio.sleep(0.01)
    (ws / "a.txt").write_text("one\ntwo\n")
    await snapshots.capture()
    (ws / "a.txt").write_text("changed\n")         # the same size, in the same second
    await asyncio.sleep(1.05 - time.time() % 1)     # the commit's index write: the next second
    before = (await snapshots.commit("start")).commit
    await snapshots.capture()
    after = (await snapshots.commit("end")).commit
    assert [f.path for f in await snapshots.changes(before, after)] == ["a.txt"]


async def test_a_stale_plan_is_refused_and_changes_nothing(tmp_path: Path, ws: Path) -> None:
    store = make_store(tmp_path, ws)
    await agent_turn(store, "u1", lambda: (ws / "a.txt").write_text("agent\n"))
    plan = await store.plan_rewind("u1")
    (ws / "a.txt").write_text("typed after the plan was shown\n")
    with pytest.raises(CheckpointError) as caught:
        await store.rewind(plan)
    assert caught.value.fault is CheckpointFault.STALE_PLAN
    assert (ws / "a.txt").read_text() == "typed after the plan was shown\n"


async def test_gitignore_is_honoured_and_ignored_files_survive_a_rewind(tmp_path: Path, ws: Path) -> None:
    (ws / ".gitignore").write_text("build/\n*.log\n")
    store = make_store(tmp_path, ws)

    def work() -> None:
        (ws / "build").mkdir()
        (ws / "build" / "out.o").write_text("obj")
        (ws / "run.log").write_text("log")
        (ws / "src.py").write_text("x = 1\n")

    await agent_turn(store, "u1", work)
    assert [f.path for f in (await store.changes("u1")).files] == ["src.py"]
    await store.rewind(await store.plan_rewind("u1"))
    assert not (ws / "src.py").exists()
    assert (ws / "build" / "out.o").exists() and (ws / "run.log").exists()


async def test_binary_and_oversized_files(tmp_path: Path, ws: Path) -> None:
    store = make_store(tmp_path, ws, max_file_bytes=1000)
    (ws / "big-before.bin").write_bytes(b"\0" * 5000)

    def work() -> None:
        (ws / "img.png").write_bytes(bytes(range(256)) * 3)
        (ws / "huge.dat").write_bytes(b"x" * 4000)

    await agent_turn(store, "u1", work)
    changes = await store.changes("u1")
    assert [(f.path, f.binary) for f in changes.files] == [("img.png", True)]
    assert set(changes.skipped) == {"huge.dat"}
    assert set(store.snapshots.skipped()) == {"big-before.bin", "huge.dat"}
    assert (await store.file_diff("u1", "img.png"))[0].startswith("Binary files")
    await store.rewind(await store.plan_rewind("u1"))
    assert not (ws / "img.png").exists()
    # Too large to checkpoint: never touched by a rewind.
    assert (ws / "huge.dat").stat().st_size == 4000 and (ws / "big-before.bin").exists()


async def test_too_many_files_means_no_checkpoint_and_a_notice(tmp_path: Path, ws: Path) -> None:
    for i in range(20):
        (ws / f"f{i}").write_text(str(i))
    store = make_store(tmp_path, ws, max_files=10)
    await agent_turn(store, "u1", lambda: None)
    record = store.turn_of("u1")
    assert record is not None and record.start is None and record.notice == "too-many-files"
    with pytest.raises(CheckpointError) as caught:
        await store.plan_rewind("u1")
    assert caught.value.fault is CheckpointFault.NO_CHECKPOINT


async def test_a_deleted_workspace_gives_a_clear_error(tmp_path: Path, ws: Path) -> None:
    store = make_store(tmp_path, ws)
    await agent_turn(store, "u1", lambda: (ws / "a.txt").write_text("x"))
    for p in sorted(ws.rglob("*"), reverse=True):
        p.unlink() if p.is_file() else p.rmdir()
    ws.rmdir()
    with pytest.raises(CheckpointError) as caught:
        await store.plan_rewind("u1")
    assert caught.value.fault is CheckpointFault.NO_WORKSPACE
    # The next turn runs without a checkpoint, noted.
    await store.turn_started("u2")
    assert store.turns["u2"].notice == "no-workspace"


async def read_only_scenario(tmp_path: Path, ws: Path, make_read_only: Callable[[Path], None]) -> None:
    store = make_store(tmp_path, ws)
    await agent_turn(store, "u1", lambda: (ws / "new.txt").write_text("x"))
    plan = await store.plan_rewind("u1")
    make_read_only(ws)
    with pytest.raises(CheckpointError) as caught:
        await store.rewind(plan)
    assert caught.value.fault is CheckpointFault.READ_ONLY
    assert (ws / "new.txt").exists()


_READ_ONLY_AS_ROOT = """
import asyncio, subprocess, sys
from pathlib import Path
from tests.unit.checkpoints.test_store import read_only_scenario

def mount_read_only(ws: Path) -> None:
    subprocess.run(["mount", "--bind", str(ws), str(ws)], check=True)
    subprocess.run(["mount", "-o", "remount,ro,bind", str(ws)], check=True)

asyncio.run(read_only_scenario(Path(sys.argv[1]), Path(sys.argv[2]), mount_read_only))
"""


async def test_a_read_only_workspace_is_refused_and_left_as_it_was(tmp_path: Path, ws: Path) -> None:
    if os.geteuid() != 0:
        ws_mode = ws.stat().st_mode
        try:
            await read_only_scenario(tmp_path, ws, lambda path: path.chmod(0o555))
        finally:
            ws.chmod(ws_mode)
        return
    # Root writes through 0555: the workspace is made read-only by a read-only bind mount, in
    # a child with its own mount namespace (so nothing outside it sees the mount).
    if shutil.which("unshare") is None:
        pytest.skip(reason="as root, a read-only folder needs unshare(1), which this OS lacks")
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip(reason=f"this OS does not allow a private mount namespace: {probe.stderr!r}")
    child = subprocess.run(["unshare", "-m", sys.executable, "-c", _READ_ONLY_AS_ROOT, str(tmp_path), str(ws)],
                           capture_output=True, text=True, cwd=Path(__file__).parents[3], check=False)
    assert child.returncode == 0, child.stderr[-3000:]


async def test_a_file_outside_the_checkpoints_in_the_way_refuses_the_rewind(tmp_path: Path, ws: Path) -> None:
    """The turn removed the folder `d`; then a file too large to checkpoint took its name.
    Restoring `d/x.txt` would destroy that file: the rewind is refused and nothing changes."""
    (ws / "d").mkdir()
    (ws / "d" / "x.txt").write_text("x\n")
    store = make_store(tmp_path, ws, max_file_bytes=100)

    def work() -> None:
        (ws / "d" / "x.txt").unlink()
        (ws / "d").rmdir()
        (ws / "a.txt").write_text("agent\n")

    await agent_turn(store, "u1", work)
    (ws / "d").write_bytes(b"big" * 100)         # the user's, over the cap
    plan = await store.plan_rewind("u1")
    with pytest.raises(CheckpointError) as caught:
        await store.rewind(plan)
    assert caught.value.fault is CheckpointFault.RESTORE_FAILED and caught.value.detail == "d"
    assert (ws / "d").read_bytes() == b"big" * 100
    assert (ws / "a.txt").read_text() == "agent\n"


async def test_a_pruned_checkpoint_is_named(tmp_path: Path, ws: Path) -> None:
    store = make_store(tmp_path, ws)
    await agent_turn(store, "u1", lambda: (ws / "a.txt").write_text("x"))
    store.turns["u1"].start = "0" * 40
    with pytest.raises(CheckpointError) as caught:
        await store.plan_rewind("u1")
    assert caught.value.fault is CheckpointFault.CHECKPOINT_PRUNED
    assert (ws / "a.txt").read_text() == "x"


def _git(repo: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_AUTHOR_NAME="u", GIT_AUTHOR_EMAIL="u@x", GIT_COMMITTER_NAME="u", GIT_COMMITTER_EMAIL="u@x")
    return subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True, text=True).stdout


def _tree_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        digest.update(str(path.relative_to(folder)).encode())
        if path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()


async def test_the_users_git_repository_is_never_touched(tmp_path: Path, ws: Path) -> None:
    _git(ws, "init", "-q")
    _git(ws, "add", "a.txt")
    _git(ws, "commit", "-q", "-m", "base")
    (ws / "a.txt").write_text("the user's uncommitted change\n")
    _git(ws, "add", "a.txt")                              # staged in the user's index
    (ws / "keep.txt").write_text("unstaged change\n")
    (ws / ".git" / "info" / "exclude").write_text("private/\n")
    (ws / "private").mkdir()
    (ws / "private" / "notes").write_text("not for checkpoints")
    before = _tree_digest(ws / ".git")
    status = _git(ws, "status", "--porcelain")

    store = make_store(tmp_path, ws)
    await agent_turn(store, "u1", lambda: (ws / "agent.txt").write_text("agent\n"))
    assert [f.path for f in (await store.changes("u1")).files] == ["agent.txt"]
    await store.rewind(await store.plan_rewind("u1"))

    assert _tree_digest(ws / ".git") == before            # index, refs, stash: as they were
    assert _git(ws, "status", "--porcelain") == status
    assert (ws / "a.txt").read_text() == "the user's uncommitted change\n"
    assert (ws / "keep.txt").read_text() == "unstaged change\n"
    assert (ws / "private" / "notes").exists()


async def test_a_turn_starting_during_a_rewind_captures_the_rewound_folder(tmp_path: Path, ws: Path) -> None:
    """Operations run one at a time in the order asked: a turn start asked while a rewind
    runs waits for it, so its checkpoint is the folder as the rewind left it."""
    store = make_store(tmp_path, ws)
    await agent_turn(store, "u1", lambda: (ws / "a.txt").write_text("agent\n"))
    plan = await store.plan_rewind("u1")
    rewind = store.rewind(plan)
    await store.turn_started("u2", "a-u2")
    assert rewind.done()
    assert (ws / "a.txt").read_text() == "one\ntwo\n"
    (ws / "a.txt").write_text("second turn\n")
    await store.turn_ended("u2", ["a-u2"])
    changes = await store.changes("a-u2")
    assert [(f.path, f.kind) for f in changes.files] == [("a.txt", "modified")]
    assert "-two" in await store.file_diff("a-u2", "a.txt")


async def test_a_turn_is_not_held_up_by_a_slow_capture(tmp_path: Path, ws: Path) -> None:
    """Past `start_wait_s` the turn runs on without a checkpoint (noted): a capture that may
    have seen the agent's first writes is never shown as its start."""
    store = make_store(tmp_path, ws)
    store.start_wait_s = 0.0
    await store.turn_started("u1", "a1")
    (ws / "a.txt").write_text("the agent already wrote\n")
    await store.turn_ended("u1", ["a1"])
    await store.idle()
    record = store.turns["u1"]
    assert record.start is None and record.notice == "timeout"
    with pytest.raises(CheckpointError) as caught:
        await store.changes("a1")
    assert caught.value.fault is CheckpointFault.NO_CHECKPOINT
    store.start_wait_s = 30.0   # the next turn has one again
    await agent_turn(store, "u2", lambda: (ws / "b.txt").write_text("b\n"))
    assert [f.path for f in (await store.changes("u2")).files] == ["b.txt"]
