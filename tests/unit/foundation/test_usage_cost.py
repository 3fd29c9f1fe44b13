"""Usage and cost over a real SQLite file: per-message and per-topic sums, cost by the price
table (unique or plain model id), a model without prices, corrupt price cells."""

from __future__ import annotations

from pathlib import Path

import pytest

from cherry_desktop.core.data import Repositories
from cherry_desktop.core.data.usage_cost import ModelPricing, PricingError
from cherry_desktop.core.state.topics import session_topic_id


def test_sums_and_costs(repos: Repositories, db_path: Path) -> None:
    repos.providers.upsert_provider(id="p", name="P", type="anthropic")
    repos.providers.upsert_model(provider_id="p", model_id="m")
    repos.providers.upsert_model(provider_id="p", model_id="free")
    repos.costs.set_pricing("p::m", ModelPricing(input=1.0, output=2.0, cache_read=0.5, cache_write=4.0))
    usage = repos.usage
    usage.add(topic_id="t1", message_id="a1", model_id="p::m", input_tokens=1_000_000, output_tokens=500_000)
    usage.add(topic_id="t1", message_id="a1", model_id="p::m", cache_read_tokens=2_000_000,
              cache_write_tokens=250_000)
    usage.add(topic_id="t1", message_id="a2", model_id="p::free", input_tokens=10)
    usage.add(session_id="s1", message_id="b1", model_id="m", input_tokens=1_000_000)  # a runtime's model name
    by_message = repos.costs.by_message(["a1", "a2", "b1", "missing"])
    assert by_message["a1"].cost == pytest.approx(1.0 + 1.0 + 1.0 + 1.0)
    assert (by_message["a1"].input_tokens, by_message["a1"].cache_read_tokens) == (1_000_000, 2_000_000)
    assert by_message["a2"].cost is None and by_message["a2"].input_tokens == 10
    assert by_message["b1"].cost == pytest.approx(1.0)
    assert "missing" not in by_message
    totals = repos.costs.topic_totals("t1")
    assert (totals.input_tokens, totals.output_tokens, totals.cost) == (1_000_010, 500_000, None)
    assert repos.costs.topic_totals(session_topic_id("s1")).cost == pytest.approx(1.0)
    assert repos.costs.topic_totals("nothing").empty

    # A corrupt price cell reads as no prices (no cost), not a crash.
    import sqlite3

    con = sqlite3.connect(db_path)
    con.execute("UPDATE model SET pricing = '{bad' WHERE unique_model_id = 'p::m'")
    con.commit()
    con.close()
    assert repos.costs.pricing("p::m") is None
    assert repos.costs.by_message(["a1"])["a1"].cost is None


def test_prices_must_be_non_negative_numbers() -> None:
    for bad in (-1, float("inf"), float("nan"), "1", True):
        with pytest.raises(PricingError):
            ModelPricing(input=bad)  # type: ignore[arg-type]
