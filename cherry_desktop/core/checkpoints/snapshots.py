"""Snapshot, diff and restore of a workspace over its shadow repository (`ShadowGit`).

A snapshot is two steps: `capture` stages the workspace into the store's own index
(`git add -A`: the stat cache makes an unchanged tree cheap; this is the part a turn start
waits for, since after it the agent may write), then `commit` writes the tree and a commit on
the chain (in the background). Files over the size cap are taken out of the index before the
tree is written and excluded from later captures; a first capture looks for them before it
stages anything, and refuses a tree over the file cap.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from cherry_desktop.core.checkpoints.git import CHAIN_REF, ShadowGit
from cherry_desktop.core.checkpoints.models import ChangeKind, CheckpointError, CheckpointFault, FileChange, Snapshot

MAX_FILE_BYTES = 20 * 1024 * 1024
MAX_FILES = 100_000
DIFF_LIMIT_BYTES = 400_000
_KINDS: dict[str, ChangeKind] = {"A": "added", "M": "modified", "D": "deleted", "T": "modified"}
_EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


class Snapshots:
    """The snapshot operations of one store (callers serialise them: one git index)."""

    def __init__(self, git: ShadowGit, *, max_file_bytes: int = MAX_FILE_BYTES, max_files: int = MAX_FILES) -> None:
        self.git = git
        self.max_file_bytes = max_file_bytes
        self.max_files = max_files
        self._exclude = git.git_dir / "info" / "exclude"

    # -- capture -------------------------------------------------------------------------------
    async def capture(self) -> None:
        """Stage the workspace as it is now into the store's index."""
        workspace = self.git.work_tree
        if not workspace.is_dir():
            raise CheckpointError(CheckpointFault.NO_WORKSPACE, str(workspace))
        if await self.git.head() is None:
            await self._first_scan()
        await self.git.run("add", "-A", "--ignore-errors")

    async def _first_scan(self) -> None:
        """Before the first capture: refuse a tree over the file cap, exclude files over the size cap."""
        self._write_base_excludes()
        out = (await self.git.run("ls-files", "-z", "--others", "--exclude-standard")).out
        paths = [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]
        if len(paths) > self.max_files:
            raise CheckpointError(CheckpointFault.TOO_MANY_FILES, str(len(paths)))
        self._exclude_large(paths)

    def _write_base_excludes(self) -> None:
        """The workspace's own `.git/info/exclude` applies as it does to the user's git."""
        self._exclude.parent.mkdir(parents=True, exist_ok=True)
        lines = ["# Cherry Desktop checkpoints"]
        own = self.git.work_tree / ".git" / "info" / "exclude"
        with contextlib.suppress(OSError):
            lines.append(own.read_text("utf-8", "replace"))
        self._exclude.write_text("\n".join(lines) + "\n", "utf-8")

    def _exclude_large(self, paths: list[str]) -> list[str]:
        large = [rel for rel in paths if _size(self.git.work_tree / rel) > self.max_file_bytes]
        if large:
            self._exclude_paths(large)
        return large

    def skipped(self) -> tuple[str, ...]:
        """The files excluded for their size (newest last)."""
        try:
            text = self._exclude.read_text("utf-8", "surrogateescape")
        except OSError:
            return ()
        marker = text.find(_LARGE_MARKER)
        return tuple(_unescape(line[1:]) for line in text[marker:].splitlines()[1:]
                     if line.startswith("/")) if marker >= 0 else ()

    # -- commit --------------------------------------------------------------------------------
    async def commit(self, message: str) -> Snapshot:
        """Write the staged state as a commit on the chain (the same commit when unchanged)."""
        head = await self.git.head()
        large = await self._drop_large_staged(head)
        tree = await self.git.text("write-tree")
        if head is not None and await self.git.text("rev-parse", f"{head}^{{tree}}") == tree:
            return Snapshot(head, tuple(large))
        args = ["commit-tree", tree, "-m", message]
        if head is not None:
            args += ["-p", head]
        commit = await self.git.text(*args)
        await self.git.run("update-ref", CHAIN_REF, commit)
        return Snapshot(commit, tuple(large))

    async def _drop_large_staged(self, head: str | None) -> list[str]:
        """Files staged since the last commit that are over the size cap leave the index."""
        args = ["diff", "--cached", "--name-only", "-z", "--diff-filter=AMT", head or _EMPTY_TREE]
        out = (await self.git.run(*args)).out
        staged = [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]
        large = [rel for rel in staged if _size(self.git.work_tree / rel) > self.max_file_bytes]
        if large:
            self._exclude_paths(large)
            await self.git.run("rm", "--cached", "-q", "--ignore-unmatch", "--pathspec-from-file=-",
                               "--pathspec-file-nul", stdin="\0".join(large).encode("utf-8", "surrogateescape"))
        return large

    def _read_exclude(self) -> str:
        try:
            return self._exclude.read_text("utf-8", "surrogateescape")
        except OSError:
            return ""

    def _exclude_paths(self, paths: list[str]) -> None:
        marked = _LARGE_MARKER in self._read_exclude()
        with self._exclude.open("a", encoding="utf-8", errors="surrogateescape") as fh:
            if not marked:
                fh.write(_LARGE_MARKER + "\n")
            fh.writelines("/" + _escape_pattern(rel) + "\n" for rel in paths)

    # -- reading -------------------------------------------------------------------------------
    async def changes(self, old: str, new: str) -> tuple[FileChange, ...]:
        """Files that differ from commit `old` to commit `new`."""
        if old == new:
            return ()
        status = (await self.git.run("diff-tree", "-r", "-z", "--no-renames", "--name-status", old, new)).out
        numstat = (await self.git.run("diff-tree", "-r", "-z", "--no-renames", "--numstat", old, new)).out
        counts: dict[str, tuple[int, int, bool]] = {}
        for entry in numstat.decode("utf-8", "surrogateescape").split("\0"):
            fields = entry.split("\t", 2)
            if len(fields) == 3:
                binary = fields[0] == "-"
                counts[fields[2]] = (0 if binary else int(fields[0]), 0 if binary else int(fields[1]), binary)
        items = status.decode("utf-8", "surrogateescape").split("\0")
        files = []
        for code, path in zip(items[0::2], items[1::2], strict=False):
            if not path:
                continue
            added, removed, binary = counts.get(path, (0, 0, False))
            files.append(FileChange(path, _KINDS.get(code[:1], "modified"), binary, added, removed))
        return tuple(sorted(files, key=lambda f: f.path))

    async def changed_paths(self, old: str, new: str) -> set[str]:
        if old == new:
            return set()
        out = (await self.git.run("diff-tree", "-r", "-z", "--no-renames", "--name-only", old, new)).out
        return {p for p in out.decode("utf-8", "surrogateescape").split("\0") if p}

    async def file_diff(self, old: str, new: str, path: str) -> list[str]:
        """The unified diff of one file between two commits (binary: git's one line)."""
        result = await self.git.run("diff", "--no-color", "--no-ext-diff", "-U3", old, new, "--", path)
        text = result.out[:DIFF_LIMIT_BYTES].decode("utf-8", "replace")
        lines = text.splitlines()
        # Drop git's own header ("diff --git", "index ..."): the renderer names the file.
        start = next((i for i, line in enumerate(lines) if line.startswith(("--- ", "Binary files"))), 0)
        return lines[start:]

    # -- restore -------------------------------------------------------------------------------
    async def restore(self, current: str, commit: str) -> None:
        """Make the workspace's checkpointed files those of `commit`; `current` is the state
        the index holds (the last capture). Files `current` has and `commit` lacks are removed;
        files outside the checkpoints (ignored, over the size cap) are never overwritten: a
        rewind they stand in the way of is refused before anything changes."""
        blocked = await self.blocked_paths(current, commit)
        if blocked:
            raise CheckpointError(CheckpointFault.RESTORE_FAILED, ", ".join(blocked[:5]))
        await self.git.run("read-tree", "-u", "--reset", commit)

    async def blocked_paths(self, current: str, commit: str) -> list[str]:
        """Paths `commit` would write over something not in `current` (a file git does not
        track here, or a file where a folder must go)."""
        changes = await self.changes(current, commit)
        tracked_gone = {f.path for f in changes if f.kind == "deleted"}
        blocked = []
        for change in changes:
            if change.kind != "added":
                continue
            parts = change.path.split("/")
            for depth in range(1, len(parts)):
                prefix = "/".join(parts[:depth])
                node = self.git.work_tree / prefix
                if (node.is_symlink() or (node.exists() and not node.is_dir())) and prefix not in tracked_gone:
                    blocked.append(prefix)
                    break
            else:
                node = self.git.work_tree / change.path
                if node.is_symlink() or node.exists():
                    blocked.append(change.path)
        return sorted(set(blocked))


_LARGE_MARKER = "# over the size cap"


def _size(path: Path) -> int:
    try:
        return path.lstat().st_size
    except OSError:
        return 0


def _escape_pattern(rel: str) -> str:
    return "".join("\\" + ch if ch in "*?[]\\!# " else ch for ch in rel)


def _unescape(pattern: str) -> str:
    out, escaped = [], False
    for ch in pattern:
        if escaped or ch != "\\":
            out.append(ch)
            escaped = False
        else:
            escaped = True
    return "".join(out)


def writable(path: Path) -> bool:
    return os.access(path, os.W_OK)
