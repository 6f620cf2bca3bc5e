"""Time series the KB is derived from: price bars and macro observations.

Both are immutable and validated on construction: dates strictly increasing, every
value finite, every bar consistent (``low <= open, close <= high``). A bar may hold
its close alone (a close-only series: open, high and low are ``None``); then the
indicators that need a high and a low are left out (``PriceSeries.close_only``).
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from moot.formats.market.data.kb import UNITS, Unit


@dataclass(frozen=True, slots=True)
class PriceBar:
    """One bar: open, high, low, close and (where known) volume; open, high and low
    are ``None`` in a close-only series. Slotted: a large price file holds millions."""

    date: dt.date
    open: float | None
    high: float | None
    low: float | None
    close: float
    volume: float | None = None


def _check_increasing(dates: Sequence[dt.date], what: str) -> None:
    for earlier, later in itertools.pairwise(dates):
        if later == earlier:
            raise ValueError(f"{what}: date {later} appears twice")
        if later < earlier:
            raise ValueError(f"{what}: dates are not in order ({later} after {earlier})")


@dataclass(frozen=True)
class PriceSeries:
    """Bars of one instrument, oldest first (daily unless the data says otherwise:
    ``moot.formats.market.data.bars``)."""

    bars: tuple[PriceBar, ...]

    def __post_init__(self) -> None:
        _check_increasing([b.date for b in self.bars], "price series")
        ranged = {
            b.open is not None and b.high is not None and b.low is not None for b in self.bars
        }
        if len(ranged) > 1:
            raise ValueError("price series: either every bar has open, high and low or none")
        for b in self.bars:
            values = [v for v in (b.open, b.high, b.low, b.close) if v is not None]
            if not all(math.isfinite(v) for v in values):
                raise ValueError(f"price series: non-finite price on {b.date}")
            if min(values) <= 0:
                raise ValueError(f"price series: a price on {b.date} is not positive")
            if b.open is None or b.high is None or b.low is None:
                continue
            if not b.low <= min(b.open, b.close) or not max(b.open, b.close) <= b.high:
                raise ValueError(
                    f"price series: on {b.date} open and close must lie within [low, high]"
                )
            if b.volume is not None and (not math.isfinite(b.volume) or b.volume < 0):
                raise ValueError(f"price series: volume on {b.date} must be finite and >= 0")

    def __len__(self) -> int:
        return len(self.bars)

    def __iter__(self) -> Iterator[PriceBar]:
        return iter(self.bars)

    @property
    def close_only(self) -> bool:
        """Whether the bars hold closes alone (no open, high or low)."""
        return bool(self.bars) and self.bars[0].high is None

    @property
    def dates(self) -> list[dt.date]:
        return [b.date for b in self.bars]

    @property
    def closes(self) -> list[float]:
        return [b.close for b in self.bars]

    @property
    def highs(self) -> list[float]:
        """The highs, or the closes in a close-only series."""
        return [b.close if b.high is None else b.high for b in self.bars]

    @property
    def lows(self) -> list[float]:
        """The lows, or the closes in a close-only series."""
        return [b.close if b.low is None else b.low for b in self.bars]

    @property
    def volumes(self) -> list[float] | None:
        """Every volume, or ``None`` when any bar lacks one."""
        volumes = [b.volume for b in self.bars]
        if any(v is None for v in volumes):
            return None
        return [v for v in volumes if v is not None]

    @property
    def last_date(self) -> dt.date:
        if not self.bars:
            raise ValueError("price series is empty")
        return self.bars[-1].date

    def until(self, as_of: dt.date) -> PriceSeries:
        """The bars dated on or before ``as_of``."""
        return PriceSeries(tuple(b for b in self.bars if b.date <= as_of))


@dataclass(frozen=True)
class MacroSeries:
    """Observations of one macro (or sentiment) series, oldest first."""

    name: str
    unit: Unit
    points: tuple[tuple[dt.date, float], ...]

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise ValueError("a macro series needs a name")
        if self.unit not in UNITS:
            raise ValueError(f"series {self.name}: unit {self.unit!r} is not one of {UNITS}")
        _check_increasing([d for d, _ in self.points], f"series {self.name}")
        for d, v in self.points:
            if not math.isfinite(v):
                raise ValueError(f"series {self.name}: non-finite value on {d}")

    def until(self, as_of: dt.date) -> MacroSeries:
        """The observations dated on or before ``as_of``."""
        return MacroSeries(self.name, self.unit, tuple(p for p in self.points if p[0] <= as_of))
