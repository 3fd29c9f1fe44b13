"""`ClaudeCodeWarmQueryManager`: one prewarmed SDK query per idle session.

Prewarmed when a session goes idle with a known resume token, consumed once by the next
connect, discarded when its signature (model, credentials, permission mode, disabled tools,
prompt facts) or resume token no longer matches, closed after its idle TTL.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from cherry_desktop.core.ai.runtime.claude_code.sdk_client import CallbackRouter, SdkClient, close_client

log = logging.getLogger(__name__)

DEFAULT_WARM_TTL_S = 120.0


@dataclass
class WarmQuery:
    session_id: str
    signature: str
    resume: str | None
    client: SdkClient
    router: CallbackRouter
    ttl_task: asyncio.Task[None] | None = field(default=None, repr=False)


class ClaudeCodeWarmQueryManager:
    def __init__(self, ttl_s: float = DEFAULT_WARM_TTL_S) -> None:
        self.ttl_s = ttl_s
        self._warm: dict[str, WarmQuery] = {}
        self._background: set[asyncio.Task[None]] = set()

    def has(self, session_id: str) -> bool:
        return session_id in self._warm

    async def prewarm(
        self,
        session_id: str,
        signature: str,
        resume: str | None,
        factory: Callable[[CallbackRouter], Awaitable[SdkClient]],
    ) -> bool:
        """Start (or keep) a warm query for the session; True when one is ready."""
        current = self._warm.get(session_id)
        if current is not None and current.signature == signature and current.resume == resume:
            self._arm_ttl(current)
            return True
        if current is not None:
            await self.close(session_id)
        router = CallbackRouter()
        try:
            client = await factory(router)
        except Exception:
            log.warning("prewarming Claude Code for session %s failed", session_id, exc_info=True)
            return False
        warm = WarmQuery(session_id, signature, resume, client, router)
        previous = self._warm.pop(session_id, None)
        if previous is not None:  # a concurrent prewarm won the race: keep the newest
            await self._discard(previous)
        self._warm[session_id] = warm
        self._arm_ttl(warm)
        return True

    def consume(self, session_id: str, signature: str, resume: str | None) -> WarmQuery | None:
        """Take the warm query if it still matches; a stale one is closed in the background."""
        warm = self._warm.pop(session_id, None)
        if warm is None:
            return None
        if warm.ttl_task is not None:
            warm.ttl_task.cancel()
        if warm.signature != signature or warm.resume != resume:
            log.debug("warm query of session %s is stale; discarding", session_id)
            self._spawn(self._discard(warm))
            return None
        return warm

    async def close(self, session_id: str) -> None:
        warm = self._warm.pop(session_id, None)
        if warm is not None:
            await self._discard(warm)

    async def close_all(self) -> None:
        warms = list(self._warm.values())
        self._warm.clear()
        await asyncio.gather(*(self._discard(w) for w in warms), return_exceptions=True)

    def _arm_ttl(self, warm: WarmQuery) -> None:
        if warm.ttl_task is not None:
            warm.ttl_task.cancel()

        async def expire() -> None:
            await asyncio.sleep(self.ttl_s)
            if self._warm.get(warm.session_id) is warm:
                self._warm.pop(warm.session_id, None)
                await close_client(warm.client)

        warm.ttl_task = asyncio.get_running_loop().create_task(expire())

    async def _discard(self, warm: WarmQuery) -> None:
        if warm.ttl_task is not None:
            warm.ttl_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await warm.ttl_task
        await close_client(warm.client)

    def _spawn(self, coro: Awaitable[None]) -> None:
        async def run() -> None:
            await coro

        task = asyncio.get_running_loop().create_task(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)
