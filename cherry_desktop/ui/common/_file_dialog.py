"""File and folder pickers that read well when Qt draws the dialog itself (a desktop with no
native dialog, offscreen): `ReadableFileDialog` opens at a size where its Detail view fits, the
name column taking the room and the size, type and date columns as wide as what they show.
Qt's own default opened small, the names cut and the dates hidden past the view's edge."""

from __future__ import annotations

from PySide6.QtCore import QDateTime, QLocale
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QFileDialog, QHeaderView, QTreeView, QWidget

#: The size the dialog opens at (the user may resize it).
INITIAL_SIZE = (880, 540)


class ReadableFileDialog(QFileDialog):
    def __init__(self, parent: QWidget | None, caption: str, directory: str = "", name_filter: str = "") -> None:
        super().__init__(parent, caption, directory, name_filter)
        self.resize(*INITIAL_SIZE)
        self.setViewMode(QFileDialog.ViewMode.Detail)  # sizes and dates, not bare names

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.fit_columns()

    def fit_columns(self) -> None:
        """Name stretches; size, type and date as wide as a typical value (or their title)."""
        view = self.findChild(QTreeView, "treeView")
        if view is None:  # a native dialog: the desktop lays it out
            return
        header = view.header()
        metrics = view.fontMetrics()
        date = QLocale().toString(QDateTime.currentDateTime(), QLocale.FormatType.ShortFormat)
        samples = {1: "999.9 MiB", 2: "Markdown File", 3: date}
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        model = view.model()
        for column, sample in samples.items():
            if column >= header.count():
                continue
            title = str(model.headerData(column, header.orientation()) or "") if model is not None else ""
            width = max(metrics.horizontalAdvance(sample), header.fontMetrics().horizontalAdvance(title)) + 24
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(column, width)


def open_file_names(parent: QWidget | None, caption: str, directory: str = "", name_filter: str = "") -> list[str]:
    """As `QFileDialog.getOpenFileNames`, without the filter chosen: the files picked, or []."""
    dialog = ReadableFileDialog(parent, caption, directory, name_filter)
    dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
    try:
        return dialog.selectedFiles() if dialog.exec() else []
    finally:
        dialog.deleteLater()


def existing_directory(parent: QWidget | None, caption: str, directory: str = "") -> str:
    """As `QFileDialog.getExistingDirectory`: the folder picked, or ""."""
    dialog = ReadableFileDialog(parent, caption, directory)
    dialog.setFileMode(QFileDialog.FileMode.Directory)
    dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
    try:
        files = dialog.selectedFiles() if dialog.exec() else []
        return files[0] if files else ""
    finally:
        dialog.deleteLater()
