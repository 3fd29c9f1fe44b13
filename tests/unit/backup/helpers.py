"""Real data dirs for backup tests: a started core with rows and files, table dumps to compare."""

from __future__ import annotations

import contextlib
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

from cherry_desktop.core.app.bootstrap import CoreServices, start_core
from cherry_desktop.core.attachments import check_attachment
from cherry_desktop.core.messages import TextPart
from cherry_desktop.core.storage.paths import PathRegistry, build_path_registry
from tests.unit.foundation.test_attachments import png_bytes

#: Tables whose rows a restore changes: workspace paths follow the data dir, and agents are held
#: until the user allows them (their config says so).
REBASED = {"agent_workspace", "agent"}


async def populated_core(root: Path, *, messages: int = 20) -> CoreServices:
    """A core on `root` with a chat topic, an agent session, an attachment, persona and
    settings files."""
    core = await start_core(build_path_registry(root))
    repos = core.repos
    topic = repos.topics.create_topic(name="Backed up topic", model="p::m")
    parent = None
    for i in range(messages):
        row = repos.messages.create_message(topic_id=topic.id, role="user" if i % 2 == 0 else "assistant",
                                            parts=[TextPart(text=f"message {i}")], parent_id=parent)
        parent = row.id
    assert core.attachments is not None
    image = core.attachments.stage(topic.id, check_attachment("shot.png", png_bytes()))
    repos.messages.create_message(topic_id=topic.id, role="user", parts=[TextPart(text="see"), image],
                                  parent_id=parent)
    agent = repos.agents.create_agent(type="claude-code", name="Helper", model="p::m")
    ws_path = core.paths.get("feature.agents.workspaces") / "helper"
    ws_path.mkdir(parents=True)
    (ws_path / "notes.md").write_text("workspace notes\n", encoding="utf-8")
    ws = repos.agents.create_workspace(name="ws", path=str(ws_path), kind="system", agent_id=agent.id)
    session = repos.sessions.create_session(agent_id=agent.id, workspace_id=ws.id, name="A session")
    repos.session_messages.create_message(session_id=session.id, role="user", parts=[TextPart(text="hi agent")])
    persona = core.paths.get("feature.agents.data") / agent.id / "SOUL.md"
    persona.parent.mkdir(parents=True)
    persona.write_text("be kind\n", encoding="utf-8")
    core.settings.update(username="Ada")
    return core


def table_dump(db: Path, *, skip: set[str] = frozenset()) -> dict[str, list[tuple[object, ...]]]:  # type: ignore[assignment]
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        names = [r[0] for r in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        return {n: sorted(connection.execute(f'SELECT * FROM "{n}"').fetchall(), key=repr)
                for n in names if n not in skip and not n.startswith("search_")}
    finally:
        connection.close()


def user_files(paths: PathRegistry) -> dict[str, bytes]:
    """Every file a backup holds, by its path under the data dir, with its content."""
    out: dict[str, bytes] = {}
    root = paths.get("app.data")
    for key in ("feature.agents.data", "feature.agents.workspaces", "feature.attachments",
                "feature.agents.pi.sessions"):
        for path in sorted(paths.get(key).rglob("*")):
            if path.is_file():
                out[path.relative_to(root).as_posix()] = path.read_bytes()
    settings = paths.get("app.config") / "settings.json"
    if settings.is_file():
        out["config/settings.json"] = settings.read_bytes()
    return out


#: The skip reason where `small_tmpfs` cannot mount (a missing OS capability, not a test fault).
NO_TMPFS = "mounting a tmpfs needs CAP_SYS_ADMIN, which this OS or container does not grant"


@contextlib.contextmanager
def small_tmpfs(where: Path, size: str = "256k", *, read_only: bool = False) -> Iterator[Path | None]:
    """A real tmpfs of `size` mounted at `where` (None when this machine cannot mount one)."""
    where.mkdir(parents=True, exist_ok=True)
    options = f"size={size}" + (",ro" if read_only else "")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)],
                          capture_output=True, check=False)
    if done.returncode != 0:
        yield None
        return
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


@contextlib.contextmanager
def read_only_dir(where: Path) -> Iterator[Path | None]:
    """A real read-only folder at `where`: a read-only tmpfs where one can be mounted, else (not
    root) a folder made 0555; None when neither works here (root without mount)."""
    import os

    with small_tmpfs(where, "64k", read_only=True) as mounted:
        if mounted is not None:
            yield mounted
            return
    if os.geteuid() == 0:  # root writes through 0555
        yield None
        return
    where.chmod(0o555)
    try:
        yield where
    finally:
        where.chmod(0o755)
