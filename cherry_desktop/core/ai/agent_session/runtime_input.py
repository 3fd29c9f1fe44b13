"""The user message as a runtime connection gets it: its stored attachments inline.

The rows keep `attachment` parts (a stored name under the data dir); a driver gets `file`
parts with data URLs, read off the loop just before the send, and never touches the folder.
"""

from __future__ import annotations

from cherry_desktop.core.attachments import AttachmentStore
from cherry_desktop.core.attachments.content import inline_attachments
from cherry_desktop.core.messages import TextPart, UIMessage


async def send_input(store: AttachmentStore, message: UIMessage, seed: str = "") -> UIMessage:
    """`message` with its attachments inline (the same message when it has none), led by
    `seed` (a forked session's earlier conversation) when there is one."""
    inlined = (await inline_attachments(store, [message]))[0]
    if not seed:
        return inlined
    return inlined.model_copy(update={"parts": [TextPart(text=seed, state="done"), *inlined.parts]})


def carries_files(message: UIMessage) -> bool:
    """Files ride a turn, never a steer (a steer reaches Claude Code as hook text)."""
    return any(part.type == "attachment" for part in message.parts)
