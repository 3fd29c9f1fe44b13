"""Usage and cost through the real window, host and stream manager (scripted driver): a turn's
usage (tokens in/out, cache reads) and cost, from the price table edited with the model in the
providers dialog, show in the row footer and the session's totals; a model without prices
shows tokens and says so; bad prices are refused."""

from __future__ import annotations

from typing import Any

import pytest

from cherry_desktop.core.ai.runtime.events import UsageEvent
from cherry_desktop.core.data.usage_cost import ModelPricing, PricingError
from tests.fakes.scripted_driver import ScriptedDriver
from tests.gui.conftest import named_agent_session, send_turn
from tests.waiting import until

pytestmark = pytest.mark.gui


async def _turn(window: Any, driver: ScriptedDriver, qtbot: Any, text: str, usage: UsageEvent, count: int) -> None:
    conn = await send_turn(qtbot, window, driver, text, sent=count)
    conn.emit_text("done. ")
    conn.emit(usage)
    conn.complete()
    await until(lambda: not window.is_streaming())


async def test_turn_usage_and_cost_in_footer_and_totals(controller: Any, ui_core: Any, qtbot: Any,
                                                        tmp_path: Any) -> None:
    from cherry_desktop.ui.dialogs import ProvidersDialog

    driver = ScriptedDriver(type="claude-code", supports_redirect=True)
    ui_core.agent_runtime.registry.register(driver, replace=True)
    repos = ui_core.repos
    topic_id = named_agent_session(repos, tmp_path / "ws", model=("sonnet", "Sonnet"))
    window = controller.open_window(topic_id)

    # No prices yet: tokens, and the totals say the one model has none (and where to set them).
    await _turn(window, driver, qtbot, "one", UsageEvent(input_tokens=1000, output_tokens=200,
                                                        cache_read_tokens=5000, model="sonnet"), 1)
    await until(lambda: window.usage_summary.isVisibleTo(window))
    assert window.usage_summary.text() == ("Total: 1,000 in · 200 out tokens · 5,000 cache reads"
                                           " · no price set for its model")
    assert window.usage_summary.toolTip() == "Prices are set per model: Providers ▸ Prices…"
    row = window.message_view.rows()[-1]
    await until(lambda: "cache reads" in row.footer.text())
    assert "1000 in · 200 out tokens" in row.footer.text() and "$" not in row.footer.text()

    # Prices, edited with the model in the providers dialog.
    dialog = ProvidersDialog(controller.bridges.providers, "demo", window)
    panel = dialog.panel
    panel.model_list.setCurrentRow(0)
    editor = panel.edit_prices()
    assert editor is not None
    editor.spins["input"].setValue(3.0)
    editor.spins["output"].setValue(15.0)
    editor.spins["cache_read"].setValue(0.3)
    editor.save()
    dialog.close()
    assert repos.costs.pricing("demo::sonnet") == ModelPricing(input=3.0, output=15.0, cache_read=0.3)

    await _turn(window, driver, qtbot, "two", UsageEvent(input_tokens=2000, output_tokens=1000, model="sonnet"), 2)
    # 3000*3 + 1200*15 + 5000*0.3 per million = 0.0285
    await until(lambda: "$0.03" in window.usage_summary.text())
    assert window.usage_summary.text() == "Total: 3,000 in · 1,200 out tokens · 5,000 cache reads · $0.03"
    last = window.message_view.rows()[-1]
    await until(lambda: last.footer.text().endswith("· $0.02"))  # 2000*3 + 1000*15 per million
    # Prices apply to the whole history (the first turn: 1000*3 + 200*15 + 5000*0.3 per million).
    assert window.message_view.rows()[1].footer.text().endswith("5000 cache reads · $0.0075")

    # Bad prices are refused with a typed error and change nothing.
    with pytest.raises(PricingError):
        controller.bridges.providers.set_model_pricing("demo::sonnet", {"input": -1.0})
    with pytest.raises(PricingError):
        controller.bridges.providers.set_model_pricing("demo::sonnet", {"input": float("nan")})
    assert repos.costs.pricing("demo::sonnet") == ModelPricing(input=3.0, output=15.0, cache_read=0.3)
    controller.bridges.providers.set_model_pricing("demo::sonnet", None)
    assert repos.costs.pricing("demo::sonnet") is None
    window.close()
