"""Boot-time recovery of chat rows a killed process left `pending`.

Their checkpointed partial parts stay; the row becomes `error` with a trailing
`data-error` part coded `interrupted`, so the UI shows what arrived and why it stopped.
"""

from __future__ import annotations

import logging

from cherry_desktop.core.ai.stream.persistence import error_part
from cherry_desktop.core.ai.stream.types import SerializedError
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.messages import ErrorCode

log = logging.getLogger(__name__)

INTERRUPTED = SerializedError(message="The reply was interrupted when the app stopped.",
                              name="InterruptedError", code=ErrorCode.INTERRUPTED)


def recover_interrupted_messages(repos: Repositories) -> list[str]:
    """Mark every pending chat message as interrupted; return their ids. Call at app start,
    before any stream runs."""
    recovered: list[str] = []
    for row in repos.messages.list_pending():
        parts = list(row.parts)
        if not (parts and parts[-1].type == "data-error"):
            parts.append(error_part(INTERRUPTED))
        repos.messages.update_message(row.id, parts=parts, status="error")
        recovered.append(row.id)
    if recovered:
        log.warning("marked %d interrupted chat message(s) as error", len(recovered))
    return recovered
