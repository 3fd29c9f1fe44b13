"""Show or hide a window's sidebar (the search box over the topic tree), as in Zed or VS Code:
View › Show sidebar (Ctrl+B) and a small button at the left of the topic's title. Each window
keeps its own; the last choice is saved, so the next window (and the next start) opens that way.
While the sidebar is hidden, Ctrl+K (search) brings it back with the search box focused."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, QRect, QSize, Qt
from PySide6.QtGui import QAction, QKeySequence, QPainter, QPaintEvent, QPalette, QPen, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMainWindow, QToolButton, QWidget

if TYPE_CHECKING:
    from cherry_desktop.ui.bridge import SettingsBridge
    from cherry_desktop.ui.sidebar import SearchPanel

SHORTCUT = "Ctrl+B"


class SidebarButton(QToolButton):
    """A window with its left pane, drawn in the theme's button text colour (an icon file has
    one colour, unreadable on one of the themes)."""

    def sizeHint(self) -> QSize:
        side = self.fontMetrics().height() + 12
        return QSize(side, side)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        palette = self.palette()
        if self.underMouse() or self.isDown():
            painter.fillRect(self.rect(), palette.color(QPalette.ColorRole.Midlight))
        painter.setPen(QPen(palette.color(QPalette.ColorRole.ButtonText), 2))
        side = round(min(self.width(), self.height()) * 0.55)
        left, top = (self.width() - side) // 2, (self.height() - side) // 2
        painter.drawRect(QRect(left, top + 1, side, side - 2))
        painter.drawLine(left + side // 3, top + 1, left + side // 3, top + side - 1)
        painter.end()


class SidebarToggle(QObject):
    """Owned by one window (`main`); `panel` is its sidebar. The action is the one state:
    checked means shown (the button is the action's)."""

    def __init__(self, main: QMainWindow, panel: SearchPanel, settings: SettingsBridge) -> None:
        super().__init__(main)
        self.panel = panel
        self.settings = settings
        translate = QCoreApplication.translate
        self.action = QAction(translate("ChatWindow", "Show sidebar"), main)
        self.action.setObjectName("toggleSidebar")
        self.action.setCheckable(True)
        self.action.setShortcut(QKeySequence(SHORTCUT))
        self.action.setToolTip(translate("ChatWindow", "Show or hide the sidebar (%1)").replace(
            "%1", QKeySequence(SHORTCUT).toString(QKeySequence.SequenceFormat.NativeText)))
        main.addAction(self.action)
        self.main = main
        self.button = SidebarButton(main)
        self.button.setObjectName("sidebarToggleButton")
        self.button.setDefaultAction(self.action)
        self.button.setAutoRaise(True)
        self.button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        # The search shortcut of a hidden sidebar is off: this one shows it first.
        self.search = QShortcut(QKeySequence("Ctrl+K"), main)
        self.search.setContext(Qt.ShortcutContext.WindowShortcut)
        self.search.activated.connect(self._search)
        self.action.toggled.connect(self._apply)
        visible = bool(settings.settings_values().get("sidebar_visible", True))
        self.action.setChecked(visible)
        self._apply(visible, remember=False)

    @property
    def visible(self) -> bool:
        return self.action.isChecked()

    def _apply(self, visible: bool, *, remember: bool = True) -> None:
        self.panel.setVisible(visible)
        self.search.setEnabled(not visible)
        if remember:
            self.settings.remember_sidebar_visible(visible)

    def _search(self) -> None:
        self.action.setChecked(True)
        self.panel.focus_box()

    def title_bar(self, title: QLabel, parent: QWidget) -> QWidget:
        """The bar over the conversation: this toggle's button, then `title`."""
        bar = QWidget(parent)
        bar.setObjectName("topicBar")
        bar.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        row = QHBoxLayout(bar)
        row.setContentsMargins(6, 0, 0, 0)
        row.setSpacing(0)
        row.addWidget(self.button)
        title.setParent(bar)
        row.addWidget(title, 1)
        row.addStretch(0)  # with no topic the title is hidden: the button stays at the left
        return bar

    def add_menu(self) -> None:
        """The window's View menu (after its File menu) with the action."""
        menu = self.main.menuBar().addMenu(QCoreApplication.translate("ChatWindow", "&View"))
        menu.setObjectName("viewMenu")
        menu.addAction(self.action)
