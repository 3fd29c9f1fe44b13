"""The models a chat asks besides its own are saved on its topic row (`topic.settings`, real
SQLite): read back in the order chosen, kept with the chat's other settings, gone with the
chat, and a file from before the column (schema version 9) gains it without losing a topic."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from cherry_desktop.core.data import NotFoundError, Repositories, open_database, schema_version
from cherry_desktop.core.data.database import SCHEMA_VERSION


def _settings(db_path: Path, topic_id: str) -> dict[str, object]:
    """The row's settings as another connection (another process) reads them."""
    with sqlite3.connect(db_path) as db:
        row = db.execute('SELECT "settings" FROM "topic" WHERE "id" = ?', (topic_id,)).fetchone()
    assert row is not None
    value = json.loads(row[0])
    assert isinstance(value, dict)
    return value


def test_the_choice_is_saved_on_the_topic_in_the_order_chosen(repos: Repositories, db_path: Path) -> None:
    topic = repos.topics.create_topic(name="Compare", model="p::a")
    other = repos.topics.create_topic(name="Other", model="p::a")
    assert repos.topics.extra_models(topic.id) == [] and _settings(db_path, topic.id) == {}
    assert repos.topics.set_extra_models(topic.id, ["p::c", "q::b", "p::c"]) == ["p::c", "q::b"]
    assert repos.topics.extra_models(topic.id) == ["p::c", "q::b"]
    assert _settings(db_path, topic.id) == {"extra_models": ["p::c", "q::b"]}
    assert repos.topics.extra_models(other.id) == []  # per chat
    # Not a conversation change: the chat keeps its place in the list.
    assert repos.topics.get_topic(topic.id).updated_at == topic.updated_at
    assert repos.topics.set_extra_models(topic.id, []) == []
    assert repos.topics.extra_models(topic.id) == []


def test_the_chats_other_settings_are_kept(repos: Repositories, db_path: Path) -> None:
    topic = repos.topics.create_topic(name="Compare", model="p::a")
    with sqlite3.connect(db_path) as db:
        db.execute('UPDATE "topic" SET "settings" = ? WHERE "id" = ?', ('{"later": {"k": 1}}', topic.id))
    repos.topics.set_extra_models(topic.id, ["p::b"])
    assert _settings(db_path, topic.id) == {"later": {"k": 1}, "extra_models": ["p::b"]}


def test_bad_input_and_a_missing_topic_change_nothing(repos: Repositories) -> None:
    topic = repos.topics.create_topic(name="Compare", model="p::a")
    repos.topics.set_extra_models(topic.id, ["p::b"])
    with pytest.raises(ValueError, match="unique model ids"):
        repos.topics.set_extra_models(topic.id, ["p::c", ""])
    with pytest.raises(ValueError):
        repos.topics.set_extra_models(topic.id, ["p::c", None])  # type: ignore[list-item]
    assert repos.topics.extra_models(topic.id) == ["p::b"]
    with pytest.raises(NotFoundError):
        repos.topics.set_extra_models("gone", ["p::b"])
    assert repos.topics.find_topic("gone") is None and repos.topics.extra_models("gone") == []


def test_an_unreadable_settings_cell_reads_as_no_choice_and_a_choice_repairs_it(repos: Repositories,
                                                                                db_path: Path) -> None:
    topic = repos.topics.create_topic(name="kept", model="p::a")
    for cell in ("{not json", '["p::b"]', '{"extra_models": "p::b"}', '{"extra_models": ["p::b", 3, ""]}'):
        with sqlite3.connect(db_path) as db:
            db.execute('UPDATE "topic" SET "settings" = ? WHERE "id" = ?', (cell, topic.id))
        expected = ["p::b"] if cell.startswith('{"extra_models": [') else []
        assert repos.topics.extra_models(topic.id) == expected, cell
        assert repos.topics.get_topic(topic.id).name == "kept"
    assert repos.topics.set_extra_models(topic.id, ["p::c"]) == ["p::c"]
    assert _settings(db_path, topic.id) == {"extra_models": ["p::c"]}


def test_deleting_the_chat_removes_its_choice(repos: Repositories, db_path: Path) -> None:
    topic = repos.topics.create_topic(name="Compare", model="p::a")
    kept = repos.topics.create_topic(name="Kept", model="p::a")
    repos.topics.set_extra_models(topic.id, ["p::b"])
    repos.topics.set_extra_models(kept.id, ["p::c"])
    repos.topics.delete_topic(topic.id)
    assert repos.topics.extra_models(topic.id) == []
    with sqlite3.connect(db_path) as db:
        cells = [r[0] for r in db.execute('SELECT "settings" FROM "topic"')]
    assert cells == ['{"extra_models":["p::c"]}']  # nothing of the deleted chat is left
    # A chat created again under the same id starts without a choice.
    repos.topics.create_topic(name="Again", model="p::a", id=topic.id)
    assert repos.topics.extra_models(topic.id) == []


def test_a_version_nine_file_gains_the_settings_column(db_path: Path) -> None:
    db = open_database(db_path)
    repos = Repositories()
    topic = repos.topics.create_topic(name="old", model="p::a")
    db.execute_sql('ALTER TABLE "topic" DROP COLUMN "settings"')
    db.execute_sql("PRAGMA user_version = 9")
    db.close()
    with sqlite3.connect(db_path) as raw:
        assert "settings" not in {r[1] for r in raw.execute('PRAGMA table_info("topic")')}
    db = open_database(db_path)
    try:
        assert schema_version(db) == SCHEMA_VERSION
        found = repos.topics.get_topic(topic.id)
        assert (found.name, found.model) == ("old", "p::a")
        assert repos.topics.extra_models(topic.id) == [] and _settings(db_path, topic.id) == {}
        assert repos.topics.set_extra_models(topic.id, ["p::b"]) == ["p::b"]
        # Rows written by the old build's SQL (no settings column named) get the default.
        db.execute_sql('INSERT INTO "topic" ("id", "name", "created_at", "updated_at") VALUES (?, ?, 1, 1)',
                       ("raw", "raw"))
        assert repos.topics.extra_models("raw") == [] and _settings(db_path, "raw") == {}
    finally:
        db.close()
    db = open_database(db_path)  # opening again is a no-op: the choice stays
    try:
        assert repos.topics.extra_models(topic.id) == ["p::b"]
    finally:
        db.close()
