"""The conversation: the message view, its rows and blocks (Markdown, code, math, tools,
todos, reasoning, errors), multi-model groups, row actions, attachments shown in rows,
translations, usage, the empty state and a chat's header (its model picker).

The names load on first use: a module that needs one (the composer's attachment strip)
imports only its own module, not every row and block of the conversation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cherry_desktop.ui._lazy import lazy_getattr

if TYPE_CHECKING:
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
    "refresh_row_times",
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

_LAZY = {
    "ADDED_BG": "cherry_desktop.ui.chat._tool_view",
    "ArtifactsCard": "cherry_desktop.ui.chat._todo_card",
    "AttachmentButton": "cherry_desktop.ui.chat._attachment_view",
    "AttachmentStrip": "cherry_desktop.ui.chat._attachment_view",
    "AttachmentViewer": "cherry_desktop.ui.chat._attachment_view",
    "COPY_SHORTCUT": "cherry_desktop.ui.chat._message_actions",
    "CUT_SHORT_KEY": "cherry_desktop.ui.chat._message_row",
    "ChatHeader": "cherry_desktop.ui.chat._model_picker",
    "CodeBlock": "cherry_desktop.ui.chat._code_block",
    "CompactionDivider": "cherry_desktop.ui.chat._todo_card",
    "EmptyState": "cherry_desktop.ui.chat._empty_state",
    "ErrorBlock": "cherry_desktop.ui.chat._blocks",
    "ErrorWords": "cherry_desktop.ui.chat._error_words",
    "HISTORY_RESET_KEY": "cherry_desktop.ui.chat._message_row",
    "IssueWords": "cherry_desktop.ui.chat._model_picker",
    "LiveText": "cherry_desktop.ui.chat._blocks",
    "MarkdownView": "cherry_desktop.ui.chat._markdown",
    "MessageRow": "cherry_desktop.ui.chat._message_row",
    "MessageView": "cherry_desktop.ui.chat._message_view",
    "PAGE_SIZE": "cherry_desktop.ui.chat._older_rows",
    "PlanCard": "cherry_desktop.ui.chat._todo_card",
    "REGENERATE_SHORTCUT": "cherry_desktop.ui.chat._message_actions",
    "REMOVED_BG": "cherry_desktop.ui.chat._tool_view",
    "ROW_SPACING": "cherry_desktop.ui.chat._message_view",
    "ReasoningBlock": "cherry_desktop.ui.chat._blocks",
    "SiblingGroupView": "cherry_desktop.ui.chat._sibling_group",
    "TODO_TOOL": "cherry_desktop.ui.chat._todo_card",
    "TodoCard": "cherry_desktop.ui.chat._todo_card",
    "ToolCard": "cherry_desktop.ui.chat._blocks",
    "TranslationBlock": "cherry_desktop.ui.chat._translate",
    "UndoBar": "cherry_desktop.ui.chat._message_actions",
    "UsageSummary": "cherry_desktop.ui.chat._usage",
    "clear_highlight_caches": "cherry_desktop.ui.chat._code_block",
    "copy_markdown": "cherry_desktop.ui.chat._message_actions",
    "describe_attachment_error": "cherry_desktop.ui.chat._attachment_view",
    "diff_html": "cherry_desktop.ui.chat._tool_view",
    "display_tool_name": "cherry_desktop.ui.chat._tool_view",
    "error_fields": "cherry_desktop.ui.chat._error_words",
    "format_cost": "cherry_desktop.ui.chat._usage",
    "has_math": "cherry_desktop.ui.chat._math",
    "highlight_cache_info": "cherry_desktop.ui.chat._code_block",
    "readable_output": "cherry_desktop.ui.chat._tool_view",
    "refresh_footers": "cherry_desktop.ui.chat._usage",
    "refresh_row_times": "cherry_desktop.ui.chat._row_time",
    "replace_math": "cherry_desktop.ui.chat._math",
    "split_finished_blocks": "cherry_desktop.ui.chat._markdown_text",
    "split_plan_heading": "cherry_desktop.ui.chat._todo_card",
    "terminal_error": "cherry_desktop.ui.chat._error_words",
    "thumbnail_from_bytes": "cherry_desktop.ui.chat._attachment_view",
    "todos_of": "cherry_desktop.ui.chat._todo_card",
    "tool_diff": "cherry_desktop.ui.chat._tool_view",
    "tool_input_html": "cherry_desktop.ui.chat._tool_view",
    "translate_row": "cherry_desktop.ui.chat._translate",
    "warm_up_highlighting": "cherry_desktop.ui.chat._code_block",
}


__getattr__ = lazy_getattr(__name__, _LAZY)
