"""The files of a workspace, as the composer's "@" completion lists them: relative paths with
forward slashes, git's view of a work tree (tracked and untracked files, `.gitignore` honoured)
or else a walk that skips hidden and build folders; bounded in count and time, never blocking
the event loop (git runs as a subprocess, the walk in a thread)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)

#: At most this many paths (a huge tree is cut, the first ones kept).
MAX_FILES = 20_000
#: git gets this long to list the tree before the walk takes over.
GIT_TIMEOUT_S = 5.0
#: Folders a walk never enters (besides hidden ones): dependencies, caches, build output.
SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "venv", "dist", "build", "target", "out"})


async def list_workspace_files(root: Path, *, limit: int = MAX_FILES) -> list[str]:
    """The files under `root` (see the module docstring); [] when it is not a folder."""
    if not await asyncio.to_thread(root.is_dir):
        return []
    files = await _git_files(root, limit)
    if files is None:
        files = await asyncio.to_thread(_walk, root, limit)
    return files


async def _git_files(root: Path, limit: int) -> list[str] | None:
    """git's list of the work tree, or None (not a repository, no git, too slow)."""
    try:
        process = await asyncio.create_subprocess_exec(
            "git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard",
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    except OSError:
        return None
    try:
        async with asyncio.timeout(GIT_TIMEOUT_S):
            out, _ = await process.communicate()
    except TimeoutError:
        log.info("git ls-files in %s took over %.0f s: walking the folder instead", root, GIT_TIMEOUT_S)
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()
        return None
    if process.returncode != 0:
        return None
    names = out.decode("utf-8", "replace").split("\0")
    return list(dict.fromkeys(name for name in names if name))[:limit]


def _walk(root: Path, limit: int) -> list[str]:
    files: list[str] = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS)
        relative = Path(folder).relative_to(root)
        for name in sorted(names):
            files.append((relative / name).as_posix())
            if len(files) >= limit:
                return files
    return files
