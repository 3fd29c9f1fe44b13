"""The key or token a local HTTP request presents, and its constant-time check.

One reading for every loopback endpoint that asks for a secret (the API gateway's key, a key
relay's and an MCP relay's per-connection token): ``x-api-key`` (Anthropic's header), else a
bearer ``authorization`` (OpenAI's and MCP's).
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping


def presented_key(headers: Mapping[str, str]) -> str:
    """The key a request carries: ``x-api-key``, else a bearer ``authorization``; "" if none.
    `headers` have lower-case names."""
    key = headers.get("x-api-key", "").strip()
    if key:
        return key
    scheme, _, value = headers.get("authorization", "").strip().partition(" ")
    return value.strip() if scheme.lower() == "bearer" else ""


def asgi_headers(raw: list[tuple[bytes, bytes]] | None) -> dict[str, str]:
    """An ASGI scope's raw header pairs as a name → value mapping (names lower-cased)."""
    return {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in raw or []}


def key_matches(presented: str, expected: str) -> bool:
    """Constant-time comparison; an empty expected key never matches."""
    return bool(expected) and hmac.compare_digest(presented.encode(), expected.encode())


__all__ = ["asgi_headers", "key_matches", "presented_key"]
