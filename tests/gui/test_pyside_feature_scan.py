"""PySide6's import hook still tells modules that use PySide6 from those that do not, without
keeping their source in `linecache`. Each case runs in a fresh interpreter (the hook is process
wide, and this process has imported Qt and most modules already)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(code: str, tmp_path: Path) -> str:
    (tmp_path / "uses_qt.py").write_text("from PySide6 import QtCore\n")
    (tmp_path / "plain.py").write_text("VALUE = 'no Qt here'\n")
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                         cwd=tmp_path, env={"PYTHONPATH": f"{ROOT}:{tmp_path}", "PATH": "/usr/bin:/bin"},
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_new_modules_are_told_apart_and_their_source_is_not_kept(tmp_path: Path) -> None:
    out = run("""
        import linecache, sys
        import PySide6.QtCore
        from cherry_desktop.ui.shell.pyside_feature_scan import scan_new_modules_uncached
        feature = sys.modules["shibokensupport.feature"]
        pyside_scan = feature._mod_uses_pyside
        print(scan_new_modules_uncached())
        import uses_qt, plain
        print(feature.pyside_feature_dict["uses_qt"], feature.pyside_feature_dict["plain"])
        print(sorted(f for f in linecache.cache if f.endswith(("uses_qt.py", "plain.py"))))
        # PySide6's own scan gives the same answers (and keeps the source: what is avoided).
        print(pyside_scan(uses_qt), pyside_scan(plain))
        print(len([f for f in linecache.cache if f.endswith(("uses_qt.py", "plain.py"))]))
    """, tmp_path)
    assert out.splitlines() == ["True", "0 -1", "[]", "True False", "2"]


def test_modules_without_source_read_as_not_using_pyside(tmp_path: Path) -> None:
    out = run("""
        import sys, _ssl, math, types
        import PySide6.QtCore
        from cherry_desktop.ui.shell.pyside_feature_scan import module_uses_pyside
        pyside_scan = sys.modules["shibokensupport.feature"]._mod_uses_pyside
        no_loader = types.ModuleType("made_up")
        for module in (sys, _ssl, math, no_loader, PySide6.QtCore):
            print(module.__name__, module_uses_pyside(module), pyside_scan(module))
    """, tmp_path)
    assert out.splitlines() == ["sys False False", "_ssl False False", "math False False",
                                "made_up False False", "PySide6.QtCore False False"]


def test_without_the_hook_nothing_changes(tmp_path: Path) -> None:
    out = run("""
        import sys
        from cherry_desktop.ui.shell.pyside_feature_scan import scan_new_modules_uncached
        print(scan_new_modules_uncached(), "shibokensupport.feature" in sys.modules)
    """, tmp_path)
    assert out == "False False"
