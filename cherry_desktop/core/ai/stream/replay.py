"""`build_compact_replay`: the attach-time compaction of one execution's ring buffer.

Runs of `text-delta` (or `reasoning-delta`) chunks with the same part id become one delta
whose text is the run joined; every other chunk is kept as is and in order. A late window
therefore gets a handful of chunks instead of thousands, and folds them into the same message.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cherry_desktop.core.messages import ReasoningDeltaChunk, TextDeltaChunk, UIMessageChunk

_MERGEABLE = ("text-delta", "reasoning-delta")


def _merged(first: Any, pieces: list[str]) -> UIMessageChunk:
    cls = TextDeltaChunk if first.type == "text-delta" else ReasoningDeltaChunk
    return cls.model_construct(type=first.type, id=first.id, delta="".join(pieces))


def build_compact_replay(chunks: Iterable[UIMessageChunk]) -> list[UIMessageChunk]:
    """Merge consecutive same-id text / reasoning deltas; keep everything else in order."""
    out: list[UIMessageChunk] = []
    append = out.append
    run_type: str | None = None
    run_id: str | None = None
    run_first: Any = None
    pieces: list[str] = []
    for chunk in chunks:
        c: Any = chunk
        t = c.type
        if t == "text-delta" or t == "reasoning-delta":
            if t == run_type and c.id == run_id:
                pieces.append(c.delta)
                continue
            if run_first is not None:
                append(run_first if len(pieces) == 1 else _merged(run_first, pieces))
            run_type, run_id, run_first, pieces = t, c.id, c, [c.delta]
            continue
        if run_first is not None:
            append(run_first if len(pieces) == 1 else _merged(run_first, pieces))
            run_type = run_id = run_first = None
        append(chunk)
    if run_first is not None:
        append(run_first if len(pieces) == 1 else _merged(run_first, pieces))
    return out
