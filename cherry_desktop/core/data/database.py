"""Opening `cherry.db`: SQLite in WAL mode with a schema version and forward migrations.

The schema version is SQLite's `user_version`. Each migration takes the database from version
N-1 to N inside one transaction; opening runs every migration above the file's version, so an
old file moves forward and a new one is created at the newest version. A file newer than this
build refuses to open rather than being written by code that does not know its shape.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import peewee as pw

from cherry_desktop.core.data.models import ALL_MODELS, AppMeta, database_proxy
from cherry_desktop.core.data.search import create_search_index
from cherry_desktop.core.storage.private_files import create_private_file, tighten_database_files
from cherry_desktop.core.storage.storage_faults import StorageError, StorageFault, classify

log = logging.getLogger(__name__)


class SchemaTooNewError(StorageError):
    """The database was written by a newer Cherry Desktop."""

    def __init__(self, message: str, path: Path | None = None) -> None:
        super().__init__(StorageFault.SCHEMA_TOO_NEW, path, message)


def _m1_initial(db: pw.SqliteDatabase) -> None:
    db.create_tables([m for m in ALL_MODELS if m is not AppMeta], safe=True)


def _m2_app_meta(db: pw.SqliteDatabase) -> None:
    db.create_tables([AppMeta], safe=True)


#: The tables whose rows validating an agent session reads (session, agent, workspace, provider,
#: model). Spelled out rather than taken from the models: a released migration never changes.
_SESSION_CONFIG_TABLES = ("agent_session", "agent", "agent_workspace", "provider", "model")


def _m3_config_version(db: pw.SqliteDatabase) -> None:
    """A counter every write to a session-config table bumps, through triggers: a cache of a
    validated session compares it instead of re-reading the rows. Triggers live in the file, so
    every writer (peewee, raw SQL, another connection or process) bumps it."""
    db.execute_sql('CREATE TABLE IF NOT EXISTS "config_version" '
                   '("id" INTEGER PRIMARY KEY CHECK ("id" = 1), "value" INTEGER NOT NULL)')
    db.execute_sql('INSERT OR IGNORE INTO "config_version" ("id", "value") VALUES (1, 0)')
    for table in _SESSION_CONFIG_TABLES:
        for event in ("insert", "update", "delete"):
            db.execute_sql(
                f'CREATE TRIGGER IF NOT EXISTS "{table}_{event}_config_version" AFTER {event.upper()} '
                f'ON "{table}" BEGIN UPDATE "config_version" SET "value" = "value" + 1 WHERE "id" = 1; END')


def _m4_session_message_indexes(db: pw.SqliteDatabase) -> None:
    """Drop the two single-column indexes of `agent_session_message`: every query filters by
    session and orders by `ordering`, which the (session_id, ordering) index serves (including
    the cascade from a deleted session), and each index costs every message insert a B-tree
    update and WAL pages (two rows per turn)."""
    db.execute_sql('DROP INDEX IF EXISTS "agent_session_message_session_id"')
    db.execute_sql('DROP INDEX IF EXISTS "agent_session_message_ordering"')


def _m5_drop_config_version(db: pw.SqliteDatabase) -> None:
    """Drop migration 3's counter and its triggers: session validation reads the rows at every
    turn, so nothing reads the counter, and the triggers cost every config write an update."""
    for table in _SESSION_CONFIG_TABLES:
        for event in ("insert", "update", "delete"):
            db.execute_sql(f'DROP TRIGGER IF EXISTS "{table}_{event}_config_version"')
    db.execute_sql('DROP TABLE IF EXISTS "config_version"')


def _m6_search_index(db: pw.SqliteDatabase) -> None:
    """The FTS5 index over chat and session messages, with its triggers, back-filled."""
    create_search_index(db)


def _m7_name_source(db: pw.SqliteDatabase) -> None:
    """Who named a topic or session ("" never, "auto", "user"): a user's name is never replaced
    by auto-naming. (A file created at this build's migration 1 already has the column.)"""
    for table in ("topic", "agent_session"):
        columns = {row[1] for row in db.execute_sql(f'PRAGMA table_info("{table}")')}
        if "name_source" not in columns:
            db.execute_sql(f'ALTER TABLE "{table}" ADD COLUMN "name_source" VARCHAR(255) NOT NULL DEFAULT \'\'')


def _m8_model_pricing(db: pw.SqliteDatabase) -> None:
    """A model's prices (JSON, USD per million tokens; NULL: no prices, no cost shown)."""
    columns = {row[1] for row in db.execute_sql('PRAGMA table_info("model")')}
    if "pricing" not in columns:
        db.execute_sql('ALTER TABLE "model" ADD COLUMN "pricing" TEXT')


def _m9_session_settings(db: pw.SqliteDatabase) -> None:
    """A session's own settings (JSON object; the tools always allowed in it). A file created
    at this build's migration 1 already has the column."""
    columns = {row[1] for row in db.execute_sql('PRAGMA table_info("agent_session")')}
    if "settings" not in columns:
        db.execute_sql('ALTER TABLE "agent_session" ADD COLUMN "settings" TEXT NOT NULL DEFAULT \'{}\'')


def _m10_topic_settings(db: pw.SqliteDatabase) -> None:
    """A chat topic's own settings (JSON object; the models it asks besides its own). A file
    created at this build's migration 1 already has the column."""
    columns = {row[1] for row in db.execute_sql('PRAGMA table_info("topic")')}
    if "settings" not in columns:
        db.execute_sql('ALTER TABLE "topic" ADD COLUMN "settings" TEXT NOT NULL DEFAULT \'{}\'')


def _m11_mcp_servers(db: pw.SqliteDatabase) -> None:
    """The user's MCP servers (`mcp_server`; their secrets live in the keyring). A file created
    at this build's migration 1 already has the table."""
    db.execute_sql(
        'CREATE TABLE IF NOT EXISTS "mcp_server" ("id" VARCHAR(255) NOT NULL PRIMARY KEY, '
        '"name" VARCHAR(255) NOT NULL, "type" VARCHAR(255) NOT NULL, "command" TEXT NOT NULL, '
        '"args" TEXT NOT NULL, "cwd" TEXT NOT NULL, "url" TEXT NOT NULL, "env_names" TEXT NOT NULL, '
        '"header_names" TEXT NOT NULL, "enabled" INTEGER NOT NULL, "default_policy" VARCHAR(255) NOT NULL, '
        '"tools" TEXT NOT NULL, "created_at" INTEGER NOT NULL, "updated_at" INTEGER NOT NULL)')


# Append only; never edit a released migration.
MIGRATIONS: list[Callable[[pw.SqliteDatabase], None]] = [
    _m1_initial, _m2_app_meta, _m3_config_version, _m4_session_message_indexes, _m5_drop_config_version,
    _m6_search_index, _m7_name_source, _m8_model_pricing, _m9_session_settings, _m10_topic_settings,
    _m11_mcp_servers,
]
SCHEMA_VERSION = len(MIGRATIONS)


def schema_version(db: pw.SqliteDatabase) -> int:
    return int(db.execute_sql("PRAGMA user_version").fetchone()[0])


def migrate(db: pw.SqliteDatabase) -> int:
    """Run the migrations above the file's version; return the version reached."""
    current = schema_version(db)
    if current > SCHEMA_VERSION:
        raise SchemaTooNewError(
            f"database schema version {current} is newer than this build's {SCHEMA_VERSION}"
        )
    for version in range(current + 1, SCHEMA_VERSION + 1):
        with db.atomic():
            MIGRATIONS[version - 1](db)
            db.execute_sql(f"PRAGMA user_version = {version}")
        log.info("database migrated to schema version %d", version)
    return SCHEMA_VERSION


def open_database(path: Path) -> pw.SqliteDatabase:
    """Open (creating and migrating) the database file and bind the models to it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        # 0600 before SQLite creates it: its -wal and -shm files take the database's mode.
        create_private_file(path)
        tighten_database_files(path)
    except OSError as exc:
        fault = classify(exc, path)
        if fault is None:
            raise
        raise fault from exc
    db = pw.SqliteDatabase(
        str(path),
        pragmas={
            "journal_mode": "wal",
            "synchronous": "normal",
            "foreign_keys": 1,
            "busy_timeout": 5000,
        },
        check_same_thread=False,
    )
    try:
        db.connect(reuse_if_open=True)
        database_proxy.initialize(db)
        migrate(db)
    except SchemaTooNewError as exc:
        db.close()
        raise SchemaTooNewError(exc.detail, path) from None
    except Exception as exc:
        # A damaged, foreign or unwritable file: one typed error, and the file left as it is.
        fault = classify(exc, path)
        db.close()
        if fault is None:
            raise
        raise fault from exc
    return db


def journal_mode(db: pw.SqliteDatabase) -> str:
    return str(db.execute_sql("PRAGMA journal_mode").fetchone()[0])


def table_names(db: pw.SqliteDatabase) -> list[str]:
    return sorted(db.get_tables())
