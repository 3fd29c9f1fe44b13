"""How a tool card reads (core's `tool_view`: by the runtime's descriptor and ACP's kind), for
the tool cards of the transcript and the approval card; core is imported on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cherry_desktop.core.views.tool_view import ToolView


def tool_view(tool_name: str, tool_input: Any, provider_metadata: Any = None) -> ToolView:
    from cherry_desktop.core.views.tool_view import tool_view as view

    return view(tool_name, tool_input, provider_metadata)


def is_todo_list(tool_name: str, provider_metadata: Any = None) -> bool:
    from cherry_desktop.core.views.tool_view import is_todo_list as todo

    return todo(tool_name, provider_metadata)
