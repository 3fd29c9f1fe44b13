"""Tool cards by the descriptor and ACP's kind (`core.views.tool_view`), not by Claude Code's
tool names: pi's edit and bash, opencode's write, an ACP diff, and Claude Code's own tools read
as edits and commands alike."""

from __future__ import annotations

from cherry_desktop.core.views.tool_view import tool_category, tool_view

ACP = {"cherry": {"transport": "acp", "kind": "edit",
                  "content": [{"type": "diff", "path": "/w/a.txt", "old_text": "old\n", "new_text": "new\n"}]}}


def test_pi_edit_and_bash_read_as_an_edit_and_a_command() -> None:
    pi = {"cherry": {"transport": "pi"}}
    edit = tool_view("edit", {"path": "a.py", "edits": [{"oldText": "x = 1", "newText": "x = 2"}]}, pi)
    assert (edit.category, edit.path, edit.edits) == ("write", "a.py", (("x = 1", "x = 2"),))
    assert "edits" in edit.consumed
    write = tool_view("write", {"path": "b.txt", "content": "hello"}, pi)
    assert write.edits == (("", "hello"),)
    bash = tool_view("bash", {"command": "ls -la"}, pi)
    assert (bash.category, bash.command) == ("execute", "ls -la")
    assert tool_view("read", {"path": "a.py"}, pi).edits == ()


def test_claude_code_tools_keep_their_cards() -> None:
    cc = {"cherry": {"transport": "claude-code"}}
    assert tool_view("Write", {"file_path": "/a", "content": "x"}, cc).edits == (("", "x"),)
    edit = tool_view("Edit", {"file_path": "/a", "old_string": "o", "new_string": "n"})  # no metadata: by name
    assert (edit.category, edit.edits) == ("write", (("o", "n"),))
    multi = tool_view("MultiEdit", {"file_path": "/a", "edits": [{"old_string": "1", "new_string": "2"},
                                                                 {"old_string": "3", "new_string": "4"}]})
    assert multi.edits == (("1", "2"), ("3", "4"))
    assert tool_view("Bash", {"command": "pwd", "description": "where"}, cc).command == "pwd"


def test_acp_kind_and_diff_content_drive_the_card_whatever_the_name() -> None:
    view = tool_view("apply_patch", {"patch": "..."}, ACP)
    assert (view.category, view.path, view.edits) == ("write", "/w/a.txt", (("old\n", "new\n"),))
    opencode = tool_view("write", {"filePath": "/w/n.txt", "content": "hi"}, {"cherry": {"transport": "acp",
                                                                                           "kind": "edit"}})
    assert (opencode.path, opencode.edits) == ("/w/n.txt", (("", "hi"),))
    shell = tool_view("run", {"command": ["git", "status"]}, {"cherry": {"transport": "acp", "kind": "execute"}})
    assert shell.command == "git status"
    assert tool_category("anything", {"cherry": {"transport": "acp", "kind": "fetch"}}) == "web"
    assert tool_category("unknown-tool", {"cherry": {"transport": "acp"}}) is None
