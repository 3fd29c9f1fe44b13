"""Stored rows with their recorded usage: what `load_messages` and a sibling group hand the
message view (a row's footer shows its tokens and cost)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING

from cherry_desktop.ui.common import JsonObject

if TYPE_CHECKING:
    from cherry_desktop.core.data import StoredMessage
    from cherry_desktop.core.data.usage_cost import UsageSums


def with_usage(rows: list[StoredMessage], usage: Mapping[str, UsageSums]) -> list[StoredMessage]:
    """`rows` (StoredMessage) whose stats also carry their usage record's tokens (in, out, cache
    reads and writes) and `cost` where every request's model has prices."""
    out: list[StoredMessage] = []
    for row in rows:
        sums = usage.get(row.id)
        if sums is None or sums.empty:
            out.append(row)
            continue
        stats: JsonObject = dict(row.stats or {})
        stats.setdefault("input_tokens", sums.input_tokens)
        stats.setdefault("output_tokens", sums.output_tokens)
        if sums.cache_read_tokens:
            stats["cache_read_tokens"] = sums.cache_read_tokens
        if sums.cost is not None:
            stats["cost"] = sums.cost
        out.append(dataclasses.replace(row, stats=stats))
    return out
