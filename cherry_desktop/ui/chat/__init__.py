"""The conversation: the message view, its rows and blocks (Markdown, code, math, tools,
todos, reasoning, errors), multi-model groups, row actions, attachments shown in rows,
translations, usage, the empty state and a chat's header (its model picker).
"""

from __future__ import annotations

from cherry_desktop.ui.chat._attachment_view import (
    AttachmentButton,
    AttachmentStrip,
    AttachmentViewer,
    describe_attachment_error,
    thumbnail_from_bytes,
)
from cherry_desktop.ui.chat._blocks import ErrorBlock, LiveText, ReasoningBlock, ToolCard
from cherry_desktop.ui.chat._code_block import (
    CodeBlock,
    clear_highlight_caches,
    highlight_cache_info,
    warm_up_highlighting,
)
from cherry_desktop.ui.chat._empty_state import EmptyState
from cherry_desktop.ui.chat._error_words import ErrorWords, error_fields, terminal_error
from cherry_desktop.ui.chat._markdown import MarkdownView
from cherry_desktop.ui.chat._markdown_text import split_finished_blocks
from cherry_desktop.ui.chat._math import has_math, replace_math
from cherry_desktop.ui.chat._message_actions import COPY_SHORTCUT, REGENERATE_SHORTCUT, UndoBar, copy_markdown
from cherry_desktop.ui.chat._message_row import CUT_SHORT_KEY, HISTORY_RESET_KEY, MessageRow
from cherry_desktop.ui.chat._message_view import ROW_SPACING, MessageView
from cherry_desktop.ui.chat._model_picker import ChatHeader, IssueWords
from cherry_desktop.ui.chat._older_rows import PAGE_SIZE
from cherry_desktop.ui.chat._sibling_group import SiblingGroupView
from cherry_desktop.ui.chat._todo_card import (
    TODO_TOOL,
    ArtifactsCard,
    CompactionDivider,
    PlanCard,
    TodoCard,
    split_plan_heading,
    todos_of,
)
from cherry_desktop.ui.chat._tool_view import (
    ADDED_BG,
    REMOVED_BG,
    diff_html,
    display_tool_name,
    readable_output,
    tool_diff,
    tool_input_html,
)
from cherry_desktop.ui.chat._translate import TranslationBlock, translate_row
from cherry_desktop.ui.chat._usage import UsageSummary, format_cost, refresh_footers

__all__ = [
    "ADDED_BG",
    "COPY_SHORTCUT",
    "CUT_SHORT_KEY",
    "HISTORY_RESET_KEY",
    "PAGE_SIZE",
    "REGENERATE_SHORTCUT",
    "REMOVED_BG",
    "ROW_SPACING",
    "TODO_TOOL",
    "ArtifactsCard",
    "AttachmentButton",
    "AttachmentStrip",
    "AttachmentViewer",
    "ChatHeader",
    "CodeBlock",
    "CompactionDivider",
    "EmptyState",
    "ErrorBlock",
    "ErrorWords",
    "IssueWords",
    "LiveText",
    "MarkdownView",
    "MessageRow",
    "MessageView",
    "PlanCard",
    "ReasoningBlock",
    "SiblingGroupView",
    "TodoCard",
    "ToolCard",
    "TranslationBlock",
    "UndoBar",
    "UsageSummary",
    "clear_highlight_caches",
    "copy_markdown",
    "describe_attachment_error",
    "diff_html",
    "display_tool_name",
    "error_fields",
    "format_cost",
    "has_math",
    "highlight_cache_info",
    "readable_output",
    "refresh_footers",
    "replace_math",
    "split_finished_blocks",
    "split_plan_heading",
    "terminal_error",
    "thumbnail_from_bytes",
    "todos_of",
    "tool_diff",
    "tool_input_html",
    "translate_row",
    "warm_up_highlighting"
]
