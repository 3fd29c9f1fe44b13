"""The provider's key reaches the Claude Code CLI over an inherited socket, never its environment.

Everything in the CLI's environment is readable by the tools it runs: a Bash call's ``printenv``
shows what the CLI passes down, and ``/proc/$PPID/environ`` shows the CLI's own environment as
it started, whatever the CLI later deletes. A prompt-injected command could send the key away.

The CLI reads ``CLAUDE_CODE_API_KEY_FILE_DESCRIPTOR`` (a descriptor number) instead: when the
descriptor is a socket it reads the key from it up to a newline, closes it and forgets the
variable (it writes the key to disk only under ``CLAUDE_CODE_REMOTE``, which Cherry never sets).
So the transport makes a socket pair, writes ``key + "\\n"`` into one end and closes it, and the
CLI inherits the other end (``pass_fds``). The key is in no file, no argument and no environment:
a tool sees the number only, and a socket cannot be reopened through ``/proc/<pid>/fd``.

Windows has no descriptor to pass (the CLI itself refuses it there): the key stays in the
child's environment.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

#: The CLI's variable naming the descriptor it reads its API key from.
KEY_FD_ENV = "CLAUDE_CODE_API_KEY_FILE_DESCRIPTOR"
KEY_ENV = "ANTHROPIC_API_KEY"

#: Descriptors the next `open_process` of the current task passes to its child.
_PASS_FDS: ContextVar[tuple[int, ...]] = ContextVar("cherry_claude_code_pass_fds", default=())


def fd_handoff_supported() -> bool:
    return os.name != "nt"


@contextlib.contextmanager
def key_socket(key: str) -> Iterator[int]:
    """The descriptor of a socket that yields ``key`` and a newline, then end-of-stream; closed
    (here) on exit: the child keeps its own copy."""
    ours, theirs = socket.socketpair()
    try:
        try:
            ours.sendall(key.encode() + b"\n")
        finally:
            ours.close()
        yield theirs.fileno()
    finally:
        theirs.close()


@contextlib.contextmanager
def passing_fds(fds: tuple[int, ...]) -> Iterator[None]:
    """`open_process` calls in this task (the SDK transport's spawn) also pass ``fds``."""
    token = _PASS_FDS.set(fds)
    try:
        yield
    finally:
        _PASS_FDS.reset(token)


class _AnyioPassingFds:
    """`anyio` as the SDK's transport module sees it: `open_process` adds `_PASS_FDS`.

    The SDK spawns the CLI with ``anyio.open_process(...)`` and offers no way to pass a
    descriptor; everything else is anyio's own."""

    def __init__(self, anyio_module: Any) -> None:
        self._anyio = anyio_module

    def __getattr__(self, name: str) -> Any:
        return getattr(self._anyio, name)

    async def open_process(self, *args: Any, **kwargs: Any) -> Any:
        fds = _PASS_FDS.get()
        if fds:
            kwargs["pass_fds"] = (*kwargs.get("pass_fds", ()), *fds)
        return await self._anyio.open_process(*args, **kwargs)


def install_pass_fds_hook(transport_module: Any) -> None:
    """Let the SDK transport module's spawn pass `passing_fds` descriptors (idempotent)."""
    current = transport_module.anyio
    if not isinstance(current, _AnyioPassingFds):
        transport_module.anyio = _AnyioPassingFds(current)
