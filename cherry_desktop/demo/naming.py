"""The scripted server's answer to auto-naming's request (its system prompt carries
`NAMING_MARKER`): the first words of the user's question, in the language asked for."""

from __future__ import annotations

from cherry_desktop.core.ai.naming import NAMING_MARKER
from cherry_desktop.demo.replies import AnyReply, text
from cherry_desktop.demo.request_log import ModelRequest


def naming_reply(request: ModelRequest) -> AnyReply | None:
    """The title reply for a naming request; None for any other request."""
    system = request.system_text
    if NAMING_MARKER not in system:
        return None
    question = request.last_user_text().split("User:", 1)[-1].split("Assistant:", 1)[0]
    words = " ".join(question.split()[:5]) or "conversation"
    prefix = "演示" if "Chinese" in system else "Demo"
    return text(f"{prefix}: {words[:40]}")
