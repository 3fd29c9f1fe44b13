"""Lazy access to `claude_agent_sdk` (~0.4 s, ~14 MB to import): only on first connect/prewarm.

What of the SDK's dependencies the app never runs is left unimported (`sdk_import`).
"""

from __future__ import annotations

import importlib
import sys
import warnings
from types import ModuleType
from typing import Any

from cherry_desktop.core.ai.runtime.claude_code.sdk_import import prepare_sdk_import

_sdk: ModuleType | None = None


def load_sdk() -> ModuleType:
    """Import and return `claude_agent_sdk` (cached)."""
    global _sdk
    if _sdk is None:
        if "claude_agent_sdk" not in sys.modules:
            prepare_sdk_import()
        _sdk = importlib.import_module("claude_agent_sdk")
    return _sdk


def ignore_shadowed_can_use_tool_warning() -> None:
    """Silence the SDK's warning that ``can_use_tool`` is unused under bypassPermissions."""
    load_sdk()
    shadowed = getattr(importlib.import_module("claude_agent_sdk.types"), "CanUseToolShadowedWarning", None)
    if isinstance(shadowed, type) and issubclass(shadowed, Warning):
        # Every connection keeps `can_use_tool` even in bypassPermissions on purpose: a live
        # reconcile may switch to a prompting mode, and the callback cannot be added later.
        # Disabled tools are gated by the PreToolUse hook in every mode.
        warnings.filterwarnings("ignore", category=shadowed)


def sdk_loaded() -> bool:
    return _sdk is not None


def configure_can_use_tool(options: Any) -> Any:
    """The options the SDK's own transport would get (``can_use_tool`` -> stdio prompt tool).

    A custom transport bypasses that step inside `ClaudeSDKClient.connect`, so do it here.
    """
    client_module = importlib.import_module("claude_agent_sdk.client")
    return client_module._configure_can_use_tool(options)
