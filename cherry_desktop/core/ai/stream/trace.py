"""`TraceFlushListener`: after a turn, flush the topic's spans to local trace history.

Spans are collected per topic by whoever produces them (`LocalTraceStorage.record_span`) and
appended as JSON lines to `<dir>/<topicId>.jsonl` when the topic's turn is done. Flushing is
the turn owner's business (the chat provider or the agent host adds this listener).
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Protocol, runtime_checkable

from cherry_desktop.core.ai.stream.listeners import ChunkBlindListener
from cherry_desktop.core.ai.stream.types import (
    StreamDoneResult,
    StreamErrorResult,
    StreamPausedResult,
    StreamTerminalResult,
)

log = logging.getLogger(__name__)


@runtime_checkable
class TraceStorage(Protocol):
    async def save_spans(self, topic_id: str) -> int: ...


class LocalTraceStorage:
    """Spans kept in memory per topic until flushed to a JSON-lines file per topic."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._pending: dict[str, list[dict[str, object]]] = {}

    def record_span(self, topic_id: str, span: dict[str, object]) -> None:
        self._pending.setdefault(topic_id, []).append(span)

    def path_for(self, topic_id: str) -> Path:
        return self.directory / (re.sub(r"[^A-Za-z0-9._-]", "_", topic_id) + ".jsonl")

    async def save_spans(self, topic_id: str) -> int:
        spans = self._pending.pop(topic_id, [])
        if not spans:
            return 0
        self.directory.mkdir(parents=True, exist_ok=True)
        with self.path_for(topic_id).open("a", encoding="utf-8") as fh:
            for span in spans:
                fh.write(json.dumps(span, ensure_ascii=False, default=str) + "\n")
        return len(spans)


class TraceFlushListener(ChunkBlindListener):
    """Flushes the topic's spans once its turn is done (terminal-only, never offered chunks)."""

    def __init__(self, topic_id: str, storage: TraceStorage) -> None:
        self.topic_id = topic_id
        self.storage = storage
        self._id = f"persistence:trace:{topic_id}"

    @property
    def id(self) -> str:
        return self._id

    async def _flush(self, result: StreamTerminalResult) -> None:
        if not result.is_topic_done:
            return
        try:
            await self.storage.save_spans(self.topic_id)
        except Exception:
            log.exception("trace flush of %s failed", self.topic_id)

    async def on_done(self, result: StreamDoneResult) -> None:
        await self._flush(result)

    async def on_paused(self, result: StreamPausedResult) -> None:
        await self._flush(result)

    async def on_error(self, result: StreamErrorResult) -> None:
        await self._flush(result)
