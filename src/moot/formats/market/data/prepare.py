"""Checking series as loaded before a KB is built from them: their bar size and
where in its period each value is dated.

``prepare_prices`` and ``prepare_macro`` detect a series' bar size (or take the one
declared), refuse a gap that does not fit it (mixed frequencies) and move a value
dated at its period's start (a month's close dated on the 1st, FRED's monthly CPI) to
the period's last day, so no KB knows a period's value before the period is over.
Each says what it did in a note naming the series; every refusal is a ``DataError``
naming the file, the series and the date.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Final, Literal, get_args

from moot.errors import DataError
from moot.formats.market.data.bars import (
    Bar,
    check_bar,
    check_gaps,
    detect_bar,
    period_end,
    stamped_at_start,
)
from moot.formats.market.data.series import MacroSeries, PriceBar, PriceSeries

Stamp = Literal["auto", "start", "end"]
STAMPS: Final[tuple[str, ...]] = get_args(Stamp)
"""Where a weekly, monthly or quarterly value is dated: ``auto`` (found from the
dates), at its period's ``start`` (moved to the end) or at its ``end``."""


def _bar_of(dates: Sequence[dt.date], declared: str | None, where: str) -> Bar:
    try:
        bar = check_bar(declared, "bar") if declared else detect_bar(dates)
    except ValueError as exc:
        raise DataError(f"{where}: {exc}") from None
    gap = check_gaps(dates, bar)
    if gap is not None:
        raise DataError(f"{where}: {gap[1]}")
    return bar


def _starts(dates: Sequence[dt.date], bar: Bar, stamp: str, where: str) -> bool:
    if stamp not in STAMPS:
        raise DataError(f"{where}: stamp {stamp!r} is not one of {', '.join(STAMPS)}")
    if bar == "daily":
        return False
    return stamp == "start" or (stamp == "auto" and stamped_at_start(dates, bar))


def _moved(bar: Bar, first: dt.date, where: str) -> str:
    return (
        f"{where}: {bar} values dated at their period's start, moved to its last day"
        f" ({first} -> {period_end(first, bar)}): a period's value is not known before"
        " it ends"
    )


def _shifted_dates(dates: Sequence[dt.date], bar: Bar, where: str) -> list[dt.date]:
    moved = [period_end(d, bar) for d in dates]
    for i in range(1, len(moved)):
        if moved[i] <= moved[i - 1]:
            raise DataError(
                f"{where}: {dates[i - 1]} and {dates[i]} fall in one {bar} period"
                f" (ending {moved[i]}): mixed frequencies in one file?"
            )
    return moved


def prepare_prices(
    series: PriceSeries, where: str, *, bar: str | None = None, stamp: str = "auto"
) -> tuple[PriceSeries, Bar, list[str]]:
    """The series (dates moved to their periods' ends where stamped at the start),
    its bar size and what was done, in notes naming ``where`` (file and ticker)."""
    dates = series.dates
    found = _bar_of(dates, bar, where)
    notes = []
    if _starts(dates, found, stamp, where):
        moved = _shifted_dates(dates, found, where)
        notes.append(_moved(found, dates[0], where))
        series = PriceSeries(
            tuple(
                PriceBar(day, b.open, b.high, b.low, b.close, b.volume)
                for day, b in zip(moved, series.bars, strict=True)
            )
        )
    return series, found, notes


def prepare_macro(
    series: MacroSeries, where: str, *, bar: str | None = None, stamp: str = "auto", lag: int = 0
) -> tuple[MacroSeries, Bar, list[str]]:
    """A macro series as ``prepare_prices`` prepares prices, with a note when a
    weekly, monthly or quarterly series has no publication lag (``lag`` days)."""
    dates = [d for d, _ in series.points]
    found = _bar_of(dates, bar, where)
    notes = []
    if _starts(dates, found, stamp, where):
        moved = _shifted_dates(dates, found, where)
        notes.append(_moved(found, dates[0], where))
        series = MacroSeries(
            series.name,
            series.unit,
            tuple((day, v) for day, (_, v) in zip(moved, series.points, strict=True)),
        )
    if found != "daily" and lag == 0:
        notes.append(
            f"{where}: {found} series with no publication lag: each value enters a KB on"
            " its period's last day; declare how long its release takes (lag_days)"
        )
    return series, found, notes
