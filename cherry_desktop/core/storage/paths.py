"""One registry of named paths, built on platformdirs.

Every folder the app writes to has a name here (the spec's `application.getPath(...)` keys in
snake_case). `--data-dir DIR` or `CHERRY_DESKTOP_DATA_DIR` moves all of them under one folder,
which is how tests, QA and portable installs keep the real home untouched.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "cherry-desktop"
DATA_DIR_ENV = "CHERRY_DESKTOP_DATA_DIR"
DATABASE_FILE = "cherry.db"
INSTANCE_LOCK_FILE = "cherry.lock"


class UnknownPathError(KeyError):
    """Raised for a path name that the registry does not define."""


@dataclass(frozen=True)
class PathRegistry:
    """Named paths of one app instance.

    Attributes:
        root: the single folder everything lives under when a data dir was given, else None.
    """

    paths: Mapping[str, Path]
    root: Path | None = None

    def get(self, name: str) -> Path:
        """Return the path registered under `name`."""
        try:
            return self.paths[name]
        except KeyError:
            raise UnknownPathError(name) from None

    def ensure(self, name: str) -> Path:
        """Return the folder registered under `name`, creating it when missing."""
        path = self.get(name)
        path.mkdir(parents=True, exist_ok=True)
        return path

    def ensure_all(self) -> None:
        """Create every folder of the registry, private to the user (0700 on POSIX, existing
        ones tightened); files are left to their owners."""
        from cherry_desktop.core.storage.private_files import ensure_private_folders

        ensure_private_folders(dict(self.paths))

    @property
    def database_file(self) -> Path:
        return self.get("file.database")

    def as_dict(self) -> dict[str, str]:
        return {name: str(path) for name, path in sorted(self.paths.items())}


def _layout(data: Path, config: Path, logs: Path, cache: Path) -> dict[str, Path]:
    agents = data / "Agents"
    return {
        "app.data": data,
        "app.config": config,
        "app.logs": logs,
        "app.cache": cache,
        "file.database": data / DATABASE_FILE,
        # One instance per data directory: the lock next to the database (`InstanceLock`).
        "file.instance_lock": data / INSTANCE_LOCK_FILE,
        "file.log": logs / "cherry-desktop.log",
        # Agent data: persona and memory files per agent (SOUL.md, USER.md, memory/FACT.md).
        "feature.agents.data": agents / "data",
        # Cherry-managed root for system workspaces; user workspaces live where the user picked.
        "feature.agents.workspaces": agents / "workspaces",
        # Per-runtime homes (config dirs the runtime owns); one key per runtime.
        "feature.agents.runtime_homes": agents / "runtimes",
        "feature.agents.claude_code.home": agents / "runtimes" / "claude-code",
        "feature.agents.pi.root": agents / ".pi",
        "feature.agents.pi.sessions": agents / ".pi" / "sessions",
        # The pinned pi the app installs with npm when none is on PATH (an npm --prefix).
        "feature.agents.pi.install": agents / "runtimes" / "pi",
        # ACP agents: one Cherry-owned HOME per agent (its sessions live there, so session/load
        # finds them after a restart), and the pinned npm agents (one --prefix per preset).
        "feature.agents.acp.homes": agents / ".acp" / "homes",
        "feature.agents.acp.install": agents / "runtimes" / "acp",
        "feature.traces": data / "traces",
        # Files attached to messages, one folder per chat / session (`core.attachments`).
        "feature.attachments": data / "attachments",
        # Per-turn checkpoints of agent sessions, one shadow git repository per session.
        "feature.checkpoints": data / "checkpoints",
        # Git worktrees of sessions that run on their own branch.
        "feature.worktrees": data / "worktrees",
        # Cherry-managed skills (`Skills/<name>/SKILL.md`, `core.skills`).
        "feature.skills": data / "Skills",
    }


def build_path_registry(data_dir: str | os.PathLike[str] | None = None) -> PathRegistry:
    """Build the registry: under `data_dir` (or `$CHERRY_DESKTOP_DATA_DIR`) when given, else
    in the platform's standard user folders."""
    chosen = data_dir if data_dir is not None else os.environ.get(DATA_DIR_ENV) or None
    if chosen is not None:
        root = Path(chosen).expanduser().resolve()
        # The database sits at DIR/cherry.db; config, logs and cache in sub-folders.
        return PathRegistry(_layout(root, root / "config", root / "logs", root / "cache"), root=root)
    dirs = platformdirs.PlatformDirs(APP_NAME, appauthor=False)
    return PathRegistry(
        _layout(
            Path(dirs.user_data_dir),
            Path(dirs.user_config_dir),
            Path(dirs.user_log_dir),
            Path(dirs.user_cache_dir),
        )
    )
