"""Credentials in the OS keyring (service name `cherry-desktop`).

Keys never go to the database, the logs or a runtime's config; the one place a key leaves
this store is the environment variable that hands it to a child process. A machine without a
keyring backend raises `KeyringUnavailableError`, whose message says how to fix it; the app
keeps running without stored keys.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from keyring.backend import KeyringBackend

log = logging.getLogger(__name__)

SERVICE_NAME = "cherry-desktop"

FIX_HINT = (
    "No usable keyring backend was found, so API keys cannot be stored. "
    "On Linux install and unlock a Secret Service provider (GNOME Keyring or KWallet), "
    "or `pip install keyrings.alt` for a file-based keyring; then restart Cherry Desktop."
)


class KeyringUnavailableError(RuntimeError):
    """No keyring backend is available on this machine."""

    def __init__(self, detail: str = "") -> None:
        super().__init__(FIX_HINT + (f" ({detail})" if detail else ""))


def provider_key_name(provider_id: str) -> str:
    """The keyring user name under which a provider's API key is stored."""
    return f"provider:{provider_id}:api_key"


def _is_usable(backend: KeyringBackend) -> bool:
    name = type(backend).__module__ + "." + type(backend).__name__
    if name.startswith("keyring.backends.fail"):
        return False
    if name.startswith("keyring.backends.chainer"):
        from keyring.backends.chainer import ChainerBackend  # imported already: it is the backend's module

        return isinstance(backend, ChainerBackend) and bool(backend.backends)
    try:
        return float(backend.priority) > 0
    except Exception:
        return True


class CredentialStore:
    """Reads and writes secrets under one keyring service name."""

    def __init__(self, service_name: str = SERVICE_NAME, backend: KeyringBackend | None = None) -> None:
        self.service_name = service_name
        self._backend = backend
        self._warned = False  # `try_get` warns once: every provider read at start would repeat it

    @property
    def backend(self) -> KeyringBackend:
        # keyring loads its backends on first use, not at app start.
        import keyring

        return self._backend if self._backend is not None else keyring.get_keyring()

    def backend_name(self) -> str:
        b = self.backend
        return f"{type(b).__module__}.{type(b).__name__}"

    def available(self) -> bool:
        return _is_usable(self.backend)

    def _require(self) -> KeyringBackend:
        backend = self.backend
        if not _is_usable(backend):
            raise KeyringUnavailableError(self.backend_name())
        return backend

    def get(self, name: str) -> str | None:
        import keyring.errors

        try:
            return self._require().get_password(self.service_name, name)
        except keyring.errors.KeyringError as exc:
            raise KeyringUnavailableError(str(exc)) from exc

    def set(self, name: str, secret: str) -> None:
        import keyring.errors

        try:
            self._require().set_password(self.service_name, name, secret)
        except keyring.errors.KeyringError as exc:
            raise KeyringUnavailableError(str(exc)) from exc

    def delete(self, name: str) -> None:
        import keyring.errors

        try:
            self._require().delete_password(self.service_name, name)
        except keyring.errors.PasswordDeleteError:
            pass
        except keyring.errors.KeyringError as exc:
            raise KeyringUnavailableError(str(exc)) from exc

    def try_get(self, name: str) -> str | None:
        """Like `get`, but a missing backend yields None (a warning the first time, then debug
        lines: the app asks for every provider's key at start)."""
        try:
            value = self.get(name)
        except KeyringUnavailableError as exc:
            log.log(logging.DEBUG if self._warned else logging.WARNING, "keyring unavailable: %s", exc)
            self._warned = True
            return None
        self._warned = False  # it works again: a later failure is news
        return value
