"""Follow-ups (`enqueue_user_message`, `steer_now`): a message sent while a turn runs is
redirected into that turn when its runtime can take it (`try_redirect`), else it joins the
queue (`LiveSession.queue_follow_up`), which hands over to its head once the session is idle.

Steering is queue-based, never an interrupt. A redirect is valid only into an open normal turn
(its stream open, not stopped) of a connection that `Steers`, and never for a message with files
(files ride a turn; a steer reaches Claude Code as hook text). What happens next is the
runtime's to say: a steer boundary (`LiveSession.roll_steer_boundary`: the assistant row rolls
so the steer sorts between A1a and A2) or steer-undelivered (`LiveSession.requeue_undelivered`:
the steer becomes the next turn, first in the queue).
"""

from __future__ import annotations

import logging
from typing import Literal

from cherry_desktop.core.ai.agent_session import turn_starts
from cherry_desktop.core.ai.agent_session.follow_ups import FollowUpMode, FollowUpResult
from cherry_desktop.core.ai.agent_session.host import SessionHost
from cherry_desktop.core.ai.agent_session.live_session import LiveSession
from cherry_desktop.core.ai.agent_session.runtime_input import carries_files
from cherry_desktop.core.ai.runtime.types import RuntimeRedirectInput, Steers
from cherry_desktop.core.messages import UIMessage

log = logging.getLogger(__name__)

#: What `try_redirect` did with a steer (None: not redirected).
RedirectOutcome = Literal["injected", "requeued"] | None


async def try_redirect(session: LiveSession, message: UIMessage) -> RedirectOutcome:
    """Steer `message` into the session's open normal turn, when its runtime can: "injected",
    else "requeued" (the runtime took it but settled without it: `requeue_undelivered` queued it
    already) or None (not redirected)."""
    turn = session.live_turn
    conn = session.connection
    if turn is None or conn is None or turn.kind != "normal" or not turn.sent or turn.interrupted:
        return None
    seg = turn.active_segment
    if (seg is None or not seg.opened or not isinstance(conn, Steers) or not conn.supports_redirect
            or carries_files(message)):
        return None
    # Counted before the await: the runtime may inject it (a steer boundary) or report it
    # undelivered (requeued) before its answer to the redirect arrives.
    turn.expect_steer(message)
    try:
        ok = await conn.redirect(RuntimeRedirectInput(message=message, system_reminder=True))
    except Exception:
        log.exception("redirect into session %s failed; queued instead", session.session_id)
        ok = False
    if message.id in turn.undelivered:
        return "requeued"  # reported undelivered meanwhile (or the settle's safety net)
    if ok and session.current is turn and not turn.settled:
        return "injected"
    pending = turn.drop_steer(message.id)
    # The turn ended meanwhile: a steer boundary took it (injected), else it never went in.
    return "injected" if ok and not pending else None


async def enqueue_user_message(host: SessionHost, session: LiveSession, message: UIMessage,
                               mode: FollowUpMode) -> FollowUpResult:
    """Redirect a persisted follow-up into the open normal turn when the driver can steer, else
    queue it behind what is already queued (an idle session starts it at once)."""
    outcome = await try_redirect(session, message) if mode == "steer" else None
    if outcome is not None:
        # "requeued": the runtime took the steer, then settled without it while the redirect was
        # in flight; it is queued already (or running as the next turn).
        session.publish()
        return "injected" if outcome == "injected" else "queued"
    session.queue_follow_up(message, steer=mode == "steer")
    if not host.hand_over(session.session_id):
        session.publish()
    return "queued"


async def steer_now(host: SessionHost, session: LiveSession,
                    user_message_id: str) -> Literal["injected", "started", "queued"]:
    """Send one queued follow-up now: steer it into the running turn when possible, start it when
    the session is idle, else move it to the head of the queue."""
    row = host.messages.find_message(user_message_id)
    outcome = await try_redirect(session, row.to_ui_message()) if row is not None else None
    if outcome == "injected":
        session.pending_turns.take(user_message_id)
        session.publish()
        return "injected"
    if not session.pending_turns.contains(user_message_id):
        session.publish()  # reported undelivered and already started as the next turn
        return "started"
    session.pending_turns.move_to_front(user_message_id)
    # Only this message is sent now: a held queue stays held behind it.
    started = await turn_starts.start_next_turn(host, session, past_hold=True)
    session.publish()
    return "started" if started else "queued"
