"""A message's files on their way out of a window: stored when the user sends (before the
row is shown), part of the user message, and settled when the send is over: kept with the
saved row, or (the row was never saved) removed and given back to the composer with the text,
so nothing the user typed or picked is lost."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cherry_desktop.ui.bridge import AttachmentCandidate, AttachmentError, AttachmentsBridge
from cherry_desktop.ui.chat import describe_attachment_error

if TYPE_CHECKING:
    from cherry_desktop.core.messages import AttachmentPart, MessagePart
    from cherry_desktop.ui.composer._composer import Composer

log = logging.getLogger(__name__)


@dataclass
class SentFiles:
    """The composer's files for one send: what the user picked and what was stored."""

    candidates: list[AttachmentCandidate] = field(default_factory=list)
    parts: list[AttachmentPart] = field(default_factory=list)
    #: Why they could not be stored (the send does not happen), else "".
    error: str = ""

    @classmethod
    def stage(cls, files: AttachmentsBridge, composer: Composer, topic_id: str, text: str) -> SentFiles:
        """Take the composer's files and store them for `topic_id`. On failure the composer
        keeps its files and gets its text back, and `error` says why."""
        candidates = composer.take_attachments()
        if not candidates:
            return cls()
        try:
            parts = files.stage(topic_id, candidates)
        except AttachmentError as exc:
            composer.attachments.restore(candidates)
            if not composer.editor.toPlainText().strip():
                composer.editor.setPlainText(text)
            return cls(candidates, error=describe_attachment_error(exc))
        return cls(candidates, parts)

    def message_parts(self, text: str) -> list[MessagePart]:
        """The user message: the text (when there is any), then the files."""
        from cherry_desktop.core.messages import TextPart  # loaded after first paint

        return [*([TextPart(text=text, state="done")] if text else []), *self.parts]

    def settle(self, files: AttachmentsBridge, topic_id: str, *, composer: Composer | None = None,
               text: str = "") -> bool:
        """The send is over. Returns whether the files stay with a saved row; when none was
        saved they are removed and, with `composer`, handed back to it with the text."""
        kept = files.settle(topic_id, self.parts)
        if not kept and composer is not None:
            composer.attachments.restore(self.candidates)
            if not composer.editor.toPlainText().strip():
                composer.editor.setPlainText(text)
        return bool(kept)
