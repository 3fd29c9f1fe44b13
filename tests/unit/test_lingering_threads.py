"""`lingering_threads`: what still runs after the app's loop closed (joined within a bound)."""

from __future__ import annotations

import _thread
import threading

from cherry_desktop.core.app.lingering_threads import lingering_threads


def test_a_thread_that_ends_within_the_bound_is_joined() -> None:
    go = threading.Event()
    worker = threading.Thread(target=go.wait, args=(30,), daemon=True)
    worker.start()
    threading.Timer(0.05, go.set).start()
    assert lingering_threads(timeout_s=30) == []
    assert not worker.is_alive()


def test_a_thread_still_running_after_the_bound_is_named() -> None:
    release = threading.Event()
    worker = threading.Thread(target=release.wait, args=(30,), daemon=True, name="stuck")
    worker.start()
    try:
        assert lingering_threads(timeout_s=0.05) == [worker]
    finally:
        release.set()
        worker.join()


def test_threads_threading_did_not_start_are_not_joined() -> None:
    """A foreign thread (Qt's, say) that ran Python code is seen as a dummy: it cannot be joined."""
    seen: list[threading.Thread] = []
    done = threading.Event()

    def foreign() -> None:
        seen.append(threading.current_thread())
        done.set()

    _thread.start_new_thread(foreign, ())
    assert done.wait(30)
    assert seen and seen[0] in threading.enumerate()
    assert lingering_threads(timeout_s=1) == []
