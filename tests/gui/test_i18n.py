"""Every visible string goes through tr(); every locale covers every source string."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cherry_desktop.ui.shell import i18n

pytestmark = pytest.mark.gui

UI_DIR = Path(i18n.__file__).resolve().parent.parent  # cherry_desktop/ui


def _extract(tmp_path: Path) -> dict[tuple[str, str], str]:
    lupdate = Path(sys.executable).with_name("pyside6-lupdate")
    out = tmp_path / "extract.ts"
    sources = sorted(str(p) for p in UI_DIR.rglob("*.py"))
    subprocess.run([str(lupdate), "-silent", *sources, "-ts", str(out)], check=True)
    return i18n.read_ts(out)


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_locale_covers_every_source_string(locale: str, tmp_path: Path) -> None:
    extracted = _extract(tmp_path)
    assert len(extracted) > 50
    table = i18n.read_ts(i18n.i18n_dir() / f"{locale}.ts")
    missing = sorted(k for k in extracted if not table.get(k))
    assert not missing, f"{locale}.ts lacks translations for {missing}"


def test_ts_compiles_to_qm_and_translates_widgets(tmp_path: Path, qapp: object) -> None:
    from cherry_desktop.ui.composer import Composer

    qm = tmp_path / "zh_CN.qm"
    assert i18n.compile_ts(i18n.i18n_dir() / "zh_CN.ts", qm)
    translations = i18n.Translations(cache_dir=tmp_path)
    try:
        assert translations.install("zh_CN") == "zh_CN"
        composer = Composer()
        assert composer.send_button.text() == "发送"
        composer.deleteLater()
        assert translations.install("zh_TW") == "zh_TW"
        composer = Composer()
        assert composer.send_button.text() == "發送"
        composer.deleteLater()
    finally:
        translations.install("en_US")
    composer = Composer()
    assert composer.send_button.text() == "Send"
    composer.deleteLater()


def test_ts_translator_fallback_without_qm(qapp: object) -> None:
    translator = i18n.TsTranslator(i18n.i18n_dir() / "zh_CN.ts")
    assert translator.translate("Composer", "Stop") == "停止"
    assert translator.translate("QueueDock", "Queued for the next turn (%n)", None, 3) == "排队等待下一轮（3）"


def test_pick_locale() -> None:
    assert i18n.pick_locale("zh_CN") == "zh_CN"
    assert i18n.pick_locale("zh-HK") == "zh_TW"
    assert i18n.pick_locale("de_DE") == "en_US"
