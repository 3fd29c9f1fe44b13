"""Lazy access to `claude_agent_sdk` (~0.4 s, ~14 MB to import): only on first connect/prewarm.

What of the SDK's dependencies the app never runs is left unimported (`sdk_import`).

The app uses the SDK's public surface only: `ClaudeSDKClient(options, transport=...)` with its
own `Transport` (`transport.CliTransport`), `ClaudeAgentOptions` for what the SDK applies over
its control protocol (hooks, the permission callback), its message and permission types. The
one private fact it relies on is where the wheel bundles the CLI (`cli_command.BUNDLED_DIR`);
`pyproject.toml` bounds the SDK to the minor line this was checked on, and
`tests/unit/runtime/test_claude_sdk_surface.py` fails when the SDK changes what the app
mirrors (the bundled CLI's place, the command line its own transport builds).
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

from cherry_desktop.core.ai.runtime.claude_code.sdk_import import prepare_sdk_import

_sdk: ModuleType | None = None


def load_sdk() -> ModuleType:
    """Import and return `claude_agent_sdk` (cached). Call before any ``from claude_agent_sdk
    import ...`` so its first import leaves out what the app never runs."""
    global _sdk
    if _sdk is None:
        if "claude_agent_sdk" not in sys.modules:
            prepare_sdk_import()
        _sdk = importlib.import_module("claude_agent_sdk")
    return _sdk


def sdk_loaded() -> bool:
    return _sdk is not None
