"""Code blocks as their own widget (language, copy, Pygments highlighting once the fence
closes), an open fence streaming as plain code (never a heading), blockquotes styled, and the
same rendering for a streamed and a reloaded message."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from PySide6.QtGui import QGuiApplication, QImage, QTextFormat
from PySide6.QtWidgets import QApplication

from cherry_desktop.core.messages import TextDeltaChunk, TextPart
from cherry_desktop.ui.chat import CodeBlock, LiveText, MarkdownView, MessageRow
from cherry_desktop.ui.shell import apply_theme
from tests.gui.conftest import save_screenshot

pytestmark = pytest.mark.gui

LONG_ANSWER = """# Reading a CSV file

Python's standard library reads CSV with **`csv`**; for analysis, *pandas* is the usual choice.
See [the docs](https://docs.python.org/3/library/csv.html) for the dialect options.

> Tip: open the file with `newline=""`, or quoted fields holding line breaks split wrongly.

```python
import csv

def read_rows(path: str) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))  # one dict per row
```

Then, in a shell:

```bash
python -c 'import sys; print(sys.version)'
```

1. read the header
2. read each row
3. convert the types

| column | type |
|--------|------|
| name   | str  |
| age    | int  |
"""


def _kinds(view: MarkdownView) -> list[str]:
    return [type(s).__name__ for s in view.segments]


def test_an_open_fence_streams_as_plain_code_then_highlights_once(qtbot: Any) -> None:
    row = MessageRow("a", "assistant")
    qtbot.addWidget(row)
    row.resize(600, 400)
    for delta in ["Here it is:\n\n``", "`python\nimport os\nprint(os.", "getcwd())\n"]:
        row.apply_chunk(TextDeltaChunk(id="t", delta=delta))
        row.end_frame()
    view = row.text_views()[0]
    assert _kinds(view) == ["LiveText", "CodeBlock"]
    prose, code = view.segments
    assert isinstance(prose, LiveText) and isinstance(code, CodeBlock)
    assert "```" not in prose.toPlainText()  # the fence is never text, nor a heading
    assert code.language_label.text() == "python" and not code.done
    assert code.text.toPlainText() == "import os\nprint(os.getcwd())\n"
    assert "color" not in code.text.toHtml().split("<body", 1)[1]  # plain while open
    row.apply_chunk(TextDeltaChunk(id="t", delta="```\n\nDone."))
    row.end_frame()
    assert code.done  # highlighted in the next loop iteration, not in this frame
    qtbot.waitUntil(lambda: "color:" in code.text.toHtml().split("<body", 1)[1])  # by Pygments
    assert code.text.toPlainText() == "import os\nprint(os.getcwd())"
    row.finish_live("success")
    assert _kinds(view) == ["LiveText", "CodeBlock", "LiveText"]
    assert row.text() == "Here it is:\n\n```python\nimport os\nprint(os.getcwd())\n```\n\nDone."


def test_copy_button_copies_the_code_and_an_unlabelled_fence_gets_a_guess(qtbot: Any) -> None:
    view = MarkdownView("```\n#!/bin/sh\necho hi\n```\n")
    qtbot.addWidget(view)
    (code,) = view.segments
    assert isinstance(code, CodeBlock)
    button = code.findChild(type(code.copy_button), "copyCodeButton")
    assert button is code.copy_button
    button.click()
    assert QGuiApplication.clipboard().text() == "#!/bin/sh\necho hi"
    assert code.language_label.text() != ""  # guessed (or "code")


def test_streamed_and_reloaded_messages_render_alike(qtbot: Any) -> None:
    stored = MessageRow("s", "assistant")
    stored.set_parts([TextPart(text=LONG_ANSWER)])
    live = MessageRow("l", "assistant")
    for row in (stored, live):
        qtbot.addWidget(row)
        row.resize(700, 900)
        row.show()
    for i in range(0, len(LONG_ANSWER), 7):
        live.apply_chunk(TextDeltaChunk(id="t", delta=LONG_ANSWER[i:i + 7]))
        live.end_frame()
    live.finish_live("success")
    qtbot.waitUntil(lambda: live.text_views()[0].settled)  # one prose segment per timer tick
    for row in (stored, live):  # as the message view sizes them: to their content
        QApplication.processEvents()
        row.resize(700, row.layout().totalHeightForWidth(700))
    QApplication.processEvents()
    a, b = stored.text_views()[0], live.text_views()[0]
    assert _kinds(a) == _kinds(b) == ["LiveText", "CodeBlock", "LiveText", "CodeBlock", "LiveText"]
    assert a.toPlainText() == b.toPlainText()
    assert [s.height() for s in a.segments] == [s.height() for s in b.segments]
    # The blockquote is styled (a background), not only indented.
    quote = [blk for blk in _blocks(a.segments[0]) if blk.blockFormat().property(QTextFormat.Property.BlockQuoteLevel)]
    assert quote and all(blk.blockFormat().background().color().alpha() > 0 for blk in quote)


def test_a_theme_switch_recolours_highlighted_code(qtbot: Any, qapp: Any) -> None:
    apply_theme(qapp, "light")
    try:
        view = MarkdownView("```python\ndef f():\n    return 1\n```\n")
        qtbot.addWidget(view)
        view.show()
        (code,) = view.segments
        light = code.text.toHtml()
        apply_theme(qapp, "dark")
        QApplication.processEvents()
        dark = code.text.toHtml()
        assert dark != light and code.text.toPlainText() == "def f():\n    return 1"
    finally:
        apply_theme(qapp, "light")


def _blocks(text: LiveText) -> list[Any]:
    out, block = [], text.document().begin()
    while block.isValid():
        out.append(block)
        block = block.next()
    return out


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_long_markdown_answer_renders_its_fences_as_highlighted_blocks_in_the_theme(
        qtbot: Any, qapp: Any, theme: str) -> None:
    """Prose, a Python fence, prose, a Bash fence, then a list and a table: each fence is a code
    block with its language and exactly its code, highlighted (a stored answer is done), on the
    theme's background (the PNG under artifacts/ is for people to look at)."""
    apply_theme(qapp, theme)
    try:
        row = MessageRow("s", "assistant")
        row.set_parts([TextPart(text=LONG_ANSWER)])
        qtbot.addWidget(row)
        image = save_screenshot(row, f"markdown_answer_{theme}", 760)
        view = row.text_views()[0]
        assert _kinds(view) == ["LiveText", "CodeBlock", "LiveText", "CodeBlock", "LiveText"]
        codes = [s for s in view.segments if isinstance(s, CodeBlock)]
        assert [c.language_label.text() for c in codes] == ["python", "bash"]
        assert codes[1].text.toPlainText().strip() == "python -c 'import sys; print(sys.version)'"
        assert codes[0].text.toPlainText().startswith("import csv") and all(c.done for c in codes)
        assert "| column | type |" not in view.segments[-1].toPlainText()  # a table, not its source
        corner = QImage(str(image)).pixelColor(2, 2)
        assert (corner.lightnessF() > 0.5) is (theme == "light")
    finally:
        apply_theme(qapp, "light")


def test_pygments_loads_on_first_use_not_at_start() -> None:
    code = ("import sys\nfrom PySide6.QtWidgets import QApplication\napp = QApplication([])\n"
            "import cherry_desktop.ui, cherry_desktop.ui.chat._message_view, cherry_desktop.ui.shell._window\n"
            "assert 'pygments' not in sys.modules, 'pygments imported at start'\n"
            "from cherry_desktop.ui.chat import MarkdownView\n"
            "MarkdownView('```python\\nx = 1\\n```\\n')\n"
            "assert 'pygments' in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
