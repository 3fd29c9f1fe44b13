"""A pytest plugin: an async test may not leave asyncio tasks pending on its loop.

The rule: every async test runs on its own, function-scoped loop (pytest-asyncio's
`_function_scoped_runner`; the gui tests' loop is a qasync one, made by the factory in
tests/conftest.py). After the test *and every async fixture on that loop* are torn down, and
the loop has had a short grace of a few iterations (for tasks already on their way out, e.g.
finishing a cancellation), any task still pending on that loop was started by the test or its
fixtures and never cancelled nor awaited: that is a leak, and the test errors at teardown,
naming each leaked task's coroutine and where it is suspended.

Tasks on wider-scoped loops (a module- or session-scoped fixture's loop, such as a server
shared by a module's tests) are meant to outlive a single test and are not checked. No name
lists: a task is judged only by the loop it runs on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Generator
from typing import Any

import pytest

FUNCTION_RUNNER = "_function_scoped_runner"
GRACE_ITERATIONS = 10


def pending_tasks(loop: asyncio.AbstractEventLoop) -> list[asyncio.Task[Any]]:
    return [t for t in asyncio.all_tasks(loop) if not t.done()]


def settle(loop: asyncio.AbstractEventLoop, iterations: int = GRACE_ITERATIONS) -> list[asyncio.Task[Any]]:
    """Let `loop` run a few iterations (stopping early once nothing is pending); what is still pending."""
    for _ in range(iterations):
        if not pending_tasks(loop):
            break
        loop.run_until_complete(asyncio.sleep(0))
    return pending_tasks(loop)


def describe_task(task: asyncio.Task[Any]) -> str:
    coro = task.get_coro()
    name = getattr(coro, "__qualname__", None) or repr(coro)
    frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
    where = f" at {frame.f_code.co_filename}:{frame.f_lineno}" if frame is not None else ""
    return f"{task.get_name()}: {name}{where}"


def leak_report(leaked: list[asyncio.Task[Any]]) -> str:
    lines = "\n".join(f"  - {describe_task(t)}" for t in leaked)
    return (f"{len(leaked)} asyncio task(s) still pending after the test and its fixtures were torn down "
            f"(cancel or await what you start):\n{lines}")


def check_loop(loop: asyncio.AbstractEventLoop, before: frozenset[asyncio.Task[Any]] = frozenset()) -> None:
    """Fail when tasks (other than those in `before`) are still pending on `loop` after the grace."""
    if loop.is_closed():
        return
    leaked = [t for t in settle(loop) if t not in before]
    if leaked:
        pytest.fail(leak_report(leaked), pytrace=False)


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(
    fixturedef: pytest.FixtureDef[Any], request: pytest.FixtureRequest
) -> Generator[None, Any, Any]:
    """Once a test's own loop exists, check it after everything that used it is torn down.

    The async fixtures on this loop register their teardown on the runner later than this
    check does, so (finalizers run last-in first-out) they are torn down before it; the
    runner's own teardown (closing the loop, which would silently cancel the leaks) is
    registered earlier, so it runs after.
    """
    result = yield
    if fixturedef.argname == FUNCTION_RUNNER:
        loop = result.get_loop()
        before = frozenset(pending_tasks(loop))  # a new loop: empty, unless a factory starts tasks
        fixturedef.addfinalizer(lambda: check_loop(loop, before))
    return result
