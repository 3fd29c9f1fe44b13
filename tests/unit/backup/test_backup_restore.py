"""Backup and restore on real data dirs (real SQLite files, real folders): a round trip equals
the original, each bad archive is refused with the data in use untouched, a full disk and a
read-only folder leave nothing behind, a restore staged while the app runs waits for the next
start, and the keys are never in an archive."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import tarfile
from pathlib import Path

import pytest

from cherry_desktop.core.app.bootstrap import CoreServices, start_core
from cherry_desktop.core.backup import (
    FORMAT_VERSION,
    BackupError,
    BackupFault,
    BackupService,
    read_archive,
    restore_pending,
    stage_restore,
)
from cherry_desktop.core.backup.archive import CHECKSUMS, MANIFEST
from cherry_desktop.core.backup.restore import JOURNAL, PREVIOUS, read_journal
from cherry_desktop.core.data.database import SCHEMA_VERSION
from cherry_desktop.core.storage.credentials import CredentialStore, provider_key_name
from cherry_desktop.core.storage.paths import build_path_registry
from tests.unit.backup.helpers import (
    NO_TMPFS,
    REBASED,
    populated_core,
    read_only_dir,
    small_tmpfs,
    table_dump,
    user_files,
)


async def _backup(root: Path, target: Path) -> tuple[dict[str, list[tuple[object, ...]]], dict[str, bytes]]:
    core = await populated_core(root)
    try:
        assert core.backup is not None
        await core.backup.create(target)
        return table_dump(core.paths.database_file), user_files(core.paths)
    finally:
        await core.stop()


async def _backed_up(core: CoreServices, archive: Path) -> None:
    """Back `core` up into `archive`, then stop it."""
    try:
        assert core.backup is not None
        await core.backup.create(archive)
    finally:
        await core.stop()


async def test_a_round_trip_into_an_empty_data_dir_equals_the_original(tmp_path: Path) -> None:
    archive = tmp_path / "out" / "one.cherry-backup"
    archive.parent.mkdir()
    rows, files = await _backup(tmp_path / "a", archive)
    assert not list(archive.parent.glob("*.partial-*"))
    target = build_path_registry(tmp_path / "b")
    target.ensure_all()
    staged = stage_restore(target, archive)
    assert staged.manifest.schema_version == SCHEMA_VERSION
    assert restore_pending(target)
    core = await start_core(target)
    try:
        assert core.restore_result is not None and core.restore_result.state == "promoted"
        assert table_dump(target.database_file, skip=REBASED) == {k: v for k, v in rows.items() if k not in REBASED}
        restored_files = user_files(target)
        assert restored_files == files
        assert core.settings.settings.username == "Ada"
        # Managed workspaces follow the data dir.
        [ws] = [w for a in core.repos.agents.list_agents() for w in core.repos.agents.list_workspaces(a.id)]
        assert Path(ws.path) == target.get("feature.agents.workspaces") / "helper"
        assert (Path(ws.path) / "notes.md").read_text(encoding="utf-8") == "workspace notes\n"
        assert core.repos.search.search_messages("message 7")  # the search index came back with the rows
        # The restored agent runs nothing until the user allows it; then it is as it was.
        [agent] = core.repos.agents.restored_unconfirmed()
        from cherry_desktop.core.ai.agent_session import AgentSessionValidationError
        from cherry_desktop.core.ai.agent_session.validation import resolve_session_context

        [session] = core.repos.sessions.list_sessions(agent.id)
        with pytest.raises(AgentSessionValidationError) as refused:
            resolve_session_context(session.id, repos=core.repos, paths=core.paths,
                                    registry=core.agent_runtime.registry)
        assert refused.value.code == "agent-unconfirmed"
        core.repos.agents.allow_restored(agent.id)
        assert core.repos.agents.restored_unconfirmed() == []
        restored_agent = table_dump(target.database_file)["agent"]
        assert [r[:6] for r in restored_agent] == [r[:6] for r in rows["agent"]]
    finally:
        await core.stop()
    # The replaced (empty) data is kept until the next start, then removed.
    assert (target.get("app.data") / PREVIOUS).is_dir()
    core = await start_core(target)
    await core.stop()
    assert not (target.get("app.data") / PREVIOUS).exists()
    assert not (target.get("app.data") / JOURNAL).exists()


async def test_keys_are_never_in_the_archive_and_the_restore_names_them(tmp_path: Path) -> None:
    core = await populated_core(tmp_path / "a")
    secret = "sk-very-secret-0123456789"
    core.repos.providers.upsert_provider(id="prov", name="My provider", type="anthropic", base_url="http://x")
    core.credentials.set(provider_key_name("prov"), secret)
    archive = tmp_path / "k.cherry-backup"
    await _backed_up(core, archive)
    assert secret.encode() not in archive.read_bytes()
    # Another machine: its keyring does not hold the key.
    other = CredentialStore(service_name="cherry-desktop-other")
    target = build_path_registry(tmp_path / "b")
    target.ensure_all()
    staged = stage_restore(target, archive, credentials=other)
    assert staged.keys_to_enter == ("My provider",)
    core = await start_core(target)
    try:
        assert core.restore_result is not None and "My provider" in core.restore_result.keys_to_enter
    finally:
        await core.stop()


def _member_bytes(members: list[tuple[str, bytes]]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w") as tar:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def _rewrite(archive: Path, out: Path, change: dict[str, bytes]) -> None:
    """A copy of `archive` with members replaced and checksums recomputed (a valid archive)."""
    import hashlib

    with tarfile.open(archive) as tar:
        members = [(m.name, tar.extractfile(m).read()) for m in tar.getmembers()]  # type: ignore[union-attr]
    members = [(n, change.get(n, d)) for n, d in members if n != CHECKSUMS]
    sums = {n: hashlib.sha256(d).hexdigest() for n, d in members}
    out.write_bytes(_member_bytes([*members, (CHECKSUMS, json.dumps(sums).encode())]))


@pytest.fixture
async def good_archive(tmp_path: Path) -> Path:
    archive = tmp_path / "good.cherry-backup"
    await _backup(tmp_path / "src", archive)
    return archive


@pytest.fixture
async def live(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A data dir with data of its own that a bad restore must leave untouched."""
    core = await populated_core(tmp_path / "live", messages=4)
    await core.stop()
    paths = core.paths
    return paths, table_dump(paths.database_file), user_files(paths)


def _bad_archives(good: Path, tmp: Path) -> dict[str, tuple[Path, BackupFault]]:
    raw = good.read_bytes()
    out: dict[str, tuple[Path, BackupFault]] = {}

    def put(name: str, data: bytes, fault: BackupFault) -> None:
        path = tmp / f"{name}.cherry-backup"
        path.write_bytes(data)
        out[name] = (path, fault)

    put("truncated", raw[: len(raw) // 2], BackupFault.TRUNCATED)
    flipped = bytearray(raw)
    flipped[len(raw) // 2] ^= 0xFF
    put("corrupted", bytes(flipped), BackupFault.CORRUPT)
    put("foreign-text", b"hello, I am a text file\n" * 100, BackupFault.NOT_AN_ARCHIVE)
    put("foreign-tar", _member_bytes([("photo.jpg", b"\xff\xd8 not ours")]), BackupFault.NOT_AN_ARCHIVE)
    put("empty", b"", BackupFault.NOT_AN_ARCHIVE)
    with tarfile.open(good) as tar:
        manifest = json.loads(tar.extractfile(MANIFEST).read())  # type: ignore[union-attr]
    newer = tmp / "newer-format.cherry-backup"
    _rewrite(good, newer, {MANIFEST: json.dumps({**manifest, "format_version": FORMAT_VERSION + 1}).encode()})
    out["newer-format"] = (newer, BackupFault.TOO_NEW)
    escape = _member_bytes([(MANIFEST, json.dumps(manifest).encode()), ("files/../../evil", b"x")])
    put("path-escape", escape, BackupFault.CORRUPT)
    return out


async def test_each_bad_archive_is_refused_and_the_data_in_use_is_untouched(
        tmp_path: Path, good_archive: Path, live) -> None:  # type: ignore[no-untyped-def]
    paths, rows, files = live
    bad_dir = tmp_path / "bad"
    bad_dir.mkdir()
    for name, (path, fault) in _bad_archives(good_archive, bad_dir).items():
        with pytest.raises(BackupError) as caught:
            stage_restore(paths, path)
        assert caught.value.kind is fault, (name, caught.value)
        assert caught.value.describe()  # one line, no traceback
        assert read_journal(paths) is None, name
        assert not any(p.name.startswith("restore-staging") for p in paths.get("app.data").iterdir()), name
    assert not (tmp_path / "evil").exists()
    assert table_dump(paths.database_file) == rows
    assert user_files(paths) == files


async def test_a_newer_schema_is_refused_with_a_clear_message(tmp_path: Path, good_archive: Path, live) -> None:  # type: ignore[no-untyped-def]
    paths, rows, _ = live
    with tarfile.open(good_archive) as tar:
        db = tar.extractfile("db/cherry.db").read()  # type: ignore[union-attr]
    db_file = tmp_path / "newer.db"
    db_file.write_bytes(db)
    connection = sqlite3.connect(db_file)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()
    newer = tmp_path / "newer-schema.cherry-backup"
    _rewrite(good_archive, newer, {"db/cherry.db": db_file.read_bytes()})
    read_archive(newer, None)  # a valid archive ...
    with pytest.raises(BackupError) as caught:
        stage_restore(paths, newer)  # ... of a database this build cannot read
    assert caught.value.kind is BackupFault.TOO_NEW
    assert "newer Cherry Desktop" in caught.value.describe()
    assert str(SCHEMA_VERSION + 1) in caught.value.describe()
    assert table_dump(paths.database_file) == rows and read_journal(paths) is None


async def test_an_older_schema_is_migrated_at_the_start_that_promotes_it(tmp_path: Path, good_archive: Path) -> None:
    with tarfile.open(good_archive) as tar:
        db = tar.extractfile("db/cherry.db").read()  # type: ignore[union-attr]
    db_file = tmp_path / "older.db"
    db_file.write_bytes(db)
    connection = sqlite3.connect(db_file)
    # Migration 10 added topic.settings: an archive from before it (version 9) has no such
    # column, nor the tables of later migrations.
    connection.execute('ALTER TABLE "topic" DROP COLUMN "settings"')
    connection.execute('DROP TABLE IF EXISTS "mcp_server"')
    connection.execute("PRAGMA user_version = 9")
    connection.commit()
    connection.close()
    older = tmp_path / "older.cherry-backup"
    _rewrite(good_archive, older, {"db/cherry.db": db_file.read_bytes()})
    target = build_path_registry(tmp_path / "t")
    target.ensure_all()
    stage_restore(target, older)
    core = await start_core(target)
    try:
        topics = core.repos.topics.list_topics()
        assert [t.name for t in topics] == ["Backed up topic"]
        connection = sqlite3.connect(target.database_file)
        columns = {r[1] for r in connection.execute('PRAGMA table_info("topic")')}
        connection.close()
        assert "settings" in columns
    finally:
        await core.stop()


async def test_a_full_disk_leaves_no_archive_and_the_data_untouched(tmp_path: Path) -> None:
    with small_tmpfs(tmp_path / "tiny", "64k") as tiny:
        if tiny is None:
            pytest.skip(f"{NO_TMPFS}: no full disk to test with")
        core = await populated_core(tmp_path / "a", messages=400)
        try:
            assert core.backup is not None
            rows = table_dump(core.paths.database_file)
            with pytest.raises(BackupError) as caught:
                await core.backup.create(tiny / "b.cherry-backup")
            assert caught.value.kind is BackupFault.DISK_FULL
            assert "disk is full" in caught.value.describe()
            assert list(tiny.iterdir()) == []  # neither the archive nor a partial one
            assert table_dump(core.paths.database_file) == rows
            # The app goes on: the next backup elsewhere works.
            await core.backup.create(tmp_path / "b.cherry-backup")
        finally:
            await core.stop()


async def test_a_full_disk_while_staging_keeps_the_data_in_use(tmp_path: Path) -> None:
    import os

    source = await populated_core(tmp_path / "src", messages=2)
    (source.paths.get("feature.agents.data") / "big.bin").write_bytes(os.urandom(4 << 20))
    big_archive = tmp_path / "big.cherry-backup"
    await _backed_up(source, big_archive)
    paths = build_path_registry(tmp_path / "d")
    with small_tmpfs(paths.get("app.data"), "2m") as data:
        if data is None:
            pytest.skip(f"{NO_TMPFS}: no full disk to test with")
        core = await populated_core(paths.get("app.data"), messages=2)
        await core.stop()
        rows = table_dump(paths.database_file)
        with pytest.raises(BackupError) as caught:
            stage_restore(paths, big_archive)
        assert caught.value.kind is BackupFault.DISK_FULL
        assert read_journal(paths) is None
        assert not any(p.name.startswith("restore-staging") for p in data.iterdir())
        assert table_dump(paths.database_file) == rows


async def test_a_read_only_target_folder_is_a_clear_error(tmp_path: Path) -> None:
    with read_only_dir(tmp_path / "ro") as ro:
        if ro is None:
            pytest.skip(f"{NO_TMPFS}: no read-only folder to test with (root writes through 0555)")
        core = await populated_core(tmp_path / "a", messages=2)
        try:
            assert core.backup is not None
            with pytest.raises(BackupError) as caught:
                await core.backup.create(ro / "b.cherry-backup")
            assert caught.value.kind is BackupFault.READ_ONLY
        finally:
            await core.stop()


async def test_a_restore_staged_while_the_app_runs_waits_for_the_next_start(tmp_path: Path, good_archive: Path) -> None:
    core = await populated_core(tmp_path / "running", messages=2)
    try:
        before = [t.name for t in core.repos.topics.list_topics()]
        assert core.backup is not None
        await core.backup.stage_restore(good_archive)
        # The running app keeps its data, and writes to it still work.
        core.repos.topics.create_topic(name="written after staging")
        assert sorted(t.name for t in core.repos.topics.list_topics()) == sorted([*before, "written after staging"])
        assert restore_pending(core.paths)
        # One at a time.
        core.backup.busy = True
        with pytest.raises(BackupError) as caught:
            await core.backup.create(tmp_path / "x.cherry-backup")
        assert caught.value.kind is BackupFault.BUSY
        core.backup.busy = False
    finally:
        await core.stop()
    core = await start_core(core.paths)
    try:
        assert core.restore_result is not None and core.restore_result.state == "promoted"
        names = [t.name for t in core.repos.topics.list_topics()]
        assert names == ["Backed up topic"]
    finally:
        await core.stop()


def test_a_service_without_gates_backs_up_a_data_dir_no_instance_runs_on(tmp_path: Path) -> None:
    import asyncio

    async def make() -> Path:
        core = await populated_core(tmp_path / "a", messages=3)
        await core.stop()
        return core.paths.get("app.data")

    root = asyncio.run(make())
    paths = build_path_registry(root)
    result = asyncio.run(BackupService(paths).create(tmp_path / "cli.cherry-backup"))
    manifest = read_archive(result.path, None)
    names = [n for n, _ in manifest.entries]
    assert "db/cherry.db" in names and any(n.startswith("files/feature.attachments/") for n in names)
    assert result.size == (tmp_path / "cli.cherry-backup").stat().st_size


async def test_a_cancelled_backup_writes_nothing(tmp_path: Path) -> None:
    import threading

    core = await populated_core(tmp_path / "a", messages=2)
    try:
        assert core.backup is not None
        cancel = threading.Event()
        cancel.set()  # the user pressed Cancel while the writers were being drained
        seen: list[str] = []

        def progress(p: object) -> None:
            seen.append(getattr(p, "phase", ""))

        with pytest.raises(BackupError) as caught:
            await core.backup.create(tmp_path / "c.cherry-backup", progress=progress, cancel=cancel)
        assert caught.value.kind is BackupFault.CANCELLED
        assert list(tmp_path.glob("c.cherry-backup*")) == []
        assert seen[:2] == ["draining", "snapshot"]
    finally:
        await core.stop()


async def test_the_archive_and_the_restored_files_are_private(tmp_path: Path) -> None:
    import stat

    archive = tmp_path / "private.cherry-backup"
    old_umask = os.umask(0o022)
    try:
        await _backup(tmp_path / "a", archive)
        assert stat.S_IMODE(archive.stat().st_mode) == 0o600
        target = build_path_registry(tmp_path / "b")
        target.ensure_all()
        stage_restore(target, archive)
        staged = target.get("app.data") / "restore-staging"
        for path in staged.rglob("*"):
            mode = stat.S_IMODE(path.stat().st_mode)
            assert mode & 0o077 == 0, (path, oct(mode))
    finally:
        os.umask(old_umask)


async def test_a_target_that_is_the_data_itself_is_refused_and_nothing_is_touched(tmp_path: Path) -> None:
    core = await populated_core(tmp_path / "a", messages=2)
    try:
        assert core.backup is not None
        rows = table_dump(core.paths.database_file)
        for target in (core.paths.database_file, core.paths.database_file.with_name("cherry.db-wal"),
                       core.paths.get("feature.attachments") / "x.cherry-backup",
                       core.paths.get("app.config") / "settings.json"):
            with pytest.raises(BackupError) as caught:
                await core.backup.create(target)
            assert caught.value.kind is BackupFault.INSIDE_DATA, target
        assert table_dump(core.paths.database_file) == rows
        assert not core.stream_manager.writes_paused and not core.backup.busy
        # The data folder's root (not a folder the backup holds) is fine.
        await core.backup.create(core.paths.get("app.data") / "here.cherry-backup")
    finally:
        await core.stop()
