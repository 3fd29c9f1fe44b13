"""The offline demo's default script (``cherry-desktop --demo``).

Each user turn gets: slowly streamed text (the first one, about 20 s, invites a steer), a ``Write``
tool call creating a note in the workspace (the approval prompt in default mode), then a
final answer once the tool result comes back. The script is a function of the request,
so it answers every later turn the same way, and it quotes a steer if one reached it.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from cherry_desktop.demo.echo import describe_files
from cherry_desktop.demo.replies import AnyReply, Reply, TextBlock, ToolUseBlock, slow_text, text
from cherry_desktop.demo.request_log import ModelRequest

_STEER_RE = re.compile(r"<system-reminder>(.*?)</system-reminder>", re.S)
# How a steer reaches the model (logged from the real CLI against this server): the runtime's
# PreToolUse hook returns it as additionalContext, and the CLI adds it to the request after the
# tool result, as a text block of that user message, HTML-escaped inside its own reminder:
#   <system-reminder>\nPreToolUse:Write hook additional context: &lt;system-reminder>\nThe user
#   sent the following message while you were working:\n<steer>\nPlease address this message ...
_STEER_WORDS_RE = re.compile(
    r"The user sent the following message while you were working:\s*\n(.*?)\n\s*Please address this message", re.S)
# The first answer streams for about this long: time to read the invitation and type a steer.
FIRST_TURN_S = 20.0

INTRO = (
    "This is Cherry's offline demo model: no account, no network. "
    "I stream slowly so you can try steering (type while I work) or Stop. "
    "Next I will write a small note into your workspace with the Write tool, "
    "which asks for your approval in the default permission mode."
)
STEER_INVITE = (
    "\n\nTry steering now: type a message below and press Ctrl+Enter (Steer now) while I am "
    "still writing. It reaches me before my next step, and I will answer it in this same turn. "
    "Take your time, I am writing slowly on purpose..."
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

    def __init__(self, workspace: str | Path, *, delay_s: float = 0.04, first_turn_s: float = FIRST_TURN_S) -> None:
        self.workspace = Path(workspace)
        self.delay_s = delay_s
        self.first_turn_s = first_turn_s

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
        # Files the user attached: said first, so the demo shows they reached the model.
        said = describe_files(request.received_files())
        opening = f"{said}\n\n{INTRO}" if said else INTRO
        if turn == 1 and self.delay_s > 0:
            # The first answer invites a steer and streams slowly enough to type one.
            content = opening + STEER_INVITE
            intro = slow_text(content, delay_s=self.first_turn_s / max(1, len(content) // 4), chunk_size=4)
        else:
            intro = slow_text(opening, delay_s=self.delay_s)
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
        """Steer text the CLI added after the tool result (the hook's additionalContext)."""
        blob = _text_since_last_answer(request)
        words = _STEER_WORDS_RE.findall(html.unescape(blob))
        if words:
            return str(words[-1]).strip()[:200]
        found = [m.strip() for m in _STEER_RE.findall(blob)]
        for candidate in reversed(found):
            if "<total_tokens>" in candidate or candidate.startswith("#"):
                continue  # the CLI's own budget / environment reminders
            cleaned = re.sub(r"<[^>]+>", "", candidate).strip()
            if cleaned:
                return cleaned[:200]
        return ""


def _flatten(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(_flatten(v) for v in value)
    if isinstance(value, dict):
        return _flatten(value.get("text", "")) + "\n" + _flatten(value.get("content", ""))
    return ""


def _text_since_last_answer(request: ModelRequest) -> str:
    """The text of the user messages after the last assistant message (tool results and the
    blocks the CLI adds to them)."""
    out: list[str] = []
    for message in reversed(request.messages):
        if message.get("role") == "assistant":
            break
        out.append(_flatten(message.get("content")))
    return "\n".join(reversed(out))


def demo_script(workspace: str | Path, *, delay_s: float = 0.04, first_turn_s: float = FIRST_TURN_S) -> DemoScript:
    """The default script of the offline demo, as a reply function for ``default=``."""
    return DemoScript(workspace, delay_s=delay_s, first_turn_s=first_turn_s)


__all__ = ["INTRO", "DemoScript", "TextBlock", "demo_script"]
