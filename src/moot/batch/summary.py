"""A batch's summary: one row per configuration (format, model, options; over its
topics and seeds), read from the store, so it is the same whichever run of the batch
finished which debate. ``wins`` counts the position each finished debate's verdict
favoured (none when the top was evenly matched); ``agreement`` is the panel's mean
interval alpha over the debates that had a panel; ``trust`` counts the levels."""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from moot.batch.plan import Item
from moot.debate import verdict_leader
from moot.schema import DebateResult
from moot.store import Store
from moot.trust import with_trust

COLUMNS = (
    "configuration",
    "runs",
    "done",
    "unfinished",
    "wins",
    "agreement",
    "trust",
    "tokens",
    "cost_usd",
)


@dataclass
class Row:
    """One configuration's figures."""

    configuration: str
    runs: int = 0
    done: int = 0
    unfinished: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    alphas: list[float] = field(default_factory=list)
    trust: Counter[str] = field(default_factory=Counter)
    tokens: int = 0
    cost_usd: float = 0.0

    def cells(self) -> list[str]:
        alpha = f"{sum(self.alphas) / len(self.alphas):.3f}" if self.alphas else "-"
        return [
            self.configuration,
            str(self.runs),
            str(self.done),
            str(self.unfinished),
            _counts(self.wins),
            alpha,
            _counts(self.trust),
            str(self.tokens),
            f"{self.cost_usd:.6f}",
        ]


def _counts(counter: Counter[str]) -> str:
    return ", ".join(f"{key} {n}" for key, n in sorted(counter.items())) or "-"


def summarize(items: Sequence[Item], store: Store) -> list[Row]:
    """The summary rows of ``items``, in the order their configurations first appear."""
    rows: dict[str, Row] = {}
    for item in items:
        row = rows.setdefault(item.configuration, Row(item.configuration))
        row.runs += 1
        stored = store.get_debate(item.id)
        if stored is None:
            row.unfinished += 1
            continue
        row.tokens += stored.prompt_tokens + stored.completion_tokens
        row.cost_usd += stored.cost_usd
        if stored.status != "done" or not stored.result_json:
            row.unfinished += 1
            continue
        row.done += 1
        result = with_trust(DebateResult.model_validate_json(stored.result_json))
        leader = verdict_leader(result.judgement, result.panel)
        row.wins[leader or "even"] += 1
        if result.panel is not None and result.panel.agreement.alpha_interval.value is not None:
            row.alphas.append(result.panel.agreement.alpha_interval.value)
        if result.trust is not None:
            row.trust[result.trust.level] += 1
    return list(rows.values())


def to_csv(rows: Sequence[Row]) -> str:
    """The summary as CSV, with a header line."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow(row.cells())
    return out.getvalue()
