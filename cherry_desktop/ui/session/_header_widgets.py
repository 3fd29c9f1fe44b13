"""The session header's pieces that lay out at any width: a label that elides, a combo as wide
as its choice, and `HeaderRow`, which puts the session's identity (agent, model, folder) and its
controls on one line when both fit and the controls on a line of their own when not, so the
header never widens the window nor cuts names while the window has room for them."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QStyle,
    QStyleOptionComboBox,
    QWidget,
)

from cherry_desktop.ui.common import FlowLayout


class ElidedLabel(QLabel):
    """A one-line label that gives way when the header is narrow: it shrinks to a few
    characters and draws its text elided ("A very lo…"), the full text in its tooltip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)

    def setText(self, text: str) -> None:
        self.set_text(text, text)

    def set_text(self, text: str, tooltip: str) -> None:
        super().setText(text)
        self.setToolTip(tooltip)
        self.setAccessibleName(tooltip)

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(min(hint.width(), self.fontMetrics().horizontalAdvance("M") * 6), hint.height())

    def paintEvent(self, event: QPaintEvent) -> None:
        rect = self.contentsRect()
        text = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, rect.width())
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(rect, int(self.alignment()), text)


class CurrentTextCombo(QComboBox):
    """A combo exactly as wide as its current text (and its arrow), at every width: it never
    truncates what is chosen, and takes no room for a longer mode that is not. The popup is as
    wide as its longest item."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.currentIndexChanged.connect(self.updateGeometry)

    def sizeHint(self) -> QSize:
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        text = QSize(self.fontMetrics().horizontalAdvance(self.currentText()), self.fontMetrics().height())
        return self.style().sizeFromContents(QStyle.ContentsType.CT_ComboBox, option, text, self)

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def set_items(self, items: list[tuple[str, str]], current: str) -> None:
        """Replace the (label, data) items and choose `current`, with no `activated` or
        `currentIndexChanged` (not the user's choice). The geometry is updated here: with the
        signals blocked, nothing else tells the layout that the current text changed (a window
        opened empty and then shown a session kept its combo at an empty combo's width)."""
        self.blockSignals(True)
        self.clear()
        for label, data in items:
            self.addItem(label, data)
        self.setCurrentIndex(max(0, self.findData(current)))
        self.blockSignals(False)
        self.updateGeometry()

    def showPopup(self) -> None:
        view = self.view()
        view.setMinimumWidth(view.sizeHintForColumn(0) + view.verticalScrollBar().sizeHint().width())
        super().showPopup()


class HeaderRow(QBoxLayout):
    """`identity` (a box: it elides its labels) beside `controls` (a flow: it wraps) while both
    fit their size hints on one line; otherwise `controls` goes under `identity`, where the
    whole width lets the names show whole. Its minimum width is the wider of the two parts'
    minimums, never their sum: a narrow window lays the header out in two lines instead of
    growing (it grew a 760 px window to 857 px)."""

    def __init__(self, identity: QHBoxLayout, controls: FlowLayout, *, spacing: int) -> None:
        super().__init__(QBoxLayout.Direction.LeftToRight)
        self.setContentsMargins(0, 0, 0, 0)
        self.setSpacing(spacing)
        self.identity = identity
        self.controls = controls
        self.addLayout(identity, 1)
        self.addLayout(controls)

    def one_line_width(self) -> int:
        """The width at which identity and controls fit side by side, names whole."""
        controls = self.controls.sizeHint().width()
        return self.identity.sizeHint().width() + (self.spacing() + controls if controls else 0)

    def is_one_line(self) -> bool:
        return self.direction() == QBoxLayout.Direction.LeftToRight

    def setGeometry(self, rect: QRect) -> None:
        one_line = rect.width() >= self.one_line_width()
        direction = QBoxLayout.Direction.LeftToRight if one_line else QBoxLayout.Direction.TopToBottom
        if direction != self.direction():
            self.setDirection(direction)
        super().setGeometry(rect)

    def minimumSize(self) -> QSize:
        width = max(self.identity.minimumSize().width(), self.controls.minimumSize().width())
        return QSize(width, self.identity.minimumSize().height())

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        identity = self.identity.sizeHint().height()
        if width >= self.one_line_width():
            return max(identity, self.controls.heightForWidth(self.controls.sizeHint().width()))
        controls = self.controls.heightForWidth(width)
        return identity + (self.spacing() + controls if controls > 0 else 0)

