"""`RendererListener`: marks the stream listener of a window (the spec's `WebContentsListener`).

With `background_mode = "abort"` a stream whose last renderer went away is stopped; a stream
that never had one runs to its end (see `core.ai.stream.listeners`, which re-exports this
class with the other listener kinds). It lives here, dependency-free, because the UI's window
listener derives from it when its module loads, before the first paint, and the stream broker
(`core.ai.stream`, with pydantic behind it) is loaded only after that.
"""

from __future__ import annotations


class RendererListener:
    """Marks a `StreamListener` that renders a topic in a window.

    A plain class (no ABC metaclass), so a Qt object can derive from it next to `QObject`.
    """

    __slots__ = ()
