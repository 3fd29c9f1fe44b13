"""Auto-naming: after the first exchange of a chat or an agent session, a prompt stream
(`AiStreamManager.stream_prompt`, the silent lifecycle) asks the topic's model, or the
`naming_model` setting's, for a short title in the UI language. The title is saved (only if
nobody named the topic meanwhile) and published under `topic_title_key(topic_id)` in the shared
cache, which every window's sidebar and header follow.

A topic is offered for naming when its stream status becomes `done`; `TopicNameRepository`
decides whether it is a first exchange of a never-named topic.
"""

from __future__ import annotations

import asyncio
import locale
import logging
import os
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from cherry_desktop.core.ai.prompt_streams import PromptStreams
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.lifecycle.container import Application, Service
from cherry_desktop.core.messages import TextDeltaChunk, UIMessageChunk
from cherry_desktop.core.state.shared_cache import TOPIC_STREAM_STATUS_PREFIX, SharedCache, topic_title_key

if TYPE_CHECKING:
    from cherry_desktop.core.ai.stream import StreamDoneResult, StreamErrorResult, StreamPausedResult

log = logging.getLogger(__name__)

#: The stream ids of naming prompts (`naming:<topic_id>`).
NAMING_STREAM_PREFIX = "naming:"
#: Marks the naming request (the demo server answers it with a title).
NAMING_MARKER = "[cherry:name-topic]"
MAX_TITLE_CHARS = 60
_EXCERPT_CHARS = 1200

#: The language the title is asked in, by UI locale.
_LANGUAGES = {"zh_CN": "Simplified Chinese", "zh_TW": "Traditional Chinese", "en_US": "English"}


def ui_locale(setting: str) -> str:
    """The UI's locale for the `language` setting ("" follows the system, as the UI does)."""
    name = setting or os.environ.get("LC_ALL") or os.environ.get("LC_MESSAGES") or os.environ.get("LANG") or ""
    if not name:
        name = locale.getlocale()[0] or ""
    name = name.split(".")[0].replace("-", "_")
    if name in _LANGUAGES:
        return name
    if name.startswith("zh"):
        return "zh_TW" if name.endswith(("TW", "HK", "MO", "Hant")) else "zh_CN"
    return "en_US"


def naming_system_prompt(locale_name: str) -> str:
    language = _LANGUAGES.get(locale_name, "English")
    return (f"{NAMING_MARKER} You name conversations. Reply with only a short title (at most six words) "
            f"in {language} for the conversation below: no quotes, no trailing punctuation, nothing else.")


def naming_prompt(user_text: str, assistant_text: str) -> str:
    return (f"User:\n{user_text[:_EXCERPT_CHARS]}\n\nAssistant:\n{assistant_text[:_EXCERPT_CHARS]}\n\n"
            "Title:")


def clean_title(text: str) -> str:
    """The model's answer as a one-line title: first non-empty line, no "Title:" label, quotes,
    Markdown marks or trailing punctuation, at most `MAX_TITLE_CHARS`."""
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    line = re.sub(r"^(title|标题|標題)\s*[:：]\s*", "", line, flags=re.I)
    for _ in range(2):  # quotes around, then punctuation after them, or the other way round
        line = line.strip().strip("\"'“”‘’「」『』`*#").strip()
        line = line.rstrip(".。!！?？,，;；:：").strip()
    if len(line) > MAX_TITLE_CHARS:
        line = line[:MAX_TITLE_CHARS - 1].rstrip() + "…"
    return line


class _NamingListener:
    """Collects the naming answer; hands it to the service when the stream ends."""

    def __init__(self, done: Callable[[str], None]) -> None:
        self.id = f"naming-{id(self)}"
        self._done = done
        self._parts: list[str] = []

    def on_chunk(self, chunk: UIMessageChunk, source_model_id: str | None = None,
                 anchor_message_id: str | None = None) -> None:
        if isinstance(chunk, TextDeltaChunk):
            self._parts.append(chunk.delta)

    async def on_done(self, result: StreamDoneResult) -> None:
        final = result.final_message
        self._done(final.text() if final is not None else "".join(self._parts))

    async def on_paused(self, result: StreamPausedResult) -> None:
        self._done("")

    async def on_error(self, result: StreamErrorResult) -> None:
        log.info("naming failed: %s", result.error)
        self._done("")

    def is_alive(self) -> bool:
        return True


class TopicNamingService(Service):
    """Names topics after their first exchange (see module docstring)."""

    name = "topic_naming"
    depends_on = ("database", "stream_manager")

    def __init__(self, manager: PromptStreams, repos: Repositories, shared_cache: SharedCache,
                 settings: Callable[[], tuple[str, str]]) -> None:
        """`settings()` gives (language setting, naming model setting) at each naming."""
        self.manager = manager
        self.repos = repos
        self.shared_cache = shared_cache
        self.settings = settings
        self.in_flight: dict[str, asyncio.Future[str]] = {}
        self._unsubscribe: Callable[[], None] | None = None

    async def on_init(self, app: Application) -> None:
        self._unsubscribe = self.shared_cache.subscribe(TOPIC_STREAM_STATUS_PREFIX, self._on_status, prefix=True)

    async def on_stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _on_status(self, key: str, value: object) -> None:
        from cherry_desktop.core.ai.stream import TopicStatusSnapshotEntry

        if isinstance(value, TopicStatusSnapshotEntry) and value.status == "done":
            self.maybe_name(key[len(TOPIC_STREAM_STATUS_PREFIX):])

    def maybe_name(self, topic_id: str) -> asyncio.Future[str] | None:
        """Start naming `topic_id` if it just had its first exchange and was never named; the
        future gives the title saved ("" when none was)."""
        if topic_id in self.in_flight:
            return self.in_flight[topic_id]
        exchange = self.repos.names.first_exchange(topic_id)
        if exchange is None:
            return None
        language, naming_model = self.settings()
        model = naming_model or exchange.model
        if not model:
            return None
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.in_flight[topic_id] = future

        def finish(answer: str) -> None:
            self.in_flight.pop(topic_id, None)
            title = clean_title(answer)
            saved = bool(title) and self.repos.names.set_auto_name(topic_id, title)
            if saved:
                self.shared_cache.set_shared(topic_title_key(topic_id), title)
            if not future.done():
                future.set_result(title if saved else "")

        try:
            self.manager.stream_prompt(
                stream_id=NAMING_STREAM_PREFIX + topic_id, unique_model_id=model,
                prompt=naming_prompt(exchange.user_text, exchange.assistant_text),
                system=naming_system_prompt(ui_locale(language)), listener=_NamingListener(finish))
        except Exception:
            log.exception("naming %s could not start", topic_id)
            finish("")
        return future
