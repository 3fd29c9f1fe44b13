"""Decoding JSON cells: a corrupt cell becomes an error for its row, never an exception."""

from __future__ import annotations

import json
import logging

# `Any`: what a JSON cell holds (`json.loads`' own type); each reader narrows it to the shape it
# stores (the repositories check for a dict or a list before they use it).
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # Loaded at the first parse: a window paints before any message is read (startup).
    from cherry_desktop.core.messages import MessagePart

log = logging.getLogger(__name__)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def loads_or_error(text: str | None, default: Any, *, where: str) -> tuple[Any, str | None]:
    if text is None or text == "":
        return default, None
    try:
        return json.loads(text), None
    except (ValueError, TypeError) as exc:
        log.error("corrupt JSON in %s: %s", where, exc)
        return default, f"corrupt JSON in {where}: {exc}"


def parts_from_json(text: str | None, *, where: str) -> tuple[list[MessagePart], str | None]:
    raw, err = loads_or_error(text, [], where=where)
    if err is not None:
        return [], err
    if not isinstance(raw, list):
        return [], f"corrupt parts in {where}: expected a list, got {type(raw).__name__}"
    from pydantic import ValidationError

    from cherry_desktop.core.messages import parse_part

    parts: list[MessagePart] = []
    for i, item in enumerate(raw):
        try:
            parts.append(parse_part(item))
        except (ValidationError, AttributeError, TypeError) as exc:
            log.error("corrupt part %d in %s: %s", i, where, exc)
            return parts, f"corrupt part {i} in {where}: {exc}"
    return parts, None


def parts_to_json(parts: list[MessagePart]) -> str:
    return dumps([p.model_dump(mode="json", exclude_none=True) for p in parts])
