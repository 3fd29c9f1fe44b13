"""JSON as models, tools and agent runtimes send it: a tool's input and output, a part's data,
a message's stats and metadata, an approval request. Its shape is theirs, not ours: the UI reads
it with `isinstance` and `.get` where it looks inside, so these are the one place `Any` stands
for it in the ui (one alias, one justification, instead of an `Any` at every use)."""

from __future__ import annotations

from typing import Any, TypeAlias

#: One JSON value of any shape.
Json: TypeAlias = Any
#: A JSON object (a tool card's fields, a message's stats or metadata, an approval).
JsonObject: TypeAlias = dict[str, Any]
