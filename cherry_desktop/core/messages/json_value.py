"""`JsonValue`: what `json.loads` returns and `json.dumps` takes, as one recursive type.

For the JSON the app reads and writes as plain data (runtime records, API bodies, stored
settings): a reader narrows a value with `isinstance` before it uses it, instead of trusting
it blindly. Pure typing: importing this module costs nothing (no pydantic).
"""

from __future__ import annotations

from typing import TypeAlias, Union

JsonScalar: TypeAlias = str | int | float | bool | None
# `Union[...]` with string forward references: a recursive alias mypy understands.
JsonValue: TypeAlias = Union[JsonScalar, list["JsonValue"], dict[str, "JsonValue"]]  # noqa: UP007
JsonObject: TypeAlias = dict[str, JsonValue]


def json_object(value: JsonValue) -> JsonObject:
    """`value` when it is a JSON object, else an empty one (for reading optional members)."""
    return value if isinstance(value, dict) else {}


def json_int(value: JsonValue) -> int:
    """`value` when it is an integer (not a bool), else 0 (token counts, sizes)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


__all__ = ["JsonObject", "JsonScalar", "JsonValue", "json_int", "json_object"]
