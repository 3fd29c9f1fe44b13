"""SharedCache: the one key -> value store every window mirrors.

The spec's `cacheService.setShared` + `Cache_Sync`: core writes with `set_shared`, the UI's Qt
mirror subscribes and re-emits. Subscribers are held weakly (bound methods through
`WeakMethod`, plain callables through `ref`) and pruned once dead, so a closed window that
forgot to unsubscribe costs nothing. A subscriber that raises is logged and does not keep the
others from being told.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable
from dataclasses import dataclass

# `Any`: the cache holds whatever core publishes under a key (stream status snapshots, titles, a
# runtime's setup progress...); each subscriber knows its keys and reads their values.
from typing import Any

log = logging.getLogger(__name__)

CacheCallback = Callable[[str, Any], None]

# Key prefixes the spec names.
TOPIC_STREAM_STATUS_PREFIX = "topic.stream.statuses."
TOPIC_LAST_SEEN_COMPLETION_PREFIX = "topic.stream.last_seen_completion."
#: A topic's new name (auto-naming or a rename), for every window's sidebar and header.
TOPIC_TITLE_PREFIX = "topic.title."


def topic_stream_status_key(topic_id: str) -> str:
    return TOPIC_STREAM_STATUS_PREFIX + topic_id


def topic_title_key(topic_id: str) -> str:
    return TOPIC_TITLE_PREFIX + topic_id


def topic_last_seen_completion_key(topic_id: str) -> str:
    return TOPIC_LAST_SEEN_COMPLETION_PREFIX + topic_id


#: A runtime being set up before it can connect (pi installed with npm on its first use): an
#: `AgentRuntimeSetup` while it lasts, deleted when it ends (installed, or failed: the turn then
#: fails with the reason).
AGENT_RUNTIME_SETUP_PREFIX = "agent_runtime.setup."


def agent_runtime_setup_key(runtime_type: str) -> str:
    return AGENT_RUNTIME_SETUP_PREFIX + runtime_type


@dataclass(frozen=True)
class AgentRuntimeSetup:
    """What the windows of a runtime's sessions show while it is set up: the runtime, the
    version being installed, and the installer's newest output line."""

    runtime_type: str
    version: str
    last_line: str = ""


class _Subscription:
    __slots__ = ("_ref", "pattern", "prefix")

    def __init__(self, pattern: str, callback: CacheCallback, prefix: bool) -> None:
        self.pattern = pattern
        self.prefix = prefix
        self._ref: weakref.ref[Any]
        if hasattr(callback, "__self__") and hasattr(callback, "__func__"):
            self._ref = weakref.WeakMethod(callback)
        else:
            self._ref = weakref.ref(callback)

    def matches(self, key: str) -> bool:
        return key.startswith(self.pattern) if self.prefix else key == self.pattern

    def callback(self) -> CacheCallback | None:
        cb: CacheCallback | None = self._ref()
        return cb


class SharedCache:
    """Key -> value with weak subscribers and a snapshot for bootstrapping new windows."""

    def __init__(self) -> None:
        self._values: dict[str, Any] = {}
        self._subs: list[_Subscription] = []

    def get(self, key: str, default: Any = None) -> Any:
        return self._values.get(key, default)

    def set_shared(self, key: str, value: Any) -> None:
        """Store `value` under `key` and tell every matching live subscriber."""
        self._values[key] = value
        self._notify(key, value)

    def delete(self, key: str) -> None:
        if key in self._values:
            del self._values[key]
            self._notify(key, None)

    def snapshot(self, prefix: str = "") -> dict[str, Any]:
        """A copy of every entry (or those under `prefix`)."""
        if not prefix:
            return dict(self._values)
        return {k: v for k, v in self._values.items() if k.startswith(prefix)}

    def subscribe(self, key: str, callback: CacheCallback, *, prefix: bool = False) -> Callable[[], None]:
        """Call `callback(key, value)` on every change of `key` (or of every key starting with
        `key` when `prefix`). Held weakly; returns an unsubscribe function."""
        sub = _Subscription(key, callback, prefix)
        self._subs.append(sub)

        def unsubscribe() -> None:
            if sub in self._subs:
                self._subs.remove(sub)

        return unsubscribe

    @property
    def subscriber_count(self) -> int:
        self._prune()
        return len(self._subs)

    def _prune(self) -> None:
        self._subs = [s for s in self._subs if s.callback() is not None]

    def _notify(self, key: str, value: Any) -> None:
        dead = False
        for sub in list(self._subs):
            if not sub.matches(key):
                continue
            cb = sub.callback()
            if cb is None:
                dead = True
                continue
            try:
                cb(key, value)
            except Exception:
                log.exception("shared cache subscriber failed for %s", key)
        if dead:
            self._prune()
