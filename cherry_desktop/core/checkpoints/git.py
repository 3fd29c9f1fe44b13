"""`ShadowGit`: the `git` on PATH run over a workspace with a Cherry-owned git directory.

Why the git binary (not dulwich or pygit2): its index keeps a stat cache, so snapshotting an
unchanged 10k-file tree is one `git add -A` of a few tens of milliseconds (dulwich re-hashes in
Python; pygit2 needs libgit2 wheels and reads `.gitignore` slightly differently); it reads
`.gitignore` exactly as the user's own git does; and `read-tree -u` restores a tree with the
same checks git's checkout makes. The price is a subprocess per step, measured in
`bench/checkpoints.py`.

Isolation: every call names `--git-dir` (under the data dir) and `--work-tree` (the workspace),
drops every `GIT_*` variable of the app's environment, and ignores the user's global and system
config, so nothing reads or writes the workspace's own `.git`, index or stash (git never adds
a `.git` folder to a tree).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from cherry_desktop.core.checkpoints.models import CheckpointError, CheckpointFault

GIT_TIMEOUT_S = 120.0
#: Settings every call carries: predictable output, no hooks, no background gc, the untracked
#: cache (a turn start re-reads only the folders that changed).
_CONFIG = (
    "core.quotepath=false", "core.autocrlf=false", "core.safecrlf=false", "core.fsmonitor=false",
    "core.untrackedCache=true", "core.hooksPath=/dev/null", "gc.auto=0", "advice.addEmbeddedRepo=false",
    "core.longpaths=true", "diff.renames=false", "status.showUntrackedFiles=all",
)
_IDENTITY = {"GIT_AUTHOR_NAME": "Cherry Desktop", "GIT_AUTHOR_EMAIL": "checkpoints@cherry.invalid",
             "GIT_COMMITTER_NAME": "Cherry Desktop", "GIT_COMMITTER_EMAIL": "checkpoints@cherry.invalid"}


def git_executable() -> str | None:
    return shutil.which("git")


def _environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(_IDENTITY)
    env.update({"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0",
                "LC_ALL": "C"})
    return env


@dataclass(frozen=True)
class GitResult:
    code: int
    out: bytes
    err: str


class ShadowGit:
    """git over `work_tree` with the git directory `git_dir` (created by `init`)."""

    def __init__(self, git_dir: Path, work_tree: Path) -> None:
        self.git_dir = git_dir
        self.work_tree = work_tree
        exe = git_executable()
        if exe is None:
            raise CheckpointError(CheckpointFault.NO_GIT)
        self._exe = exe
        self._env = _environment()

    async def run(self, *args: str, stdin: bytes | None = None, check: bool = True,
                  timeout: float = GIT_TIMEOUT_S, work_tree: bool = True) -> GitResult:
        argv = [self._exe, f"--git-dir={self.git_dir}"]
        if work_tree:
            argv.append(f"--work-tree={self.work_tree}")
        for setting in _CONFIG:
            argv += ["-c", setting]
        argv += list(args)
        # In the workspace where it exists: an index write (write-tree's cache-tree too) re-checks
        # racily clean entries by path, relative to the current directory; from the git dir
        # that check misses, and a file the agent rewrote in the same second as the capture,
        # at the same size, stays "clean" for good (the turn's change would be lost).
        cwd = self.work_tree if work_tree and self.work_tree.is_dir() else self.git_dir
        process = await asyncio.create_subprocess_exec(
            *argv, cwd=str(cwd), env=self._env,
            stdin=asyncio.subprocess.PIPE if stdin is not None else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        try:
            async with asyncio.timeout(timeout):
                out, err = await process.communicate(stdin)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
            raise CheckpointError(CheckpointFault.TIMEOUT, f"git {args[0]} took over {timeout:.0f} s") from None
        except asyncio.CancelledError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await asyncio.shield(process.wait())
            raise
        result = GitResult(process.returncode or 0, out, err.decode("utf-8", "replace").strip())
        if check and result.code != 0:
            raise CheckpointError(CheckpointFault.GIT_FAILED, f"git {args[0]}: {result.err}")
        return result

    async def text(self, *args: str, stdin: bytes | None = None) -> str:
        return (await self.run(*args, stdin=stdin)).out.decode("utf-8", "surrogateescape").strip()

    async def init(self) -> None:
        """Create the git directory (idempotent); its HEAD names Cherry's own chain ref."""
        self.git_dir.mkdir(parents=True, exist_ok=True)
        if not (self.git_dir / "HEAD").exists():
            await self.run("init", "-q", "--bare", str(self.git_dir), work_tree=False)
            await self.run("config", "core.bare", "false")
            await self.run("symbolic-ref", "HEAD", CHAIN_REF)

    async def exists(self, rev: str) -> bool:
        return (await self.run("cat-file", "-e", f"{rev}^{{commit}}", check=False)).code == 0

    async def head(self) -> str | None:
        result = await self.run("rev-parse", "-q", "--verify", f"{CHAIN_REF}^{{commit}}", check=False)
        return result.out.decode().strip() if result.code == 0 else None


#: Every snapshot commit descends from the one before on this ref (all of them stay reachable).
CHAIN_REF = "refs/cherry/chain"
