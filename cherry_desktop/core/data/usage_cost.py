"""Usage and cost: a price table per model, per-row usage (tokens in/out, cache reads and
writes) and per-topic totals read from `usage_record`, and their cost where the model has
prices.

Prices are USD per million tokens, stored as JSON in `model.pricing` (migration 8). A usage
record names its model by unique id (`provider::model`) or, for a runtime's own report, by the
provider's model id alone; both find the price.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field

from cherry_desktop.core.data.models import database_proxy
from cherry_desktop.core.state.topics import session_id_from_topic


class PricingError(ValueError):
    """A price that is not a finite, non-negative number."""


@dataclass(frozen=True)
class ModelPricing:
    """USD per million tokens."""

    input: float = 0.0
    output: float = 0.0
    cache_read: float = 0.0
    cache_write: float = 0.0

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
                raise PricingError(f"pricing.{name}: {value!r} is not a price")

    @classmethod
    def from_json(cls, text: str | None) -> ModelPricing | None:
        if not text:
            return None
        try:
            raw = json.loads(text)
            return cls(**{k: float(v) for k, v in raw.items() if k in cls.__dataclass_fields__})
        except (ValueError, TypeError, AttributeError):
            return None


@dataclass
class UsageSums:
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    #: None when some usage is of a model without prices.
    cost: float | None = 0.0
    models: set[str] = field(default_factory=set)

    def add(self, model_id: str | None, tokens: tuple[int, int, int, int], pricing: ModelPricing | None) -> None:
        tin, tout, cread, cwrite = tokens
        self.input_tokens += tin
        self.output_tokens += tout
        self.cache_read_tokens += cread
        self.cache_write_tokens += cwrite
        if model_id:
            self.models.add(model_id)
        if pricing is None:
            self.cost = None
        elif self.cost is not None:
            self.cost += (tin * pricing.input + tout * pricing.output + cread * pricing.cache_read
                          + cwrite * pricing.cache_write) / 1_000_000

    @property
    def empty(self) -> bool:
        return not (self.input_tokens or self.output_tokens or self.cache_read_tokens or self.cache_write_tokens)


_SUMS = ('sum("input_tokens"), sum("output_tokens"), sum("cache_read_tokens"), sum("cache_write_tokens")')


class UsageCostRepository:
    def set_pricing(self, unique_model_id: str, pricing: ModelPricing | None) -> None:
        value = json.dumps(asdict(pricing)) if pricing is not None else None
        database_proxy.execute_sql('UPDATE "model" SET "pricing" = ? WHERE "unique_model_id" = ?',
                                   (value, unique_model_id))

    def pricing(self, unique_model_id: str) -> ModelPricing | None:
        row = database_proxy.execute_sql('SELECT "pricing" FROM "model" WHERE "unique_model_id" = ?',
                                         (unique_model_id,)).fetchone()
        return ModelPricing.from_json(row[0]) if row else None

    def price_table(self) -> dict[str, ModelPricing]:
        """Prices by unique model id and by the provider's model id."""
        table: dict[str, ModelPricing] = {}
        for umid, model_id, text in database_proxy.execute_sql(
                'SELECT "unique_model_id", "model_id", "pricing" FROM "model" WHERE "pricing" IS NOT NULL'):
            pricing = ModelPricing.from_json(text)
            if pricing is not None:
                table[umid] = pricing
                table.setdefault(model_id, pricing)
        return table

    def by_message(self, message_ids: Iterable[str]) -> dict[str, UsageSums]:
        """Each message's usage (all its model requests)."""
        ids = list(message_ids)
        out: dict[str, UsageSums] = {}
        if not ids:
            return out
        prices = self.price_table()
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            marks = ", ".join("?" for _ in chunk)
            rows = database_proxy.execute_sql(
                f'SELECT "message_id", "model_id", {_SUMS} FROM "usage_record" WHERE "message_id" IN ({marks}) '
                'GROUP BY "message_id", "model_id"', tuple(chunk))
            for message_id, model_id, *tokens in rows:
                sums = out.setdefault(message_id, UsageSums())
                sums.add(model_id, _tokens(tokens), prices.get(model_id or ""))
        return out

    def topic_totals(self, topic_id: str) -> UsageSums:
        """A chat's or an agent session's usage so far."""
        session_id = session_id_from_topic(topic_id)
        column, value = ("session_id", session_id) if session_id is not None else ("topic_id", topic_id)
        prices = self.price_table()
        sums = UsageSums()
        for model_id, *tokens in database_proxy.execute_sql(
                f'SELECT "model_id", {_SUMS} FROM "usage_record" WHERE "{column}" = ? GROUP BY "model_id"', (value,)):
            sums.add(model_id, _tokens(tokens), prices.get(model_id or ""))
        return sums


def _tokens(values: list[int | None]) -> tuple[int, int, int, int]:
    a, b, c, d = (int(v or 0) for v in values)
    return a, b, c, d
