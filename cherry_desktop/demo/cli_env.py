"""Environment for a Claude Code CLI child pointed at the scripted server."""

from __future__ import annotations

import os
from pathlib import Path

#: Keeps the CLI to the one base URL: no update checks, telemetry, error reports,
#: experimental beta headers the scripted server does not know.
QUIET_CLI_ENV: dict[str, str] = {
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS": "1",
}

#: For error tests: fail on the first API error instead of retrying / falling back to a
#: non-streaming request.
NO_RETRY_CLI_ENV: dict[str, str] = {
    "CLAUDE_CODE_MAX_RETRIES": "0",
    "CLAUDE_CODE_DISABLE_NONSTREAMING_FALLBACK": "1",
}

DEMO_API_KEY = "sk-ant-demo-offline"


def build_cli_env(
    base_url: str,
    *,
    home: str | Path | None = None,
    api_key: str = DEMO_API_KEY,
    no_retries: bool = False,
) -> dict[str, str]:
    """Overrides for the CLI child's environment (the SDK merges them over ``os.environ``).

    Args:
        base_url: the scripted server's URL (``ANTHROPIC_BASE_URL``).
        home: a throwaway ``HOME`` so the CLI reads and writes no real user config and
            keeps its session files there; None leaves ``HOME`` alone.
        api_key: sent as ``x-api-key``; the scripted server accepts anything.
        no_retries: fail on the first API error (error-path tests).
    """
    env = {
        "ANTHROPIC_BASE_URL": base_url,
        "ANTHROPIC_API_KEY": api_key,
        **QUIET_CLI_ENV,
    }
    if home is not None:
        env["HOME"] = str(home)
        # The CLI keeps its config under CLAUDE_CONFIG_DIR when set; make it follow HOME.
        env["CLAUDE_CONFIG_DIR"] = str(Path(home) / ".claude")
    if no_retries:
        env.update(NO_RETRY_CLI_ENV)
    if _is_root():
        # As root the CLI refuses bypassPermissions unless it is told it runs sandboxed.
        env["IS_SANDBOX"] = "1"
    return env


def _is_root() -> bool:
    geteuid = getattr(os, "geteuid", None)
    return bool(geteuid and geteuid() == 0)
