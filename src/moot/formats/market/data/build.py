"""Build a knowledge base from series: every derived field is computed here by code.

``MarketData`` holds the raw inputs (price series by module, macro and sentiment
series, dated fundamentals); ``build_kb(data, as_of, ...)`` derives the KB as it was
known on ``as_of``: every series is cut at ``as_of`` first, so nothing after it leaks
in, and a sector or global market whose last bar is stale by then (``fresh``) is
left out. Derived numbers are rounded with ``tidy`` (2 decimals, 2 significant digits
below 0.1)
and the KB holds exactly what the agents will read and the evidence check compares.
"""

from __future__ import annotations

import bisect
import datetime as dt
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from moot.formats.market.data import indicators as ind
from moot.formats.market.data.bars import BARS_PER_YEAR, GAPS, Bar, check_bar, return_fields
from moot.formats.market.data.kb import (
    Fundamentals,
    IndexQuote,
    Indicator,
    KnowledgeBase,
    MacroIndicator,
    Meta,
    Sector,
    Sentiment,
    Technicals,
    Trend,
    VolatilityRegime,
)
from moot.formats.market.data.series import MacroSeries, PriceSeries

RETURN_PERIODS = (1, 5, 20, 60, 252)
"""The returns derived on daily bars (``bars.RETURN_BARS`` for the others)."""
TREND_WINDOW = 3
VOLATILITY_REGIMES: tuple[tuple[float, VolatilityRegime], ...] = (
    (15.0, "low"),
    (20.0, "normal"),
    (30.0, "elevated"),
)


def tidy(value: float | None) -> float | None:
    """Round for display: 2 decimals, or 2 significant digits below 0.1 (so 0.0065
    stays 0.0065); below 1e-9 is floating-point noise and becomes 0. ``None`` stays
    ``None``."""
    if value is None:
        return None
    if abs(value) < 1e-9:
        return 0.0
    decimals = max(2, 1 - math.floor(math.log10(abs(value))))
    return round(value, decimals)


@dataclass(frozen=True)
class Named:
    """A price series with its display name."""

    name: str
    series: PriceSeries


@dataclass(frozen=True)
class MarketData:
    """Everything a KB is derived from. Price series are keyed by ticker."""

    indices: Mapping[str, Named] = field(default_factory=dict)
    sectors: Mapping[str, Named] = field(default_factory=dict)
    global_markets: Mapping[str, Named] = field(default_factory=dict)
    benchmark: str | None = None  # the index sectors are measured against
    macro: Mapping[str, MacroSeries] = field(default_factory=dict)
    volatility: Named | None = None  # a VIX-like index
    sentiment_series: Mapping[str, MacroSeries] = field(default_factory=dict)
    fundamentals: Mapping[str, Sequence[Fundamentals]] = field(default_factory=dict)
    bar: Bar = "daily"
    """Bar size of every price series (``moot.formats.market.data.bars``): the returns
    are named by it and the 52-week range spans a year of its bars."""
    publication_lag: Mapping[str, int] = field(default_factory=dict)
    """Days from an observation's date until it is published, per ``macro`` or
    ``sentiment_series`` id (0 when absent). FRED dates a monthly figure by the first
    day of its month, weeks before it is released: with a lag, a KB holds only what
    was published by its date, so a backtest does not see the future."""

    def __post_init__(self) -> None:
        check_bar(self.bar, "MarketData.bar")
        if self.benchmark is not None and self.benchmark not in self.indices:
            raise ValueError(f"benchmark {self.benchmark!r} is not one of the indices")
        for key, lag in self.publication_lag.items():
            if key not in self.macro and key not in self.sentiment_series:
                raise ValueError(f"publication lag of {key!r}: no macro or sentiment series")
            if isinstance(lag, bool) or not isinstance(lag, int) or lag < 0:
                raise ValueError(f"publication lag of {key!r} must be whole days >= 0")
        for key, records in self.fundamentals.items():
            if any(r.date is None for r in records):
                raise ValueError(f"fundamentals of {key}: every record needs a date")


def _returns(closes: Sequence[float], bar: str = "daily") -> dict[str, float | None]:
    return {name: tidy(ind.period_return(closes, k)) for k, name in return_fields(bar)}


def index_quote(name: str, series: PriceSeries, bar: str = "daily") -> IndexQuote:
    """An ``indices`` / ``global_markets`` entry at the series' last bar, its returns
    named by ``bar`` and its 52-week range over a year of bars."""
    closes = series.closes
    window = ind.range_52w(series.highs, series.lows, closes, BARS_PER_YEAR[bar])
    return IndexQuote(
        name=name,
        date=series.last_date,
        close=tidy(closes[-1]) or 0.0,
        **_returns(closes, bar),
        high_52w=tidy(window.high) if window else None,
        low_52w=tidy(window.low) if window else None,
        vs_52w_high_pct=tidy(window.vs_high_pct) if window else None,
        vs_52w_low_pct=tidy(window.vs_low_pct) if window else None,
    )


def _vs(close: float, average: float | None) -> float | None:
    return None if average is None else tidy((close / average - 1) * 100)


def technicals(series: PriceSeries) -> Technicals:
    """The ``technicals`` entry of one price series at its last bar (no ATR in a
    close-only series: it needs highs and lows)."""
    closes = series.closes
    close = closes[-1]
    averages = {n: ind.sma(closes, n) for n in (20, 50, 200)}
    macd = ind.macd(closes)
    atr = None if series.close_only else ind.atr(series.highs, series.lows, closes)
    volumes = series.volumes
    return Technicals(
        sma_20=tidy(averages[20]),
        sma_50=tidy(averages[50]),
        sma_200=tidy(averages[200]),
        close_vs_sma_20_pct=_vs(close, averages[20]),
        close_vs_sma_50_pct=_vs(close, averages[50]),
        close_vs_sma_200_pct=_vs(close, averages[200]),
        rsi_14=tidy(ind.rsi(closes)),
        macd=tidy(macd.line) if macd else None,
        macd_signal=tidy(macd.signal) if macd else None,
        # the histogram is the difference of the two numbers shown
        macd_histogram=tidy((tidy(macd.line) or 0.0) - (tidy(macd.signal) or 0.0))
        if macd
        else None,
        atr_14=tidy(atr),
        atr_14_pct=tidy(atr / close * 100) if atr is not None else None,
        volume_ratio=tidy(ind.volume_ratio(volumes)) if volumes is not None else None,
    )


def sector(
    name: str,
    series: PriceSeries,
    benchmark: Named | None,
    ticker: str | None,
    bar: str = "daily",
) -> Sector:
    """A ``sectors`` entry, with its 20-session return against the benchmark's (on
    daily bars only: the field is named by sessions)."""
    closes = series.closes
    daily = bar == "daily"
    own = ind.period_return(closes, 20) if daily else None
    theirs = ind.period_return(benchmark.series.closes, 20) if benchmark and daily else None
    returns = _returns(closes, bar)
    returns.pop("return_252d_pct", None)
    return Sector(
        name=name,
        close=tidy(closes[-1]) or 0.0,
        **returns,
        benchmark=ticker if benchmark else None,
        relative_20d_pct=tidy(own - theirs) if own is not None and theirs is not None else None,
    )


def macro_indicator(series: MacroSeries, trend_window: int = TREND_WINDOW) -> MacroIndicator:
    """A ``macro`` entry at the series' latest observation. ``trend`` compares the latest
    value with the one ``trend_window`` observations earlier (rising, falling or flat
    when equal); it is absent when the series is shorter than that."""
    points = series.points
    if not points:
        raise ValueError(f"series {series.name} has no observation")
    day, value = points[-1]
    previous = points[-2][1] if len(points) > 1 else None
    trend: Trend | None = None
    if len(points) > trend_window:
        before = points[-1 - trend_window][1]
        trend = "rising" if value > before else "falling" if value < before else "flat"
    return MacroIndicator(
        name=series.name,
        unit=series.unit,
        value=tidy(value) or 0.0,
        date=day,
        previous=tidy(previous),
        change=tidy(value - previous) if previous is not None else None,
        trend=trend,
    )


def volatility_regime(level: float) -> VolatilityRegime:
    """low below 15, normal below 20, elevated below 30, else high (VIX conventions)."""
    for bound, regime in VOLATILITY_REGIMES:
        if level < bound:
            return regime
    return "high"


def sentiment(
    sectors: Mapping[str, Sector], volatility: PriceSeries | None, series: Mapping[str, MacroSeries]
) -> Sentiment | None:
    """Breadth from the sectors, the volatility index, and further series."""
    if not sectors and volatility is None and not series:
        return None
    up5 = [s.return_5d_pct for s in sectors.values() if s.return_5d_pct is not None]
    up20 = [s.return_20d_pct for s in sectors.values() if s.return_20d_pct is not None]
    level = volatility.closes[-1] if volatility is not None and len(volatility) else None
    indicators = {}
    for key, s in series.items():
        if s.points:
            latest = macro_indicator(s).model_dump(exclude={"trend"})
            indicators[key] = Indicator(**latest)
    return Sentiment(
        volatility_index=tidy(level),
        volatility_regime=volatility_regime(level) if level is not None else None,
        sectors_total=len(sectors) if sectors else None,
        sectors_positive_5d=sum(r > 0 for r in up5) if up5 else None,
        sectors_positive_20d=sum(r > 0 for r in up20) if up20 else None,
        breadth_5d_pct=tidy(100 * sum(r > 0 for r in up5) / len(up5)) if up5 else None,
        breadth_20d_pct=tidy(100 * sum(r > 0 for r in up20) / len(up20)) if up20 else None,
        indicators=indicators,
    )


def _cut(named: Mapping[str, Named], as_of: dt.date) -> dict[str, Named]:
    cut = {key: Named(n.name, n.series.until(as_of)) for key, n in named.items()}
    return {key: n for key, n in cut.items() if len(n.series)}


def fresh(series: PriceSeries, as_of: dt.date, bar: str) -> PriceSeries | None:
    """The series cut at ``as_of``, or None when it has no bar by then or its last bar
    is older than the longest gap ``bar`` allows (``bars.GAPS``: 14 days on daily
    bars, 70 on monthly): a sector or market that stopped trading, or whose file
    ends early, is not shown at a stale close."""
    if stale(series.dates, as_of, bar):
        return None
    return series.until(as_of)


def stale(dates: Sequence[dt.date], as_of: dt.date, bar: str) -> bool:
    """Whether a series with these dates (increasing) has no bar on or before
    ``as_of``, or its last one is older than the longest gap ``bar`` allows."""
    i = bisect.bisect_right(dates, as_of)
    return i == 0 or (as_of - dates[i - 1]).days > GAPS[bar][1]


def _fresh(named: Mapping[str, Named], as_of: dt.date, bar: str) -> dict[str, Named]:
    out = {}
    for key, n in named.items():
        cut = fresh(n.series, as_of, bar)
        if cut is not None:
            out[key] = Named(n.name, cut)
    return out


def _published(key: str, series: MacroSeries, data: MarketData, as_of: dt.date) -> MacroSeries:
    """The observations of a series published by ``as_of`` (its publication lag)."""
    return series.until(as_of - dt.timedelta(days=data.publication_lag.get(key, 0)))


def close_only_warnings(data: MarketData) -> list[str]:
    """What a close-only price series leaves out, one line per ticker."""
    return [
        f"{key}: closes only (no open, high or low): no ATR; the 52-week high and low are of closes"
        for key, n in (*data.indices.items(), *data.global_markets.items())
        if n.series.close_only
    ]


def build_kb(
    data: MarketData,
    as_of: dt.date,
    *,
    source: str,
    warnings: Sequence[str] = (),
    synthetic: bool = False,
) -> KnowledgeBase:
    """The KB as known on ``as_of``: every series cut at ``as_of``, a macro or
    sentiment series at ``as_of`` less its publication lag."""
    indices = _cut(data.indices, as_of)
    sectors_in = _fresh(data.sectors, as_of, data.bar)
    benchmark = indices.get(data.benchmark) if data.benchmark else None
    sectors = {
        key: sector(n.name, n.series, benchmark, data.benchmark, data.bar)
        for key, n in sectors_in.items()
    }
    volatility = fresh(data.volatility.series, as_of, data.bar) if data.volatility else None
    fundamentals = {}
    for key, records in data.fundamentals.items():
        known = [r for r in records if r.date is not None and r.date <= as_of]
        if known:
            fundamentals[key] = max(known, key=lambda r: r.date or dt.date.min)
    macro = {}
    for key, series in data.macro.items():
        cut = _published(key, series, data, as_of)
        if cut.points:
            macro[key] = macro_indicator(cut)
    return KnowledgeBase(
        meta=Meta(
            as_of=as_of,
            source=source,
            warnings=[*warnings, *close_only_warnings(data)],
            synthetic=synthetic,
            bar=None if data.bar == "daily" else data.bar,
        ),
        indices={key: index_quote(n.name, n.series, data.bar) for key, n in indices.items()},
        technicals={key: technicals(n.series) for key, n in indices.items()},
        sectors=sectors,
        fundamentals=fundamentals,
        macro=macro,
        sentiment=sentiment(
            sectors,
            volatility if volatility is not None and len(volatility) else None,
            {key: _published(key, s, data, as_of) for key, s in data.sentiment_series.items()},
        ),
        global_markets={
            key: index_quote(n.name, n.series, data.bar)
            for key, n in _fresh(data.global_markets, as_of, data.bar).items()
        },
    )
