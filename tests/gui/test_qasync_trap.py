"""Regression for a measured trap: PySide6-Essentials 6.12.0 + qasync 0.28 on Python 3.11 died
with "Fatal Python error: none_dealloc" after ~20 000 loop iterations. The app pins PySide6
below 6.12; this test runs 20 000 iterations on the app's qasync loop so a bad release fails CI."""

from __future__ import annotations

import asyncio

import pytest
import qasync

pytestmark = pytest.mark.gui


async def test_twenty_thousand_loop_iterations_on_qasync() -> None:
    loop = asyncio.get_running_loop()
    assert isinstance(loop, qasync.QEventLoop)
    for _ in range(20_000):
        await asyncio.sleep(0)
