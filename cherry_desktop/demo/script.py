"""The offline demo's default script (``cherry-desktop --demo``).

Each user turn gets: slowly streamed text (time to press Stop or type a steer), a ``Write``
tool call creating a note in the workspace (the approval prompt in default mode), then a
final answer once the tool result comes back. The script is a function of the request,
so it answers every later turn the same way, and it quotes a steer if one reached it.
"""

from __future__ import annotations

import re
from pathlib import Path

from cherry_desktop.demo.replies import AnyReply, Reply, TextBlock, ToolUseBlock, slow_text, text
from cherry_desktop.demo.request_log import ModelRequest

_STEER_RE = re.compile(r"<system-reminder>(.*?)</system-reminder>", re.S)

INTRO = (
    "This is Cherry's offline demo model: no account, no network. "
    "I stream slowly so you can try steering (type while I work) or Stop. "
    "Next I will write a small note into your workspace with the Write tool, "
    "which asks for your approval in the default permission mode."
)


def _turn_number(request: ModelRequest) -> int:
    """1-based count of real user prompts in the history (tool results excluded)."""
    count = 0
    for message in request.messages:
        if message.get("role") != "user":
            continue
        content = message.get("content")
        blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
        if any(isinstance(b, dict) and b.get("type") == "text" for b in blocks) and not any(
            isinstance(b, dict) and b.get("type") == "tool_result" for b in blocks
        ):
            count += 1
    return max(count, 1)


class DemoScript:
    """A reply function: ``DemoScript(workspace)(request) -> reply``."""

    def __init__(self, workspace: str | Path, *, delay_s: float = 0.04) -> None:
        self.workspace = Path(workspace)
        self.delay_s = delay_s

    def __call__(self, request: ModelRequest) -> AnyReply:
        results = request.tool_results()
        if results:
            denied = any(r.get("is_error") for r in results)
            steer = self._steer_text(request)
            parts = [
                "The tool was denied, so I left your workspace untouched."
                if denied
                else "Done: the note is in your workspace."
            ]
            if steer:
                parts.append(f"You steered me mid-turn with: “{steer}”. I took it into account.")
            parts.append("Send another message to run the demo again, or reopen this session later to resume.")
            return text(" ".join(parts))
        turn = _turn_number(request)
        # pi names its tools in lower case and calls the path `path` (the pi demo agent).
        pi = "write" in request.tool_names
        workspace = self.workspace.with_name(self.workspace.name + "-pi") if pi else self.workspace
        note = workspace / "cherry-demo" / f"note-{turn}.md"
        # The CLI folds its own <system-reminder> blocks into the user message; quote only
        # what the user typed.
        prompt = _STEER_RE.sub("", request.last_user_text()).strip()[:200]
        body = f"# Cherry demo note {turn}\n\nYou asked: {prompt}\n"
        intro = slow_text(INTRO, delay_s=self.delay_s)
        return Reply(
            blocks=(
                *intro.blocks,
                ToolUseBlock("write", {"path": str(note), "content": body}) if pi
                else ToolUseBlock("Write", {"file_path": str(note), "content": body}),
            ),
            delay_s=intro.delay_s,
            chunk_size=intro.chunk_size,
        )

    @staticmethod
    def _steer_text(request: ModelRequest) -> str:
        """Steer text the CLI attached to the tool result (hook additionalContext)."""
        last = request.last_user_message()
        blob = str(last.get("content")) if last else ""
        found = [m.strip() for m in _STEER_RE.findall(blob)]
        for candidate in reversed(found):
            if "<total_tokens>" in candidate or candidate.startswith("#"):
                continue  # the CLI's own budget / environment reminders
            cleaned = re.sub(r"<[^>]+>", "", candidate).strip()
            if cleaned:
                return cleaned[:200]
        return ""


def demo_script(workspace: str | Path, *, delay_s: float = 0.04) -> DemoScript:
    """The default script of the offline demo, as a reply function for ``default=``."""
    return DemoScript(workspace, delay_s=delay_s)


__all__ = ["INTRO", "DemoScript", "TextBlock", "demo_script"]
