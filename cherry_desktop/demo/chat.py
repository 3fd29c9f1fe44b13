"""The offline demo's answer to a chat message: Cherry's own chat requests to the demo provider
carry `DEMO_CHAT_HEADER` (the provider's settings add it), so the scripted server tells them
from the Claude Code CLI's side requests (titles, quota probes: they hear a bare "ok") and
answers with a note a new user can try the chat features with."""

from __future__ import annotations

from cherry_desktop.demo.replies import AnyReply, text
from cherry_desktop.demo.request_log import ModelRequest

#: Sent with every chat request to the demo provider (its `settings["headers"]`).
DEMO_CHAT_HEADER = "x-cherry-demo-chat"

_NAMES = {"claude-demo": "Demo model", "claude-demo-fast": "Demo model (fast)"}


def is_demo_chat(request: ModelRequest) -> bool:
    return bool(request.headers.get(DEMO_CHAT_HEADER))


def demo_chat_reply(request: ModelRequest, *, delay_s: float = 0.03) -> AnyReply:
    """What the demo model says to a chat message: the question back and what to try; the
    fast model answers at once, the other streams, so two side by side differ."""
    model = str(request.json.get("model") or "claude-demo")
    name = _NAMES.get(model, model)
    question = " ".join(request.last_user_text().split())
    if len(question) > 80:
        question = question[:79] + "…"
    answer = (f"**{name}** here, Cherry's offline demo model. You wrote: “{question}”.\n\n"
              "I answer every chat message with this note, so you can try the app without an account: "
              "answers stream (Stop keeps what was written), *Compare with…* asks both demo models side by "
              "side, right click ▸ *Translate to* translates a message, and Ctrl+K searches every chat.")
    fast = model == "claude-demo-fast"
    return text(answer, delay_s=0.0 if fast else delay_s, chunk_size=12)
