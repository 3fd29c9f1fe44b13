"""Boot recovery: agent-session assistant rows a crash left `pending` become interrupted errors.

The partial parts a checkpoint saved are kept; a trailing `data-error` part (code
`interrupted`, the same as chat rows) says why the row stopped. Queued follow-ups need no
recovery: they are persisted and offered again (held).
"""

from __future__ import annotations

from cherry_desktop.core.ai.stream.persistence import error_part
from cherry_desktop.core.ai.stream.recovery import INTERRUPTED
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.messages import without_open_approvals


def recover_interrupted_rows(repos: Repositories) -> int:
    """Mark every pending agent-session assistant row as an interrupted error; return how many."""
    count = 0
    for row in repos.session_messages.list_pending():
        parts = without_open_approvals(list(row.parts))
        if not (parts and parts[-1].type == "data-error"):
            parts.append(error_part(INTERRUPTED))
        repos.session_messages.update_message(row.id, parts=parts, status="error")
        count += 1
    return count
