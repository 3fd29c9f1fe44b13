"""`parse_record`: one pi stdout line -> the record, reading no more of it than the connection uses.

pi repeats the whole assistant message in every ``message_update`` (``partial``, and again as
``message``), so a turn's lines grow with its reply: a 540-character answer streamed in 8-character
deltas is ~70 lines and ~100 KB of JSON, of which the connection reads ~600 bytes (each delta).
A streaming delta, by far the most frequent line, is therefore read from its head alone:

    {"type":"message_update","assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"...",

(the key order pi's ``JSON.stringify`` writes), giving ``{"type": "message_update",
"assistantMessageEvent": {"type", "contentIndex", "delta"}}``, which is all `PiStreamAdapter` reads
of a delta. ``turn_end`` and ``agent_end`` (the turn's messages again) are read up to their type
only: the connection uses nothing else of them. Every other line, or one whose head differs in the
least (another pi version, another key order, whitespace), is parsed whole with `json.loads`:
the fast paths only skip work, never guess.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from cherry_desktop.core.messages.json_value import JsonValue

#: `json`'s own string decoder (C), which the stubs do not declare: (text, index after the opening
#: quote) -> (the string, index after its closing quote).
_scanstring: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]

_DELTA_HEAD = re.compile(
    rb'\{"type":"message_update","assistantMessageEvent":\{"type":"(text_delta|thinking_delta|toolcall_delta)",'
    rb'"contentIndex":(\d+),"delta":"')
_TYPE_ONLY = re.compile(rb'\{"type":"(turn_end|agent_end)",')
#: The delta kinds as `str`, shared by every parsed record (no decode per line).
_KINDS = {b"text_delta": "text_delta", b"thinking_delta": "thinking_delta", b"toolcall_delta": "toolcall_delta"}


def parse_record(line: bytes) -> JsonValue:
    """The JSON value of one line (see the module doc); raises `ValueError` as `json.loads` does."""
    if not line.endswith(b"}"):
        return _loads(line)  # cut short (pi died writing it): json.loads says so
    head = _DELTA_HEAD.match(line)
    if head is not None:
        # The head is ASCII, so its byte length is the delta's character offset in the text.
        delta, _ = _scanstring(line.decode(), head.end())
        return {"type": "message_update", "assistantMessageEvent": {
            "type": _KINDS[head.group(1)], "contentIndex": int(head.group(2)), "delta": delta}}
    kind = _TYPE_ONLY.match(line)
    if kind is not None:
        return {"type": kind.group(1).decode()}
    return _loads(line)


def _loads(line: bytes) -> JsonValue:
    value: JsonValue = json.loads(line)
    return value
