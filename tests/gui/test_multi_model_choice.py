"""The models a chat asks besides its own ("Compare with…") are saved with the chat, through
real windows and the real core (SQLite under tmp_path): every window of the chat follows a
change and a window opened later shows it, each chat keeps its own, a deleted model drops out
with the header's notice (also after a restart), and deleting the chat removes the choice.
The restart with a send fanning out to both models: tests/gui/test_multi_model.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from cherry_desktop.core.storage.paths import build_path_registry
from cherry_desktop.demo.bootstrap import (
    DEMO_PROVIDER_ID,
    DEMO_SECOND_MODEL_ID,
    DEMO_SECOND_UNIQUE_MODEL_ID,
    DEMO_UNIQUE_MODEL_ID,
    ensure_demo_records,
)
from tests.gui.conftest import app_run
from tests.waiting import until

pytestmark = pytest.mark.gui

M1, M2 = DEMO_UNIQUE_MODEL_ID, DEMO_SECOND_UNIQUE_MODEL_ID
FAST = "Demo model (fast) · Cherry demo (offline)"
DROPPED = ("A model this chat also asked is no longer available and is not asked any more. "
           "Choose others with “Compare with…”.")


def _chat(core: Any, name: str = "Compare") -> str:
    ensure_demo_records(core.repos, core.paths.get("feature.agents.workspaces"), "http://127.0.0.1:9")
    return str(core.repos.topics.create_topic(name=name, model=M1).id)


def _menu(window: Any) -> dict[str, Any]:
    return {a.text(): a for a in window.chat_header.compare_menu.actions()}


def _checked(window: Any) -> list[str]:
    return [a.text() for a in window.chat_header.compare_menu.actions() if a.isCheckable() and a.isChecked()]


def _asks_both(window: Any) -> bool:
    return _checked(window) == [FAST] and window.chat_header.compare_button.text() == "+ Demo model (fast)"


def _asks_own_only(window: Any) -> bool:
    return _checked(window) == [] and window.chat_header.compare_button.text() == "Compare with…"


async def test_every_window_of_the_chat_follows_a_saved_choice_and_each_chat_keeps_its_own(
        live_controller: Any, live_core: Any, scripted_ai: Any, qtbot: Any) -> None:
    topic_id = _chat(live_core)
    other_id = _chat(live_core, "Other")
    repos = live_core.repos
    a = live_controller.open_window(topic_id)
    b = live_controller.open_window(topic_id)
    _menu(a)[FAST].trigger()  # as a click in the menu does
    assert _asks_both(a) and _asks_both(b)
    assert repos.topics.extra_models(topic_id) == [M2] and repos.topics.extra_models(other_id) == []
    # A window opened later reads the saved choice; a window moving to another chat shows that
    # chat's (none), and back again this one's.
    c = live_controller.open_window(topic_id)
    assert _asks_both(c)
    c.show_topic(other_id)
    assert _asks_own_only(c) and _asks_both(a)
    c.show_topic(topic_id)
    assert _asks_both(c)
    # B asks only the chat's model again: saved, every window follows.
    _menu(b)["Ask only this chat's model"].trigger()
    assert all(_asks_own_only(w) for w in (a, b, c)) and repos.topics.extra_models(topic_id) == []
    # Checked again from C, a send from A asks both models side by side.
    _menu(c)[FAST].trigger()
    assert _asks_both(a) and repos.topics.extra_models(topic_id) == [M2]
    a.composer.editor.setPlainText("Both?")
    qtbot.mouseClick(a.composer.send_button, Qt.MouseButton.LeftButton)
    f1, f2 = await scripted_ai.feed(0), await scripted_ai.feed(1)
    assert (f1.request.model_id, f2.request.model_id) == (M1, M2)
    f1.text("one")
    f1.end()
    f2.text("two")
    f2.end()
    await until(lambda: not a.is_streaming() and bool(a.message_view.groups.views()))
    for window in (a, b, c):
        window.close()


async def test_a_deleted_model_drops_out_of_the_choice_with_the_notice(
        live_controller: Any, live_core: Any, scripted_ai: Any, qtbot: Any) -> None:
    topic_id = _chat(live_core)
    bridges = live_controller.bridges
    a = live_controller.open_window(topic_id)
    b = live_controller.open_window(topic_id)
    _menu(a)[FAST].trigger()
    assert not a.chat_header.notice.isVisible()
    bridges.providers.remove_model(M2)  # as Providers does
    for window in (a, b):
        assert _asks_own_only(window) and FAST not in _menu(window)
        assert window.chat_header.notice_text() == DROPPED and window.chat_header.fix_button.isVisible()
    assert bridges.multi_model.models_to_ask(topic_id) == []
    # A send asks the chat's own model only, and nothing stops it.
    a.composer.editor.setPlainText("Just one")
    qtbot.mouseClick(a.composer.send_button, Qt.MouseButton.LeftButton)
    f1 = await scripted_ai.feed(0)
    assert f1.request.model_id == M1
    f1.text("one")
    f1.end()
    await until(lambda: not a.is_streaming() and "one" in a.live_text())
    assert len(scripted_ai.feeds) == 1 and not a.message_view.groups.views()
    # The model comes back (same id): the chat asks it again, the notice goes.
    bridges.providers.add_model(DEMO_PROVIDER_ID, DEMO_SECOND_MODEL_ID, "Demo model (fast)")
    assert all(_asks_both(w) and not w.chat_header.notice_text() for w in (a, b))
    # Deleted again, then the user changes the choice: the deleted model is no longer kept.
    bridges.providers.remove_model(M2)
    assert b.chat_header.notice_text() == DROPPED
    live_core.repos.providers.upsert_provider(id="more", name="More AI", type="openai-compatible",
                                              base_url="http://127.0.0.1:9/v1")  # local: no key needed
    bridges.providers.add_model("more", "extra", "Extra model")
    _menu(b)["Extra model · More AI"].trigger()
    assert live_core.repos.topics.extra_models(topic_id) == ["more::extra"]
    assert all(_checked(w) == ["Extra model · More AI"] and not w.chat_header.notice_text() for w in (a, b))
    bridges.providers.add_model(DEMO_PROVIDER_ID, DEMO_SECOND_MODEL_ID, "Demo model (fast)")
    assert _checked(a) == ["Extra model · More AI"]
    a.close()
    b.close()


async def test_deleting_the_chat_removes_its_choice(live_controller: Any, live_core: Any, qtbot: Any) -> None:
    topic_id = _chat(live_core)
    kept_id = _chat(live_core, "Kept")
    repos = live_core.repos
    a = live_controller.open_window(topic_id)
    b = live_controller.open_window(topic_id)
    _menu(a)[FAST].trigger()
    live_controller.bridges.multi_model.set_extra_models(kept_id, [M2])
    # Deleted from another window in the same tick as a change in this one: the change is
    # dropped with the chat (no error, nothing written back).
    repos.topics.delete_topic(topic_id)
    _menu(b)["Ask only this chat's model"].trigger()
    a.chat_header.toggle_extra_model(M2, True)
    assert a.last_error is None and repos.topics.find_topic(topic_id) is None
    assert repos.topics.extra_models(topic_id) == []
    # Deleting through the window: the chat and its choice are gone, the other chat keeps its own.
    task = b.delete_topic(kept_id, confirm=False)
    assert task is not None
    await task
    assert repos.topics.find_topic(kept_id) is None and repos.topics.extra_models(kept_id) == []
    assert live_controller.bridges.multi_model.models_to_ask(kept_id) == []
    a.close()
    b.close()


async def test_after_a_restart_a_model_deleted_meanwhile_is_not_asked(qapp: Any, qtbot: Any, tmp_path: Path,
                                                                       no_leaked_windows: None) -> None:
    """A new core and UI on the same data dir: the saved choice is read back, and a model
    deleted while the app was closed drops out with the notice."""
    paths = build_path_registry(tmp_path / "data-root")
    async with app_run(paths, start_window=False) as ctl:
        topic_id = _chat(ctl.core)
        window = ctl.open_window(topic_id)
        _menu(window)[FAST].trigger()
        window.close()
    async with app_run(paths, start_window=False) as ctl:
        window = ctl.open_window(topic_id)
        assert _asks_both(window) and ctl.bridges.multi_model.models_to_ask(topic_id) == [M1, M2]
        assert not window.chat_header.notice_text()
        window.close()
        ctl.core.repos.providers.delete_model(M2)  # as another build or a script might
    async with app_run(paths, start_window=False) as ctl:
        window = ctl.open_window(topic_id)
        assert _asks_own_only(window) and ctl.bridges.multi_model.models_to_ask(topic_id) == []
        assert window.chat_header.notice_text() == DROPPED
        window.close()
    qapp.processEvents()
