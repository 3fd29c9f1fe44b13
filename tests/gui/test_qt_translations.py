"""Chinese everywhere: Qt's own strings (the standard buttons, a text field's menu, the file
dialog) come from Qt's catalogues, and the Settings and Providers dialogs in zh_CN show no
English beyond names (brands, model ids)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtWidgets import (
    QAbstractButton,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QLineEdit,
    QTabWidget,
    QWidget,
)

from cherry_desktop.ui.shell import i18n
from tests.gui.conftest import ARTIFACTS

pytestmark = pytest.mark.gui

# Names a Chinese user sees in English too: brands, protocols, the app's name, model ids.
NAMES = re.compile(r"^(Anthropic|OpenAI|OpenRouter|Ollama|LM Studio|vLLM|Claude Code|Cherry|API|URL|MCP|"
                   r"English|简体中文|繁體中文|[\w./:-]*\d[\w./:-]*|https?://\S+|[A-Z][\w.-]*(?: [\w.-]+)* \d[\w. ]*)$")


@pytest.fixture
def zh_cn(qapp: Any, tmp_path: Any) -> Iterator[i18n.Translations]:
    translations = i18n.Translations(cache_dir=tmp_path)
    assert translations.install("zh_CN") == "zh_CN"
    try:
        yield translations
    finally:
        translations.install("en_US")


def english_words(widget: QWidget) -> list[str]:
    """Visible texts of `widget` (labels, buttons, tabs, placeholders) with a Latin word that is
    not a name."""
    texts: list[str] = []
    for child in [widget, *widget.findChildren(QWidget)]:
        if not child.isVisibleTo(widget):
            continue
        if isinstance(child, QLabel | QAbstractButton):
            texts.append(child.text())
        if isinstance(child, QLineEdit):
            texts.append(child.placeholderText())
        if isinstance(child, QTabWidget):
            texts += [child.tabText(i) for i in range(child.count())]
    out = []
    for text in texts:
        plain = re.sub(r"<[^>]+>|&(?=\w)", "", text).strip()
        for piece in re.split(r"[（）()，,：·…\n]+|:(?!//)", plain):
            piece = piece.strip()
            chinese = re.search(r"[\u4e00-\u9fff]", piece)
            if re.search(r"[A-Za-z]{2,}", piece) and not NAMES.match(piece) and not chinese:
                out.append(piece)
    return out


def test_qts_standard_buttons_text_menu_and_file_dialog_are_chinese(zh_cn: i18n.Translations) -> None:
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
                           | QDialogButtonBox.StandardButton.Ok)
    texts = {b.text().replace("&", "") for b in box.buttons()}
    assert {"保存(S)", "取消", "确定"} <= texts or {"保存", "取消", "确定"} <= texts, texts
    edit = QLineEdit()
    edit.setText("x")
    menu = edit.createStandardContextMenu()
    words = [a.text() for a in menu.actions() if a.text()]
    assert any(w.startswith("复制") for w in words), words
    assert any(w.startswith("粘贴") for w in words), words
    assert not [w for w in words if re.search(r"[A-Za-z]{3,}", w.replace("Ctrl", ""))], words
    menu.deleteLater()
    edit.deleteLater()
    box.deleteLater()
    dialog = QFileDialog(None, "x")
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    labels = [label.text() for label in dialog.findChildren(QLabel) if label.text()]
    assert any("文件名" in t for t in labels), labels
    assert any("文件类型" in t for t in labels), labels
    dialog.deleteLater()


async def test_settings_and_providers_in_chinese_show_no_english(zh_cn: i18n.Translations,
                                                                 controller: Any) -> None:
    from cherry_desktop.ui.dialogs import ProvidersDialog, SettingsDialog

    settings = SettingsDialog(controller.bridges)
    settings.show()
    await asyncio.sleep(0.1)
    buttons = {b.text().replace("&", "") for b in settings.findChildren(QDialogButtonBox)[0].buttons()}
    assert buttons & {"保存", "保存(S)"} and "取消" in buttons, buttons
    ARTIFACTS.mkdir(exist_ok=True)
    assert settings.grab().save(str(ARTIFACTS / "settings_general_zh_CN.png"))
    assert english_words(settings) == []
    settings.show_providers("openai")
    await asyncio.sleep(0.1)
    assert settings.grab().save(str(ARTIFACTS / "settings_providers_zh_CN.png"))
    assert english_words(settings) == []
    settings.reject()
    settings.deleteLater()
    providers = ProvidersDialog(controller.bridges.providers, "anthropic")
    providers.show()
    await asyncio.sleep(0.1)
    assert providers.grab().save(str(ARTIFACTS / "providers_zh_CN.png"))
    assert english_words(providers) == []
    providers.reject()
    providers.deleteLater()


def test_one_chinese_word_for_token() -> None:
    """"token" stays "token" in Chinese (the word developers use), never 词元 or 令牌 beside it."""
    for locale in ("zh_CN", "zh_TW"):
        table = i18n.read_ts(i18n.i18n_dir() / f"{locale}.ts")
        words = [text for (_, source), text in table.items() if "token" in source.lower()]
        assert len(words) >= 5
        assert [w for w in words if "token" not in w] == []
        assert [text for text in table.values() if re.search("词元|詞元|令牌|權杖", text)] == []


def test_the_background_setting_names_what_it_does(zh_cn: i18n.Translations, controller: Any) -> None:
    from cherry_desktop.ui.dialogs import SettingsDialog

    zh_cn.install("en_US")
    dialog = SettingsDialog(controller.bridges)
    assert [dialog.background.itemText(i) for i in range(dialog.background.count())] == [
        "Keep replying when all windows are closed", "Stop replying when all windows are closed"]
    dialog.deleteLater()
