"""`cherry-desktop doctor`: create or migrate the database and report what the app sees."""

from __future__ import annotations

import importlib.util
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from cherry_desktop import __version__
from cherry_desktop.core.credentials import FIX_HINT, CredentialStore
from cherry_desktop.core.data import SCHEMA_VERSION, journal_mode, open_database, schema_version, table_names
from cherry_desktop.core.paths import PathRegistry
from cherry_desktop.core.qt_platform import PlatformProblemKind, diagnose, probe_command, probe_platform


def bundled_claude_cli() -> Path | None:
    """The Claude Code CLI bundled in the claude-agent-sdk wheel, found without importing it."""
    spec = importlib.util.find_spec("claude_agent_sdk")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        cli = Path(location) / "_bundled" / "claude"
        if cli.exists():
            return cli
    return None


def claude_cli_version(cli: Path | None) -> str | None:
    if cli is None:
        return None
    try:
        out = subprocess.run([str(cli), "--version"], capture_output=True, text=True, timeout=30, check=True)
    except (OSError, subprocess.SubprocessError):
        version_file = cli.with_name("claude.version")
        return version_file.read_text().strip() if version_file.exists() else None
    return out.stdout.strip() or None


@dataclass
class DoctorReport:
    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def render(self) -> str:
        out = list(self.lines)
        out += [f"warning: {w}" for w in self.warnings]
        out += [f"PROBLEM: {p}" for p in self.problems]
        out.append("status: ok" if self.ok else "status: broken")
        return "\n".join(out)


def run_doctor(paths: PathRegistry) -> DoctorReport:
    report = DoctorReport()
    add = report.lines.append
    add(f"cherry-desktop {__version__}")
    for name, value in paths.as_dict().items():
        add(f"path {name}: {value}")
    try:
        paths.ensure_all()
        db = open_database(paths.database_file)
        try:
            add(f"database: {paths.database_file}")
            add(f"schema version: {schema_version(db)} (this build: {SCHEMA_VERSION})")
            mode = journal_mode(db)
            add(f"journal mode: {mode}")
            add("tables: " + ", ".join(table_names(db)))
            if mode.lower() != "wal":
                report.problems.append(f"database is not in WAL mode ({mode})")
        finally:
            db.close()
    except Exception as exc:
        report.problems.append(f"database {paths.database_file}: {exc}")
    store = CredentialStore()
    add(f"keyring backend: {store.backend_name()}")
    if not store.available():
        report.warnings.append(FIX_HINT)
    cli = bundled_claude_cli()
    version = claude_cli_version(cli)
    add(f"claude code cli: {cli or 'not found'} ({version or 'unknown version'})")
    if cli is None:
        report.problems.append("the Claude Code CLI bundled with claude-agent-sdk was not found; "
                               "reinstall with `pip install --force-reinstall claude-agent-sdk`")
    check_qt_platform(report)
    return report


def check_qt_platform(report: DoctorReport, command: list[str] | None = None) -> None:
    """Start Qt's platform plugin in a subprocess; when it does not load, name the libraries it
    misses (from the plugin's own dependencies) and their packages."""
    result = probe_platform(command or probe_command())
    if result.loaded:
        report.lines.append(f"qt platform: {result.platform} (loads)")
        return
    problem = diagnose(result)
    report.lines.append(f"qt platform: {problem.platform} (does not load)")
    if problem.kind is PlatformProblemKind.NO_DISPLAY:
        report.warnings.append(problem.describe())
    else:
        report.problems.append(problem.describe())
