"""Persona and memory files of an agent (SOUL.md, USER.md, memory/FACT.md) and their reader.

The files live under the agent's own data directory (`feature.agents.data/<agent_id>`). They
are initialised before the prompt builder reads them, never overwritten once they exist (the
agent and the user edit them), and read as a connection-lifetime snapshot.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

SOUL_FILE = "SOUL.md"
USER_FILE = "USER.md"
FACT_FILE = "memory/FACT.md"
# Past this size a file is cut when it goes into the prompt (a runaway memory file must not
# eat the context window); the file itself is left alone.
MAX_FILE_CHARS = 20_000

DEFAULT_SOUL = "# Soul\n\nWho I am and how I work. I keep this short and update it deliberately.\n"
DEFAULT_USER = "# User\n\nWhat I know about the person I work with. I update it when I learn something lasting.\n"
DEFAULT_FACT = "# Facts\n\nDurable facts worth remembering across sessions, one per line.\n"


def agent_data_dir(agents_data_root: Path, agent_id: str) -> Path:
    """The data directory of one agent under `feature.agents.data`."""
    return agents_data_root / agent_id


@dataclass(frozen=True)
class PersonaFiles:
    """The contents read for the prompt (empty string when a file is empty or unreadable)."""

    soul: str
    user: str
    fact: str
    data_dir: Path


def ensure_persona_files(data_dir: Path, *, soul: str = "", user: str = "") -> None:
    """Create the persona/memory files that are missing (bundled text when given)."""
    for rel, text in ((SOUL_FILE, soul or DEFAULT_SOUL), (USER_FILE, user or DEFAULT_USER),
                      (FACT_FILE, DEFAULT_FACT)):
        path = data_dir / rel
        if path.exists():
            continue
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            # A read-only data dir must not stop a turn; the prompt simply lacks the file.
            log.warning("cannot initialise %s: %s", path, exc)


def _read(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    if len(text) > MAX_FILE_CHARS:
        text = text[:MAX_FILE_CHARS] + "\n…(truncated)"
    return text.strip()


def read_persona_files(data_dir: Path) -> PersonaFiles:
    return PersonaFiles(soul=_read(data_dir / SOUL_FILE), user=_read(data_dir / USER_FILE),
                        fact=_read(data_dir / FACT_FILE), data_dir=data_dir)


def read_workspace_system_md(workspace_path: Path | None) -> str | None:
    """`<workspace>/system.md`: when present and non-empty it replaces the runtime's native base."""
    if workspace_path is None:
        return None
    text = _read(workspace_path / "system.md")
    return text or None
