"""The market backtest (``moot backtest DIR|demo``): a market debate on every dated
snapshot, against a single agent given the same data, scored against what happened.

For each snapshot (``moot.formats.market.data.snapshots``) the market format debates whether the
target index closes higher at the end of the horizon, with the single-agent baseline
in the same run (one call on the whole KB, in the first wave). The verdict's bull and
bear totals give the direction and P(up) (``moot.formats.market.data.direction_from_totals``); the
baseline states its own. ``moot.formats.market.data.summarise`` scores both, and
``grid_search_weights`` chooses the judge's dimension weights on the earlier
snapshots and reports them on the later ones.

Each snapshot's debate is a stored run ``<backtest id>.<snapshot id>``: a rerun with
the same id takes the finished ones from the store, resumes the unfinished ones from
their journal and runs the rest. The debates run on the batch engine (``moot.batch``):
``parallel`` at once, in this process or on Ray. Documented in docs/market.md,
"Backtest".
"""

from __future__ import annotations

import hashlib
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from moot.batch import Item, Outcome
from moot.batch.one import FINISHED, check_finished, finished_result
from moot.batch.run import run_items
from moot.debate import new_debate_id
from moot.errors import ConfigError, StoreError
from moot.events import Listener
from moot.formats.market.data.backtest import (
    MARKET_DIMENSIONS,
    ArgumentRow,
    BacktestSummary,
    ScoredSnapshot,
    SnapshotRow,
    WeightSearch,
    direction_from_totals,
    grid_search_weights,
    stated_p_up,
    summarise,
)
from moot.formats.market.data.bars import BARS_PER_YEAR, horizon_words
from moot.formats.market.data.kb import MODULES
from moot.formats.market.data.snapshots import Snapshot, load_snapshots
from moot.formats.market.data.trader import trader_report
from moot.formats.market.inputs import kb_option, stored_options
from moot.formats.market.payload import MarketPayload
from moot.llm.budget import PriceTable
from moot.options import RunOptions
from moot.schema import DebateResult
from moot.store import Store
from moot.validation import RUN_ID, check_name

TOPICS: Final = {
    "en": "Will {name} ({target}) close higher {horizon} sessions after {as_of} than it did"
    " on {as_of}?",
    "zh": "{name}（{target}）在 {as_of} 之后第 {horizon} 个交易日的收盘价，会高于 {as_of}"
    " 的收盘价吗？",
}
BAR_TOPICS: Final = {
    "en": "Will {name} ({target}) close higher {horizon} after {as_of} than it did on {as_of}?",
    "zh": "{name}（{target}）在 {as_of} 之后 {horizon}的收盘价，会高于 {as_of} 的收盘价吗？",
}
"""The question on weekly, monthly or quarterly bars: the horizon in those words
(``3 months``, ``1 quarter``, ``3 个月``); daily snapshots keep ``TOPICS``, so a
stored daily backtest resumes."""


@dataclass(frozen=True)
class SnapshotDebate:
    """One snapshot's debate as the backtest reads it."""

    snapshot: Snapshot
    run_id: str
    result: DebateResult
    row: SnapshotRow
    scored: ScoredSnapshot
    reused: bool
    """Taken finished from the store (a rerun with the same id)."""


@dataclass(frozen=True)
class BacktestReport:
    """Every snapshot's forecasts and the figures computed from them."""

    id: str
    source: str
    synthetic: bool
    debates: list[SnapshotDebate]
    summary: BacktestSummary
    weights: WeightSearch | None
    weights_note: str | None
    cost: float = 0.0
    risk_free: float = 0.0

    @property
    def rows(self) -> list[SnapshotRow]:
        return [d.row for d in self.debates]

    def modules(self) -> dict[str, Any]:
        """Which of the seven KB modules the snapshots filled (``filled``: snapshots
        holding each module's data; ``empty``: modules none held) and, per analyst, on
        how many snapshots its slice held nothing beyond ``indices`` (``index_only``):
        every lens sees the index, so such an analyst argued from the index alone."""
        filled = {
            m: sum(m in d.snapshot.kb.present_modules() for d in self.debates) for m in MODULES
        }
        index_only: dict[str, int] = {}
        for d in self.debates:
            present = set(d.snapshot.kb.present_modules()) - {"indices"}
            for analyst in MarketPayload.model_validate(d.result.body).analysts:
                if not present & set(analyst.modules):
                    index_only[analyst.id] = index_only.get(analyst.id, 0) + 1
        return {
            "snapshots": len(self.debates),
            "filled": filled,
            "empty": [m for m, n in filled.items() if n == 0],
            "index_only": index_only,
        }

    def arguments(self) -> list[ArgumentRow]:
        """Every opening argument of every snapshot's debate: its analyst, side, stated
        confidence, the judge's final standing and whether its side was right."""
        out = []
        for d in self.debates:
            standing = {t.argument_id: t.standing for t in d.result.judgement.trace}
            up = d.snapshot.outcome.direction == "up"
            for a in MarketPayload.model_validate(d.result.body).arguments:
                out.append(
                    ArgumentRow(
                        snapshot=d.snapshot.id,
                        agent=a.agent,
                        side=a.side,
                        confidence=a.confidence,
                        standing=standing.get(a.id, "UNCERTAIN"),
                        right=(a.side == "bull") == up,
                    )
                )
        return out

    def trader(self) -> dict[str, Any]:
        """Strategies and calibration (``moot.formats.market.data.trader``)."""
        per_year: dict[str, float] = {}
        for d in self.debates:
            outcome = d.snapshot.outcome
            per_year[outcome.target] = (
                BARS_PER_YEAR[outcome.bar or "daily"] / outcome.horizon_sessions
            )
        return trader_report(
            self.rows,
            per_year,
            arguments=self.arguments(),
            cost=self.cost,
            risk_free=self.risk_free,
        )

    def to_json(self) -> dict[str, Any]:
        """``snapshots`` (one row per snapshot), ``summary`` (the figures, the chosen
        weights and their out-of-sample accuracy) and ``debates`` (each snapshot's
        stored run and the verdict's totals), ``modules`` (which KB modules the
        snapshots filled), ``trader`` (strategies and calibration) and ``arguments``
        (every opening argument's confidence, standing and outcome)."""
        summary = self.summary.to_json()
        summary["weights"] = self.weights.weights if self.weights else None
        summary["out_of_sample_accuracy"] = self.weights.test_accuracy if self.weights else None
        summary["weight_search"] = self.weights.to_json() if self.weights else None
        summary["weight_search_note"] = self.weights_note
        return {
            "id": self.id,
            "source": self.source,
            "synthetic": self.synthetic,
            "snapshots": [row.to_json() for row in self.rows],
            "summary": summary,
            "modules": self.modules(),
            "trader": self.trader(),
            "arguments": [a.to_json() for a in self.arguments()],
            "debates": [
                {
                    "id": d.snapshot.id,
                    "run_id": d.run_id,
                    "return_pct": d.snapshot.outcome.return_pct,
                    "totals": dict(d.result.judgement.totals),
                    "scores": {"bull": dict(d.scored.bull), "bear": dict(d.scored.bear)},
                }
                for d in self.debates
            ],
        }


def topic_of(snapshot: Snapshot, lang: str) -> str:
    """The question debated on a snapshot."""
    outcome = snapshot.outcome
    bar = outcome.bar or "daily"
    return (TOPICS if bar == "daily" else BAR_TOPICS)[lang].format(
        name=snapshot.kb.indices[outcome.target].name,
        target=outcome.target,
        horizon=outcome.horizon_sessions
        if bar == "daily"
        else horizon_words(outcome.horizon_sessions, bar, lang),
        as_of=outcome.as_of.isoformat(),
    )


def snapshot_seed(seed: int | None, snapshot_id: str) -> int | None:
    """Each snapshot's debate seed, derived from the backtest's (the same seed on every
    snapshot would make every debate sample alike)."""
    if seed is None:
        return None
    digest = hashlib.sha256(f"{seed}:{snapshot_id}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def _mean_scores(result: DebateResult, side: str) -> dict[str, float]:
    own = [s.scores for s in result.judgement.scores if s.side == side]
    return {d: statistics.fmean(s[d] for s in own) for d in MARKET_DIMENSIONS}


def read_debate(
    snapshot: Snapshot, run_id: str, result: DebateResult, reused: bool
) -> SnapshotDebate:
    """A finished snapshot debate as the backtest's row and scores."""
    totals = result.judgement.totals
    predicted, p_up = direction_from_totals(totals["bull"], totals["bear"])
    payload = MarketPayload.model_validate(result.body)
    baseline = payload.baseline
    if baseline is None:
        raise StoreError(f"run {run_id!r} has no baseline: it was not made by a backtest")
    stated = stated_p_up([(a.side, a.confidence) for a in payload.arguments])
    row = SnapshotRow(
        id=snapshot.id,
        as_of=snapshot.as_of,
        predicted=predicted,
        actual=snapshot.outcome.direction,
        confidence_up=round(p_up, 6),
        baseline_predicted=baseline.direction,
        baseline_confidence_up=baseline.probability_up,
        target=snapshot.outcome.target,
        end_date=snapshot.outcome.end_date,
        actual_return_pct=snapshot.outcome.return_pct,
        stated_confidence_up=round(stated, 6) if stated is not None else None,
    )
    scored = ScoredSnapshot(
        id=snapshot.id,
        as_of=snapshot.as_of,
        actual=snapshot.outcome.direction,
        bull=_mean_scores(result, "bull"),
        bear=_mean_scores(result, "bear"),
    )
    return SnapshotDebate(snapshot, run_id, result, row, scored, reused)


def _check_stored(store: Store, run_id: str, topic: str) -> bool:
    """Whether this snapshot's run is stored finished; ``ConfigError`` when the id holds
    another debate."""
    row = store.get_debate(run_id)
    if row is None:
        return False
    if row.topic != topic or row.format != "market":
        raise ConfigError(
            f"run {run_id!r} holds another debate ({row.format}: {row.topic!r}); choose"
            " another backtest --id"
        )
    return row.status == "done"


def _run_id(ident: str, snapshot_id: str) -> str:
    """The run id of one snapshot's debate, checked before the first debate. A snapshot
    id has 38 characters at most and a generated backtest id 25, so only a ``--id``
    given can make it too long."""
    run_id = f"{ident}.{snapshot_id}"
    if RUN_ID.fullmatch(run_id) is None:
        raise ConfigError(
            f"the run id {run_id!r} of snapshot {snapshot_id!r} is over 64 characters:"
            f" use a --id of at most {63 - len(snapshot_id)} characters"
        )
    return run_id


def run_backtest(
    source: str | Path,
    options: RunOptions,
    *,
    store: Store,
    backtest_id: str | None = None,
    on_event: Listener | None = None,
    on_snapshot: Callable[[int, int, SnapshotDebate], None] | None = None,
    on_started: Callable[[str, int], None] | None = None,
    prices: PriceTable | None = None,
    train_fraction: float = 0.6,
    cost: float = 0.0,
    risk_free: float = 0.0,
    executor: str = "local",
    parallel: int = 1,
    address: str | None = None,
) -> BacktestReport:
    """Debate every snapshot of ``source`` (a directory, or ``"demo"``) with the market
    format and its baseline under ``options`` (model, seed, language...), and score
    the forecasts (``cost``, a fraction per unit of position changed, and
    ``risk_free``, a yearly rate, enter the strategies' figures).
    ``on_started(backtest id, snapshots)`` is told the id to rerun
    with before the first debate; ``on_snapshot(done, total, debate)`` after each, in
    the order they finish. The debates run on the batch engine (``moot.batch``):
    ``parallel`` at once, on the ``local`` or ``ray`` executor."""
    if not math.isfinite(cost) or cost < 0:
        raise ConfigError(f"--cost must be a finite fraction >= 0, got {cost!r}")
    if not math.isfinite(risk_free):
        raise ConfigError(f"--risk-free must be a finite yearly rate, got {risk_free!r}")
    if options.panel:
        raise ConfigError("the backtest judges with one judge: no --panel")
    if options.sides:
        raise ConfigError("the backtest debates bull against bear: no --sides")
    snapshots = load_snapshots(source)
    ident = check_name(
        backtest_id or "bt-" + new_debate_id(),
        RUN_ID,
        "backtest id",
        "use letters, digits, '.', '_' or '-', starting with a letter or digit",
    )
    # the analysts file read once, before the first debate, for every snapshot
    analysts = stored_options({k: v for k, v in options.format_options.items() if k == "analysts"})
    run_ids = [_run_id(ident, snapshot.id) for snapshot in snapshots]
    if on_started is not None:
        on_started(ident, len(snapshots))
    items: list[Item] = []
    reused: set[str] = set()
    for snapshot, run_id in zip(snapshots, run_ids, strict=True):
        topic = topic_of(snapshot, options.lang)
        if _check_stored(store, run_id, topic):
            reused.add(run_id)
        format_options = {**analysts, "kb": kb_option(snapshot.kb), "baseline": True}
        snapshot_options = options.replace(
            format="market",
            format_options=format_options,
            seed=snapshot_seed(options.seed, snapshot.id),
        )
        items.append(Item.of(run_id, topic, snapshot_options))
    by_run = dict(zip(run_ids, snapshots, strict=True))
    read: dict[str, SnapshotDebate] = {}

    def finished(outcome: Outcome) -> None:
        if outcome.outcome not in FINISHED:
            return
        result = finished_result(store, outcome.id)
        debate = read_debate(by_run[outcome.id], outcome.id, result, outcome.id in reused)
        read[outcome.id] = debate
        if on_snapshot is not None:
            on_snapshot(len(read), len(snapshots), debate)

    outcomes = run_items(
        items,
        store,
        executor=executor,
        concurrency=parallel,
        address=address,
        prices=prices,
        on_outcome=finished,
        on_event=on_event,
    )
    check_finished(outcomes, f"backtest {ident}", f"--id {ident}")
    debates = [read[run_id] for run_id in run_ids]
    weights, note = _weights([d.scored for d in debates], train_fraction)
    return BacktestReport(
        id=ident,
        source=str(source),
        synthetic=any(s.synthetic for s in snapshots),
        debates=debates,
        summary=summarise([d.row for d in debates]),
        weights=weights,
        weights_note=note,
        cost=cost,
        risk_free=risk_free,
    )


def _weights(
    scored: Sequence[ScoredSnapshot], train_fraction: float
) -> tuple[WeightSearch | None, str | None]:
    if len({s.as_of for s in scored}) < 2:
        return None, "the weight search needs snapshots on at least 2 dates"
    return grid_search_weights(scored, train_fraction=train_fraction), None
