"""The FTS5 search index over a real SQLite file: kept in step with chat and session messages
by triggers (insert, settle, edit, delete, cascades), back-filled by the migration, CJK and
short terms found, bad input harmless."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from cherry_desktop.core.data import Repositories, open_database
from cherry_desktop.core.data.database import SCHEMA_VERSION
from cherry_desktop.core.data.search import make_snippet, search_terms
from cherry_desktop.core.messages import TextPart, ToolPart


def _session(repos: Repositories) -> str:
    agent = repos.agents.create_agent(type="claude-code", name="A", model="p::m")
    return repos.sessions.create_session(agent_id=agent.id, workspace_id=None, name="s").id


def _ids(repos: Repositories, query: str) -> list[str]:
    return [h.message_id for h in repos.search.search_messages(query)]


def test_chat_and_session_messages_are_found_with_a_snippet(repos: Repositories) -> None:
    topic = repos.topics.create_topic(name="Cooking")
    m1 = repos.messages.create_message(topic_id=topic.id, role="user",
                                       parts=[TextPart(text="How long do I boil an artichoke?")])
    m2 = repos.messages.create_message(topic_id=topic.id, role="assistant", parts=[
        ToolPart(tool_call_id="t", tool_name="artichokeTool", input={"artichoke": 1}),
        TextPart(text="Boil the ARTICHOKE for 30 minutes.")])
    session_id = _session(repos)
    s1 = repos.session_messages.create_message(session_id=session_id, role="user",
                                               parts=[TextPart(text="refactor the artichoke module")])
    hits = repos.search.search_messages("artichoke")
    # Newest first; tool inputs are not text.
    assert [h.message_id for h in hits] == [s1.id, m2.id, m1.id]
    assert [(h.kind, h.owner_id) for h in hits] == [("session", session_id), ("chat", topic.id), ("chat", topic.id)]
    hit = hits[1]
    assert hit.snippet[hit.match_start:hit.match_end] == "ARTICHOKE"
    # Every term must occur, in any order.
    assert _ids(repos, "minutes artichoke") == [m2.id]
    assert _ids(repos, "artichoke nowhere") == []


def test_pending_rows_are_indexed_when_they_settle_and_edits_replace_the_text(repos: Repositories) -> None:
    topic = repos.topics.create_topic()
    m = repos.messages.create_message(topic_id=topic.id, role="assistant", status="pending",
                                      parts=[TextPart(text="partial zucchini")])
    assert _ids(repos, "zucchini") == []
    assert repos.messages.checkpoint_pending(m.id, [TextPart(text="partial zucchini bread")])
    assert _ids(repos, "zucchini") == []
    repos.messages.update_message(m.id, status="success", parts=[TextPart(text="zucchini bread recipe")])
    assert _ids(repos, "recipe") == [m.id]
    repos.messages.update_message(m.id, parts=[TextPart(text="pumpkin pie")])
    assert _ids(repos, "zucchini") == []
    assert _ids(repos, "pumpkin") == [m.id]
    # Only one entry per message, whatever the number of updates.
    repos.messages.update_message(m.id, status="error")
    assert repos.search.indexed_count() == 1


def test_deletes_and_cascades_leave_no_entry(repos: Repositories) -> None:
    topic = repos.topics.create_topic()
    repos.messages.create_message(topic_id=topic.id, role="user", parts=[TextPart(text="walrus one")])
    session_id = _session(repos)
    s = repos.session_messages.create_message(session_id=session_id, role="user",
                                              parts=[TextPart(text="walrus two")])
    s2 = repos.session_messages.create_message(session_id=session_id, role="user",
                                               parts=[TextPart(text="walrus three")])
    assert len(_ids(repos, "walrus")) == 3
    repos.session_messages.delete_message(s.id)
    assert len(_ids(repos, "walrus")) == 2
    repos.topics.delete_topic(topic.id)
    assert _ids(repos, "walrus") == [s2.id]
    repos.sessions.delete_session(session_id)
    assert _ids(repos, "walrus") == []
    assert repos.search.indexed_count() == 0
    # The index agrees with its content table.
    repos.search.check_integrity()


def test_cjk_and_short_terms_are_found(repos: Repositories) -> None:
    topic = repos.topics.create_topic()
    m = repos.messages.create_message(topic_id=topic.id, role="user", parts=[TextPart(text="如何使用全文搜索功能")])
    other = repos.messages.create_message(topic_id=topic.id, role="user", parts=[TextPart(text="go is a language")])
    assert _ids(repos, "全文搜索") == [m.id]
    assert _ids(repos, "搜索") == [m.id]  # two characters: under a trigram, scanned
    assert _ids(repos, "go") == [other.id]
    assert _ids(repos, "go language") == [other.id]


def test_query_syntax_in_the_input_is_plain_text(repos: Repositories) -> None:
    topic = repos.topics.create_topic()
    m = repos.messages.create_message(topic_id=topic.id, role="user",
                                      parts=[TextPart(text='say "NEAR(a b)" OR 100% of_it')])
    for query in ['"NEAR(a b)"', "OR", "100%", "of_it", '"', "*", "AND NOT", "(", "col:x"]:
        result = _ids(repos, query)
        assert result in ([m.id], []), query
    assert _ids(repos, "100%") == [m.id]
    assert _ids(repos, "%") == [m.id]
    assert _ids(repos, "_") == [m.id]
    assert _ids(repos, "x%y") == []
    assert _ids(repos, "   ") == []


def test_titles_match_every_term(repos: Repositories) -> None:
    t = repos.topics.create_topic(name="Trip to Kyoto")
    repos.topics.create_topic(name="Groceries")
    agent = repos.agents.create_agent(type="claude-code", name="A")
    s = repos.sessions.create_session(agent_id=agent.id, workspace_id=None, name="kyoto hotel script")
    assert repos.search.matching_titles("kyoto") == ([t.id], [s.id])
    assert repos.search.matching_titles("kyoto trip") == ([t.id], [])


def test_corrupt_data_cell_indexes_as_nothing_and_the_write_succeeds(repos: Repositories, db_path: Path) -> None:
    topic = repos.topics.create_topic()
    m = repos.messages.create_message(topic_id=topic.id, role="user", parts=[TextPart(text="badger")])
    con = sqlite3.connect(db_path)
    con.execute("UPDATE message SET data = '{not json' WHERE id = ?", (m.id,))
    con.commit()
    con.close()
    assert _ids(repos, "badger") == []


def test_migration_back_fills_existing_rows(db_path: Path) -> None:
    db = open_database(db_path)
    repos = Repositories()
    topic = repos.topics.create_topic()
    kept = repos.messages.create_message(topic_id=topic.id, role="user", parts=[TextPart(text="old heron")])
    repos.messages.create_message(topic_id=topic.id, role="assistant", status="pending",
                                  parts=[TextPart(text="streaming heron")])
    session_id = _session(repos)
    s = repos.session_messages.create_message(session_id=session_id, role="user", parts=[TextPart(text="heron too")])
    # Back to the file a version-5 build wrote: no index, rows already there.
    for name in ("message", "agent_session_message"):
        for event in ("insert", "update", "delete"):
            db.execute_sql(f'DROP TRIGGER "{name}_search_{event}"')
    db.execute_sql("DROP TABLE search_fts")
    db.execute_sql("DROP TABLE search_doc")
    db.execute_sql("PRAGMA user_version = 5")
    db.close()
    db = open_database(db_path)
    assert SCHEMA_VERSION >= 6
    assert sorted(_ids(repos, "heron")) == sorted([kept.id, s.id])
    repos.search.check_integrity()
    db.close()


def test_snippet_and_terms() -> None:
    text = "a" * 100 + " Needle " + "b" * 200
    snippet, lo, hi = make_snippet(text, ["needle"])
    assert snippet.startswith("…") and snippet.endswith("…")
    assert snippet[lo:hi] == "Needle"
    assert make_snippet("short", ["x"]) == ("short", 0, 0)
    assert search_terms("a  A b a") == ["a", "b"]


def test_a_partial_reply_cut_by_a_crash_is_found_after_boot_recovery(repos: Repositories) -> None:
    from cherry_desktop.core.ai.stream.recovery import recover_interrupted_messages

    topic = repos.topics.create_topic()
    m = repos.messages.create_message(topic_id=topic.id, role="assistant", status="pending",
                                      parts=[TextPart(text="half an answer about narwhals")])
    repos.messages.checkpoint_pending(m.id, [TextPart(text="half an answer about narwhals and tusks")])
    assert _ids(repos, "narwhals") == []  # still streaming when the app died
    assert recover_interrupted_messages(repos) == [m.id]
    assert _ids(repos, "tusks") == [m.id]
    repos.search.check_integrity()
