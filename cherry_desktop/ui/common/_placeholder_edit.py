"""`PlaceholderLineEdit`: a line edit never narrower than its placeholder. Qt's own line edit
asks for a fixed width of a few characters whatever its placeholder says, so a field beside
buttons ("Model id, e.g. gpt-4o" beside "Add model") showed its hint cut to "Model id, e.g.…"."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QLineEdit, QStyle, QStyleOptionFrame


class PlaceholderLineEdit(QLineEdit):
    def setPlaceholderText(self, text: str) -> None:
        super().setPlaceholderText(text)
        self.updateGeometry()

    def _placeholder_size(self) -> QSize:
        """The size the style gives a field holding the placeholder (frame and text margins)."""
        option = QStyleOptionFrame()
        self.initStyleOption(option)
        margins = self.textMargins()
        # A line edit's own margins around its text (Qt's horizontalMargin, 2 px each side).
        text = QSize(self.fontMetrics().horizontalAdvance(self.placeholderText()) + margins.left()
                     + margins.right() + 4 + 2, self.fontMetrics().height())
        return self.style().sizeFromContents(QStyle.ContentsType.CT_LineEdit, option, text, self)

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(max(hint.width(), self._placeholder_size().width()), hint.height())

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(max(hint.width(), self._placeholder_size().width()), hint.height())
