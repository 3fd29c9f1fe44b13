"""How attachments look: an image as a thumbnail, a text file as a chip; a click opens the
file in a viewer (the image larger, the text read-only) with a button to open it in the
system's own app. Used by the composer's tray (files not sent yet, from memory) and by a
user row (stored files)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QSize, Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QIcon, QImage, QImageReader, QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from cherry_desktop.ui.bridge import AttachmentError, is_image_type
from cherry_desktop.ui.common import FlowLayout, flow_policy

THUMB_SIZE = 72
VIEWER_MAX = QSize(1000, 760)


def human_size(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.0f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def thumbnail_from_path(path: Path | None) -> QPixmap | None:
    """A small pixmap of an image file, decoded at thumbnail size (a 5 MB photo costs a
    thumbnail's memory, not the photo's)."""
    if path is None:
        return None
    reader = QImageReader(str(path))
    reader.setAutoTransform(True)
    size = reader.size()
    if size.isValid() and (size.width() > THUMB_SIZE * 2 or size.height() > THUMB_SIZE * 2):
        reader.setScaledSize(size.scaled(THUMB_SIZE * 2, THUMB_SIZE * 2, Qt.AspectRatioMode.KeepAspectRatio))
    image = reader.read()
    return QPixmap.fromImage(image) if not image.isNull() else None


def thumbnail_from_bytes(data: bytes) -> QPixmap | None:
    image = QImage.fromData(data)
    if image.isNull():
        return None
    return QPixmap.fromImage(image.scaled(THUMB_SIZE * 2, THUMB_SIZE * 2, Qt.AspectRatioMode.KeepAspectRatio,
                                          Qt.TransformationMode.SmoothTransformation))


class AttachmentButton(QToolButton):
    """One attachment: a thumbnail (`attachmentThumb`) or a file chip (`attachmentChip`).

    Signals:
        opened(): the user clicked it.
    """

    opened = Signal()

    def __init__(self, filename: str, size: int, thumbnail: QPixmap | None, *, image: bool,
                 missing: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.filename = filename
        self.is_image = image
        self.missing = missing
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setAutoRaise(True)
        if missing:
            self.setObjectName("attachmentChip")
            self.setText(self.tr("%1 (missing)").replace("%1", filename))
            self.setEnabled(False)
        elif image and thumbnail is not None:
            self.setObjectName("attachmentThumb")
            self.setIcon(QIcon(thumbnail))
            self.setIconSize(thumbnail.size().scaled(THUMB_SIZE, THUMB_SIZE, Qt.AspectRatioMode.KeepAspectRatio))
            self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        else:
            self.setObjectName("attachmentChip")
            self.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_FileIcon))
            self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            self.setText(f"{filename} · {human_size(size)}")
        self.setToolTip(f"{filename} · {human_size(size)}")
        self.clicked.connect(self.opened)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ContextMenu:
            # The message's menu, also over a missing file (a disabled widget swallows it).
            event.ignore()
            return False
        return super().event(event)


class AttachmentViewer(QDialog):
    """A larger view of an image, or a text file read-only; "Open" hands the stored file to
    the system's app for it."""

    def __init__(self, filename: str, *, path: Path | None = None, data: bytes | None = None,
                 image: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("attachmentViewer")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        self.setWindowTitle(filename)
        self.path = path
        raw = data if data is not None else (path.read_bytes() if path is not None else b"")
        layout = QVBoxLayout(self)
        if image:
            pixmap = QPixmap.fromImage(QImage.fromData(raw))
            if pixmap.width() > VIEWER_MAX.width() or pixmap.height() > VIEWER_MAX.height():
                pixmap = pixmap.scaled(VIEWER_MAX, Qt.AspectRatioMode.KeepAspectRatio,
                                       Qt.TransformationMode.SmoothTransformation)
            self.image_label = QLabel(self)
            self.image_label.setObjectName("attachmentImage")
            self.image_label.setPixmap(pixmap)
            scroll = QScrollArea(self)
            scroll.setWidget(self.image_label)
            scroll.setWidgetResizable(True)
            layout.addWidget(scroll, 1)
            self.resize(min(pixmap.width() + 40, VIEWER_MAX.width()), min(pixmap.height() + 80, VIEWER_MAX.height()))
        else:
            self.text_view = QPlainTextEdit(self)
            self.text_view.setObjectName("attachmentText")
            self.text_view.setReadOnly(True)
            self.text_view.setPlainText(raw.decode("utf-8-sig", errors="replace"))
            layout.addWidget(self.text_view, 1)
            self.resize(720, 520)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.open_button = QPushButton(self.tr("Open with the system app"), self)
        self.open_button.setObjectName("attachmentOpenExternal")
        self.open_button.setVisible(path is not None)
        self.open_button.clicked.connect(self.open_external)
        close = QPushButton(self.tr("Close"), self)
        close.clicked.connect(self.close)
        buttons.addWidget(self.open_button)
        buttons.addWidget(close)
        layout.addLayout(buttons)

    def open_external(self) -> None:
        if self.path is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.path)))


def describe_attachment_error(error: AttachmentError) -> str:
    """The user's words for an `AttachmentError` (core gives a code, a file name and a limit)."""
    code = error.code.value
    name = str(error.filename or "")
    limit = int(error.limit or 0)

    words = {
        "too-large": QCoreApplication.translate("AttachmentWords", "%1 is too large to attach (the limit is %2)."),
        "too-many": QCoreApplication.translate("AttachmentWords",
                                               "A message can carry at most %2 files; %1 was not added."),
        "unsupported-type": QCoreApplication.translate(
            "AttachmentWords", "%1 cannot be attached: only PNG, JPEG, WebP and GIF images and text files can."),
        "empty": QCoreApplication.translate("AttachmentWords", "%1 is empty."),
        "unreadable": QCoreApplication.translate("AttachmentWords", "%1 could not be read."),
        "missing": QCoreApplication.translate("AttachmentWords", "The attached file %1 is no longer available."),
        "storage": QCoreApplication.translate(
            "AttachmentWords", "%1 could not be saved with the message (is the disk full?). Nothing was sent."),
        "bad-scope": QCoreApplication.translate("AttachmentWords", "Files cannot be attached in this conversation."),
    }
    text = words.get(code) or QCoreApplication.translate("AttachmentWords", "%1 could not be attached.")
    shown_limit = human_size(limit) if code == "too-large" else str(limit)
    name = name or QCoreApplication.translate("AttachmentWords", "The file")
    return text.replace("%1", name).replace("%2", shown_limit)


class AttachmentStrip(QWidget):
    """A user row's files: thumbnails and chips, wrapping onto more lines (objectName
    `attachmentStrip`); `files` (the bridge's attachments facet) finds each stored file."""

    def __init__(self, parts: list[Any], files: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("attachmentStrip")
        flow_policy(self)
        row = FlowLayout(self)
        self.buttons: list[AttachmentButton] = []
        for part in parts:
            path = files.path_of(part) if files is not None else None
            image = is_image_type(str(part.media_type))
            button = AttachmentButton(str(part.filename), int(part.size), thumbnail_from_path(path) if image else None,
                                      image=image, missing=path is None, parent=self)
            button.opened.connect(lambda p=path, n=str(part.filename), i=image: self.open_viewer(n, p, i))
            self.buttons.append(button)
            row.addWidget(button)

    def open_viewer(self, filename: str, path: Path | None, image: bool) -> AttachmentViewer | None:
        if path is None or not path.is_file():
            return None
        viewer = AttachmentViewer(filename, path=path, image=image, parent=self.window())
        viewer.show()
        return viewer
