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

log = logging.getLogger(__name__)


class SchemaTooNewError(RuntimeError):
    """The database was written by a newer Cherry Desktop."""


def _m1_initial(db: pw.SqliteDatabase) -> None:
    db.create_tables([m for m in ALL_MODELS if m is not AppMeta], safe=True)


def _m2_app_meta(db: pw.SqliteDatabase) -> None:
    db.create_tables([AppMeta], safe=True)


# Append only; never edit a released migration.
MIGRATIONS: list[Callable[[pw.SqliteDatabase], None]] = [_m1_initial, _m2_app_meta]
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
    db.connect(reuse_if_open=True)
    database_proxy.initialize(db)
    migrate(db)
    return db


def journal_mode(db: pw.SqliteDatabase) -> str:
    return str(db.execute_sql("PRAGMA journal_mode").fetchone()[0])


def table_names(db: pw.SqliteDatabase) -> list[str]:
    return sorted(db.get_tables())
