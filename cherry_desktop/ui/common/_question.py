"""Ask a question box from a task: opened, not exec'd (a nested event loop inside a task of the
qasync loop would stall every other task), and awaited until the user answers."""

from __future__ import annotations

import asyncio

from PySide6.QtWidgets import QAbstractButton, QMessageBox


async def answer_of(box: QMessageBox) -> QAbstractButton | None:
    """Open `box` (window-modal) and wait for the button the user clicked (None: closed
    without one); the box is deleted afterwards."""
    answered: asyncio.Future[QAbstractButton | None] = asyncio.get_running_loop().create_future()

    def finished() -> None:
        if not answered.done():
            answered.set_result(box.clickedButton())

    box.finished.connect(finished)
    box.open()
    try:
        return await answered
    finally:
        box.deleteLater()
