"""JSON bodies as the gateway sees them off the wire.

A body is whatever a caller or an upstream sent. The translation (`to_openai`, `to_anthropic`)
and the routes read it defensively (`.get` with defaults, `str()`, `isinstance` where a field
may take two shapes) and a table-driven test pins every shape each dialect sends, so these two
aliases are `Any` on purpose: a recursive JSON type would make every read a cast without
checking anything more.
"""

from __future__ import annotations

from typing import Any, TypeAlias

#: Any JSON value of a body (object, list, string, number, bool or null).
Wire: TypeAlias = Any
#: A JSON object of a body.
WireObject: TypeAlias = dict[str, Any]
