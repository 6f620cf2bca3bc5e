"""Time series the KB is derived from: daily price bars and macro observations.

Both are immutable and validated on construction: dates strictly increasing, every
value finite, every bar consistent (``low <= open, close <= high``).
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from moot.formats.market.data.kb import UNITS, Unit


@dataclass(frozen=True)
class PriceBar:
    """One session: open, high, low, close and (where known) volume."""

    date: dt.date
    open: float
    high: float
    low: float
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
    """Daily bars of one instrument, oldest first."""

    bars: tuple[PriceBar, ...]

    def __post_init__(self) -> None:
        _check_increasing([b.date for b in self.bars], "price series")
        for b in self.bars:
            values = (b.open, b.high, b.low, b.close)
            if not all(math.isfinite(v) for v in values):
                raise ValueError(f"price series: non-finite price on {b.date}")
            if min(values) <= 0:
                raise ValueError(f"price series: a price on {b.date} is not positive")
            if not b.low <= min(b.open, b.close) or not max(b.open, b.close) <= b.high:
                raise ValueError(
                    f"price series: on {b.date} open and close must lie within [low, high]"
                )
            if b.volume is not None and (not math.isfinite(b.volume) or b.volume < 0):
                raise ValueError(f"price series: volume on {b.date} must be finite and >= 0")

    def __len__(self) -> int:
        return len(self.bars)

    @property
    def closes(self) -> list[float]:
        return [b.close for b in self.bars]

    @property
    def highs(self) -> list[float]:
        return [b.high for b in self.bars]

    @property
    def lows(self) -> list[float]:
        return [b.low for b in self.bars]

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
