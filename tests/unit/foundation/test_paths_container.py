from __future__ import annotations

from pathlib import Path

import pytest

from cherry_desktop.core.lifecycle.container import Application, Service, ServiceError
from cherry_desktop.core.storage.paths import UnknownPathError, build_path_registry


def test_data_dir_moves_every_path_under_one_folder(tmp_path: Path) -> None:
    reg = build_path_registry(tmp_path / "portable")
    root = (tmp_path / "portable").resolve()
    assert reg.root == root
    for name, path in reg.paths.items():
        assert path.is_relative_to(root), name
    assert reg.database_file == root / "cherry.db"
    reg.ensure_all()
    assert reg.get("feature.agents.workspaces").is_dir()
    assert reg.get("app.logs").is_dir()


def test_env_var_is_used_when_no_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHERRY_DESKTOP_DATA_DIR", str(tmp_path / "env"))
    assert build_path_registry().database_file == (tmp_path / "env").resolve() / "cherry.db"
    # An explicit flag wins over the environment.
    assert build_path_registry(tmp_path / "flag").root == (tmp_path / "flag").resolve()


def test_platform_dirs_without_override(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CHERRY_DESKTOP_DATA_DIR")
    reg = build_path_registry()
    assert reg.root is None
    assert "cherry-desktop" in str(reg.get("app.data"))
    with pytest.raises(UnknownPathError):
        reg.get("no.such.path")


class Recorder(Service):
    def __init__(self, name: str, depends_on: tuple[str, ...], log: list[str], fail_stop: bool = False) -> None:
        self.name = name  # type: ignore[misc]
        self.depends_on = depends_on  # type: ignore[misc]
        self.log = log
        self.fail_stop = fail_stop

    async def on_init(self, app: Application) -> None:
        self.log.append(f"init {self.name}")

    async def on_stop(self) -> None:
        self.log.append(f"stop {self.name}")
        if self.fail_stop:
            raise RuntimeError("boom")


async def test_services_start_in_dependency_order_and_stop_in_reverse() -> None:
    log: list[str] = []
    app = Application()
    app.register(Recorder("ui", ("stream", "db"), log))
    app.register(Recorder("stream", ("db",), log, fail_stop=True))
    app.register(Recorder("db", (), log))
    await app.start()
    assert log == ["init db", "init stream", "init ui"]
    await app.stop()
    # A failing on_stop is logged; the others still stop.
    assert log[3:] == ["stop ui", "stop stream", "stop db"]


async def test_services_registered_later_start_on_the_next_start_and_stop_first() -> None:
    log: list[str] = []
    app = Application()
    app.register(Recorder("db", (), log))
    await app.start()
    app.register(Recorder("stream", ("db",), log))
    await app.start()  # the app's second stage: only what is new starts
    assert log == ["init db", "init stream"]
    await app.stop()
    assert log[2:] == ["stop stream", "stop db"]


def test_cycle_and_unknown_dependency_are_errors() -> None:
    app = Application()
    app.register(Recorder("a", ("b",), []))
    app.register(Recorder("b", ("a",), []))
    with pytest.raises(ServiceError, match="cycle"):
        app.start_order()
    app2 = Application()
    app2.register(Recorder("a", ("missing",), []))
    with pytest.raises(ServiceError, match="unknown service 'missing'"):
        app2.start_order()
    with pytest.raises(ServiceError, match="registered twice"):
        app2.register(Recorder("a", (), []))


async def test_failed_init_stops_what_started() -> None:
    log: list[str] = []

    class Failing(Recorder):
        async def on_init(self, app: Application) -> None:
            raise RuntimeError("cannot start")

    app = Application()
    app.register(Recorder("db", (), log))
    app.register(Failing("bad", ("db",), log))
    with pytest.raises(RuntimeError, match="cannot start"):
        await app.start()
    assert log == ["init db", "stop db"]
