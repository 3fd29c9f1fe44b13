"""The UI words core's error codes in every locale, with the source's own message as the detail
line; a row stored before codes existed still shows its message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cherry_desktop.core.ai.stream import DispatchError, SerializedError, StreamErrorResult, TransportTimings
from cherry_desktop.core.messages import DataPart, ErrorChunk, ErrorCode, TextPart
from cherry_desktop.ui.chat import ErrorBlock, ErrorWords, MessageRow, error_fields, terminal_error
from cherry_desktop.ui.shell import i18n
from tests.gui.conftest import save_screenshot

pytestmark = pytest.mark.gui


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_every_code_has_its_own_words_in_every_locale(locale: str, tmp_path: Path, qapp: object) -> None:
    translations = i18n.Translations(cache_dir=tmp_path)
    try:
        assert translations.install(locale) == locale
        words = ErrorWords()
        headlines = {code: words.headline(code) for code in ErrorCode}
        assert all(headlines.values())
        assert len(set(headlines.values())) == len(headlines)  # no two codes read the same
        if locale != "en_US":
            english = i18n.read_ts(i18n.i18n_dir() / "en_US.ts")
            assert not any(h == english.get(("ErrorWords", h)) for h in headlines.values())
    finally:
        translations.install("en_US")


def test_an_error_block_shows_the_words_then_the_sources_message(qtbot: Any, tmp_path: Path) -> None:
    block = ErrorBlock("Scripted: HTTP 429 Too Many Requests: slow down", code="rate-limited")
    qtbot.addWidget(block)
    headline, detail = block.text().split("\n")
    assert headline == "The model's service is limiting requests right now. Wait a moment, then try again."
    assert detail == "Scripted: HTTP 429 Too Many Requests: slow down"

    translations = i18n.Translations(cache_dir=tmp_path)
    try:
        translations.install("zh_CN")
        block = ErrorBlock("API Error: 401 invalid x-api-key", code=ErrorCode.AUTH_FAILED)
        qtbot.addWidget(block)
        assert block.text() == "模型服务拒绝了 API 密钥。请在“服务商”中检查密钥。\nAPI Error: 401 invalid x-api-key"
    finally:
        translations.install("en_US")


def test_a_row_stored_without_a_code_shows_its_message_as_before(qtbot: Any) -> None:
    row = MessageRow("m", "assistant")
    qtbot.addWidget(row)
    row.set_parts([TextPart(text="half"), DataPart(type="data-error", data={"message": "old failure", "name": "X"})],
                  status="error")
    assert row.findChild(ErrorBlock).text() == "The reply failed: old failure"  # type: ignore[union-attr]
    coded = MessageRow("n", "assistant")
    qtbot.addWidget(coded)
    coded.set_parts([DataPart(type="data-error", data=SerializedError(
        "pi exited during the turn", code="stream-ended").to_dict())], status="error")
    text = coded.findChild(ErrorBlock).text()  # type: ignore[union-attr]
    assert text == "The agent's process ended during the turn.\npi exited during the turn"
    assert coded.error_text == "pi exited during the turn"
    live = MessageRow("o", "assistant")
    qtbot.addWidget(live)
    live.set_parts([TextPart(text="Half an ans")], status="pending")
    live.apply_chunk(ErrorChunk(error_text="Scripted: HTTP 401 Unauthorized: bad key", error_code="auth-failed"))
    assert live.findChild(ErrorBlock).text().startswith("The model's service refused the API key.")  # type: ignore[union-attr]
    save_screenshot(live, "error_words_row")


def test_fields_of_stored_parts_terminals_and_typed_errors(qapp: object) -> None:
    assert error_fields({"message": "m", "code": "timeout"}) == ("m", "timeout")
    assert error_fields({"message": "m", "code": None}) == ("m", None)
    assert error_fields("plain") == ("plain", None)
    error = SerializedError("boom", code=ErrorCode.PERSIST_FAILED)
    result = StreamErrorResult(topic_id="t", model_id="m", final_message=None,
                               timings=TransportTimings(started_at=0.0), error=error)
    assert terminal_error(result) == ("boom", "persist-failed")
    assert terminal_error(object()) == (None, None)
    words = ErrorWords()
    assert words.describe_exception(DispatchError(ErrorCode.TOPIC_BUSY, "cannot regenerate while streaming")) == \
        "Wait until the current reply has finished. (cannot regenerate while streaming)"
    assert words.describe_exception(DispatchError("something-unheard-of")) is None
    assert words.describe_exception(RuntimeError("no code")) is None
