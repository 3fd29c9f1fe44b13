"""The kinds of `StreamListener`, as base classes the manager tells apart with `isinstance`.

Every listener implements the `StreamListener` protocol (types.py). What the manager does
differently for some of them is said by the class they derive from, never by a flag:

- `RendererListener`: a window rendering the topic (the spec's `WebContentsListener`). With
  `background_mode = "abort"` a stream whose last renderer went away (died or detached) is
  stopped; a stream that never had one (a translation with only its persistence listener, a
  headless stream) runs to its end and persists.
- `TerminalListener`: a terminal-only consumer (persistence, trace flush, the agent host's
  turn listener). Its terminal events are dispatched before the subscribers' and it never
  counts as a subscriber; every other listener is one (windows, channels, SSE, callbacks).
- `ChunkBlindListener`: a terminal listener that is never offered chunks (the execution loop
  skips it per chunk instead of calling its no-op `on_chunk`).
- `PersistingListener`: a terminal listener that writes the turn. `drain_in_flight` waits for
  the streams that carry one, and when `takes_checkpoints` it is offered the running message
  about once a second (crash-safe streaming).
"""

from __future__ import annotations

from abc import ABC, abstractmethod

# Defined outside the broker so the UI's window listener can derive from it before the broker
# loads (see renderer.py); re-exported here with the other kinds.
from cherry_desktop.core.ai.renderer import RendererListener as RendererListener
from cherry_desktop.core.ai.stream.types import (
    StreamDoneResult,
    StreamErrorResult,
    StreamListener,
    StreamPausedResult,
    UniqueModelId,
)
from cherry_desktop.core.messages import UIMessage, UIMessageChunk


class TerminalListener(ABC):
    """A terminal-only `StreamListener`: always alive unless it says otherwise, chunks are
    optional (the default `on_chunk` ignores them)."""

    @property
    @abstractmethod
    def id(self) -> str: ...

    def is_alive(self) -> bool:
        return True

    def on_chunk(self, chunk: UIMessageChunk, source_model_id: UniqueModelId | None = None,
                 anchor_message_id: str | None = None) -> None:
        return None

    @abstractmethod
    async def on_done(self, result: StreamDoneResult) -> None: ...

    @abstractmethod
    async def on_paused(self, result: StreamPausedResult) -> None: ...

    @abstractmethod
    async def on_error(self, result: StreamErrorResult) -> None: ...


class ChunkBlindListener(TerminalListener):
    """A terminal listener that never looks at chunks: it is not offered them at all."""


class PersistingListener(TerminalListener):
    """A terminal listener that writes the turn (see module docstring)."""

    @property
    def takes_checkpoints(self) -> bool:
        """Whether `on_checkpoint` writes anything (asked when the listener is added)."""
        return False

    def on_checkpoint(self, partial: UIMessage, model_id: UniqueModelId | None,
                      anchor_message_id: str | None) -> None:
        """The running message so far, offered off the chunk path; never awaited."""
        return None


def is_subscriber(listener: StreamListener) -> bool:
    """A listener that is not terminal-only: it hears terminals after persistence, and the
    continuations carry it forward onto the next turn."""
    return not isinstance(listener, TerminalListener)


def is_renderer(listener: StreamListener) -> bool:
    return isinstance(listener, RendererListener)


def takes_chunks(listener: StreamListener) -> bool:
    return not isinstance(listener, ChunkBlindListener)


def takes_checkpoints(listener: StreamListener) -> bool:
    return isinstance(listener, PersistingListener) and listener.takes_checkpoints


def bears_persistence(listener: StreamListener) -> bool:
    return isinstance(listener, PersistingListener)
