"""A git worktree per session, with the real Claude Code CLI against the scripted server and
the real git: two sessions of one repository work on their own branches in their own folders,
so both edit the same file without touching each other or the user's checkout; removing a
worktree says first what would be lost and never deletes unmerged commits; a workspace outside
git is refused with a reason and leaves no session behind."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from cherry_desktop.core.checkpoints import CheckpointError, CheckpointFault
from cherry_desktop.core.checkpoints.worktrees import create_session_with_worktree, inspect, remove_worktree
from cherry_desktop.demo import ScriptedModelServer, text, tool_use
from cherry_desktop.demo.bootstrap import DEMO_AGENT_ID
from tests.integration.app_core import App, OpenApp

pytestmark = [pytest.mark.integration, pytest.mark.timeout(150)]


def git(repo: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_AUTHOR_NAME="u", GIT_AUTHOR_EMAIL="u@x", GIT_COMMITTER_NAME="u", GIT_COMMITTER_EMAIL="u@x")
    return subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True, text=True).stdout


def make_repo(path: Path) -> Path:
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    (path / "shared.txt").write_text("base\n")
    git(path, "add", "shared.txt")
    git(path, "commit", "-q", "-m", "base")
    return path


async def test_two_sessions_in_two_worktrees_edit_the_same_file_without_conflict(
    open_app: OpenApp, model_server: ScriptedModelServer, tmp_path: Path
) -> None:
    app = await open_app()
    core = app.core
    repo = make_repo(tmp_path / "repo")
    ws = core.repos.agents.create_workspace(name="repo", path=str(repo), agent_id=DEMO_AGENT_ID)
    root = core.paths.get("feature.worktrees")
    agent = core.repos.agents.get_agent(DEMO_AGENT_ID)
    sessions = [await create_session_with_worktree(core.repos, root, agent_id=DEMO_AGENT_ID, workspace=ws,
                                                   workspace_path=repo, name=name, model=agent.model)
                for name in ("Fix the login", "Add docs")]
    trees = [s.worktree for s in sessions]
    assert all(t is not None for t in trees)
    assert trees[0].branch != trees[1].branch and trees[0].branch.startswith("cherry/fix-the-login-")
    assert {Path(t.path) for t in trees} == {root / f"repo-{s.id[:8]}" for s in sessions}
    listed = git(repo, "worktree", "list")
    assert all(t.path in listed for t in trees)

    for session, content in zip(sessions, ("from session one\n", "from session two\n"), strict=True):
        app_i = App(core=core, agent_type="claude-code", session_id=session.id, workspace=Path(session.worktree.path))
        core.repos.sessions.update_always_allowed_tools(session.id, add=["Write"])
        target = Path(session.worktree.path) / "shared.txt"
        model_server.enqueue(tool_use("Write", {"file_path": str(target), "content": content}), text("written"))
        row = await app_i.turn("write the shared file")
        assert row.status == "success"
        # The turn's checkpoint is over the worktree (its `.git` file is not a change).
        changes = await core.checkpoints.turn_changes(session.id, row.id)
        assert [(f.path, f.kind) for f in changes.files] == [("shared.txt", "modified")]

    assert (Path(trees[0].path) / "shared.txt").read_text() == "from session one\n"
    assert (Path(trees[1].path) / "shared.txt").read_text() == "from session two\n"
    assert (repo / "shared.txt").read_text() == "base\n"         # the user's checkout is untouched
    assert git(repo, "status", "--porcelain") == ""

    # Removing asks first: an uncommitted file is named, and nothing is removed without force.
    state = await inspect(trees[0])
    assert (state.unmerged_commits, state.uncommitted_files) == (0, 1)
    with pytest.raises(CheckpointError):
        await remove_worktree(trees[0])
    assert Path(trees[0].path).is_dir()
    # A commit on the branch: removing (forced) keeps the branch, so the commit is not lost.
    git(Path(trees[0].path), "commit", "-qam", "session one's work")
    assert (await inspect(trees[0])).unmerged_commits == 1
    assert await remove_worktree(trees[0], force=True) is False
    assert not Path(trees[0].path).exists()
    assert trees[0].branch in git(repo, "branch", "--list", trees[0].branch)
    # Nothing to lose: the worktree and its branch go.
    git(Path(trees[1].path), "checkout", "--", "shared.txt")
    assert (await inspect(trees[1])).safe_to_remove
    assert await remove_worktree(trees[1]) is True
    assert git(repo, "branch", "--list", trees[1].branch) == ""


async def test_a_workspace_outside_git_is_refused_and_leaves_no_session(open_app: OpenApp, tmp_path: Path) -> None:
    app = await open_app()
    core = app.core
    plain = tmp_path / "plain"
    plain.mkdir()
    ws = core.repos.agents.create_workspace(name="plain", path=str(plain), agent_id=DEMO_AGENT_ID)
    before = [s.id for s in core.repos.sessions.list_sessions(DEMO_AGENT_ID)]
    with pytest.raises(CheckpointError) as caught:
        await create_session_with_worktree(core.repos, core.paths.get("feature.worktrees"), agent_id=DEMO_AGENT_ID,
                                           workspace=ws, workspace_path=plain, name="x", model=None)
    assert caught.value.fault is CheckpointFault.NOT_A_GIT_REPO
    assert [s.id for s in core.repos.sessions.list_sessions(DEMO_AGENT_ID)] == before
    # A repository without a commit has nothing to branch from: refused the same way.
    git(plain, "init", "-q")
    with pytest.raises(CheckpointError) as caught:
        await create_session_with_worktree(core.repos, core.paths.get("feature.worktrees"), agent_id=DEMO_AGENT_ID,
                                           workspace=ws, workspace_path=plain, name="x", model=None)
    assert caught.value.fault is CheckpointFault.NOT_A_GIT_REPO
