"""Multi-model chats through real windows and the real core (manager, persistent provider,
SQLite under tmp_path): two models asked at once stream side by side, one is stopped while
the other finishes, one is regenerated alone, the user picks the answer the conversation
continues from and the next request holds only that one; a second window attaches mid-stream;
a failing model leaves an error row in its column; a restart shows the group and the choice,
and the chat still asks both models.
The models are the scripted `stream_text` (tests/gui/_scripted.py) or the scripted model server."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from cherry_desktop.core.app.bootstrap import start_core
from cherry_desktop.core.storage.paths import build_path_registry
from cherry_desktop.demo import ScriptedModelServer, slow_text
from cherry_desktop.demo.bootstrap import (
    DEMO_SECOND_UNIQUE_MODEL_ID,
    DEMO_UNIQUE_MODEL_ID,
    ensure_demo_records,
)
from cherry_desktop.demo.naming import naming_reply
from cherry_desktop.ui.chat import SiblingGroupView
from tests.gui.conftest import ARTIFACTS
from tests.waiting import until

pytestmark = pytest.mark.gui

M1, M2 = DEMO_UNIQUE_MODEL_ID, DEMO_SECOND_UNIQUE_MODEL_ID


def _chat(core: Any, base_url: str = "http://127.0.0.1:9") -> str:
    ensure_demo_records(core.repos, core.paths.get("feature.agents.workspaces"), base_url)
    return str(core.repos.topics.create_topic(name="Compare", model=M1).id)


def _groups(window: Any) -> list[SiblingGroupView]:
    return window.message_view.groups.views()


def _column_texts(window: Any) -> list[str]:
    groups = _groups(window)
    return [c.row.text() for c in groups[-1].columns] if groups else []


async def _ask_both(qtbot: Any, window: Any, text: str) -> None:
    header = window.chat_header
    # The compare menu lists the demo's other model; checking it asks both from now on.
    actions = {a.text(): a for a in header.compare_menu.actions()}
    actions["Demo model (fast) · Cherry demo (offline)"].setChecked(True)
    assert header.extra_models() == [M2]
    assert header.compare_button.text() == "+ Demo model (fast)"
    window.composer.editor.setPlainText(text)
    qtbot.mouseClick(window.composer.send_button, Qt.MouseButton.LeftButton)


def _checked(window: Any) -> list[str]:
    """The compare menu's checked models (the ones asked besides the chat's own)."""
    return [a.text() for a in window.chat_header.compare_menu.actions() if a.isCheckable() and a.isChecked()]


def _click(qtbot: Any, button: Any) -> None:
    assert button.isVisible() and button.isEnabled(), button.objectName()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


async def test_two_models_side_by_side_stop_one_regenerate_one_and_continue_from_the_chosen(
        live_controller: Any, live_core: Any, scripted_ai: Any, qtbot: Any) -> None:
    topic_id = _chat(live_core)
    window = live_controller.open_window(topic_id)
    window.resize(1200, 760)
    await _ask_both(qtbot, window, "Compare")
    f1, f2 = await scripted_ai.feed(0), await scripted_ai.feed(1)
    assert (f1.request.model_id, f2.request.model_id) == (M1, M2)
    f1.text("First ", "model ")
    f2.text("Second ", "model ")
    await until(lambda: _column_texts(window) == ["First model ", "Second model "])
    group = _groups(window)[0]
    # The group picks columns or tabs on its resize, which the layout may deliver after the
    # text: at 1200 px it settles on columns.
    await until(lambda: not group.narrow)
    assert [c.model_name for c in group.columns] == ["Demo model", "Demo model (fast)"]
    first, second = group.columns
    assert "streaming" in first.row.header.text() and first.row.header.text().startswith("Demo model")
    # Stop the first model only: its partial is kept (paused), the second goes on.
    _click(qtbot, first.stop_button)
    await until(lambda: first.row.status == "paused")
    assert window.is_streaming() and second.row.live
    f2.text("finished.")
    f2.end()
    await until(lambda: not window.is_streaming())
    a_id, b_id = (c.row.message_id for c in _groups(window)[0].columns)
    repos = live_core.repos
    assert [repos.messages.get_message(i).status for i in (a_id, b_id)] == ["paused", "success"]
    group = _groups(window)[0]
    first, second = group.columns
    assert _column_texts(window) == ["First model ", "Second model finished."]
    # Nothing chosen: the first answer that finished is the one the chat continues from.
    assert second.chosen_label.isVisible() and not first.chosen_label.isVisible()
    assert first.use_button.isVisible() and not first.use_button.isEnabled()

    # Regenerate the stopped answer alone: the other column keeps its row and text.
    kept_second = second.row
    _click(qtbot, first.regenerate_button)
    f3 = await scripted_ai.feed(2)
    assert f3.request.model_id == M1 and [m.text() for m in f3.request.messages] == ["Compare"]
    f3.text("First model, ", "again.")
    await until(lambda: _column_texts(window)[0] == "First model, again.")
    assert len(scripted_ai.feeds) == 3
    f3.end()
    await until(lambda: not window.is_streaming() and _groups(window)[0].columns[0].row.status == "success")
    group = _groups(window)[0]
    first, second = group.columns
    assert second.row.text() == kept_second.text() == "Second model finished."
    new_a = first.row.message_id
    assert new_a != a_id and repos.messages.get_message(a_id).status == "paused"  # the old one stays saved

    # Use the regenerated first answer: saved as the topic's active node; the next request
    # carries only that answer.
    _click(qtbot, first.use_button)
    assert repos.topics.get_topic(topic_id).active_node_id == new_a
    await until(lambda: _groups(window)[0].columns[0].chosen_label.isVisible())
    assert not _groups(window)[0].columns[1].chosen_label.isVisible()
    window.chat_header.toggle_extra_model(M2, False)  # back to the single-model path
    window.composer.editor.setPlainText("Next")
    qtbot.mouseClick(window.composer.send_button, Qt.MouseButton.LeftButton)
    f4 = await scripted_ai.feed(3)
    assert f4.request.model_id == M1
    assert [m.text() for m in f4.request.messages] == ["Compare", "First model, again.", "Next"]
    f4.text("Continued.")
    f4.end()
    await until(lambda: not window.is_streaming() and "Continued." in window.live_text())
    # The conversation went on: the group stays, showing where it continued, closed to choices.
    group = _groups(window)[0]
    assert group.columns[0].chosen_label.isVisible()
    assert not any(c.use_button.isVisible() or c.regenerate_button.isVisible() for c in group.columns)
    window.close()


def _watch_refreshes(windows: dict[str, Any]) -> list[tuple[str, bool, bool, bool, bool]]:
    """Each refresh of the named windows' (last) group: which window, and what the second
    answer's column showed after it (Stop shown, Regenerate shown and enabled, still live)."""
    seen: list[tuple[str, bool, bool, bool, bool]] = []
    for name, window in windows.items():
        second = _groups(window)[-1].columns[1]
        _groups(window)[-1].refreshed.connect(lambda n=name, c=second: seen.append((
            n, not c.stop_button.isHidden(), not c.regenerate_button.isHidden(),
            c.regenerate_button.isEnabled(), c.row.live)))
    return seen


async def test_a_group_updates_its_buttons_when_an_answer_changes_state_not_on_text_frames(
        live_controller: Any, live_core: Any, scripted_ai: Any, qtbot: Any) -> None:
    """Streamed text leaves a group's buttons and tabs alone (in every window of the chat);
    an answer that finishes updates them at once, while the other model still streams."""
    topic_id = _chat(live_core)
    a = live_controller.open_window(topic_id)
    b = live_controller.open_window(topic_id)
    windows = (a, b)
    await _ask_both(qtbot, a, "Q")
    f1, f2 = await scripted_ai.feed(0), await scripted_ai.feed(1)
    f1.text("one")
    f2.text("uno")
    await until(lambda: all(_column_texts(w) == ["one", "uno"] for w in windows))
    await until(lambda: all(c.row.live and c.row.status == "streaming" for w in windows for c in _groups(w)[0].columns))
    seen = _watch_refreshes({"a": a, "b": b})
    for i in range(4):
        f1.text(f" {i}")
        f2.text(f" {i}")
        await until(lambda i=i: all(t.endswith(f" {i}") for w in windows for t in _column_texts(w)))
    assert seen == []  # text frames only
    for window in windows:
        for column in _groups(window)[0].columns:
            assert column.stop_button.isVisible()
            assert not column.regenerate_button.isVisible() and not column.use_button.isVisible()
    # The second model finishes: its group shows that at once, in both windows (before the
    # reload after the answer's end rebuilds it): Stop gone, Regenerate shown but disabled
    # while the first model still streams.
    f2.end()
    await until(lambda: all(_groups(w)[0].columns[1].row.status == "success" for w in windows))
    assert {entry[0] for entry in seen} == {"a", "b"}
    assert [entry for entry in seen if entry[0] == "a"][-1] == ("a", False, True, False, False)
    assert [entry for entry in seen if entry[0] == "b"][-1] == ("b", False, True, False, False)
    for window in windows:
        first, second = _groups(window)[0].columns
        assert first.stop_button.isVisible() and not first.regenerate_button.isVisible()
        assert not second.stop_button.isVisible()
        assert second.regenerate_button.isVisible() and not second.regenerate_button.isEnabled()
    seen = _watch_refreshes({"a": a, "b": b})
    f1.text(" more")
    await until(lambda: all(_column_texts(w)[0] == "one 0 1 2 3 more" for w in windows))
    assert seen == []
    f1.end()
    await until(lambda: not a.is_streaming() and not b.is_streaming())
    for window in windows:
        await until(lambda w=window: _groups(w)[0].columns[0].row.status == "success")
        first, second = _groups(window)[0].columns
        assert not first.stop_button.isVisible() and not second.stop_button.isVisible()
        assert first.regenerate_button.isEnabled() and second.regenerate_button.isEnabled()
    a.close()
    b.close()


async def test_a_failing_model_leaves_an_error_row_in_its_column(live_controller: Any, live_core: Any,
                                                                  scripted_ai: Any, qtbot: Any) -> None:
    topic_id = _chat(live_core)
    window = live_controller.open_window(topic_id)
    await _ask_both(qtbot, window, "Q")
    f1, f2 = await scripted_ai.feed(0), await scripted_ai.feed(1)
    f1.text("Half an ans")
    f1.queue.put_nowait(RuntimeError("model one fell over"))
    await until(lambda: bool(_groups(window)) and _groups(window)[0].columns[0].row.status == "error")
    assert window.is_streaming()  # the second model still answers
    f2.text("All good.")
    f2.end()
    await until(lambda: not window.is_streaming())
    first, second = _groups(window)[0].columns
    assert first.row.status == "error" and "model one fell over" in (first.row.error_text or "")
    assert second.row.status == "success" and second.chosen_label.isVisible()
    stored = live_core.repos.messages.get_message(first.row.message_id)
    assert stored.status == "error" and any(p.type == "data-error" for p in stored.parts)
    # "Use this answer" on the failed one is refused with words, nothing changes.
    active = live_core.repos.topics.get_topic(topic_id).active_node_id
    from cherry_desktop.ui.shell import choose_answer

    assert not choose_answer(window, first.row.message_id)
    assert window.last_error and "finished" in window.last_error
    assert live_core.repos.topics.get_topic(topic_id).active_node_id == active
    window.close()


async def test_a_second_window_opened_mid_stream_shows_both_columns_replaying_then_live(
        live_controller: Any, live_core: Any, scripted_ai: Any, qtbot: Any) -> None:
    topic_id = _chat(live_core)
    a = live_controller.open_window(topic_id)
    await _ask_both(qtbot, a, "Q")
    f1, f2 = await scripted_ai.feed(0), await scripted_ai.feed(1)
    f1.text("one ", "two ")
    f2.text("uno ")
    await until(lambda: _column_texts(a) == ["one two ", "uno "])
    b = live_controller.open_window(topic_id)
    await until(lambda: b.attached_live and _column_texts(b) == ["one two ", "uno "])
    f1.text("three")
    f2.text("dos")
    await until(lambda: _column_texts(b) == ["one two three", "uno dos"] == _column_texts(a))
    # The second window stops the second model; both windows see it stop, the first goes on.
    _click(qtbot, _groups(b)[0].columns[1].stop_button)
    await until(lambda: all(_groups(w)[0].columns[1].row.status == "paused" for w in (a, b)))
    f1.end()
    await until(lambda: not a.is_streaming() and not b.is_streaming())
    assert _column_texts(a) == _column_texts(b) == ["one two three", "uno dos"]
    assert a.live_text() == b.live_text()
    a.close()
    b.close()


async def test_stop_all_then_regenerate_and_choose_in_one_window_shows_in_the_other(
        live_controller: Any, live_core: Any, scripted_ai: Any, qtbot: Any) -> None:
    topic_id = _chat(live_core)
    a = live_controller.open_window(topic_id)
    b = live_controller.open_window(topic_id)
    await _ask_both(qtbot, a, "Q")
    f1, f2 = await scripted_ai.feed(0), await scripted_ai.feed(1)
    f1.text("alpha")
    f2.text("beta")
    await until(lambda: _column_texts(b) == ["alpha", "beta"])
    # The composer's Stop stops the whole turn: every model's answer is kept as paused.
    _click(qtbot, a.composer.stop_button)
    await until(lambda: not a.is_streaming() and not b.is_streaming())
    for window in (a, b):
        await until(lambda w=window: [c.row.status for c in _groups(w)[0].columns] == ["paused", "paused"])
    # Regenerate the second answer from window B; window A sees it stream into the same column.
    _click(qtbot, _groups(b)[0].columns[1].regenerate_button)
    f3 = await scripted_ai.feed(2)
    assert f3.request.model_id == M2
    f3.text("beta, finished")
    await until(lambda: _column_texts(a) == ["alpha", "beta, finished"] == _column_texts(b))
    # While it streams, the other answer cannot be regenerated (one turn at a time per chat).
    assert not _groups(a)[0].columns[0].regenerate_button.isEnabled()
    f3.end()
    await until(lambda: not a.is_streaming() and _groups(a)[0].columns[1].row.status == "success")
    await until(lambda: _groups(b)[0].columns[1].chosen_label.isVisible())  # the only finished one
    # B picks explicitly; both windows follow, and it is saved.
    chosen = _groups(b)[0].columns[1].row.message_id
    from cherry_desktop.ui.shell import choose_answer

    assert choose_answer(b, chosen)
    assert live_core.repos.topics.get_topic(topic_id).active_node_id == chosen
    await until(lambda: _groups(a)[0].columns[1].chosen_label.isVisible())
    assert len(_groups(a)) == len(_groups(b)) == 1
    a.close()
    b.close()


async def test_the_model_picker_chooses_several_models_for_every_window_of_the_chat(
        live_controller: Any, live_core: Any, qtbot: Any) -> None:
    topic_id = _chat(live_core)
    a = live_controller.open_window(topic_id)
    b = live_controller.open_window(topic_id)
    multi = live_controller.bridges.multi_model
    assert a.chat_header.compare_button.text() == "Compare with…" and multi.models_to_ask(topic_id) == []
    menu = {act.text(): act for act in a.chat_header.compare_menu.actions()}
    assert "Demo model · Cherry demo (offline)" not in menu  # the chat's own model is always asked
    menu["Demo model (fast) · Cherry demo (offline)"].trigger()  # as a click in the menu does
    assert multi.models_to_ask(topic_id) == [M1, M2]
    assert b.chat_header.compare_button.text() == "+ Demo model (fast)"  # the other window follows
    only_own = {act.text(): act for act in b.chat_header.compare_menu.actions()}["Ask only this chat's model"]
    assert only_own.isEnabled()
    only_own.trigger()
    assert multi.models_to_ask(topic_id) == [] and a.chat_header.compare_button.text() == "Compare with…"
    # Another model that cannot answer (no API key) is left out of a send, never blocking it
    # (tests/gui/test_compare_models.py).
    live_core.repos.providers.upsert_provider(id="remote", name="Remote AI", type="openai-compatible",
                                              base_url="https://api.example.com/v1")
    live_core.repos.providers.upsert_model(provider_id="remote", model_id="big", name="Big model")
    a.chat_header.toggle_extra_model("remote::big", True)
    assert multi.models_to_ask(topic_id) == [] and multi.skipped_models(topic_id) == ["remote::big"]
    a.chat_header.toggle_extra_model("remote::big", False)
    # Making the other model the chat's own: it is not asked twice.
    a.chat_header.toggle_extra_model(M2, True)
    a.chat_header.choose(M2)
    assert live_core.repos.topics.get_topic(topic_id).model == M2
    assert multi.models_to_ask(topic_id) == [] and a.chat_header.extra_models() == []
    a.close()
    b.close()


async def test_a_restart_shows_the_group_and_the_choice(qapp: Any, qtbot: Any, tmp_path: Path,
                                                        no_leaked_windows: None) -> None:
    """Against the scripted model server (real providers): answers, choice, then a new core
    and UI on the same data dir show both answers and the chosen one; a screenshot."""
    from cherry_desktop.ui import UiController

    paths = build_path_registry(tmp_path / "data-root")
    async with ScriptedModelServer() as server:
        # Each model answers in its own words (auto-naming's prompt keeps the server's answer).
        server.add_rule(lambda r: naming_reply(r) is None and r.json.get("model") == "claude-demo",
                        slow_text("**Claude demo** says: waves *and* particles.", delay_s=0.01))
        server.add_rule(lambda r: naming_reply(r) is None and r.json.get("model") == "claude-demo-fast",
                        slow_text("The fast one says:\n\n- waves\n- particles", delay_s=0.01))
        core = await start_core(paths)
        ctl = UiController(core)
        try:
            topic_id = _chat(core, server.base_url)
            window = ctl.open_window(topic_id)
            window.resize(1100, 640)
            await _ask_both(qtbot, window, "What is light?")
            await until(lambda: bool(_groups(window)) and not window.is_streaming(), limit=15)
            await until(lambda: all(c.row.status == "success" for c in _groups(window)[0].columns))
            models = sorted(str(r.json.get("model")) for r in server.message_requests() if naming_reply(r) is None)
            assert models == ["claude-demo", "claude-demo-fast"]
            second = _groups(window)[0].columns[1]
            chosen_id = second.row.message_id
            if second.use_button.isVisible():  # the first to finish is continued from, unless chosen
                _click(qtbot, second.use_button)
            await until(lambda: _groups(window)[0].columns[1].chosen_label.isVisible())
            ARTIFACTS.mkdir(exist_ok=True)
            assert window.grab().save(str(ARTIFACTS / "multi-model.png"))
            window.close()
        finally:
            await ctl.aclose()
            await core.stop()
        core = await start_core(paths)
        ctl = UiController(core)
        try:
            window = ctl.open_window(topic_id)
            # The chat still asks both models: the choice is saved with it.
            assert _checked(window) == ["Demo model (fast) · Cherry demo (offline)"]
            assert window.chat_header.compare_button.text() == "+ Demo model (fast)"
            await until(lambda: bool(_groups(window)))
            group = _groups(window)[0]
            assert [c.row.text() for c in group.columns] == [
                "**Claude demo** says: waves *and* particles.", "The fast one says:\n\n- waves\n- particles"]
            assert group.columns[1].row.message_id == chosen_id and group.columns[1].chosen_label.isVisible()
            assert group.columns[0].use_button.isVisible()
            # Narrow: one answer at a time under tabs.
            window.resize(560, 640)
            await until(lambda: _groups(window)[0].narrow)
            group = _groups(window)[0]
            assert group.tabs.isVisible() and group.tabs.tabText(1) == "✓ Demo model (fast)"
            assert group.columns[0].isVisible() and not group.columns[1].isVisible()
            group.tabs.setCurrentIndex(1)
            assert group.columns[1].isVisible() and not group.columns[0].isVisible()
            await asyncio.sleep(0.2)  # let the layout settle before the screenshot
            window.message_view.scroll_to_bottom()
            assert window.grab().save(str(ARTIFACTS / "multi-model-tabs.png"))
            # The next message goes to both models again, each with the chosen answer only.
            window.composer.editor.setPlainText("And then?")
            qtbot.mouseClick(window.composer.send_button, Qt.MouseButton.LeftButton)

            def then_requests() -> list[Any]:
                return [r for r in server.message_requests() if naming_reply(r) is None and "And then?" in r.all_text()]

            await until(lambda: len(then_requests()) == 2, limit=10)
            assert sorted(str(r.json.get("model")) for r in then_requests()) == ["claude-demo", "claude-demo-fast"]
            for sent in then_requests():
                assert [m.get("role") for m in sent.messages] == ["user", "assistant", "user"]
                history = sent.all_text()
                assert "The fast one says" in history and "Claude demo" not in history
            await until(lambda: not window.is_streaming() and len(_groups(window)) == 2, limit=10)
            assert [c.model_name for c in _groups(window)[1].columns] == ["Demo model", "Demo model (fast)"]
            # httpx's body iterators of the finished stream are finalised (asyncgen hooks) while
            # the provider's client is open: after core.stop the finaliser waits forever.
            gc.collect()
            await asyncio.sleep(0.1)
            window.close()
        finally:
            await ctl.aclose()
            await core.stop()
    qapp.processEvents()



async def test_the_offline_demo_answers_a_chat_with_what_to_try(controller: Any, ui_core: Any, qtbot: Any,
                                                                server: ScriptedModelServer) -> None:
    """With `--demo`, a chat asking both demo models hears a note from each (the question back,
    and the chat features to try), not the bare "ok" the CLI's side requests get."""
    topic_id = _chat(ui_core, server.base_url)
    window = controller.open_window(topic_id)
    window.resize(1100, 720)
    await _ask_both(qtbot, window, "What can you do?")
    await until(lambda: not window.is_streaming() and len(_column_texts(window)) == 2
                and all(_column_texts(window)), limit=30)
    first, second = _column_texts(window)
    assert first.startswith("**Demo model** here, Cherry's offline demo model. You wrote: “What can you do?”.")
    assert second.startswith("**Demo model (fast)** here,") and "*Compare with…*" in second
    await controller.capture_when_idle(ARTIFACTS / "demo_chat.png", window=window)
