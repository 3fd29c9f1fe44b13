"""Which models answer a turn, and the siblings group of a multi-model turn."""

from __future__ import annotations

from collections.abc import Iterable

from cherry_desktop.core.ai.stream.types import DispatchError, DuplicateModelError, UniqueModelId
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.messages import ErrorCode


def resolve_models(mentioned: Iterable[UniqueModelId], fallback: UniqueModelId | None) -> list[UniqueModelId]:
    """Mentioned models (in order), else the topic's model; never empty. A model mentioned
    twice is refused (`DuplicateModelError`): call this before writing any row."""
    out: list[UniqueModelId] = []
    for m in mentioned:
        if m in out:
            raise DuplicateModelError(m)
        if m:
            out.append(m)
    if not out and fallback:
        out.append(fallback)
    if not out:
        raise DispatchError(ErrorCode.NO_MODEL, "the topic has no model and none was mentioned")
    return out


def siblings_group_id(repos: Repositories, topic_id: str, models: list[UniqueModelId]) -> int | None:
    return repos.messages.next_siblings_group_id(topic_id) if len(models) > 1 else None
