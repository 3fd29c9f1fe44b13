"""The composer's tray of files for the next message: pasted or dropped images and files,
picked with "Attach", each shown with a remove button; a file the limits refuse is named in
a notice and nothing else changes (the typed text, the files already there)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QBuffer, QIODevice, QMimeData, Signal
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from cherry_desktop.ui.bridge import (
    AttachmentCandidate,
    AttachmentError,
    candidate_from_bytes,
    candidate_from_path,
)
from cherry_desktop.ui.chat import (
    AttachmentButton,
    AttachmentViewer,
    describe_attachment_error,
    thumbnail_from_bytes,
)
from cherry_desktop.ui.common import FlowLayout, flow_policy, open_file_names

#: Raw image formats a clipboard may carry, taken as they are (a JPEG stays a JPEG).
_RAW_IMAGE_FORMATS = ("image/png", "image/jpeg", "image/webp", "image/gif")
_EXTENSIONS = {"image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif"}


def offers_files(mime: QMimeData) -> bool:
    """Whether pasted / dropped data is files or an image (not plain text)."""
    return mime.hasImage() or any(u.isLocalFile() for u in mime.urls()) or any(
        mime.hasFormat(f) for f in _RAW_IMAGE_FORMATS)


class AttachmentTray(QFrame):
    """Files for the next message (objectName `attachmentTray`).

    Signals:
        changed(): a file was added or removed.
    """

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("attachmentTray")
        self.items: list[AttachmentCandidate] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        # The chips wrap onto more lines: in one line, ten files widened the whole window.
        chips = QWidget(self)
        flow_policy(chips)
        self._chips = FlowLayout(chips)
        layout.addWidget(chips)
        self.notice = QLabel(self)
        self.notice.setObjectName("attachmentNotice")
        self.notice.setWordWrap(True)
        self.notice.setVisible(False)
        layout.addWidget(self.notice)
        self._refresh()

    # -- adding ------------------------------------------------------------------------------
    def add_mime(self, mime: QMimeData) -> bool:
        """Take the files or image of pasted / dropped data; False when it carries neither."""
        paths = [Path(u.toLocalFile()) for u in mime.urls() if u.isLocalFile()]
        if paths:
            self.add_paths(paths)
            return True
        for fmt in _RAW_IMAGE_FORMATS:
            data = bytes(mime.data(fmt).data())
            if data:
                self.add_bytes(f"pasted-image.{_EXTENSIONS[fmt]}", data)
                return True
        if mime.hasImage():
            image = mime.imageData()
            if isinstance(image, QImage) and not image.isNull():
                self.add_bytes("pasted-image.png", _png_bytes(image))
                return True
        return False

    def add_paths(self, paths: list[Path]) -> int:
        """Add files from disk in order; the first refusal is noticed, the others still tried."""
        added, refusals = 0, []
        for path in paths:
            try:
                self.items.append(candidate_from_path(path, already=len(self.items)))
                added += 1
            except AttachmentError as exc:
                refusals.append(describe_attachment_error(exc))
        self._refresh(" ".join(refusals))
        return added

    def add_bytes(self, filename: str, data: bytes) -> bool:
        try:
            self.items.append(candidate_from_bytes(filename, data, already=len(self.items)))
        except AttachmentError as exc:
            self._refresh(describe_attachment_error(exc))
            return False
        self._refresh()
        return True

    def pick_files(self) -> int:
        """The "Attach" button: a file dialog."""
        names = open_file_names(
            self, self.tr("Attach files"), "",
            self.tr("Images and text files (*.png *.jpg *.jpeg *.webp *.gif *.txt *.md *.json *.csv *.py *.log);;"
                    "All files (*)"))
        return self.add_paths([Path(n) for n in names]) if names else 0

    # -- removing, sending ------------------------------------------------------------------------
    def remove(self, index: int) -> None:
        if 0 <= index < len(self.items):
            del self.items[index]
            self._refresh()

    def take(self) -> list[AttachmentCandidate]:
        """The files, handed to a send (the tray empties)."""
        items, self.items = self.items, []
        self._refresh()
        return items

    def restore(self, items: list[AttachmentCandidate], notice: str = "") -> None:
        """A send that could not be saved gives its files back (before any added since)."""
        self.items = [*items, *self.items]
        self._refresh(notice)

    # -- view ----------------------------------------------------------------------------------
    def _refresh(self, notice: str = "") -> None:
        while self._chips.count():
            item = self._chips.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.hide()
                widget.setParent(None)  # gone from the tray now, deleted when the loop next runs
                widget.deleteLater()
        for index, candidate in enumerate(self.items):
            self._chips.addWidget(self._chip(index, candidate))
        self.notice.setText(notice)
        self.notice.setVisible(bool(notice))
        self.setVisible(bool(self.items) or bool(notice))
        self.changed.emit()

    def _chip(self, index: int, candidate: AttachmentCandidate) -> QWidget:
        chip = QFrame(self._chips.parentWidget())
        chip.setObjectName("attachmentTrayItem")
        row = QHBoxLayout(chip)
        row.setContentsMargins(2, 2, 2, 2)
        row.setSpacing(0)
        thumb = thumbnail_from_bytes(candidate.data) if candidate.is_image else None
        button = AttachmentButton(candidate.filename, candidate.size, thumb, image=candidate.is_image, parent=chip)
        button.opened.connect(lambda c=candidate: AttachmentViewer(c.filename, data=c.data, image=c.is_image,
                                                                   parent=self.window()).show())
        remove = QToolButton(chip)
        remove.setObjectName("attachmentRemove")
        remove.setText("✕")
        remove.setToolTip(self.tr("Remove %1").replace("%1", candidate.filename))
        remove.clicked.connect(lambda _=False, i=index: self.remove(i))
        row.addWidget(button)
        row.addWidget(remove)
        return chip


def _png_bytes(image: QImage) -> bytes:
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # the stubs want bytes, Qt a str
    return bytes(buffer.data().data())
