"""`AiStreamManagerConfig`: the manager's settings, and the overrides its constructor takes.

`AiStreamManager(**overrides)` (tests: `AiStreamManager(max_buffer_chunks=3)`, as the spec's
`new AiStreamManager({ maxBufferChunks: 3 })`) and the settings dialog's live changes
(`set_background_mode`, `set_idle_timeout_ms`) name the fields of `ConfigOverrides`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypedDict

BackgroundMode = Literal["continue", "abort"]


@dataclass(frozen=True)
class AiStreamManagerConfig:
    grace_period_ms: float = 30_000
    # "abort": a stream whose last renderer (window) went away is stopped, its partial
    # persisted `paused`; a stream that never had one runs to its end.
    background_mode: BackgroundMode = "continue"
    max_buffer_chunks: int = 10_000
    # A silent upstream is stopped (its partial persisted `paused`, stop reason
    # "idle-timeout") after this long without a chunk, not counting the time a tool runs or
    # an approval is awaited; 0 disables.
    idle_timeout_ms: float = 300_000
    # Crash-safe streaming: a running execution's partial message is offered to
    # checkpoint-capable listeners at most this often; 0 disables.
    checkpoint_interval_ms: float = 1_000
    # The app's manager: `dispatch_stream_request` waits until `open_boot_gate()` (called once
    # boot recovery flipped the rows a crash left pending), so no placeholder precedes it.
    require_boot_reconcile: bool = False


class ConfigOverrides(TypedDict, total=False):
    """Any subset of `AiStreamManagerConfig`'s fields."""

    grace_period_ms: float
    background_mode: BackgroundMode
    max_buffer_chunks: int
    idle_timeout_ms: float
    checkpoint_interval_ms: float
    require_boot_reconcile: bool
