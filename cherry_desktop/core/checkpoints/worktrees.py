"""A git worktree per session: the session works on a branch of its own, in its own folder
(under the data dir's `worktrees/`), so parallel sessions on one repository never collide.

Unlike the checkpoints' shadow repository, this is the user's own git on purpose: the branch
and the worktree belong to their repository (`git worktree list`, `git merge` see them). Merging
back is left to them (the session header shows the command). Removing a worktree first says what would be lost
(`inspect`: commits on the branch no other branch has, files not committed); its branch is
deleted only when nothing else would keep its commits.
"""

from __future__ import annotations

import asyncio
import os
import re
from dataclasses import dataclass
from pathlib import Path

from cherry_desktop.core.checkpoints.models import CheckpointError, CheckpointFault
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.data.records import AgentSessionRecord, SessionWorktree, WorkspaceRecord

GIT_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class WorktreeState:
    """What removing a session's worktree would touch."""

    unmerged_commits: int     # commits of its branch that no other branch holds
    uncommitted_files: int    # changed or new files in the worktree, not committed
    exists: bool = True

    @property
    def safe_to_remove(self) -> bool:
        return not self.unmerged_commits and not self.uncommitted_files


async def _git(cwd: Path, *args: str, check: bool = True) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update({"GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"})
    try:
        process = await asyncio.create_subprocess_exec(
            "git", "-C", str(cwd), *args, env=env, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    except FileNotFoundError:
        raise CheckpointError(CheckpointFault.NO_GIT) from None
    try:
        async with asyncio.timeout(GIT_TIMEOUT_S):
            out, err = await process.communicate()
    except TimeoutError:
        process.kill()
        await process.wait()
        raise CheckpointError(CheckpointFault.TIMEOUT, f"git {args[0]}") from None
    if check and process.returncode != 0:
        raise CheckpointError(CheckpointFault.WORKTREE_FAILED, err.decode("utf-8", "replace").strip())
    return out.decode("utf-8", "replace").strip()


async def repository_root(workspace: Path) -> Path:
    """The root of the git repository `workspace` is in (NOT_A_GIT_REPO: it is in none, or
    the repository has no commit yet to branch from)."""
    _require_dir(workspace)
    try:
        top = await _git(workspace, "rev-parse", "--show-toplevel")
    except CheckpointError as exc:
        if exc.fault is CheckpointFault.WORKTREE_FAILED:
            raise CheckpointError(CheckpointFault.NOT_A_GIT_REPO, str(workspace)) from None
        raise
    if not await _git(workspace, "rev-parse", "-q", "--verify", "HEAD^{commit}", check=False):
        raise CheckpointError(CheckpointFault.NOT_A_GIT_REPO, f"{top}: no commit yet")
    return Path(top)


def branch_name(session_id: str, name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:32] or "session"
    return f"cherry/{slug}-{session_id[:8]}"


async def create_worktree(workspace: Path, root: Path, session_id: str, name: str) -> SessionWorktree:
    """A new worktree of the repository `workspace` is in, on a new branch from its HEAD."""
    repo = await repository_root(workspace)
    base = await _git(repo, "rev-parse", "HEAD")
    branch = branch_name(session_id, name)
    path = _new_folder(root, f"{repo.name}-{session_id[:8]}")  # named like the repository
    await _git(repo, "worktree", "add", "-q", "-b", branch, str(path), base)
    # The agent works in the same place inside the repository as the workspace is.
    inside = _inside(workspace, repo)
    return SessionWorktree(path=str(path / inside), branch=branch, repo=str(repo), base=base)


async def inspect(worktree: SessionWorktree) -> WorktreeState:
    repo = Path(worktree.repo)
    top = _worktree_top(worktree)
    if not _is_dir(top):
        return WorktreeState(0, 0, exists=False)
    status = await _git(top, "status", "--porcelain", "--untracked-files=all")
    others = f"--exclude={worktree.branch}"  # (for --branches: named without refs/heads/)
    unmerged = await _git(repo, "rev-list", "--count", worktree.branch, "--not", others, "--branches", check=False)
    return WorktreeState(unmerged_commits=int(unmerged or 0), uncommitted_files=len(status.splitlines()))


async def remove_worktree(worktree: SessionWorktree, *, force: bool = False) -> bool:
    """Remove the worktree (refused, unless `force`, when `inspect` finds something to lose);
    its branch goes too when no commit of it would be lost. Returns whether the branch went."""
    state = await inspect(worktree)
    if not force and not state.safe_to_remove:
        raise CheckpointError(CheckpointFault.WORKTREE_FAILED,
                              f"{state.unmerged_commits} unmerged commits, {state.uncommitted_files} uncommitted files")
    repo = Path(worktree.repo)
    if state.exists:
        await _git(repo, "worktree", "remove", *(["--force"] if force else []), str(_worktree_top(worktree)))
    else:
        await _git(repo, "worktree", "prune", check=False)
    if state.unmerged_commits:
        return False  # the branch keeps those commits: never deleted here
    await _git(repo, "branch", "-D", worktree.branch, check=False)
    return True


def _is_dir(path: Path) -> bool:
    return path.is_dir()


def _require_dir(path: Path) -> None:
    if not path.is_dir():
        raise CheckpointError(CheckpointFault.NO_WORKSPACE, str(path))


def _new_folder(root: Path, name: str) -> Path:
    path = root / name
    if path.exists():
        raise CheckpointError(CheckpointFault.WORKTREE_FAILED, f"{path} already exists")
    root.mkdir(parents=True, exist_ok=True)
    return path


def _inside(workspace: Path, repo: Path) -> Path:
    return workspace.resolve().relative_to(repo.resolve())


def _worktree_top(worktree: SessionWorktree) -> Path:
    """The worktree's own root (`path` may be a folder inside it)."""
    path = Path(worktree.path)
    for candidate in (path, *path.parents):
        if (candidate / ".git").is_file():
            return candidate
    return path


async def create_session_with_worktree(repos: Repositories, root: Path, *, agent_id: str, workspace: WorkspaceRecord,
                                       workspace_path: Path, name: str, model: str | None) -> AgentSessionRecord:
    """A new session of `agent_id` on a branch of its own, in a new worktree (under `root`) of
    the repository `workspace_path` is in. Nothing is left behind when git refuses (not a git
    repository, no commit yet): the session row goes again and the error is raised."""
    session = repos.sessions.create_session(agent_id=agent_id, workspace_id=workspace.id, name=name, model=model)
    try:
        worktree = await create_worktree(workspace_path, root, session.id, name)
    except BaseException:
        repos.sessions.delete_session(session.id)
        raise
    repos.sessions.set_worktree(session.id, worktree)
    return repos.sessions.get_session(session.id)
