"""Qt's platform plugin: the app and `doctor` name the libraries it misses (read from the
plugin's dependencies) instead of a core dump. The missing library is made real: a copy of the
X11 plugin beside a copy of Qt's libraries with `libQt6XcbQpa.so.6` left out."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cherry_desktop.core.app.doctor import DoctorReport, check_qt_platform
from cherry_desktop.core.app.qt_platform import (
    SYSTEM_PACKAGES,
    PlatformProblemKind,
    check_before_qt,
    install_hint,
    missing_libraries,
    platform_plugin,
    requested_platform,
)

ROOT = Path(__file__).resolve().parents[3]
HIDDEN = "libQt6XcbQpa.so.6"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("ldd") is None,
                                reason="the platform plugin check reads ELF dependencies with ldd (Linux only)")


def qt_dir() -> Path:
    spec = importlib.util.find_spec("PySide6")
    assert spec is not None and spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations))) / "Qt"


@pytest.fixture
def broken_plugins(tmp_path: Path) -> Path:
    """platforms/libqxcb.so whose $ORIGIN/../../lib holds Qt's libraries but one."""
    platforms = tmp_path / "Qt" / "plugins" / "platforms"
    platforms.mkdir(parents=True)
    shutil.copy2(qt_dir() / "plugins" / "platforms" / "libqxcb.so", platforms / "libqxcb.so")
    lib = tmp_path / "Qt" / "lib"
    lib.mkdir()
    for item in (qt_dir() / "lib").iterdir():
        if item.name != HIDDEN:
            (lib / item.name).symlink_to(item)
    return platforms


def xcb_env(plugins: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("QT_", "WAYLAND", "XDG_SESSION"))}
    env.update(QT_QPA_PLATFORM="xcb", QT_QPA_PLATFORM_PLUGIN_PATH=str(plugins), DISPLAY=":99")
    return env


@pytest.mark.parametrize(("env", "platform"), [
    ({}, "xcb"),
    ({"QT_QPA_PLATFORM": "xcb"}, "xcb"),
    ({"QT_QPA_PLATFORM": "offscreen"}, "offscreen"),
    ({"QT_QPA_PLATFORM": "vnc:size=800x600"}, "vnc"),
    ({"QT_QPA_PLATFORM": "wayland;xcb"}, None),
    ({"XDG_SESSION_TYPE": "wayland"}, None),
])
def test_the_platform_qt_will_load(env: dict[str, str], platform: str | None) -> None:
    assert requested_platform(env) == platform


def test_the_plugins_missing_library_is_named_with_its_packages(broken_plugins: Path) -> None:
    env = xcb_env(broken_plugins)
    assert platform_plugin("xcb", env) == broken_plugins / "libqxcb.so"
    assert HIDDEN in missing_libraries(broken_plugins / "libqxcb.so", env)
    problem = check_before_qt(env)
    assert problem is not None and problem.kind is PlatformProblemKind.MISSING_LIBRARIES
    assert HIDDEN in problem.missing
    assert "\n" not in problem.describe() and HIDDEN in problem.describe()


def test_every_x11_library_of_the_real_plugin_has_its_packages_named() -> None:
    out = subprocess.run(["ldd", str(qt_dir() / "plugins" / "platforms" / "libqxcb.so")], capture_output=True,
                         text=True, timeout=60, check=True).stdout
    sonames = {line.split()[0] for line in out.splitlines() if line.strip()}
    x11 = {n for n in sonames if n.startswith(("libxcb", "libX11", "libxkbcommon", "libGL.", "libEGL."))}
    assert "libxcb-icccm.so.4" in x11
    assert sorted(x11 - set(SYSTEM_PACKAGES)) == []


def test_install_hint_names_debian_and_fedora_packages() -> None:
    hint = install_hint(["libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libfoo.so.9"])
    assert "sudo apt install libxcb-icccm4 libxcb-keysyms1" in hint
    assert "sudo dnf install xcb-util-wm xcb-util-keysyms" in hint
    assert "Also needed: libfoo.so.9" in hint


def test_no_display_is_said_before_qt_aborts() -> None:
    problem = check_before_qt({"QT_QPA_PLATFORM": "xcb"})
    assert problem is not None and problem.kind is PlatformProblemKind.NO_DISPLAY
    assert check_before_qt({"QT_QPA_PLATFORM": "offscreen"}) is None


def test_the_app_prints_one_line_instead_of_a_core_dump(broken_plugins: Path, tmp_path: Path) -> None:
    env = xcb_env(broken_plugins)
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run([sys.executable, "-m", "cherry_desktop", "--demo", "--data-dir", str(tmp_path / "d")],
                         capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert out.returncode == 1, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cherry-desktop: Qt's xcb platform plugin cannot load: missing")
    assert HIDDEN in lines[0]


def test_doctor_probes_the_plugin_in_a_subprocess(broken_plugins: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in xcb_env(broken_plugins).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    report = DoctorReport()
    check_qt_platform(report)  # Qt aborts in the probe, not here
    assert report.lines == ["qt platform: xcb (does not load)"]
    [problem] = report.problems
    assert problem.startswith("Qt's xcb platform plugin cannot load: missing") and HIDDEN in problem


def test_doctor_reports_a_plugin_that_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    report = DoctorReport()
    check_qt_platform(report)
    assert report.lines == ["qt platform: offscreen (loads)"] and report.ok
