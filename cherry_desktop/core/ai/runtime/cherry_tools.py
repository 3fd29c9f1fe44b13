"""Cherry's own tools, the in-process server ``cherry-tools`` every MCP-capable runtime gets:

- ``report_artifacts {artifacts: [{path, description}], summary?}``: the run's deliverables,
  shown as an artifacts card in the transcript. Only a file or folder inside the session's
  workspace or the agent's data directory is accepted (symlinks resolved first); the result
  lists what was accepted, which is all the card offers to open;
- ``read_memory`` / ``append_memory {fact}``: the agent's durable facts (``memory/FACT.md``
  under its data directory, the file the prompt points at), bounded in size.

All three are Cherry-safe (they run without asking): they read or write only the agent's own
memory and name files, never touch anything else.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from pathlib import Path

from cherry_desktop.core.ai.runtime.persona import FACT_FILE
from cherry_desktop.core.mcp.config import CHERRY_TOOLS_SERVER, McpToolSpec, mcp_tool_name
from cherry_desktop.core.mcp.policy import ToolClass
from cherry_desktop.core.mcp.toolset import ToolResult, ToolServer
from cherry_desktop.core.messages.json_value import JsonObject

log = logging.getLogger(__name__)

REPORT_ARTIFACTS = "report_artifacts"
READ_MEMORY = "read_memory"
APPEND_MEMORY = "append_memory"
MAX_FACT_CHARS = 2_000
MAX_MEMORY_BYTES = 64_000
MAX_ARTIFACTS = 50

CHERRY_TOOL_SPECS: tuple[McpToolSpec, ...] = (
    McpToolSpec(REPORT_ARTIFACTS, "Declare the final deliverable files of this task, once, at the end. Each path is "
                "inside the workspace or your data directory.", {
                    "type": "object",
                    "properties": {
                        "artifacts": {"type": "array", "items": {
                            "type": "object", "properties": {"path": {"type": "string"},
                                                             "description": {"type": "string"}},
                            "required": ["path"]}},
                        "summary": {"type": "string"},
                    },
                    "required": ["artifacts"]}),
    McpToolSpec(READ_MEMORY, "Read your durable facts (memory/FACT.md).", {"type": "object", "properties": {}}),
    McpToolSpec(APPEND_MEMORY, "Add one short durable fact to your memory (memory/FACT.md).", {
        "type": "object", "properties": {"fact": {"type": "string"}}, "required": ["fact"]}),
)

#: The approval class of each of Cherry's tools, under its runtime name.
CHERRY_TOOL_CLASSES: Mapping[str, ToolClass] = {
    mcp_tool_name(CHERRY_TOOLS_SERVER, spec.name): ToolClass.CHERRY_SAFE for spec in CHERRY_TOOL_SPECS
}


def _inside(path: Path, roots: list[Path]) -> bool:
    return any(path == root or path.is_relative_to(root) for root in roots)


def report_artifacts(arguments: JsonObject, *, workspace: Path | None, data_dir: Path) -> ToolResult:
    roots = [r.resolve() for r in (workspace, data_dir) if r is not None]
    items = arguments.get("artifacts")
    if not isinstance(items, list) or not items:
        return ToolResult.error("artifacts must be a non-empty list of {path, description}.")
    accepted: list[JsonObject] = []
    rejected: list[JsonObject] = []
    for item in items[:MAX_ARTIFACTS]:
        raw = item.get("path") if isinstance(item, dict) else None
        if not isinstance(raw, str) or not raw.strip():
            rejected.append({"path": str(raw), "reason": "no path"})
            continue
        candidate = Path(raw).expanduser()
        if not candidate.is_absolute() and workspace is not None:
            candidate = workspace / candidate
        resolved = candidate.resolve()
        if not _inside(resolved, roots):
            rejected.append({"path": raw, "reason": "outside the workspace and the agent's data directory"})
        elif not resolved.exists():
            rejected.append({"path": raw, "reason": "does not exist"})
        else:
            description = item.get("description") if isinstance(item, dict) else None
            accepted.append({"path": str(resolved), "name": resolved.name,
                             "description": description if isinstance(description, str) else ""})
    summary = arguments.get("summary")
    body: JsonObject = {"artifacts": list(accepted), "rejected": list(rejected)}
    if isinstance(summary, str) and summary:
        body["summary"] = summary
    text = json.dumps(body, ensure_ascii=False)
    return ToolResult.error(text) if not accepted else ToolResult.text_result(text)


def read_memory(data_dir: Path) -> ToolResult:
    try:
        text = (data_dir / FACT_FILE).read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        text = ""
    except OSError as exc:
        return ToolResult.error(f"Your memory cannot be read: {exc.strerror or exc}")
    return ToolResult.text_result(text.strip() or "(no facts yet)")


def append_memory(arguments: JsonObject, data_dir: Path) -> ToolResult:
    fact = arguments.get("fact")
    if not isinstance(fact, str) or not fact.strip():
        return ToolResult.error("fact must be a non-empty string.")
    fact = " ".join(fact.split())[:MAX_FACT_CHARS]
    path = data_dir / FACT_FILE
    try:
        size = path.stat().st_size if path.exists() else 0
        if size + len(fact.encode()) > MAX_MEMORY_BYTES:
            return ToolResult.error("Your memory is full: edit memory/FACT.md to make room first.")
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as file:
            file.write(f"- {fact}\n")
    except OSError as exc:
        return ToolResult.error(f"Your memory cannot be written: {exc.strerror or exc}")
    return ToolResult.text_result("Remembered.")


def cherry_tools_server(*, workspace: Path | None, data_dir: Path) -> ToolServer:
    """The ``cherry-tools`` server of one connection (its workspace and agent data dir)."""

    async def call(tool: str, arguments: JsonObject) -> ToolResult:
        if tool == REPORT_ARTIFACTS:
            return report_artifacts(arguments, workspace=workspace, data_dir=data_dir)
        if tool == READ_MEMORY:
            return read_memory(data_dir)
        if tool == APPEND_MEMORY:
            return append_memory(arguments, data_dir)
        return ToolResult.error(f"Cherry has no tool {tool!r}.")

    return ToolServer(CHERRY_TOOLS_SERVER, CHERRY_TOOL_SPECS, call)
