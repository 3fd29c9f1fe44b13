"""What a tool card shows, by the runtime's descriptor and ACP's ``kind``, not by Claude Code's
tool names: the call's category (edit, shell, ...), the file edits it makes (a diff), the shell
command it runs. One reading for the three runtimes' inputs:

- the category: ACP's ``kind`` on the part (`provider_metadata["cherry"]["kind"]`), else the
  descriptor's builtin tool of the part's transport tag, else of any runtime with that exact
  name (the approval card has the name only; runtime-native names differ in casing);
- the edits of a ``write`` call: ACP's own diff content when the agent sent it, else the input:
  Claude Code (``file_path``, ``content`` / ``old_string``+``new_string`` / ``edits``), pi
  (``path``, ``content`` / ``edits[].oldText``+``newText``), opencode (``filePath``,
  ``oldString``+``newString``);
- the command of an ``execute`` call: its ``command``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cherry_desktop.core.ai.runtime.capabilities import AGENT_RUNTIME_CAPABILITIES

#: ACP's tool-call kinds -> the descriptor's tool categories.
_ACP_KINDS = {"edit": "write", "delete": "write", "move": "write", "execute": "execute", "read": "read",
              "search": "read", "fetch": "web", "think": "plan",
              # Cherry's own kind for the tool part of an ACP ``plan`` update (a todo list).
              "plan": "plan"}
_PATH_KEYS = ("file_path", "path", "filePath", "notebook_path")
_PAIRS = (("old_string", "new_string"), ("oldText", "newText"), ("oldString", "newString"),
          ("old_source", "new_source"))
_CONTENT_KEYS = ("content", "new_source")


@dataclass(frozen=True)
class ToolView:
    category: str | None = None
    path: str | None = None
    #: (old text, new text) per edit; a whole-file write is ("", content).
    edits: tuple[tuple[str, str], ...] = ()
    command: str | None = None
    #: The input keys the view shows in its own way (not again as fields).
    consumed: frozenset[str] = frozenset()


def _cherry(metadata: Any) -> dict[str, Any]:
    cherry = metadata.get("cherry") if isinstance(metadata, dict) else None
    return cherry if isinstance(cherry, dict) else {}


def tool_category(tool_name: str, provider_metadata: Any = None) -> str | None:
    cherry = _cherry(provider_metadata)
    kind = cherry.get("kind")
    if isinstance(kind, str) and kind in _ACP_KINDS:
        return _ACP_KINDS[kind]
    transport = cherry.get("transport")
    runtimes = [c for c in AGENT_RUNTIME_CAPABILITIES.values() if transport in (None, c.transport)]
    for caps in runtimes:
        for tool in caps.builtin_tools:
            if tool.name == tool_name:
                return tool.category
    return None


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _input_edits(tool_input: dict[str, Any]) -> tuple[list[tuple[str, str]], set[str]]:
    edits: list[tuple[str, str]] = []
    consumed: set[str] = set()
    items = tool_input.get("edits")
    if isinstance(items, list):
        consumed.add("edits")
        for item in items:
            if isinstance(item, dict):
                for old, new in _PAIRS:
                    if old in item or new in item:
                        edits.append((_str(item.get(old)), _str(item.get(new))))
                        break
    for old, new in _PAIRS:
        if old in tool_input or new in tool_input:
            edits.append((_str(tool_input.get(old)), _str(tool_input.get(new))))
            consumed.update((old, new))
    if not edits:
        for key in _CONTENT_KEYS:
            if isinstance(tool_input.get(key), str):
                edits.append(("", tool_input[key]))
                consumed.add(key)
                break
    return edits, consumed


def tool_view(tool_name: str, tool_input: Any, provider_metadata: Any = None) -> ToolView:
    """How the card of this call reads (see the module doc)."""
    category = tool_category(tool_name, provider_metadata)
    args = tool_input if isinstance(tool_input, dict) else {}
    if category == "execute":
        command = args.get("command")
        if isinstance(command, list):
            command = " ".join(str(c) for c in command)
        if isinstance(command, str):
            return ToolView(category=category, command=command, consumed=frozenset({"command"}))
        return ToolView(category=category)
    if category != "write":
        return ToolView(category=category)
    path = next((args[k] for k in _PATH_KEYS if isinstance(args.get(k), str)), None)
    content = _cherry(provider_metadata).get("content") or []
    diffs = [c for c in content if isinstance(c, dict) and c.get("type") == "diff"]
    if diffs:
        edits = [(_str(d.get("old_text")), _str(d.get("new_text"))) for d in diffs]
        path = path or _str(diffs[0].get("path")) or None
        _, consumed = _input_edits(args)
    else:
        edits, consumed = _input_edits(args)
    return ToolView(category=category, path=path, edits=tuple(edits), consumed=frozenset(consumed))


def is_todo_list(tool_name: str, provider_metadata: Any = None) -> bool:
    """Whether a tool part is a todo list (the todo card): Claude Code's ``TodoWrite``, or the
    part of an ACP agent's ``plan`` (kind ``plan``)."""
    return tool_name == "TodoWrite" or _cherry(provider_metadata).get("kind") == "plan"
