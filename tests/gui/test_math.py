"""Math in Markdown: inline and display LaTeX drawn as images (ziamath -> SVG -> QtSvg), money
amounts left alone, a formula that cannot be parsed shown as code, code spans untouched."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QTextDocument

from cherry_desktop.core.messages import TextPart
from cherry_desktop.ui.chat import MessageRow, has_math, replace_math
from cherry_desktop.ui.shell import apply_theme
from tests.gui.conftest import save_screenshot

pytestmark = pytest.mark.gui

TEXT = ("Euler: $e^{i\\pi}+1=0$, costs $5 and $10.\n\n$$\\int_0^1 x^2\\,dx = \\frac{1}{3}$$\n\n"
        "Also \\(a^2+b^2=c^2\\). Bad: $\\frac{a}{$ stays code. Code `$x$` too.")


def _images(document: QTextDocument) -> list[str]:
    names = []
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.isImageFormat():
                names.append(fmt.toImageFormat().name())
            it += 1
        block = block.next()
    return names


def test_formulas_become_images_and_the_rest_stays(qapp: Any) -> None:
    document = QTextDocument()
    out = replace_math(TEXT, document)
    assert "costs $5 and $10." in out  # money, not math
    assert "`$\\frac{a}{$`" in out  # cannot be parsed: shown as code
    assert "Code `$x$` too." in out  # code spans untouched
    assert out.count("](math:") == 3
    assert not has_math("costs $5 and $10")
    for name in [p.split(")")[0] for p in out.split("](")[1:] if p.startswith("math:")]:
        image = document.resource(QTextDocument.ResourceType.ImageResource, QUrl(name))
        assert image is not None and not image.isNull()
        assert any(image.pixelColor(x, y).alpha() > 0 for x in range(image.width()) for y in range(image.height()))


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_row_shows_math_in_both_themes(qtbot: Any, qapp: Any, theme: str) -> None:
    apply_theme(qapp, theme)
    try:
        row = MessageRow("m", "assistant")
        row.set_parts([TextPart(text=TEXT)])
        qtbot.addWidget(row)
        save_screenshot(row, f"math_{theme}", 640)
        (prose,) = row.text_views()[0].segments
        assert len(_images(prose.document())) == 3
        assert row.text() == TEXT  # the source (what Copy and export give) is unchanged
    finally:
        apply_theme(qapp, "light")


def test_ziamath_loads_on_the_first_formula_not_at_start() -> None:
    code = ("import sys\nfrom PySide6.QtWidgets import QApplication\napp = QApplication([])\n"
            "import cherry_desktop.ui.chat._message_view, cherry_desktop.ui.shell._window\n"
            "from cherry_desktop.ui.chat import MarkdownView\n"
            "MarkdownView('costs $5 and $10, no math')\n"
            "assert 'ziamath' not in sys.modules\n"
            "MarkdownView('$x^2$')\n"
            "assert 'ziamath' in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
