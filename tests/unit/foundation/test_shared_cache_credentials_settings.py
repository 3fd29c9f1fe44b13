from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import keyring
import pytest
from keyring.backends import fail

from cherry_desktop.core.state.shared_cache import SharedCache, topic_stream_status_key
from cherry_desktop.core.storage.credentials import CredentialStore, KeyringUnavailableError, provider_key_name
from cherry_desktop.core.storage.settings import SettingsError, SettingsStore


class Sub:
    def __init__(self) -> None:
        self.seen: list[tuple[str, Any]] = []

    def on_change(self, key: str, value: Any) -> None:
        self.seen.append((key, value))


def test_set_get_snapshot_and_prefix_subscription() -> None:
    cache = SharedCache()
    exact, prefix = Sub(), Sub()
    cache.subscribe("a.b", exact.on_change)
    cache.subscribe("topic.stream.statuses.", prefix.on_change, prefix=True)
    cache.set_shared("a.b", 1)
    cache.set_shared(topic_stream_status_key("t1"), "pending")
    cache.set_shared("a.c", 2)
    assert cache.get("a.b") == 1
    assert cache.get("missing", "d") == "d"
    assert exact.seen == [("a.b", 1)]
    assert prefix.seen == [("topic.stream.statuses.t1", "pending")]
    assert cache.snapshot("topic.") == {"topic.stream.statuses.t1": "pending"}
    assert set(cache.snapshot()) == {"a.b", "a.c", "topic.stream.statuses.t1"}


def test_subscribers_are_weak_and_pruned() -> None:
    cache = SharedCache()
    sub = Sub()
    cache.subscribe("k", sub.on_change)
    assert cache.subscriber_count == 1
    del sub
    gc.collect()
    cache.set_shared("k", 1)
    assert cache.subscriber_count == 0


def test_failing_subscriber_does_not_starve_others() -> None:
    cache = SharedCache()
    good = Sub()

    def bad(key: str, value: Any) -> None:
        raise RuntimeError("boom")

    cache.subscribe("k", bad)
    cache.subscribe("k", good.on_change)
    cache.set_shared("k", 5)
    assert good.seen == [("k", 5)]


def test_unsubscribe() -> None:
    cache = SharedCache()
    sub = Sub()
    off = cache.subscribe("k", sub.on_change)
    off()
    cache.set_shared("k", 1)
    assert sub.seen == []


def test_credentials_round_trip_in_keyring() -> None:
    store = CredentialStore()
    name = provider_key_name("openai")
    assert store.get(name) is None
    store.set(name, "sk-test")
    assert store.get(name) == "sk-test"
    assert keyring.get_password("cherry-desktop", name) == "sk-test"
    store.delete(name)
    store.delete(name)  # deleting twice is fine
    assert store.get(name) is None


def test_no_keyring_backend_gives_a_clear_error() -> None:
    store = CredentialStore(backend=fail.Keyring())
    assert not store.available()
    with pytest.raises(KeyringUnavailableError, match=r"keyrings\.alt"):
        store.set("x", "y")
    assert store.try_get("x") is None


def test_settings_round_trip_and_corrupt_file(tmp_path: Path) -> None:
    store = SettingsStore(tmp_path)
    assert store.settings.theme == "system"
    store.update(theme="dark", background_mode="abort")
    again = SettingsStore(tmp_path)
    assert again.settings.theme == "dark"
    assert again.settings.background_mode == "abort"
    (tmp_path / "settings.json").write_text("{not json")
    broken = SettingsStore(tmp_path)
    assert broken.settings.theme == "system"
    assert (tmp_path / "settings.corrupt.json").read_text() == "{not json"


def test_settings_reject_bad_values_and_keep_the_old_ones(tmp_path: Path) -> None:
    store = SettingsStore(tmp_path)
    store.update(theme="dark")
    for bad in ({"theme": "purple"}, {"background_mode": "later"}, {"agent_idle_window_s": "300"},
                {"notify_on_completion": 1}, {"agent_idle_window_s": True}, {"agent_idle_window_s": -5}):
        with pytest.raises(SettingsError):
            store.update(**bad)
    with pytest.raises(TypeError):
        store.update(colour="red")
    assert store.settings.theme == "dark"
    assert SettingsStore(tmp_path).settings.as_dict() == store.settings.as_dict()


def test_settings_file_with_a_wrong_type_is_set_aside_and_unknown_keys_ignored(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text('{"version": 1, "theme": "dark", "from_a_newer_app": 3}')
    assert SettingsStore(tmp_path).settings.theme == "dark"
    (tmp_path / "settings.json").write_text('{"version": 1, "theme": 7}')
    store = SettingsStore(tmp_path)
    assert store.settings.theme == "system"
    assert (tmp_path / "settings.corrupt.json").read_text() == '{"version": 1, "theme": 7}'
