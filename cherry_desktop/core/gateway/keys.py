"""The gateway's API key: ``cs-sk-…``, made on first enable, kept in the keyring only.

A request presents it as ``x-api-key`` (Anthropic's header) or ``Authorization: Bearer``
(OpenAI's); it is compared in constant time. `serve --key` (or ``CHERRY_API_KEY``) gives a key
for one run instead, which is never stored.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping

from cherry_desktop.core.net.request_keys import key_matches, presented_key
from cherry_desktop.core.storage.credentials import CredentialStore

KEY_PREFIX = "cs-sk-"
#: The keyring entry of the gateway key (beside the providers' keys).
GATEWAY_KEY_NAME = "gateway-api-key"


def new_gateway_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def stored_gateway_key(credentials: CredentialStore) -> str | None:
    return credentials.try_get(GATEWAY_KEY_NAME)


def ensure_gateway_key(credentials: CredentialStore) -> str:
    """The stored key, made and stored first when there is none (raises when the keyring is
    unavailable: the gateway does not run without a key)."""
    key = credentials.get(GATEWAY_KEY_NAME)
    if key:
        return key
    key = new_gateway_key()
    credentials.set(GATEWAY_KEY_NAME, key)
    return key


def regenerate_gateway_key(credentials: CredentialStore) -> str:
    """A new stored key; the old one stops working at once for a running gateway that reads
    its key from `credentials` (`GatewayKeyCheck`)."""
    key = new_gateway_key()
    credentials.set(GATEWAY_KEY_NAME, key)
    return key


class GatewayKeyCheck:
    """Checks requests against a fixed key (`serve --key`) or the keyring's (read once and kept,
    `refresh()` after a regenerate)."""

    def __init__(self, credentials: CredentialStore | None = None, *, fixed_key: str | None = None) -> None:
        self._credentials = credentials
        self._fixed = fixed_key
        self._cached: str | None = None

    @property
    def key(self) -> str:
        if self._fixed:
            return self._fixed
        if self._cached is None and self._credentials is not None:
            self._cached = stored_gateway_key(self._credentials) or ""
        return self._cached or ""

    def refresh(self) -> None:
        self._cached = None

    def allows(self, headers: Mapping[str, str]) -> bool:
        return key_matches(presented_key(headers), self.key)


__all__ = ["GATEWAY_KEY_NAME", "KEY_PREFIX", "GatewayKeyCheck", "ensure_gateway_key",
           "new_gateway_key", "regenerate_gateway_key", "stored_gateway_key"]
