"""The scripted server's answers to the app's own prompts: auto-naming's (its system prompt
carries `NAMING_MARKER`: the first words of the user's question, in the language asked for)
and translation's (`TRANSLATION_MARKER`: the text tagged with the language asked for)."""

from __future__ import annotations

from cherry_desktop.core.ai.naming import NAMING_MARKER
from cherry_desktop.core.ai.translate import LANGUAGES, TRANSLATION_MARKER
from cherry_desktop.demo.replies import AnyReply, text
from cherry_desktop.demo.request_log import ModelRequest


def naming_reply(request: ModelRequest) -> AnyReply | None:
    """The reply to a naming or translation prompt; None for any other request."""
    system = request.system_text
    if TRANSLATION_MARKER in system:
        language = next((name for name in LANGUAGES.values() if f"into {name}." in system), "?")
        return text(f"[{language}] {request.last_user_text()}")
    if NAMING_MARKER not in system:
        return None
    question = request.last_user_text().split("User:", 1)[-1].split("Assistant:", 1)[0]
    words = " ".join(question.split()[:5]) or "conversation"
    prefix = "演示" if "Chinese" in system else "Demo"
    return text(f"{prefix}: {words[:40]}")
