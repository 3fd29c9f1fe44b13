"""Markdown text as it streams, apart from widgets: where the finished blocks of a part end
(`split_finished_blocks`), whether an open tail holds Markdown syntax (`has_markup`), the
streaming height steps (`grow_height`), and the document edits that render a block
(`insert_markdown_block`, `style_blockquotes`)."""

from __future__ import annotations

import re

from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor, QTextDocument, QTextFormat

# Translucent, so one tint reads on the light and the dark theme.
QUOTE_BACKGROUND = "#26888888"
# A tail past this size is committed at its last line break even without a blank line, so
# one endless paragraph cannot make every frame re-lay out a huge label.
TAIL_SOFT_LIMIT = 2000
# While streaming a text part grows in steps (a height change relayouts the message view):
# a quarter of its height, at least MIN and at most MAX pixels, so a short reply does not sit
# in a tall empty box and a long one still relayouts rarely.
GROW_STEP_MIN_PX = 40
GROW_STEP_MAX_PX = 160


def grow_height(doc_height: int, above: int = 0) -> int:
    """The streaming height for a document of `doc_height` pixels (>= it, on a step); `above`
    is the height of the message's parts above this one (the step follows the message)."""
    step = max(GROW_STEP_MIN_PX, min(GROW_STEP_MAX_PX, (doc_height + above) // 4))
    return -(-doc_height // step) * step


def split_finished_blocks(text: str) -> tuple[str, str]:
    """Split `text` into (finished Markdown blocks, open tail).

    A block is finished at a blank line that lies outside a fenced code block; a tail past
    `TAIL_SOFT_LIMIT` outside a fence is also cut at its last line break.
    """
    cut = -1
    in_fence = False
    pos = 0
    for line in text.splitlines(keepends=True):
        stripped = line.lstrip()
        end = pos + len(line)
        if stripped.startswith("```") or stripped.startswith("~~~"):
            in_fence = not in_fence
            if not in_fence and line.endswith("\n"):
                cut = end  # a closed fence ends a block
        elif not in_fence and line.strip() == "" and line.endswith("\n"):
            cut = end
        pos = end
    if cut < 0 and not in_fence and len(text) > TAIL_SOFT_LIMIT:
        nl = text.rfind("\n")
        if nl > 0:
            cut = nl + 1
    if cut <= 0:
        return "", text
    return text[:cut], text[cut:]


# Characters and line starts that may make a tail render differently as Markdown.
_MARKUP = re.compile(r"[*_`~\[\]<>|#\\]|^\s*(?:[-+]|\d+[.)])\s", re.MULTILINE)


def has_markup(text: str) -> bool:
    """Whether `text` may hold Markdown syntax (else it reads the same as plain text)."""
    return _MARKUP.search(text) is not None


def insert_markdown_block(cursor: QTextCursor, markdown: str) -> int:
    """Insert `markdown` at `cursor`, the start of an empty block; returns where it starts.
    A fragment that opens with a list (or a table) leaves that empty block above it, an empty
    line a whole render has not: it is dropped."""
    start = cursor.position()
    cursor.insertMarkdown(markdown)
    document = cursor.document()
    block = document.findBlock(start)
    if start > 0 and block.length() == 1 and block.next().isValid():
        joining = QTextCursor(document)
        joining.setPosition(start - 1)
        joining.deleteChar()  # the line break above it: the empty block joins the one above
        start -= 1
    return start


def style_blockquotes(document: QTextDocument, start: int, end: int) -> None:
    """Quoted blocks between `start` and `end` get a tinted background and muted italics
    (Qt's Markdown import only indents them)."""
    block = document.findBlock(start)
    while block.isValid() and block.position() <= end:
        fmt = block.blockFormat()
        level = fmt.property(QTextFormat.Property.BlockQuoteLevel)
        if isinstance(level, int) and level > 0:
            fmt.setBackground(QColor(QUOTE_BACKGROUND))
            fmt.setLeftMargin(12.0 * level)
            cursor = QTextCursor(block)
            cursor.setBlockFormat(fmt)
            cursor.select(QTextCursor.SelectionType.BlockUnderCursor)
            char = QTextCharFormat()
            char.setFontItalic(True)
            cursor.mergeCharFormat(char)
        block = block.next()
