"""Bar sizes: how far apart a series' observations are, and what that makes of every
horizon derived from it.

A series has daily, weekly, monthly or quarterly bars. ``detect_bar`` reads it from
the median gap between consecutive dates and ``check_gaps`` refuses a gap that no bar
of that size can have (a daily row inside a monthly file: mixed frequencies). The
returns a KB derives are named by bar (``RETURN_FIELDS``): a monthly KB has
``return_1m_pct``, ``return_3m_pct``... and never a "5-day" return. A weekly,
monthly or quarterly bar is stamped at its period's end: ``stamped_at_start`` finds a
series whose dates are its periods' first days (a month's close dated on the 1st)
and ``period_end`` moves each date to its period's last day.
"""

from __future__ import annotations

import calendar
import datetime as dt
import itertools
import statistics
from collections.abc import Sequence
from typing import Final, Literal, get_args

Bar = Literal["daily", "weekly", "monthly", "quarterly"]
BARS: Final[tuple[str, ...]] = get_args(Bar)
BARS_PER_YEAR: Final[dict[str, int]] = {"daily": 252, "weekly": 52, "monthly": 12, "quarterly": 4}
"""Bars in a year: the default warmup, the 52-week window and the annualisation."""

_MEDIAN_GAP: Final[tuple[tuple[float, Bar], ...]] = (
    (4.5, "daily"),
    (10.0, "weekly"),
    (75.0, "monthly"),
    (135.0, "quarterly"),
)
GAPS: Final[dict[str, tuple[int, int]]] = {
    "daily": (1, 14),
    "weekly": (3, 21),
    "monthly": (20, 70),
    "quarterly": (70, 200),
}
"""The smallest and largest gap in days between two consecutive bars of each size
(a holiday week, a missing month stay inside; a daily row among monthly ones does
not)."""

RETURN_BARS: Final[dict[str, tuple[tuple[int, str], ...]]] = {
    "daily": ((1, "1d"), (5, "5d"), (20, "20d"), (60, "60d"), (252, "252d")),
    "weekly": ((1, "1w"), (4, "4w"), (13, "13w"), (52, "52w")),
    "monthly": ((1, "1m"), (3, "3m"), (6, "6m"), (12, "12m")),
    "quarterly": ((1, "1q"), (2, "2q"), (4, "4q")),
}
"""(bars, name) of every return a KB derives at each bar size: the field is
``return_<name>_pct``."""


def return_fields(bar: str) -> tuple[tuple[int, str], ...]:
    """(bars, field name) of the returns derived at ``bar``."""
    return tuple((k, f"return_{name}_pct") for k, name in RETURN_BARS[bar])


def check_bar(bar: str, what: str = "bar") -> Bar:
    """``bar`` if it is a bar size, else ``ValueError`` naming the choices."""
    if bar not in BARS:
        raise ValueError(f"{what} {bar!r} is not one of {', '.join(BARS)}")
    return bar  # type: ignore[return-value]


def detect_bar(dates: Sequence[dt.date]) -> Bar:
    """The bar size of increasing ``dates``, from the median gap between them (daily
    for a single date). ``ValueError`` when the median fits no bar size."""
    if len(dates) < 2:
        return "daily"
    median = statistics.median((b - a).days for a, b in itertools.pairwise(dates))
    for bound, bar in _MEDIAN_GAP:
        if median <= bound:
            return bar
    raise ValueError(
        f"the median gap between dates is {median:g} days: not daily, weekly, monthly or"
        " quarterly bars"
    )


def check_gaps(dates: Sequence[dt.date], bar: str) -> tuple[int, str] | None:
    """The first gap that does not fit ``bar`` as (index of the later date, message),
    or ``None`` when every gap fits."""
    low, high = GAPS[bar]
    for i, (a, b) in enumerate(itertools.pairwise(dates), start=1):
        gap = (b - a).days
        if not low <= gap <= high:
            return i, (
                f"{b} is {gap} days after {a}: {bar} bars are {low} to {high} days apart"
                " (mixed frequencies in one file?)"
            )
    return None


def _month_end(year: int, month: int) -> dt.date:
    return dt.date(year, month, calendar.monthrange(year, month)[1])


def period_end(day: dt.date, bar: str) -> dt.date:
    """The last day of the period of ``bar`` that ``day`` opens: Friday of its week,
    the last day of its month or quarter; a daily bar is its own period."""
    if bar == "weekly":
        return day + dt.timedelta(days=4 - day.weekday()) if day.weekday() <= 4 else day
    if bar == "monthly":
        return _month_end(day.year, day.month)
    if bar == "quarterly":
        return _month_end(day.year, 3 * ((day.month - 1) // 3) + 3)
    return day


def _opens_period(day: dt.date, bar: str) -> bool:
    if bar == "weekly":
        return day.weekday() == 0
    if bar == "monthly":
        return day.day <= 3
    if bar == "quarterly":
        return day.day <= 3 and day.month in (1, 4, 7, 10)
    return False


def stamped_at_start(dates: Sequence[dt.date], bar: str) -> bool:
    """Whether most of ``dates`` are the first days of their ``bar`` periods (a
    Monday; the 1st to the 3rd of a month; of January, April, July or October): the
    value of a period dated before the period has happened."""
    if bar == "daily" or not dates:
        return False
    return sum(_opens_period(d, bar) for d in dates) * 2 > len(dates)


def quarter_end(year: int, quarter: int) -> dt.date:
    """The last day of quarter 1-4 of ``year``."""
    if quarter not in (1, 2, 3, 4):
        raise ValueError(f"quarter {quarter} is not 1, 2, 3 or 4")
    return _month_end(year, 3 * quarter)


def month_end(year: int, month: int) -> dt.date:
    """The last day of month 1-12 of ``year``."""
    if not 1 <= month <= 12:
        raise ValueError(f"month {month} is not 1 to 12")
    return _month_end(year, month)


HORIZON_WORDS: Final[dict[str, dict[str, tuple[str, str]]]] = {
    "en": {
        "daily": ("session", "sessions"),
        "weekly": ("week", "weeks"),
        "monthly": ("month", "months"),
        "quarterly": ("quarter", "quarters"),
    },
    "zh": {
        "daily": ("个交易日", "个交易日"),
        "weekly": ("周", "周"),
        "monthly": ("个月", "个月"),
        "quarterly": ("个季度", "个季度"),
    },
}


def horizon_words(n: int, bar: str, lang: str) -> str:
    """``n`` bars in words: ``1 month``, ``3 quarters``, ``20 个交易日``."""
    one, many = HORIZON_WORDS[lang][bar]
    return f"{n} {one if n == 1 else many}"
