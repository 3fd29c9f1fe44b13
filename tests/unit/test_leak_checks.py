"""The asyncio task-leak check (tests/leak_checks.py) fails a leaking test and passes a clean one."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.leak_checks import check_loop

INNER_TESTS = '''
import asyncio
import pytest


async def forever() -> None:
    await asyncio.Event().wait()


async def test_leaks_a_task() -> None:
    asyncio.get_running_loop().create_task(forever(), name="the-leak")


async def test_cancels_and_awaits_its_task() -> None:
    task = asyncio.create_task(forever())
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_cancels_without_awaiting() -> None:
    task = asyncio.create_task(forever())
    await asyncio.sleep(0)
    task.cancel()  # the grace lets the cancellation land


@pytest.fixture
async def server():
    task = asyncio.create_task(forever())
    yield task
    task.cancel()


async def test_a_fixture_cancels_in_its_teardown(server) -> None:
    assert not server.done()
'''


REPO = Path(__file__).resolve().parents[2]


def test_the_check_errors_a_leaking_test_and_passes_the_others(pytester: pytest.Pytester,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    pytester.makepyfile(test_inner=INNER_TESTS)
    result = pytester.runpytest_subprocess(
        "-p", "tests.leak_checks", "-p", "no:cacheprovider",
        "-o", "asyncio_mode=auto", "-o", "asyncio_default_fixture_loop_scope=function",
    )
    result.assert_outcomes(passed=4, errors=1)
    result.stdout.fnmatch_lines(["*ERROR at teardown of test_leaks_a_task*",
                                 "*1 asyncio task(s) still pending*", "*the-leak: forever at *test_inner.py*"])


def test_check_loop_names_a_pending_task_and_ignores_those_there_before() -> None:
    loop = asyncio.new_event_loop()
    try:
        async def forever() -> None:
            await asyncio.Event().wait()

        old = loop.create_task(forever(), name="old")
        check_loop(loop, frozenset({old}))  # passes: it was there before
        loop.create_task(forever(), name="new")
        with pytest.raises(pytest.fail.Exception, match=r"new: .*forever"):
            check_loop(loop, frozenset({old}))
    finally:
        for task in asyncio.all_tasks(loop):
            task.cancel()
        loop.run_until_complete(asyncio.sleep(0))
        loop.close()
