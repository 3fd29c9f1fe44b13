"""The provider's key reaches the Claude Code CLI over an inherited socket, never its environment.

Everything in the CLI's environment is readable by the tools it runs: a Bash call's ``printenv``
shows what the CLI passes down, and ``/proc/$PPID/environ`` shows the CLI's own environment as
it started, whatever the CLI later deletes. A prompt-injected command could send the key away.

The CLI reads ``CLAUDE_CODE_API_KEY_FILE_DESCRIPTOR`` (a descriptor number) instead: when the
descriptor is a socket it reads the key from it up to a newline, closes it and forgets the
variable (it writes the key to disk only under ``CLAUDE_CODE_REMOTE``, which Cherry never sets).
So the transport (`transport.CliTransport`) makes a socket pair, writes ``key + "\\n"`` into one
end and closes it, and the CLI inherits the other end (``pass_fds`` of its spawn: `key_handoff`).
The key is in no file, no argument and no environment: a tool sees the number only, and a
socket cannot be reopened through ``/proc/<pid>/fd``.

Windows has no descriptor to pass (the CLI itself refuses it there): the key stays in the
child's environment.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Iterator

#: The CLI's variable naming the descriptor it reads its API key from.
KEY_FD_ENV = "CLAUDE_CODE_API_KEY_FILE_DESCRIPTOR"
KEY_ENV = "ANTHROPIC_API_KEY"


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
def key_handoff(key: str | None) -> Iterator[tuple[dict[str, str], tuple[int, ...]]]:
    """What hands `key` to a CLI spawned inside the block: the environment entries to add and the
    descriptors the spawn passes on (``pass_fds``). Nothing without a key; on Windows the key
    itself in the environment."""
    if not key:
        yield {}, ()
    elif not fd_handoff_supported():
        yield {KEY_ENV: key}, ()
    else:
        with key_socket(key) as fd:
            # An empty ANTHROPIC_API_KEY hides one the app itself inherited.
            yield {KEY_ENV: "", KEY_FD_ENV: str(fd)}, (fd,)
