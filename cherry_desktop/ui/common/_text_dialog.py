"""`ask_text`: Qt's text input dialog sized to what it holds. Qt's own `getText` opens at a
fixed, narrow width whatever the text (a long conversation name showed cut in its field, and a
queued message's edit box showed three short lines); this one is as wide as the longest line
and, for a multi-line text, as tall as its lines, within bounds, and never narrower than its
title."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QInputDialog, QWidget

#: The dialog's width stays within these bounds (pixels), whatever the text.
MIN_WIDTH, MAX_WIDTH = 360, 720
#: A multi-line dialog shows at least this many lines, and grows up to `MAX_LINES`.
MIN_LINES, MAX_LINES = 4, 16


def text_dialog(parent: QWidget | None, title: str, label: str, text: str = "", *,
                multiline: bool = False) -> QInputDialog:
    """The dialog, filled and sized, not yet shown (`ask_text` runs it)."""
    dialog = QInputDialog(parent)
    dialog.setWindowTitle(title)
    dialog.setLabelText(label)
    dialog.setInputMode(QInputDialog.InputMode.TextInput)
    if multiline:
        dialog.setOption(QInputDialog.InputDialogOption.UsePlainTextEditForTextInput, True)
    dialog.setTextValue(text)
    metrics = dialog.fontMetrics()
    lines = text.splitlines() or [""]
    # The field's frame and the dialog's margins; a title bar needs room for its buttons.
    content = max(metrics.horizontalAdvance(line) for line in lines) + 100
    width = min(MAX_WIDTH, max(MIN_WIDTH, content, metrics.horizontalAdvance(title) + 160))
    height = dialog.sizeHint().height()
    if multiline:
        shown = min(MAX_LINES, max(MIN_LINES, len(lines) + 1))
        height = max(height, metrics.lineSpacing() * shown + 110)
    dialog.resize(width, height)
    return dialog


def ask_text(parent: QWidget | None, title: str, label: str, text: str = "", *,
             multiline: bool = False) -> tuple[str, bool]:
    """Ask for a text, as `QInputDialog.getText` does: (the text, whether the user accepted)."""
    dialog = text_dialog(parent, title, label, text, multiline=multiline)
    try:
        accepted = dialog.exec() == QDialog.DialogCode.Accepted
        return dialog.textValue(), accepted
    finally:
        dialog.deleteLater()
