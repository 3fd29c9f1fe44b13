"""`FlowLayout`: widgets left to right, wrapping onto the next line at the layout's width (Qt's
own "Flow Layout" example, which Qt does not ship as a class). For rows of chips whose count
the user decides (a message's files): a one-line box layout would widen the window instead."""

from __future__ import annotations

from PySide6.QtCore import QMargins, QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QSizePolicy, QWidget


class FlowLayout(QLayout):
    def __init__(self, parent: QWidget | None = None, *, spacing: int = 6, center_lines: bool = False) -> None:
        """`center_lines`: items of a line centred on its height (a header's buttons and labels),
        not aligned to its top (chips of one height)."""
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        self._center_lines = center_lines
        self.setContentsMargins(QMargins(0, 0, 0, 0))

    # -- the QLayout interface ----------------------------------------------------------------
    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._arrange(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    def sizeHint(self) -> QSize:
        """All items in one line (Qt asks `heightForWidth` of this width for the height)."""
        shown = self._shown()
        width = sum(i.sizeHint().width() for i in shown) + self._spacing * max(0, len(shown) - 1)
        m = self.contentsMargins()
        return QSize(width + m.left() + m.right(), self.heightForWidth(width + m.left() + m.right()))

    def minimumSize(self) -> QSize:
        """As wide as the widest item (never the whole line): the row wraps, it does not widen."""
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    # -- placing ------------------------------------------------------------------------------
    def _shown(self) -> list[QLayoutItem]:
        return [i for i in self._items if (w := i.widget()) is None or not w.isHidden()]

    def _arrange(self, rect: QRect, *, move: bool) -> int:
        """Place the items in lines within `rect` (or only measure); returns the height used. An
        item wider than the line narrows to it, down to its minimum width."""
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        x, y, line_height = area.x(), area.y(), 0
        line: list[tuple[QLayoutItem, QRect]] = []
        for item in self._shown():
            hint = item.sizeHint()
            hint.setWidth(max(item.minimumSize().width(), min(hint.width(), area.width())))
            if x > area.x() and x + hint.width() > area.right() + 1:
                self._place(line, line_height, move=move)
                x, y, line_height, line = area.x(), y + line_height + self._spacing, 0, []
            line.append((item, QRect(QPoint(x, y), hint)))
            x += hint.width() + self._spacing
            line_height = max(line_height, hint.height())
        self._place(line, line_height, move=move)
        return y + line_height - rect.y() + m.bottom()

    def _place(self, line: list[tuple[QLayoutItem, QRect]], line_height: int, *, move: bool) -> None:
        if not move:
            return
        for item, geometry in line:
            if self._center_lines:
                geometry.translate(0, (line_height - geometry.height()) // 2)
            item.setGeometry(geometry)

def flow_policy(widget: QWidget) -> None:
    """A widget holding a `FlowLayout`: it takes the width it is given and the height its lines need there."""
    policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
    policy.setHeightForWidth(True)
    widget.setSizePolicy(policy)
