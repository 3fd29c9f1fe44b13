"""One message row: built from a stored row, or grown live from chunks."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRect, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from cherry_desktop.ui.chat._attachment_view import AttachmentStrip
from cherry_desktop.ui.chat._blocks import ErrorBlock, LiveText, ReasoningBlock, ToolCard
from cherry_desktop.ui.chat._error_words import ErrorWords, error_fields
from cherry_desktop.ui.chat._markdown import MarkdownView
from cherry_desktop.ui.chat._row_time import RowTime
from cherry_desktop.ui.chat._todo_card import CompactionDivider, make_tool_card
from cherry_desktop.ui.chat._translate import TranslationBlock
from cherry_desktop.ui.chat._usage import UsageFooter
from cherry_desktop.ui.common import Json, JsonObject

#: The message-metadata key core's runtimes set on a turn cut short (core's
#: `CUT_SHORT_METADATA_KEY`; its value is a `CutShortReason`).
CUT_SHORT_KEY = "cut_short"
#: Core's `HISTORY_RESET_METADATA_KEY`: the runtime refused to resume, a new conversation began.
HISTORY_RESET_KEY = "history_reset"
FORKED_FROM_KEY = "forked_from"  # core.checkpoints.fork.FORK_NOTICE_KEY: a fork's first row


class MessageRow(QFrame):
    """A user or assistant message: text, reasoning, tool cards, errors and a footer.

    Live chunks (`apply_chunk`) only touch the part they belong to; `end_frame` commits the
    frame's text so a frame costs one label update per growing part.

    Signals:
        state_changed(object): this row's `status` or `live` changed (not its text); carries
            the row.
        error_fix_requested(str): the user asked the app to fix what its error code names
            (`ErrorWords.fix_label`), e.g. turn the API gateway on.
    """

    state_changed = Signal(object)
    error_fix_requested = Signal(str)

    def __init__(self, message_id: str, role: str, *, steer: bool = False, files: Any = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.message_id = message_id
        self.role = role
        self.steer = steer
        # Finds the stored files of attachment parts (the bridge's attachments facet).
        self.files = files
        self.setObjectName("userRow" if role == "user" else "assistantRow")
        self.setProperty("steer", steer)
        self.setAttribute(Qt.WidgetAttribute.WA_StaticContents, True)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(12, 8, 12, 8)
        self._layout.setSpacing(6)
        self.header = QLabel(self)
        self.header.setObjectName("rowHeader")
        self.time = RowTime(self)  # made now; a stored row says when it was written (`set_time`)
        self.time.set_time(None)
        heading = QHBoxLayout()
        heading.setSpacing(8)
        heading.addWidget(self.header)
        heading.addWidget(self.time)
        heading.addStretch(1)
        self._layout.addLayout(heading)
        self.body = QVBoxLayout()
        self.body.setSpacing(6)
        self._layout.addLayout(self.body)
        self.footer = UsageFooter(self)
        self._layout.addWidget(self.footer)
        self._texts: list[MarkdownView] = []
        self._live_text: dict[str, MarkdownView] = {}
        self._live_reasoning: dict[str, LiveText] = {}
        self._tools: dict[str, ToolCard] = {}
        self._dirty: set[LiveText | MarkdownView] = set()
        self._status = "success"
        self._live = False
        # Streamed to its end in this view (a reload keeps it instead of re-rendering).
        self.streamed = False
        self.error_text: str | None = None
        # Why the answer is incomplete although the turn settled (a `CutShortReason` value).
        self.cut_short: str | None = None
        self.cut_short_text: str | None = None
        self.history_reset = False
        # Who wrote it, when not just "Assistant" (a multi-model turn names each answer's model).
        self.author: str | None = None
        self._set_header()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        old, new = event.oldSize(), event.size()
        if old.width() != new.width():
            self.update()
        else:
            # Static contents: Qt repaints only the new strip; the old bottom edge (border,
            # rounded corners) must be repainted too.
            top = min(old.height(), new.height()) - 16
            self.update(QRect(0, top, new.width(), new.height() - top))

    def _set_header(self) -> None:
        if self.role == "user":
            title = self.tr("You (steer)") if self.steer else self.tr("You")
        else:
            title = self.author or self.tr("Assistant")
        status = {
            "pending": self.tr("thinking…"),
            "streaming": self.tr("streaming…"),
            "paused": self.tr("stopped"),
            "error": self.tr("failed"),
        }.get(self.status, "")
        if self.cut_short is not None and self.status not in ("pending", "streaming"):
            status = self.tr("cut short")
        self.header.setText(f"{title} · {status}" if status else title)

    def set_author(self, name: str | None) -> None:
        self.author = name
        self._set_header()

    @property
    def status(self) -> str:
        """The stored status: pending, streaming, success, paused or error (`set_status`)."""
        return self._status

    def set_status(self, status: str) -> None:
        changed = status != self._status
        self._status = status
        self._set_header()
        if changed:
            self.state_changed.emit(self)

    @property
    def live(self) -> bool:
        """An execution of this view is writing to the row right now."""
        return self._live

    @live.setter
    def live(self, live: bool) -> None:
        if live != self._live:
            self._live = live
            self.state_changed.emit(self)

    # -- stored ------------------------------------------------------------------------------
    def set_parts(self, parts: list[Any], *, status: str = "success", stats: JsonObject | None = None,
                  load_error: str | None = None) -> None:
        self.clear()
        self.set_status(status)
        attachments = [p for p in parts if p.type == "attachment"]
        for part in parts:
            kind = part.type
            if kind == "attachment" and part is attachments[0]:
                self.body.addWidget(AttachmentStrip(attachments, self.files))  # the files, in one line
            elif kind == "text":
                self._add_text(MarkdownView(part.text, done=True))
            elif kind == "reasoning":
                self.body.addWidget(ReasoningBlock(part.text, done=True))
            elif kind == "dynamic-tool" or kind.startswith("tool-"):
                card = make_tool_card(part.model_dump())
                self._tools[part.tool_call_id] = card
                self.body.addWidget(card)
            elif kind == "data-error":  # a `DataPart`, as every "data-*" part
                self.show_error(*error_fields(part.data))
            elif kind == "data-compaction":
                self.show_compaction(part.data)
            elif kind == "data-translation":
                data = part.data or {}
                self.body.addWidget(TranslationBlock(str(data.get("target_language") or part.id or ""),
                                                     str(data.get("text") or "")))
        if load_error:
            self.show_error(self.tr("Part of this message could not be read."))
        self.footer.set_stats(stats)
        self._set_header()

    def settle_tools(self, parts: list[Any]) -> None:
        """Bring the tool cards of a row this view streamed to their stored state: a turn that
        ended on a call nobody answered stores it as not run, and no chunk says so."""
        for part in parts:
            card = self._tools.get(part.tool_call_id) if part.type == "dynamic-tool" or \
                part.type.startswith("tool-") else None
            if card is not None and card.fields.get("state") != part.state:
                card.update_fields(part.model_dump())

    def clear(self) -> None:
        while self.body.count():
            item = self.body.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.deleteLater()
        self._texts.clear()
        self._live_text.clear()
        self._live_reasoning.clear()
        self._tools.clear()
        self._dirty.clear()
        self.error_text = None
        self.cut_short = self.cut_short_text = None
        self.history_reset = False

    def _add_text(self, text: MarkdownView) -> None:
        self._texts.append(text)
        self.body.addWidget(text)

    def text(self) -> str:
        """The message's text parts joined (what tests and copy compare)."""
        return "".join(t.markdown_source for t in self._texts)

    def text_views(self) -> list[MarkdownView]:
        """The row's text parts as shown, in order (a view per text part)."""
        return list(self._texts)

    def apply_metadata(self, metadata: JsonObject) -> None:
        """Marks the row carries in its metadata: cut short (with why), history reset."""
        if metadata.get(FORKED_FROM_KEY) and not self.history_reset:
            self.history_reset = True
            self._add_note(self.tr("Forked from another session before one of its messages: these messages "
                                   "were copied, and the agent gets them as context with your next message."))
        if metadata.get(HISTORY_RESET_KEY) and not self.history_reset:
            self.history_reset = True
            self._add_note(self.tr("The agent could not resume the earlier conversation and started a new "
                                   "one: it does not remember the messages above."))
        reason = metadata.get(CUT_SHORT_KEY)
        if not reason or self.cut_short is not None:
            return
        self.cut_short = str(reason)
        texts = {
            "runtime-exited": self.tr("The agent process ended before finishing; this answer is incomplete."),
        }
        self.cut_short_text = texts.get(self.cut_short) or self.tr("This answer is incomplete.")
        self._add_note(self.cut_short_text)
        self._set_header()

    def show_compaction(self, data: Json) -> None:
        """The compaction divider (one per row; its state follows the latest chunk)."""
        divider = self.findChild(CompactionDivider)
        if divider is None:
            self.body.addWidget(CompactionDivider(data))
        else:
            divider.update_data(data)

    def _add_note(self, text: str) -> None:
        note = QLabel(text, self)
        note.setObjectName("cutShortNote")
        note.setWordWrap(True)
        self.body.addWidget(note)

    def show_error(self, message: str, code: str | None = None) -> None:
        self.error_text = message
        self.body.addWidget(ErrorBlock(message, code=code))
        fix = ErrorWords().fix_label(code)
        if fix and code:
            button = QPushButton(fix, self)
            button.setObjectName("errorFixButton")
            button.clicked.connect(lambda: self.error_fix_requested.emit(code))
            self.body.addWidget(button, 0, Qt.AlignmentFlag.AlignLeft)

    # -- live ----------------------------------------------------------------------------------
    def apply_chunk(self, chunk: Any) -> str | None:
        """Fold one chunk into the row. Returns 'approval' when a tool approval was requested
        and 'approval-done' when a tool left that state (the window updates its card)."""
        t = chunk.type
        if t == "text-delta":
            target = self._live_text.get(chunk.id) or self._open_text(chunk.id)
            target.append(chunk.delta)
            self._dirty.add(target)
        elif t == "reasoning-delta":
            reasoning = self._live_reasoning.get(chunk.id) or self._open_reasoning(chunk.id)
            reasoning.append(chunk.delta)
            self._dirty.add(reasoning)
        elif t == "text-start":
            self._open_text(chunk.id)
        elif t == "reasoning-start":
            self._open_reasoning(chunk.id)
        elif t in ("text-end", "reasoning-end"):
            table = self._live_text if t == "text-end" else self._live_reasoning
            part = table.pop(chunk.id, None)
            if part is not None:
                part.finish()
                self._dirty.discard(part)
        elif t.startswith("tool-"):
            return self._apply_tool(chunk)
        elif t == "error":
            self.show_error(chunk.error_text, chunk.error_code)
        elif t.startswith("data-error"):  # a `DataChunk`, as every "data-*" chunk
            self.show_error(*error_fields(chunk.data))
        elif t == "data-compaction":
            self.show_compaction(chunk.data)
        elif t in ("message-metadata", "finish"):
            md = chunk.message_metadata
            if isinstance(md, dict) and md:
                if CUT_SHORT_KEY in md or HISTORY_RESET_KEY in md:
                    self.apply_metadata(md)
                else:
                    self.footer.set_stats(md.get("stats") if isinstance(md.get("stats"), dict) else md)
        elif t == "start" and self.status == "pending":
            self.set_status("streaming")
        return None

    def end_frame(self) -> None:
        for part in self._dirty:
            part.commit()
        self._dirty.clear()
        if self.status == "pending":
            self.set_status("streaming")

    def finish_live(self, status: str) -> None:
        parts: list[LiveText | MarkdownView] = [*self._live_text.values(), *self._live_reasoning.values()]
        for part in parts:
            part.finish()
        self._live_text.clear()
        self._live_reasoning.clear()
        self._dirty.clear()
        self.set_status(status)

    def _open_text(self, cid: str) -> MarkdownView:
        part = MarkdownView(done=False)
        self._live_text[cid] = part
        self._add_text(part)
        return part

    def _open_reasoning(self, cid: str) -> LiveText:
        block = ReasoningBlock(done=False)
        self._live_reasoning[cid] = block.text
        self.body.addWidget(block)
        return block.text

    def _apply_tool(self, chunk: Any) -> str | None:
        t = chunk.type
        card = self._tools.get(chunk.tool_call_id)
        if card is None:
            card = make_tool_card({"tool_call_id": chunk.tool_call_id,
                                   # only some tool chunks name their tool (input-start, -available)
                                   "tool_name": getattr(chunk, "tool_name", None) or "?",
                                   "provider_metadata": getattr(chunk, "provider_metadata", None)})
            self._tools[chunk.tool_call_id] = card
            self.body.addWidget(card)
        before = card.fields.get("state")
        f: JsonObject = {}
        if t == "tool-input-delta":
            f["input_text"] = (card.fields.get("input_text") or "") + chunk.input_text_delta
        elif t == "tool-input-available":
            f.update(input=chunk.input, state="input-available", tool_name=chunk.tool_name)
            if chunk.provider_metadata:  # the transport tag and ACP's kind and diffs: which card
                f["provider_metadata"] = chunk.provider_metadata
        elif t == "tool-input-error":
            f.update(input=chunk.input, state="output-error", error_text=chunk.error_text)
        elif t == "tool-approval-request":
            f.update(state="approval-requested", approval={"id": chunk.approval_id})
        elif t == "tool-output-available":
            f.update(state="output-available", output=chunk.output)
            if chunk.duration_ms is not None:
                f["duration_ms"] = chunk.duration_ms
        elif t == "tool-output-error":
            f.update(state="output-error", error_text=chunk.error_text)
        elif t == "tool-output-denied":
            f.update(state="output-denied", error_text=chunk.reason)
        if f:
            card.update_fields(f)
        after = card.fields.get("state")
        if after == "approval-requested" and before != after:
            return "approval"
        if before == "approval-requested" and after != before:
            return "approval-done"
        return None

    def pending_approvals(self) -> list[JsonObject]:
        out = []
        for card in self._tools.values():
            f = card.fields
            approval = f.get("approval") or {}
            approval_id = approval.get("id") if isinstance(approval, dict) else approval.id  # a `ToolApproval`
            if f.get("state") == "approval-requested" and approval_id:
                out.append({"approval_id": approval_id, "tool_call_id": f.get("tool_call_id"),
                            "tool_name": f.get("tool_name"), "input": f.get("input")})
        return out

    def mark_approval_responded(self, approval_id: str, approved: bool) -> None:
        for card in self._tools.values():
            approval = card.fields.get("approval") or {}
            aid = approval.get("id") if isinstance(approval, dict) else approval.id  # a `ToolApproval`
            if aid == approval_id and card.fields.get("state") == "approval-requested":
                card.update_fields({"state": "approval-responded" if approved else "output-denied"})
