"""Corrupt resume history recovery (the spec's section of that name), the Claude Code side.

Each connection may recover once (`RecoveryBudget`, shared by both reasons) from a resumed
conversation the CLI cannot find (``No conversation found with session ID``, at connect or at
request time) or a request-time duplicate tool-use id (``tool_use ids must be unique``): it
drops the token, starts a new conversation and replays the pending input. Duplicate-id recovery
only before the turn emitted any visible output (a replay could repeat it or a tool's side
effect); missing-conversation recovery is not activity-gated.
"""

from __future__ import annotations

import uuid

#: Error texts that mark a corrupt resumed history.
MISSING_CONVERSATION_TEXT = "No conversation found with session ID"
DUPLICATE_TOOL_ID_TEXT = "tool_use ids must be unique"
#: How the CLI (2.1.x) rewords the API's duplicate-id 400 in its result.
DUPLICATE_TOOL_ID_CLI_TEXT = "duplicate tool_use id"


class RecoveryBudget:
    """One corrupt-resume recovery per connection, shared by both reasons."""

    def __init__(self) -> None:
        self.used = False

    def take(self) -> bool:
        if self.used:
            return False
        self.used = True
        return True


def is_valid_resume_token(token: str) -> bool:
    """A Claude Code session id is a UUID (canonical form)."""
    try:
        return str(uuid.UUID(token)) == token.lower()
    except ValueError:
        return False


def is_duplicate_tool_id_error(text: str) -> bool:
    normalized = text.replace("`", "").lower()
    return DUPLICATE_TOOL_ID_TEXT in normalized or DUPLICATE_TOOL_ID_CLI_TEXT in normalized


def refuses_resumed_history(error: str | None, *, turn_has_output: bool) -> bool:
    """Whether a failed result's `error` is a refused resumed history this turn may recover from."""
    if error is None:
        return False
    return (is_duplicate_tool_id_error(error) and not turn_has_output) or MISSING_CONVERSATION_TEXT in error
