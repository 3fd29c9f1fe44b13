"""`cherry-desktop doctor`: create or migrate the database and report what the app sees."""

from __future__ import annotations

import contextlib
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from cherry_desktop import __version__
from cherry_desktop.core.app.instance_lock import InstanceLock, LockState
from cherry_desktop.core.app.qt_platform import PlatformProblemKind, diagnose, probe_command, probe_platform
from cherry_desktop.core.data import SCHEMA_VERSION, journal_mode, open_database, schema_version, table_names
from cherry_desktop.core.storage.credentials import FIX_HINT, CredentialStore
from cherry_desktop.core.storage.paths import PathRegistry
from cherry_desktop.core.storage.storage_faults import classify

if TYPE_CHECKING:
    from peewee import Database


def bundled_claude_cli() -> Path | None:
    """The Claude Code CLI bundled in the claude-agent-sdk wheel, found without importing it."""
    from cherry_desktop.core.ai.runtime.claude_code.cli_command import bundled_cli_path

    return bundled_cli_path()


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
    check_folders(paths, report)
    check_instance_lock(paths, report)
    report_backups(paths, report)
    try:
        db = open_database(paths.database_file)
        try:
            add(f"database: {paths.database_file}")
            add(f"schema version: {schema_version(db)} (this build: {SCHEMA_VERSION})")
            mode = journal_mode(db)
            add(f"journal mode: {mode}")
            add("tables: " + ", ".join(table_names(db)))
            if mode.lower() != "wal":
                report.problems.append(f"database is not in WAL mode ({mode})")
            check_integrity(db, paths.database_file, report)
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
    report_pi_runtime(report, paths)
    report_acp_agents(report, paths)
    check_qt_platform(report)
    check_fonts(report)
    return report


def check_fonts(report: DoctorReport, fc_list: str | None = None) -> None:
    """Fonts for Chinese and Korean text (their absence is a warning: the app runs, with boxes)."""
    from cherry_desktop.core.app.fonts import font_coverage, font_warning

    coverage = font_coverage(fc_list)
    if coverage.families is None:
        report.lines.append("fonts: fontconfig's fc-list not found (not checked)")
        return
    report.lines.append("fonts: " + "; ".join(f"{tag} {found[0] if found else 'none'}"
                                               for tag, found in coverage.families.items()))
    warning = font_warning(coverage)
    if warning:
        report.warnings.append(warning)


# ---- storage checks (issue 13): folders, the instance lock, the database's pages ----------------


def check_folders(paths: PathRegistry, report: DoctorReport) -> None:
    """Every data folder exists (created if missing) and takes a new file."""
    folders = sorted({path.parent if name.startswith("file.") else path for name, path in paths.paths.items()})
    with contextlib.suppress(OSError):
        paths.ensure_all()  # as the app's start does: created or tightened to 0700
    for folder in folders:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryFile(dir=folder):
                pass
        except OSError as exc:
            report.problems.append(f"folder {folder} is not writable: {exc.strerror or exc}")


def check_instance_lock(paths: PathRegistry, report: DoctorReport) -> None:
    """Whether the app runs on this data dir (its lock is held), or the lock cannot be used."""
    lock = InstanceLock(paths.get("file.instance_lock"))
    state = lock.probe()
    if state is LockState.HELD:
        report.lines.append(f"instance lock: {lock.path} held by a running instance (pid {lock.holder_pid() or '?'})")
    elif state is LockState.UNAVAILABLE:
        detail = lock.error.strerror if lock.error is not None else "unknown error"
        report.problems.append(f"instance lock {lock.path} cannot be used: {detail}")
    else:
        report.lines.append(f"instance lock: {lock.path} free (the app is not running on this data dir)")


def report_backups(paths: PathRegistry, report: DoctorReport) -> None:
    """The last backup (where, when, whether its file is still there) and a staged restore."""
    import time

    from cherry_desktop.core.backup import read_last_backup, restore_pending

    last = read_last_backup(paths)
    if last is None:
        report.lines.append("last backup: none (`cherry-desktop backup create FILE`, or File > Back up...)")
    else:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(float(str(last.get("at", 0)))))
        where = Path(str(last.get("path", "")))
        state = "" if where.is_file() else " (the file is no longer there)"
        report.lines.append(f"last backup: {when}, {where}{state}")
    if restore_pending(paths):
        report.lines.append("restore: staged, it replaces the data at the next start")


def check_integrity(db: Database, path: Path, report: DoctorReport) -> None:
    """SQLite's `PRAGMA quick_check`: every page readable and well formed."""
    try:
        rows = [str(r[0]) for r in db.execute_sql("PRAGMA quick_check").fetchall()]
    except Exception as exc:  # SQLite may refuse to walk a damaged page at all
        if classify(exc, path) is None:
            raise
        rows = [str(exc)]
    if rows == ["ok"]:
        report.lines.append("integrity (quick_check): ok")
    else:
        report.problems.append(f"database {path} is damaged (quick_check: {'; '.join(rows[:3])})")


def report_pi_runtime(report: DoctorReport, paths: PathRegistry) -> None:
    """node, npm and pi versions (pi is optional: its absence is a warning, not a problem)."""
    from cherry_desktop.core.ai.runtime.pi.install import PI_PINNED_VERSION, pi_versions

    versions = pi_versions(paths.get("feature.agents.pi.install"))
    for name in ("node", "npm", "pi"):
        report.lines.append(f"{name}: {versions[name] or 'not found'}")
    if versions["problem"]:
        report.warnings.append(f"the pi runtime is unavailable ({versions['problem']}); "
                               f"`cherry-desktop install-pi` installs pi {PI_PINNED_VERSION}")


def report_acp_agents(report: DoctorReport, paths: PathRegistry) -> None:
    """Where each known ACP agent is found (optional: a missing one installs on first use)."""
    from cherry_desktop.core.ai.runtime.acp.install import find_agent
    from cherry_desktop.core.ai.runtime.acp_presets import ACP_PRESETS, AgentChoice
    from cherry_desktop.core.ai.runtime.node import RuntimeUnavailableError

    for preset in ACP_PRESETS.values():
        try:
            found = find_agent(AgentChoice(preset=preset), paths.get("feature.agents.acp.install"))
        except RuntimeUnavailableError:
            report.lines.append(f"acp agent {preset.id}: not installed "
                                f"(`cherry-desktop install-acp-agent {preset.id}` installs {preset.spec})")
            continue
        report.lines.append(f"acp agent {preset.id}: {found.source} {found.version} ({found.argv[-1]})".rstrip())


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
