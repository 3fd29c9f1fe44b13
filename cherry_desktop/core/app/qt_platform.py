"""Can Qt's platform plugin load? Found out without importing Qt (core never does).

Qt aborts the process (a core dump) when its platform plugin cannot load, with a generic hint
that names one library at best. Here the plugin's own dependencies are read instead: `ldd` on
the plugin (`libqxcb.so` for X11) lists every library that is "not found", and
`SYSTEM_PACKAGES` names the Debian/Ubuntu and Fedora packages that provide them.

- `check_before_qt()`: the app's cheap check before it creates `QApplication`. Only for the
  X11 plugin Qt picks by default (`QT_QPA_PLATFORM` unset or `xcb`): no `DISPLAY`, or the
  plugin fails to `dlopen` (which loads the Qt libraries the app loads next anyway; ~1 ms
  when a library is missing). Only then does it run `ldd` to name every missing library.
- `probe_platform()`: `doctor`'s check, in a subprocess that starts a real `QGuiApplication`
  (a plugin that aborts takes only the subprocess down); `diagnose()` explains a failure.
"""

from __future__ import annotations

import enum
import importlib.util
import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from cherry_desktop.core.storage.assets import is_frozen

# soname -> (Debian/Ubuntu package, Fedora package): what Qt's X11 and Wayland plugins link.
SYSTEM_PACKAGES: Mapping[str, tuple[str, str]] = {
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor"),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil"),
    "libxcb-util.so.1": ("libxcb-util1", "xcb-util"),
    "libxcb-randr.so.0": ("libxcb-randr0", "libxcb"),
    "libxcb-shape.so.0": ("libxcb-shape0", "libxcb"),
    "libxcb-shm.so.0": ("libxcb-shm0", "libxcb"),
    "libxcb-sync.so.1": ("libxcb-sync1", "libxcb"),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0", "libxcb"),
    "libxcb-render.so.0": ("libxcb-render0", "libxcb"),
    "libxcb-xkb.so.1": ("libxcb-xkb1", "libxcb"),
    "libxcb-xinput.so.0": ("libxcb-xinput0", "libxcb"),
    "libxcb-glx.so.0": ("libxcb-glx0", "libxcb"),
    "libxcb.so.1": ("libxcb1", "libxcb"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb"),
    "libX11.so.6": ("libx11-6", "libX11"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11"),
    "libGL.so.1": ("libgl1", "libglvnd-glx"),
    "libEGL.so.1": ("libegl1", "libglvnd-egl"),
    "libOpenGL.so.0": ("libopengl0", "libglvnd-opengl"),
    "libfontconfig.so.1": ("libfontconfig1", "fontconfig"),
    "libfreetype.so.6": ("libfreetype6", "freetype"),
    "libglib-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libgthread-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libdbus-1.so.3": ("libdbus-1-3", "dbus-libs"),
    "libwayland-client.so.0": ("libwayland-client0", "libwayland-client"),
    "libwayland-cursor.so.0": ("libwayland-cursor0", "libwayland-cursor"),
    "libwayland-egl.so.1": ("libwayland-egl1", "libwayland-egl"),
}

PROBE_TIMEOUT_S = 30.0


class PlatformProblemKind(enum.Enum):
    MISSING_LIBRARIES = "missing-libraries"
    NO_DISPLAY = "no-display"
    FAILED = "failed"


@dataclass(frozen=True)
class PlatformProblem:
    kind: PlatformProblemKind
    platform: str
    plugin: Path | None = None
    missing: tuple[str, ...] = ()
    detail: str = ""

    def describe(self) -> str:
        """One line: what is wrong and what to install or set."""
        if self.kind is PlatformProblemKind.MISSING_LIBRARIES:
            return (f"Qt's {self.platform} platform plugin cannot load: missing {', '.join(self.missing)} "
                    f"({self.plugin}). {install_hint(self.missing)}")
        if self.kind is PlatformProblemKind.NO_DISPLAY:
            return (f"no display for Qt's {self.platform} platform: DISPLAY is not set. Start it in a desktop "
                    "session, or set QT_QPA_PLATFORM=offscreen to run without a screen.")
        return f"Qt's {self.platform} platform plugin failed to start: {self.detail or 'no output'}"


def install_hint(missing: Sequence[str]) -> str:
    known = [SYSTEM_PACKAGES[name] for name in missing if name in SYSTEM_PACKAGES]
    if not known:
        return "Install the packages that provide them."
    debian = " ".join(dict.fromkeys(deb for deb, _ in known))
    fedora = " ".join(dict.fromkeys(fed for _, fed in known))
    hint = f"Install them: Debian/Ubuntu `sudo apt install {debian}`, Fedora `sudo dnf install {fedora}`."
    unknown = [name for name in missing if name not in SYSTEM_PACKAGES]
    return hint + (f" Also needed: {', '.join(unknown)}." if unknown else "")


def requested_platform(env: Mapping[str, str]) -> str | None:
    """The one platform Qt will load: `QT_QPA_PLATFORM`'s, or xcb (Qt's default on Linux)
    outside a Wayland session. None when Qt chooses among several (a `a;b` list, Wayland)."""
    value = env.get("QT_QPA_PLATFORM", "").strip()
    if ";" in value:
        return None
    if value:
        return value.partition(":")[0]
    if not sys.platform.startswith("linux") or env.get("XDG_SESSION_TYPE") == "wayland":
        return None
    return "xcb"


def platform_plugin(platform: str, env: Mapping[str, str]) -> Path | None:
    """The plugin file Qt loads for `platform` (`libq<platform>.so`), None if none is found."""
    name = f"libq{platform}.so"
    dirs = [Path(env["QT_QPA_PLATFORM_PLUGIN_PATH"])] if env.get("QT_QPA_PLATFORM_PLUGIN_PATH") else []
    dirs += [Path(p) / "platforms" for p in env.get("QT_PLUGIN_PATH", "").split(os.pathsep) if p]
    spec = importlib.util.find_spec("PySide6")
    dirs += [Path(p) / "Qt" / "plugins" / "platforms" for p in (spec.submodule_search_locations or [])] if spec else []
    return next((d / name for d in dirs if (d / name).is_file()), None)


def missing_libraries(plugin: Path, env: Mapping[str, str] | None = None) -> list[str]:
    """The libraries `plugin` needs that the dynamic loader does not find (ldd's "not found")."""
    import subprocess

    try:
        out = subprocess.run(["ldd", str(plugin)], capture_output=True, text=True, timeout=30, check=False,
                             env=dict(env) if env is not None else None).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    found = re.findall(r"^\s*(\S+)\s+=>\s+not found", out, flags=re.MULTILINE)
    return list(dict.fromkeys(found))


def check_before_qt(env: Mapping[str, str] | None = None) -> PlatformProblem | None:
    """Why Qt's default X11 platform would abort the app, or None (also for other platforms)."""
    env = os.environ if env is None else env
    if requested_platform(env) != "xcb":
        return None
    if not env.get("DISPLAY"):
        return PlatformProblem(PlatformProblemKind.NO_DISPLAY, "xcb")
    plugin = platform_plugin("xcb", env)
    if plugin is None:
        return None  # Qt reports its own plugin search
    import ctypes  # only here: the app checks before Qt starts, and ctypes costs ~2 ms to import

    try:
        ctypes.CDLL(str(plugin))
    except OSError as exc:
        missing = missing_libraries(plugin, env)
        if missing:
            return PlatformProblem(PlatformProblemKind.MISSING_LIBRARIES, "xcb", plugin, tuple(missing))
        return PlatformProblem(PlatformProblemKind.FAILED, "xcb", plugin, detail=str(exc))
    return None


@dataclass(frozen=True)
class ProbeResult:
    loaded: bool
    platform: str  # the platform Qt started (or was asked for)
    output: str = ""  # the probe's stderr on failure


def _no_core_dump() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def probe_platform(command: Sequence[str], env: Mapping[str, str] | None = None,
                   timeout: float = PROBE_TIMEOUT_S) -> ProbeResult:
    """Run `command` (a process that starts a QGuiApplication and prints its platform name):
    did the platform plugin load?"""
    import subprocess

    env = dict(os.environ if env is None else env)
    asked = requested_platform(env) or env.get("QT_QPA_PLATFORM") or "default"
    try:
        proc = subprocess.run(list(command), capture_output=True, text=True, timeout=timeout, check=False,
                              env=env, preexec_fn=_no_core_dump if os.name == "posix" else None)
    except (OSError, subprocess.SubprocessError) as exc:
        return ProbeResult(False, asked, str(exc))
    if proc.returncode == 0 and proc.stdout.strip():
        return ProbeResult(True, proc.stdout.strip().splitlines()[-1])
    return ProbeResult(False, asked, proc.stderr.strip() or f"exit status {proc.returncode}")


def diagnose(result: ProbeResult, env: Mapping[str, str] | None = None) -> PlatformProblem:
    """Why a probe failed: the plugin's missing libraries, no display, or Qt's last words."""
    env = os.environ if env is None else env
    plugin = platform_plugin(result.platform, env) if result.platform != "default" else None
    missing = missing_libraries(plugin, env) if plugin is not None else []
    if missing:
        return PlatformProblem(PlatformProblemKind.MISSING_LIBRARIES, result.platform, plugin, tuple(missing))
    if result.platform == "xcb" and not env.get("DISPLAY"):
        return PlatformProblem(PlatformProblemKind.NO_DISPLAY, result.platform, plugin)
    last = [line for line in result.output.splitlines() if line.strip()][-1:] or [""]
    return PlatformProblem(PlatformProblemKind.FAILED, result.platform, plugin, detail=last[0].strip())


def probe_command() -> list[str]:
    """This app started with `--qt-probe` (the bundle's executable when frozen)."""
    if is_frozen():
        return [sys.executable, "--qt-probe"]
    return [sys.executable, "-m", "cherry_desktop", "--qt-probe"]
