"""Which pi tool calls run, ask, or are refused (pure; read live by the connection).

Approval defaults come from the descriptor's `PI_BUILTIN_TOOLS` table. A tool missing from it
(a future pi tool, anything an extension could add) always asks: never fail open.

- a disabled tool is refused, whatever the mode;
- ``bypassPermissions``: every known tool runs;
- ``acceptEdits``: reads run; ``write``/``edit`` run when their path resolves (symlinks
  followed) inside the workspace or the agent's data folder, else ask; ``bash`` asks;
- ``default``: tools whose default is to ask, ask.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from enum import Enum
from pathlib import Path

from cherry_desktop.core.ai.runtime.capabilities import PI_BUILTIN_TOOLS, BuiltinToolDescriptor
from cherry_desktop.core.ai.runtime.types import PermissionMode
from cherry_desktop.core.messages.json_value import JsonValue

_TOOLS: dict[str, BuiltinToolDescriptor] = {t.name: t for t in PI_BUILTIN_TOOLS}
_PATH_KEYS = ("path", "file_path")


class GateVerdict(Enum):
    ALLOW = "allow"
    ASK = "ask"
    DISABLED = "disabled"


def _inside(path: Path, roots: Sequence[Path]) -> bool:
    for root in roots:
        try:
            path.relative_to(root)
        except ValueError:
            continue
        return True
    return False


def resolve_tool_path(raw: object, cwd: Path) -> Path | None:
    """The canonical path a write/edit targets (symlinks resolved), None when absent."""
    if not isinstance(raw, str) or not raw:
        return None
    candidate = Path(raw).expanduser()
    if not candidate.is_absolute():
        candidate = cwd / candidate
    return Path(os.path.realpath(candidate))


def decide(
    tool_name: str,
    tool_input: JsonValue,
    *,
    permission_mode: PermissionMode,
    disabled_tools: Collection[str],
    cwd: Path,
    write_roots: Sequence[Path],
) -> GateVerdict:
    if tool_name in disabled_tools:
        return GateVerdict.DISABLED
    tool = _TOOLS.get(tool_name)
    if tool is None:
        return GateVerdict.ASK
    if permission_mode == "bypassPermissions" or not tool.requires_approval:
        return GateVerdict.ALLOW
    if permission_mode == "acceptEdits" and tool.category == "write":
        raw = next((tool_input.get(k) for k in _PATH_KEYS if isinstance(tool_input, dict) and k in tool_input), None)
        target = resolve_tool_path(raw, cwd)
        roots = [Path(os.path.realpath(r)) for r in write_roots]
        if target is not None and _inside(target, roots):
            return GateVerdict.ALLOW
    return GateVerdict.ASK
