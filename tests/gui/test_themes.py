"""Both themes are complete: every dialog's labels are readable (WCAG contrast >= 4.5 between a
label's text and what is drawn behind it, measured on the rendered pixels), disabled controls
look disabled, and steer rows keep their label after a reload."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QWidget

from cherry_desktop.core.ai.runtime.events import SteerBoundaryEvent
from cherry_desktop.ui.shell import apply_theme
from tests.gui.conftest import ARTIFACTS, scripted_agent_session, send_turn
from tests.waiting import until

pytestmark = pytest.mark.gui

THEMES = ["light", "dark"]


def _luminance(c: QColor) -> float:
    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue())


def contrast(a: QColor, b: QColor) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def rendered_contrast(image: QImage) -> float:
    """Background: the most common colour; text: the pixel that differs from it the most."""
    counts: Counter[int] = Counter()
    for y in range(image.height()):
        for x in range(image.width()):
            counts[image.pixel(x, y)] += 1
    background = QColor.fromRgb(counts.most_common(1)[0][0])
    return max(contrast(background, QColor.fromRgb(p)) for p in counts)


def check_labels(top: QWidget, where: str) -> list[str]:
    """Every visible, enabled label (and button text) with text: its rendered contrast."""
    QApplication.processEvents()
    shot = top.grab().toImage()
    ratio = shot.width() / max(1, top.width())
    bad = []
    widgets = [w for w in top.findChildren(QWidget) if isinstance(w, QLabel | QAbstractButton)]
    for w in widgets:
        text = w.text() if hasattr(w, "text") else ""
        if not text.strip() or not w.isVisibleTo(top) or not w.isEnabled() or w.width() < 4:
            continue
        origin = w.mapTo(top, w.rect().topLeft())
        crop = shot.copy(int(origin.x() * ratio), int(origin.y() * ratio), int(w.width() * ratio),
                         int(w.height() * ratio))
        value = rendered_contrast(crop)
        if value < 4.5:
            bad.append(f"{where}: {type(w).__name__}#{w.objectName()} {text[:30]!r}: {value:.2f}")
    return bad


def _dialogs(bridge: Any) -> list[tuple[str, QWidget]]:
    from cherry_desktop.ui.dialogs import AgentDialog, ProvidersDialog, SettingsDialog

    return [("settings", SettingsDialog(bridge)), ("agent", AgentDialog(bridge, None)),
            ("providers", ProvidersDialog(bridge.providers, None))]


@pytest.mark.parametrize("theme", THEMES)
async def test_every_dialog_and_the_window_are_readable(controller: Any, qapp: Any, theme: str) -> None:
    apply_theme(qapp, theme)
    try:
        window = controller.open_window(None)
        await until(window.isVisible)
        bad = check_labels(window, f"{theme}/window")
        for name, dialog in _dialogs(controller.bridges):
            dialog.resize(640, 520)
            dialog.show()
            QApplication.processEvents()
            ARTIFACTS.mkdir(exist_ok=True)
            dialog.grab().save(str(ARTIFACTS / f"dialog_{name}_{theme}.png"))
            bad += check_labels(dialog, f"{theme}/{name}")
            if name == "settings":  # its second tab too
                dialog.show_providers()
                QApplication.processEvents()
                dialog.grab().save(str(ARTIFACTS / f"dialog_settings_providers_{theme}.png"))
                bad += check_labels(dialog, f"{theme}/settings-providers")
            dialog.close()
            dialog.deleteLater()
        assert not bad, "\n".join(bad)
    finally:
        apply_theme(qapp, "light")


@pytest.mark.parametrize("theme", THEMES)
def test_disabled_send_and_queue_buttons_look_disabled(qtbot: Any, qapp: Any, theme: str) -> None:
    from types import SimpleNamespace

    from cherry_desktop.ui.composer import Composer, QueueDock

    apply_theme(qapp, theme)
    try:
        composer = Composer()
        qtbot.addWidget(composer)
        composer.resize(600, 140)
        composer.show()
        enabled = composer.send_button.grab().toImage()
        composer.setEnabled(False)
        QApplication.processEvents()
        disabled = composer.send_button.grab().toImage()
        # Disabled: a visibly different, low-key button (not the accent colour).
        assert _mean(enabled) != _mean(disabled)
        assert _saturation(disabled) < _saturation(enabled)
        dock = QueueDock()
        qtbot.addWidget(dock)
        items = [SimpleNamespace(message_id=f"m{i}", text=f"queued {i}") for i in range(2)]
        dock.set_items(items)
        dock.resize(600, 90)
        dock.show()
        QApplication.processEvents()
        up = [b for b in dock.findChildren(QAbstractButton) if b.objectName() == "queueUp"]
        assert [b.isEnabled() for b in up] == [False, True]
        # The enabled arrow reads clearly; the disabled one is still visible, but dimmer.
        assert rendered_contrast(_crop(dock, up[1])) >= 4.5
        assert 1.3 <= rendered_contrast(_crop(dock, up[0])) < rendered_contrast(_crop(dock, up[1]))
    finally:
        apply_theme(qapp, "light")


def _crop(top: QWidget, w: QWidget) -> QImage:
    shot = top.grab().toImage()
    ratio = shot.width() / max(1, top.width())
    origin = w.mapTo(top, w.rect().topLeft())
    return shot.copy(int(origin.x() * ratio) + 3, int(origin.y() * ratio) + 3, int(w.width() * ratio) - 6,
                     int(w.height() * ratio) - 6)


def _mean(image: QImage) -> tuple[int, int, int]:
    pixels = [QColor.fromRgb(image.pixel(x, y)) for y in range(image.height()) for x in range(image.width())]
    n = max(1, len(pixels))
    return (sum(p.red() for p in pixels) // n, sum(p.green() for p in pixels) // n, sum(p.blue() for p in pixels) // n)


def _saturation(image: QImage) -> int:
    r, g, b = _mean(image)
    return QColor(r, g, b).hsvSaturation()


async def test_a_steer_row_keeps_its_label_after_a_reload(controller: Any, ui_core: Any, qtbot: Any,
                                                          tmp_path: Any) -> None:
    topic_id, driver = scripted_agent_session(ui_core, tmp_path / "ws")
    window = controller.open_window(topic_id)
    conn = await send_turn(qtbot, window, driver, "build it")
    conn.emit_text("working. ")
    await until(lambda: "working." in window.live_text())
    window.composer.editor.setPlainText("also add tests")
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    await until(lambda: conn.redirects)
    steer_id = conn.redirects[0].message.id
    conn.emit(SteerBoundaryEvent(message_ids=(steer_id,)))
    conn.complete("tests added.")
    await until(lambda: not window.is_streaming() and len(window.message_view.rows()) == 4)
    other = controller.open_window(topic_id)  # built from the database only
    await until(lambda: other.message_view.row(steer_id) is not None)
    row = other.message_view.row(steer_id)
    assert row.steer and row.property("steer") is True and "steer" in row.header.text()
