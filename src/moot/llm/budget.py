"""Token and cost budgets, enforced before each call is sent.

Before a call goes out, its worst case is reserved: the prompt's tokens (a generous
estimate, see ``estimate_prompt_tokens``) plus the call's output limit. If that reservation
could take the run past ``max_tokens`` or ``max_cost``, ``BudgetExceeded`` is
raised and the call is never sent. When the reply comes back the reservation is
replaced by the real usage. Concurrent calls reserve against each other, so the
budget holds whatever the concurrency.

Prices are US dollars per million tokens, per model spec. The embedded and
scripted models cost nothing; any other model needs a price when ``max_cost`` is
set (from ``prices.toml`` in the moot home directory, or given by the caller).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from moot.errors import BudgetExceeded, ConfigError
from moot.files import read_config_text
from moot.llm.backend import Backend
from moot.llm.types import CallContext, Completion, GenerationSettings, Message, OutputSpec, Usage
from moot.llm.wrapper import Wrapper
from moot.safe_json import toml_loads
from moot.validation import check_number

FREE_PROVIDERS = ("local", "scripted")


@dataclass(frozen=True)
class Price:
    """US dollars per million input and output tokens."""

    input_per_mtok: float
    output_per_mtok: float

    def cost(self, usage: Usage) -> float:
        return (
            usage.prompt_tokens * self.input_per_mtok
            + usage.completion_tokens * self.output_per_mtok
        ) / 1_000_000


@dataclass(frozen=True)
class PriceTable:
    """Prices per model spec; local and scripted models are free."""

    prices: Mapping[str, Price] = field(default_factory=dict)

    def price(self, spec: str) -> Price | None:
        if spec.partition(":")[0] in FREE_PROVIDERS:
            return Price(0.0, 0.0)
        return self.prices.get(spec)

    @classmethod
    def load(cls, path: Path) -> PriceTable:
        """Read ``[models."SPEC"]`` tables with ``input_per_mtok`` and ``output_per_mtok``
        (finite numbers, 0 or more). A missing file is an empty table."""
        if not path.exists():
            return cls()
        text = read_config_text(path, "the price table")
        data = toml_loads(text, f"the price table {path}")
        models = data.get("models", {})
        if not isinstance(models, dict):
            raise ConfigError(f"bad price table {path}: models must be a table")
        prices = {}
        for spec, entry in models.items():
            if not isinstance(entry, dict) or not {"input_per_mtok", "output_per_mtok"} <= set(
                entry
            ):
                raise ConfigError(
                    f'bad price table {path}: [models."{spec}"] needs input_per_mtok and'
                    " output_per_mtok"
                )
            prices[spec] = Price(
                *(
                    check_number(entry[key], f'{path}: models."{spec}".{key}', minimum=0.0)
                    for key in ("input_per_mtok", "output_per_mtok")
                )
            )
        return cls(prices)


def estimate_prompt_tokens(messages: Sequence[Message], schema: OutputSpec | None = None) -> int:
    """A generous upper estimate of a request's prompt tokens, for any tokenizer:
    a token per three ASCII characters (real tokenizers average about four), two per
    other character (Chinese costs 1-1.6 on the tokenizers measured), eight per
    message for the chat framing, and the schema as text (a backend may add it to the
    prompt when the server cannot enforce it)."""
    text = "".join(m.content for m in messages)
    ascii_chars = sum(1 for ch in text if ch.isascii())
    tokens = ascii_chars // 3 + 2 * (len(text) - ascii_chars) + 8 * len(messages)
    if schema is not None:
        tokens += len(json.dumps(schema.json_schema, ensure_ascii=False)) // 3
    return tokens + 1


class Budget:
    """What a run may still spend; shared by every backend of the run."""

    def __init__(
        self,
        *,
        max_tokens: int | None = None,
        max_cost: float | None = None,
        prices: PriceTable | None = None,
        used_tokens: int = 0,
        used_cost: float = 0.0,
    ) -> None:
        if max_tokens is not None:
            check_number(max_tokens, "--max-tokens", minimum=1, integer=True)
        if max_cost is not None:
            check_number(max_cost, "--max-cost (US dollars)", above=0.0)
        self.max_tokens = max_tokens
        self.max_cost = max_cost
        self.prices = prices or PriceTable()
        self.used_tokens = used_tokens
        self.used_cost = used_cost
        self._reserved_tokens = 0
        self._reserved_cost = 0.0

    @property
    def limited(self) -> bool:
        return self.max_tokens is not None or self.max_cost is not None

    def require_prices(self, specs: Sequence[str]) -> None:
        """With a cost budget, every model of the run needs a price (checked up front)."""
        if self.max_cost is None:
            return
        missing = [s for s in specs if self.prices.price(s) is None]
        if missing:
            raise ConfigError(
                f"--max-cost needs a price for {', '.join(sorted(set(missing)))}: add"
                ' [models."SPEC"] input_per_mtok/output_per_mtok to prices.toml in the moot'
                " home directory"
            )

    def cost_of(self, spec: str, usage: Usage) -> float:
        price = self.prices.price(spec)
        return price.cost(usage) if price else 0.0

    def reserve(self, spec: str, worst: Usage) -> tuple[int, float]:
        """Reserve a call's worst case or raise ``BudgetExceeded`` without sending it."""
        tokens = worst.prompt_tokens + worst.completion_tokens
        cost = self.cost_of(spec, worst)
        if self.max_tokens is not None:
            committed = self.used_tokens + self._reserved_tokens
            if committed + tokens > self.max_tokens:
                raise BudgetExceeded(
                    f"the next call could use up to {tokens} tokens; {committed} of the"
                    f" {self.max_tokens}-token budget are used or reserved",
                    used=committed,
                    limit=self.max_tokens,
                    unit="tokens",
                )
        if self.max_cost is not None:
            committed_cost = self.used_cost + self._reserved_cost
            if committed_cost + cost > self.max_cost:
                raise BudgetExceeded(
                    f"the next call could cost up to ${cost:.4f}; ${committed_cost:.4f} of the"
                    f" ${self.max_cost:.4f} budget are used or reserved",
                    used=committed_cost,
                    limit=self.max_cost,
                    unit="usd",
                )
        self._reserved_tokens += tokens
        self._reserved_cost += cost
        return tokens, cost

    def settle(self, reservation: tuple[int, float], spec: str, usage: Usage | None) -> None:
        """Replace a reservation by what the call really used (nothing if it failed)."""
        tokens, cost = reservation
        self._reserved_tokens -= tokens
        self._reserved_cost -= cost
        if usage is not None:
            self.used_tokens += usage.prompt_tokens + usage.completion_tokens
            self.used_cost += self.cost_of(spec, usage)


class BudgetedBackend(Wrapper):
    """Checks the budget before every call that reaches the model."""

    def __init__(self, inner: Backend, budget: Budget) -> None:
        super().__init__(inner)
        self._budget = budget

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        worst = Usage(estimate_prompt_tokens(messages, schema), settings.max_tokens)
        reservation = self._budget.reserve(self.spec, worst)
        try:
            completion = await self._inner.generate(
                messages, schema=schema, settings=settings, context=context
            )
        except BaseException:
            self._budget.settle(reservation, self.spec, None)
            raise
        self._budget.settle(reservation, self.spec, completion.usage)
        return completion
