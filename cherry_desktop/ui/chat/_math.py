"""LaTeX math in Markdown: `$...$` / `\\(...\\)` inline, `$$...$$` / `\\[...\\]` display.

Qt's rich text has no MathML, so each formula becomes an image: ziamath (pure Python, no TeX
install; LaTeX -> MathML -> SVG with its bundled STIX font) draws it as SVG, QtSvg renders that
into an image the text document holds as a resource, and the Markdown gets `![tex](math:N)`
(`ziamath.config.svg2 = False`: QtSvg draws nothing for SVG 2 `<symbol>`s).
Measured here: importing ziamath ~0.14 s (done on the first formula, never at start), ~4 ms a
formula; blocks are rendered once when finished, like the rest of the Markdown. A formula
ziamath cannot parse stays visible as inline code.
"""

from __future__ import annotations

import logging
import re
from itertools import count
from typing import Any

from PySide6.QtCore import QByteArray, QSize, Qt, QUrl
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter, QTextDocument

log = logging.getLogger(__name__)

_DISPLAY = r"\$\$(?P<d1>.+?)\$\$|\\\[(?P<d2>.+?)\\\]"
# Pandoc's rule: no space after the opening $, none before the closing one, no digit after it
# ("$5 and $10" is money, not math).
_INLINE = r"\$(?P<i1>[^\s$](?:[^$\n]*?[^\s$])?)\$(?!\d)|\\\((?P<i2>.+?)\\\)"
_MATH_RE = re.compile(f"{_DISPLAY}|{_INLINE}", re.S)
_CODE_SPAN_RE = re.compile(r"(`+)(.+?)\1", re.S)
_IDS = count(1)
SCALE = 2  # render at twice the size, shown at half: sharp on HiDPI screens


def has_math(text: str) -> bool:
    return ("$" in text or "\\(" in text or "\\[" in text) and _MATH_RE.search(text) is not None


def render_formula(tex: str, *, display: bool, colour: str, size: float) -> QImage | None:
    """The formula as an image, or None when it cannot be parsed or drawn."""
    from PySide6.QtSvg import QSvgRenderer

    try:
        import ziamath  # type: ignore[import-untyped,unused-ignore]

        # Plain paths: QtSvg (SVG Tiny 1.2) draws nothing for SVG 2 <symbol> references.
        ziamath.config.svg2 = False  # type: ignore[attr-defined,unused-ignore]
        latex: Any = ziamath.Latex  # type: ignore[attr-defined,unused-ignore]
        svg = latex(tex.strip(), size=size * SCALE, color=colour, inline=not display).svg()
    except Exception as exc:  # ziamath raises many kinds on bad input
        log.debug("formula not rendered (%s): %r", type(exc).__name__, tex[:80])
        return None
    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    if not renderer.isValid():
        return None
    size_px: QSize = renderer.defaultSize()
    if size_px.isEmpty():
        return None
    image = QImage(size_px, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    image.setDevicePixelRatio(SCALE)
    return image


def _text_colour() -> str:
    app = QGuiApplication.instance()
    if isinstance(app, QGuiApplication):
        return QColor(app.palette().text().color()).name()
    return "#000000"


def replace_math(markdown: str, document: QTextDocument) -> str:
    """`markdown` with each formula replaced by an image the document holds (or by inline code
    when it cannot be drawn). Code spans are left alone."""
    colour = _text_colour()
    size = document.defaultFont().pointSizeF() * 1.6 if document.defaultFont().pointSizeF() > 0 else 15.0

    def formula(match: re.Match[str]) -> str:
        display = match.group("d1") is not None or match.group("d2") is not None
        tex = next(g for g in match.group("d1", "d2", "i1", "i2") if g is not None)
        image = render_formula(tex, display=display, colour=colour, size=size)
        if image is None:
            return f"`{match.group(0)}`"
        url = f"math:{next(_IDS)}"
        document.addResource(QTextDocument.ResourceType.ImageResource, QUrl(url), image)
        alt = re.sub(r"[^A-Za-z0-9 =+-]+", " ", tex).strip()[:40] or "formula"  # no Markdown syntax
        image_md = f"![{alt}]({url})"
        return f"\n\n{image_md}\n\n" if display else image_md

    out: list[str] = []
    pos = 0
    for code in _CODE_SPAN_RE.finditer(markdown):
        out.append(_MATH_RE.sub(formula, markdown[pos:code.start()]))
        out.append(code.group(0))
        pos = code.end()
    out.append(_MATH_RE.sub(formula, markdown[pos:]))
    return "".join(out)
