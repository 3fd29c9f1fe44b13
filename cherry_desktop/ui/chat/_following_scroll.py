"""A scroll area that follows its bottom while the user stays there (a stream grows it), with a
"Jump to latest" button once they scrolled away, and the opaque canvas its rows sit on."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QRect, Qt
from PySide6.QtGui import QKeyEvent, QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QScrollArea, QToolButton, QVBoxLayout, QWidget

# Posted below the paint's priority: the follow-the-bottom scroll runs once pending paints are
# done, so Qt can blit it (it repaints the whole view when the scrolled area holds unpainted
# regions, as it does right after a row grew).
_FOLLOW_BOTTOM = QEvent.Type(QEvent.registerEventType())
NEAR_TOP_SCREENS = 2  # scrolling up this many viewport heights from the top loads older rows
_AFTER_PAINT_PRIORITY = Qt.EventPriority.LowEventPriority.value - 1


class Canvas(QWidget):
    """The rows' background, painted opaque by itself.

    A scroll area scrolls by moving this widget; Qt blits a move (and repaints only the
    strip it exposes) only when the moved widget is opaque. A style sheet background does not
    count as opaque, so while streaming every scroll step repainted the whole visible text.
    """

    def __init__(self, on_layout_request: Callable[[], None]) -> None:
        super().__init__()
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, True)
        self.setAttribute(Qt.WidgetAttribute.WA_StaticContents, True)
        self._on_layout_request = on_layout_request

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            # A row's size changed: size to the rows first, so the layout activates once.
            self._on_layout_request()
        return super().event(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        # The style sheet's background is in the palette (Qt copies it there when polishing).
        QPainter(self).fillRect(event.rect(), self.palette().window())


class RowsLayout(QVBoxLayout):
    """The canvas's rows, each at its full height even while the canvas is still shorter (it
    is sized to them after: `MessageView.fit_content`).

    A widget shown in the canvas lays out the canvas at once, at its height of before; a box
    layout then squeezed every row (and moved all of them back a moment later, when the canvas
    grew): each row going in above moved the rows below twice.
    """

    def setGeometry(self, rect: QRect) -> None:
        needed = self.heightForWidth(rect.width()) if self.hasHeightForWidth() else self.sizeHint().height()
        super().setGeometry(QRect(rect.x(), rect.y(), rect.width(), max(rect.height(), needed)))


class FollowingScrollArea(QScrollArea):
    """Follows the bottom (see module docstring); `reached_top` is called when the user
    scrolls to the top (a subclass loads older rows there)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._stick_to_bottom = True
        self._follow_posted = False
        self._last_value = 0

    def follow_bottom(self) -> None:
        """Start following (once the content is set): the scroll bar's signals and the button."""
        bar = self.verticalScrollBar()
        bar.valueChanged.connect(self._on_scroll)
        bar.rangeChanged.connect(self._on_range_changed)
        self.jump_button = QToolButton(self)
        self.jump_button.setObjectName("jumpToLatestButton")
        # The message view's words (its .ts context).
        self.jump_button.setText(QCoreApplication.translate("MessageView", "↓ Jump to latest"))
        self.jump_button.setToolTip(
            QCoreApplication.translate("MessageView", "Scroll to the newest message (Ctrl+End)"))
        self.jump_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.jump_button.clicked.connect(self.jump_to_latest)
        self.jump_button.setVisible(False)

    @property
    def following_bottom(self) -> bool:
        return self._stick_to_bottom

    def reached_top(self) -> None:
        """The user scrolled to the top."""

    def near_top(self) -> None:
        """The user scrolls up within `NEAR_TOP_SCREENS` viewport heights of the top."""

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._place_jump_button()

    def _place_jump_button(self) -> None:
        b = self.jump_button
        b.adjustSize()
        vp = self.viewport().geometry()
        b.move(vp.right() - b.width() - 16, vp.bottom() - b.height() - 12)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_End and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.jump_to_latest()
            return
        super().keyPressEvent(event)

    def jump_to_latest(self) -> None:
        self._stick_to_bottom = True
        self.scroll_to_bottom()
        self.jump_button.setVisible(False)

    def scroll_to_bottom(self) -> None:
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())

    def _on_scroll(self, value: int) -> None:
        bar = self.verticalScrollBar()
        self._stick_to_bottom = value >= bar.maximum() - 24
        self._update_jump_button()
        going_up, self._last_value = value < self._last_value, value
        if value == bar.minimum() and bar.maximum() > 0:
            self.reached_top()
        elif going_up and value < self.viewport().height() * NEAR_TOP_SCREENS:
            self.near_top()

    def _update_jump_button(self) -> None:
        show = not self._stick_to_bottom and self.verticalScrollBar().maximum() > 0
        if show != self.jump_button.isVisible():
            if show:
                self._place_jump_button()
                self.jump_button.raise_()
            self.jump_button.setVisible(show)

    def _on_range_changed(self, _min: int, _max: int) -> None:
        if self._stick_to_bottom and not self._follow_posted:
            self._follow_posted = True
            QCoreApplication.postEvent(self, QEvent(_FOLLOW_BOTTOM), _AFTER_PAINT_PRIORITY)
        self._update_jump_button()

    def event(self, event: QEvent) -> bool:
        if event.type() == _FOLLOW_BOTTOM:
            self._follow_posted = False
            if self._stick_to_bottom:
                self.scroll_to_bottom()
            return True
        return super().event(event)
