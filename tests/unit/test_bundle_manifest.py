"""The PyInstaller bundle holds every module the app imports by name, and only the Qt modules
the app uses: packaging/bundle_manifest.py against a scan of the source."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_manifest() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bundle_manifest", ROOT / "packaging" / "bundle_manifest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


manifest = load_manifest()


def test_every_module_the_app_imports_by_name_is_collected() -> None:
    found, unresolved = manifest.scan_dynamic_imports(str(ROOT))
    # The scan sees the registries the bundle once missed (the driver) and the lazy SDK import.
    assert "cherry_desktop.core.ai.runtime.claude_code.driver" in found
    assert "claude_agent_sdk" in found
    assert unresolved == []
    assert manifest.missing_dynamic_imports(str(ROOT)) == []


def test_the_sdks_deferred_modules_are_collected() -> None:
    from cherry_desktop.core.ai.runtime.claude_code.sdk_import import DEFERRED_MODULES

    assert [m for m in DEFERRED_MODULES if not manifest.is_collected(m)] == []


def test_httpxs_deferred_cli_is_collected() -> None:
    from cherry_desktop.core.ai.providers.httpx_cli import CLI_MODULE

    assert manifest.is_collected(CLI_MODULE)


def test_every_listed_module_exists() -> None:
    sys.path.insert(0, str(ROOT))
    try:
        absent = [m for m in manifest.DYNAMIC_IMPORTS if importlib.util.find_spec(m) is None]
    finally:
        sys.path.remove(str(ROOT))
    assert absent == []


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_scan_fails_on_a_module_loaded_by_name_that_the_manifest_misses(tmp_path: Path) -> None:
    write(tmp_path, "cherry_desktop/__init__.py", "")
    write(tmp_path, "cherry_desktop/core/ai/runtime/register_drivers.py",
          'DRIVER_CLASSES = {"other": "cherry_desktop.core.ai.runtime.other.driver:OtherDriver",\n'
          '                  "claude-code": "cherry_desktop.core.ai.runtime.claude_code.driver:Driver"}\n'
          "def load(spec):\n    import importlib\n    return importlib.import_module(spec.partition(':')[0])\n")
    write(tmp_path, "cherry_desktop/core/late.py",
          'import importlib\nPLUGIN = importlib.import_module("cherry_desktop.plugins.late")\n'
          "def by_name(name):\n    return __import__(name)\n"
          'NOT_A_MODULE = "file.database"\n')
    missing = manifest.missing_dynamic_imports(str(tmp_path))
    assert missing[:2] == [
        "cherry_desktop.core.ai.runtime.other.driver (imported by name; add it to DYNAMIC_IMPORTS)",
        "cherry_desktop.plugins.late (imported by name; add it to DYNAMIC_IMPORTS)",
    ]
    assert len(missing) == 3 and missing[2].startswith("cherry_desktop/core/late.py:4 imports a name")


@pytest.mark.parametrize(("module", "collected"), [
    ("claude_agent_sdk._internal.transport.subprocess_cli", True),
    ("claude_agent_sdk.testing", False),
    ("cherry_desktop.ui.bridge", True),
    ("cherry_desktop.ui.shell.splash", False),
])
def test_whole_packages_are_collected_but_their_skipped_parts(module: str, collected: bool) -> None:
    assert manifest.is_collected(module) is collected


def test_only_the_qt_modules_the_app_imports_are_bundled() -> None:
    pyside6 = importlib.util.find_spec("PySide6")  # its folder, without importing Qt
    assert pyside6 is not None and pyside6.submodule_search_locations
    assert manifest.scan_qt_modules(str(ROOT)) == set(manifest.QT_MODULES)
    excluded = manifest.qt_excludes(next(iter(pyside6.submodule_search_locations)))
    assert not {f"PySide6.{m}" for m in manifest.QT_MODULES} & set(excluded)
    assert {"PySide6.QtQml", "PySide6.QtWebEngineCore"} <= set(excluded)


def test_qts_own_translations_are_collected_for_every_app_locale() -> None:
    """Save / Cancel / OK and the file dialog come from Qt's catalogues: the bundle holds one
    per translated locale, where Qt looks for them, and the spec collects them."""
    import PySide6

    from cherry_desktop.ui.shell import i18n

    assert manifest.QT_TRANSLATIONS == i18n.QT_CATALOGUES
    locales = [ts.stem for ts in sorted((ROOT / "i18n").glob("*.ts"))
               if ts.stem != i18n.SOURCE_LOCALE and not ts.stem.startswith(i18n.QT_GAPS_PREFIX)]
    assert locales == ["zh_CN", "zh_TW"]
    pyside6_dir = Path(PySide6.__file__).parent
    datas, missing = manifest.qt_translation_datas(str(pyside6_dir), locales)
    assert missing == []
    assert sorted(Path(src).name for src, _ in datas) == ["qtbase_zh_CN.qm", "qtbase_zh_TW.qm"]
    # The destination is where QLibraryInfo finds them relative to the PySide6 package.
    where_qt_looks = i18n.qt_translations_dir().resolve().relative_to(pyside6_dir.resolve().parent)
    assert {dest for _, dest in datas} == {where_qt_looks.as_posix()}
    spec = (ROOT / "packaging" / "cherry-desktop.spec").read_text()
    assert "qt_translation_datas(" in spec and f'startswith("{i18n.QT_GAPS_PREFIX}")' in spec
    # The gaps Qt's catalogues leave are compiled with the app's own (every i18n/*.ts goes).
    assert sorted(ts.name for ts in (ROOT / "i18n").glob(f"{i18n.QT_GAPS_PREFIX}*.ts")) == \
        ["qt_zh_CN.ts", "qt_zh_TW.ts"]


def test_a_missing_qt_translation_is_reported(tmp_path: Path) -> None:
    (tmp_path / "Qt" / "translations").mkdir(parents=True)
    (tmp_path / "Qt" / "translations" / "qtbase_zh_CN.qm").write_bytes(b"x")
    datas, missing = manifest.qt_translation_datas(str(tmp_path), ["zh_CN", "zh_TW"])
    assert [Path(src).name for src, _ in datas] == ["qtbase_zh_CN.qm"]
    assert missing == [str(tmp_path / "Qt" / "translations" / "qtbase_zh_TW.qm")]


def test_english_needs_no_qt_catalogue(tmp_path: Path) -> None:
    """The app's source locale (en_US, compiled like the others) has no Qt catalogue to
    collect: Qt's own words are English (the spec passes every compiled locale)."""
    (tmp_path / "Qt" / "translations").mkdir(parents=True)
    (tmp_path / "Qt" / "translations" / "qtbase_zh_CN.qm").write_bytes(b"x")
    datas, missing = manifest.qt_translation_datas(str(tmp_path), ["en_US", "zh_CN"])
    assert [Path(src).name for src, _ in datas] == ["qtbase_zh_CN.qm"] and missing == []
