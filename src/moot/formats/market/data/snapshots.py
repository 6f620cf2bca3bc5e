"""Backtest snapshots: a KB as known on a date, with the known next-period outcome.

Layout of a snapshot set (docs/market.md, "Backtest snapshots")::

    DIR/
      <snapshot-id>/kb.json        the KB as of that date (meta.as_of)
      <snapshot-id>/outcome.json   {"as_of", "target", "horizon_sessions",
                                    "end_date", "return_pct", "direction"[, "bar"]}

A snapshot id is letters, digits, ``.``, ``_`` and ``-``; the builder names one by
its target and date (``EXI_2024-05-15``), so several tickers share a folder. Other
files in DIR and directories whose name starts with ``.`` are ignored. The loader
checks every snapshot: both files valid, ``outcome.as_of == kb.meta.as_of``, the
target among the KB's indices, ``end_date`` after ``as_of``, ``direction`` ``up``
exactly when ``return_pct > 0``, and one snapshot per target and date. The writer
never overwrites a snapshot: it refuses the set when one of its folders exists, and
writes nothing then.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import re
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from moot.errors import DataError
from moot.formats.market.data.bars import BARS_PER_YEAR, Bar
from moot.formats.market.data.build import MarketData, build_kb
from moot.formats.market.data.demo import DEMO_SEED, DEMO_SOURCE, SYNTHETIC_WARNING, demo_market
from moot.formats.market.data.files import read_json
from moot.formats.market.data.kb import KnowledgeBase, dump_kb, parse_kb

Direction = Literal["up", "down"]
SNAPSHOT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,37}")
"""A snapshot's id, its folder's name, matched in full (a trailing newline is
refused): 38 characters at most, so a backtest's run id ``<backtest id>.<snapshot id>``
fits in the 64 of a run id with a generated backtest id (25)."""
KB_FILE = "kb.json"
OUTCOME_FILE = "outcome.json"


class Outcome(BaseModel):
    """What happened after the snapshot: the target's return over the horizon."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    as_of: dt.date = Field(description="The snapshot's date (the KB's meta.as_of).")
    target: str = Field(min_length=1, description="Ticker of the index forecast (in indices).")
    horizon_sessions: int = Field(
        ge=1, description="Bars from as_of to end_date (sessions on daily bars)."
    )
    end_date: dt.date = Field(description="Date of the closing price the return ends at.")
    return_pct: float = Field(
        gt=-100, description="Close-to-close return of the target, in percent."
    )
    direction: Direction = Field(description="up when return_pct > 0, else down.")
    bar: Bar | None = Field(
        default=None,
        description="Bar size of the target's prices: daily (when absent), weekly, monthly"
        " or quarterly; the horizon counts these bars.",
    )

    @model_validator(mode="after")
    def _consistent(self) -> Outcome:
        if self.end_date <= self.as_of:
            raise ValueError(f"end_date {self.end_date} is not after as_of {self.as_of}")
        expected = "up" if self.return_pct > 0 else "down"
        if self.direction != expected:
            raise ValueError(
                f"direction is {self.direction} but return_pct {self.return_pct} means {expected}"
                " (up exactly when return_pct > 0)"
            )
        return self


@dataclass(frozen=True)
class Snapshot:
    """One dated KB and its outcome, cross-checked."""

    id: str
    kb: KnowledgeBase
    outcome: Outcome

    def __post_init__(self) -> None:
        if SNAPSHOT_ID.fullmatch(self.id) is None:
            raise ValueError(
                f"snapshot id {self.id!r}: use letters, digits, '.', '_' and '-', starting"
                " with a letter or digit, 38 at most"
            )
        if self.kb.meta.as_of != self.outcome.as_of:
            raise ValueError(
                f"snapshot {self.id}: outcome.as_of {self.outcome.as_of} differs from the KB's"
                f" meta.as_of {self.kb.meta.as_of}"
            )
        if self.outcome.target not in self.kb.indices:
            raise ValueError(
                f"snapshot {self.id}: target {self.outcome.target!r} is not in the KB's indices"
                f" ({', '.join(self.kb.indices) or 'none'})"
            )

    @property
    def as_of(self) -> dt.date:
        return self.outcome.as_of

    @property
    def synthetic(self) -> bool:
        return self.kb.meta.synthetic

    @property
    def target(self) -> str:
        return self.outcome.target


def _load_one(directory: Path) -> Snapshot:
    name = directory.name
    for file in (KB_FILE, OUTCOME_FILE):
        if not (directory / file).is_file():
            raise DataError(f"snapshot {directory} has no {file}")
    kb = parse_kb(read_json(directory / KB_FILE, "knowledge base"), source=str(directory / KB_FILE))
    try:
        outcome = Outcome.model_validate(read_json(directory / OUTCOME_FILE, "outcome"))
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'outcome'}: {e['msg']}" for e in exc.errors()
        )
        raise DataError(f"{directory / OUTCOME_FILE} is not a valid outcome: {problems}") from exc
    try:
        return Snapshot(name, kb, outcome)
    except ValueError as exc:
        raise DataError(f"{directory}: {exc}") from exc


def load_snapshots(source: str | Path) -> list[Snapshot]:
    """The snapshots in a directory (see the module docstring), oldest first, or the
    synthetic demo set for ``"demo"``."""
    if str(source) == "demo":
        return demo_snapshots()
    root = Path(source)
    if not root.is_dir():
        raise DataError(f"snapshot set {root} is not a directory")
    snapshots = [
        _load_one(d) for d in sorted(root.iterdir()) if d.is_dir() and not d.name.startswith(".")
    ]
    if not snapshots:
        raise DataError(
            f"snapshot set {root} has no snapshot: expected {root}/<id>/{KB_FILE} and"
            f" {root}/<id>/{OUTCOME_FILE}"
        )
    snapshots.sort(key=lambda s: (s.as_of, s.target, s.id))
    for earlier, later in itertools.pairwise(snapshots):
        if (later.as_of, later.target) == (earlier.as_of, earlier.target):
            raise DataError(
                f"snapshot set {root}: {earlier.id} and {later.id} both forecast"
                f" {later.target} on {later.as_of} (outcome.json); one forecast per ticker"
                " and date, or it is scored twice"
            )
    return snapshots


def write_snapshots(snapshots: Sequence[Snapshot], directory: str | Path) -> Path:
    """Write ``snapshots`` in the layout ``load_snapshots`` reads; returns the directory.

    Nothing is overwritten and nothing is half-written: a ``DataError`` naming them
    when a snapshot's folder already exists (a second ticker, an earlier run), before
    anything is written; every snapshot is written into a hidden staging folder first
    and moved into place only when all of them are there."""
    root = Path(directory)
    ids = [s.id for s in snapshots]
    if len(set(ids)) != len(ids):
        twice = sorted({i for i in ids if ids.count(i) > 1})
        raise DataError(f"two snapshots share an id ({', '.join(twice[:5])})")
    taken = [i for i in ids if (root / i).exists()]
    if taken:
        more = f" and {len(taken) - 5} more" if len(taken) > 5 else ""
        raise DataError(
            f"{root}: snapshot(s) {', '.join(taken[:5])}{more} exist already; nothing was"
            " written (choose another folder, or remove them first)"
        )
    root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=root))
    try:
        for snapshot in snapshots:
            folder = staging / snapshot.id
            folder.mkdir()
            (folder / KB_FILE).write_text(dump_kb(snapshot.kb), encoding="utf-8")
            outcome = snapshot.outcome.model_dump(mode="json", exclude_none=True)
            (folder / OUTCOME_FILE).write_text(
                json.dumps(outcome, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
            )
        for snapshot in snapshots:
            (staging / snapshot.id).rename(root / snapshot.id)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return root


def ticker_id(ticker: str) -> str:
    """A ticker as the start of a snapshot id: characters other than letters, digits,
    ``.``, ``_`` and ``-`` become ``-`` (``^GSPC`` -> ``GSPC``, ``BRK/B`` -> ``BRK-B``),
    at most 27 of them."""
    cleaned = re.sub(r"[^A-Za-z0-9._-]", "-", ticker).lstrip("._-")[:27]
    if not cleaned:
        raise ValueError(f"ticker {ticker!r} has no letter or digit to name its snapshots")
    return cleaned


def snapshots_from_market(
    data: MarketData,
    target: str,
    *,
    every: int,
    horizon: int,
    warmup: int | None = None,
    source: str,
    warnings: Sequence[str] = (),
    synthetic: bool = False,
) -> list[Snapshot]:
    """Snapshots of ``data`` every ``every`` bars of the target index, each with
    the target's return over the next ``horizon`` bars.

    The first snapshot is on the target's ``warmup``-th bar (by default a year of
    bars: 252 sessions, 52 weeks, 12 months or 4 quarters, so the 52-week range
    exists); the last is the latest one with ``horizon`` bars after it. Each KB is
    built from the data up to its date only. Snapshot ids are the target and the
    date (``EXI_2024-05-15``).
    """
    if target not in data.indices:
        raise ValueError(f"target {target!r} is not one of the indices")
    if warmup is None:
        warmup = BARS_PER_YEAR[data.bar]
    if every < 1 or horizon < 1 or warmup < 1:
        raise ValueError("every, horizon and warmup must be at least 1")
    prefix = ticker_id(target)
    bars = data.indices[target].series.bars
    snapshots = []
    for i in range(warmup - 1, len(bars) - horizon, every):
        start, end = bars[i], bars[i + horizon]
        change = round((end.close / start.close - 1) * 100, 4)
        outcome = Outcome(
            as_of=start.date,
            target=target,
            horizon_sessions=horizon,
            end_date=end.date,
            return_pct=change,
            direction="up" if change > 0 else "down",
            bar=None if data.bar == "daily" else data.bar,
        )
        kb = build_kb(data, start.date, source=source, warnings=warnings, synthetic=synthetic)
        snapshots.append(Snapshot(f"{prefix}_{start.date.isoformat()}", kb, outcome))
    return snapshots


def demo_snapshots(seed: int = DEMO_SEED) -> list[Snapshot]:
    """The synthetic demo snapshot set: the demo market every 20 sessions after a
    year of history, each with ExampleIndex's return over the next 20 sessions."""
    return list(_demo_snapshots(seed))


@lru_cache(maxsize=2)
def _demo_snapshots(seed: int) -> tuple[Snapshot, ...]:
    return tuple(
        snapshots_from_market(
            demo_market(seed),
            "EXI",
            every=20,
            horizon=20,
            warmup=260,
            source=DEMO_SOURCE,
            warnings=[SYNTHETIC_WARNING],
            synthetic=True,
        )
    )
