"""Cherry's own tools (`cherry-tools`): report_artifacts accepts only files inside the workspace
or the agent's data folder (symlinks resolved), and the agent's memory is read and appended,
bounded; all three are Cherry-safe under the one policy."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from cherry_desktop.core.ai.runtime.cherry_tools import CHERRY_TOOL_CLASSES, MAX_MEMORY_BYTES, cherry_tools_server
from cherry_desktop.core.mcp import ToolApprovalPolicy, Verdict


def call(server_dirs: tuple[Path, Path], tool: str, arguments: dict[str, object]) -> tuple[bool, str]:
    workspace, data_dir = server_dirs
    server = cherry_tools_server(workspace=workspace, data_dir=data_dir)
    result = asyncio.run(server.call(tool, arguments))  # type: ignore[arg-type]
    return result.is_error, result.text()


def test_report_artifacts_accepts_only_files_inside(tmp_path: Path) -> None:
    workspace, data_dir, outside = tmp_path / "ws", tmp_path / "data", tmp_path / "outside"
    for d in (workspace, data_dir, outside):
        d.mkdir()
    (workspace / "report.md").write_text("# done")
    (data_dir / "notes.txt").write_text("n")
    (outside / "secret.txt").write_text("s")
    (workspace / "escape").symlink_to(outside / "secret.txt")
    error, text = call((workspace, data_dir), "report_artifacts", {"summary": "All done.", "artifacts": [
        {"path": "report.md", "description": "the report"}, {"path": str(data_dir / "notes.txt")},
        {"path": str(outside / "secret.txt")}, {"path": "escape"}, {"path": "missing.md"}]})
    answer = json.loads(text)
    assert not error and answer["summary"] == "All done."
    assert [a["name"] for a in answer["artifacts"]] == ["report.md", "notes.txt"]
    assert [r["path"] for r in answer["rejected"]] == [str(outside / "secret.txt"), "escape", "missing.md"]
    error, _ = call((workspace, data_dir), "report_artifacts", {"artifacts": [{"path": "/etc/passwd"}]})
    assert error


def test_memory_is_read_and_appended_within_bounds(tmp_path: Path) -> None:
    dirs = (tmp_path / "ws", tmp_path / "data")
    assert call(dirs, "read_memory", {}) == (False, "(no facts yet)")
    assert call(dirs, "append_memory", {"fact": "The user prefers\ntabs."}) == (False, "Remembered.")
    assert call(dirs, "read_memory", {}) == (False, "- The user prefers tabs.")
    assert call(dirs, "append_memory", {"fact": ""})[0]
    (dirs[1] / "memory" / "FACT.md").write_text("x" * MAX_MEMORY_BYTES)
    assert call(dirs, "append_memory", {"fact": "one more"})[0]


def test_cherry_tools_are_safe_but_still_disabled_when_disabled() -> None:
    name = "mcp__cherry-tools__report_artifacts"
    assert set(CHERRY_TOOL_CLASSES) == {name, "mcp__cherry-tools__read_memory", "mcp__cherry-tools__append_memory"}
    assert ToolApprovalPolicy(disabled=set(), cherry_classes=CHERRY_TOOL_CLASSES).verdict(name, "default") \
        is Verdict.ALLOW
    assert ToolApprovalPolicy(disabled={name}, cherry_classes=CHERRY_TOOL_CLASSES).verdict(name, "default") \
        is Verdict.DENY
