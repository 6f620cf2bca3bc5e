"""A snapshot set from CSV files as people have them: ``build_snapshot_set`` behind
``moot snapshots``.

Price files may hold one instrument (OHLCV as Yahoo or Stooq export it, or closes
alone; its ticker is the file's name, or the one ticker asked for) or several
(``symbol,date,price`` long, or one column per ticker wide);
``csvload.parse_price_table`` reads them all. Every ticker becomes the target of its
own snapshots (its KB holds it as the index, with the macro series), all sharing one
bar size (detected or declared). Macro files are read by ``csvload.load_macro``;
a series file (TOML) declares per macro series its unit, publication lag, bar size
and period stamp::

    [series.CPIAUCSL]
    unit = "level"
    lag_days = 45
    bar = "monthly"      # optional: detected from the dates
    stamp = "start"      # optional: auto, start or end

Sentiment series (``--sentiment``) are read like macro series and go into the
``sentiment`` module (``indicators``), with the same series file; fundamentals
(``--fundamentals``, ``csvload.parse_fundamentals``) are dated records per ticker,
each KB taking the latest published on or before its date. Sector and global
market price files (``--sectors``, ``--global``) are read like the price files (any
shape; a one-instrument file is named by its file's name) and prepared with the
targets' bar size: every target's KB holds them, each sector measured against that
target, and the sentiment module's breadth comes from the sectors. A volatility
index (``--volatility``, one series, a VIX-like close) fills the sentiment module's
``volatility_index`` and ``volatility_regime``. A sector or
global series with no bar on or before a snapshot's date, or whose last bar is
older than the longest gap its bar size allows (``bars.GAPS``), is left out of that
snapshot, and a note says from when.

Nothing is written unless every snapshot of every ticker was built; an existing
snapshot folder is refused (``snapshots.write_snapshots``).
"""

from __future__ import annotations

import datetime as dt
import tomllib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from moot.errors import ConfigError, DataError
from moot.formats.market.data.bars import Bar
from moot.formats.market.data.build import MarketData, Named, stale
from moot.formats.market.data.csvload import load_fundamentals, load_macro, load_price_table
from moot.formats.market.data.files import read_utf8
from moot.formats.market.data.kb import UNITS, Fundamentals, Unit
from moot.formats.market.data.prepare import STAMPS, prepare_macro, prepare_prices
from moot.formats.market.data.series import MacroSeries, PriceSeries
from moot.formats.market.data.snapshots import Snapshot, snapshots_from_market, write_snapshots


@dataclass(frozen=True)
class SeriesSpec:
    """What a macro series file (TOML) declares of one series."""

    unit: Unit | None = None
    lag_days: int | None = None
    bar: str | None = None
    stamp: str = "auto"


_SPEC_KEYS = frozenset({"unit", "lag_days", "bar", "stamp"})


def parse_series_spec(text: str, source: str) -> dict[str, SeriesSpec]:
    """``[series.NAME]`` tables of a TOML text (see the module docstring)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{source}: {exc}") from None
    extra = set(data) - {"series"}
    if extra:
        raise DataError(f"{source}: unknown table(s) {', '.join(sorted(extra))}; use [series.NAME]")
    out = {}
    for name, table in cast(dict[str, Any], data.get("series", {})).items():
        where = f"{source} [series.{name}]"
        if not isinstance(table, dict):
            raise DataError(f"{where}: expected a table")
        unknown = set(table) - _SPEC_KEYS
        if unknown:
            raise DataError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
        unit, lag, bar, stamp = (table.get(k) for k in ("unit", "lag_days", "bar", "stamp"))
        if unit is not None and unit not in UNITS:
            raise DataError(f"{where}: unit {unit!r} is not one of {', '.join(UNITS)}")
        if lag is not None and (isinstance(lag, bool) or not isinstance(lag, int) or lag < 0):
            raise DataError(f"{where}: lag_days must be whole days >= 0, got {lag!r}")
        if stamp is not None and stamp not in STAMPS:
            raise DataError(f"{where}: stamp {stamp!r} is not one of {', '.join(STAMPS)}")
        out[name] = SeriesSpec(unit, lag, bar, stamp or "auto")
    return out


def load_series_spec(path: Path) -> dict[str, SeriesSpec]:
    return parse_series_spec(read_utf8(path, "series file"), str(path))


@dataclass
class SetReport:
    """What ``build_snapshot_set`` wrote: snapshots per ticker, the bar size and the
    notes of every check (dates moved, lags missing)."""

    bar: Bar
    written: dict[str, int] = field(default_factory=dict)
    first_last: dict[str, tuple[str, str]] = field(default_factory=dict)
    ups: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _read_prices(
    paths: Sequence[Path], what: str, only: str | None = None, keep: Collection[str] | None = None
) -> dict[str, tuple[Path, PriceSeries]]:
    """Every ticker of the price files (of a long or wide file, those in ``keep``
    when given: the others' rows are skipped as they stream by), with its file: a
    one-instrument file is ``only`` when given, else named by its file's name; a
    ticker in two files is refused."""
    found: dict[str, tuple[Path, PriceSeries]] = {}
    for path in paths:
        for key, series in load_price_table(path, keep).items():
            ticker = key or only or path.stem
            if ticker in found:
                raise DataError(f"{path}: {what} {ticker} is also in another {what} file")
            found[ticker] = (path, series)
    return found


def _prices(
    paths: Sequence[Path], tickers: Mapping[str, str], bar: str | None, stamp: str, notes: list[str]
) -> tuple[dict[str, PriceSeries], Bar]:
    # one file of one instrument and one ticker asked for: the file is that ticker's
    only = next(iter(tickers)) if len(tickers) == 1 and len(paths) == 1 else None
    found = _read_prices(paths, "ticker", only, set(tickers) or None)
    if tickers:
        absent = [t for t in tickers if t not in found]
        if absent:
            raise DataError(
                f"ticker(s) {', '.join(absent)} not in the price file(s) (they hold"
                f" {', '.join(found)})"
            )
        found = {t: found[t] for t in tickers}
    prepared: dict[str, PriceSeries] = {}
    bars: dict[str, Bar] = {}
    for ticker, (path, series) in found.items():
        where = f"{path} ({ticker})"
        prepared[ticker], bars[ticker], own = prepare_prices(series, where, bar=bar, stamp=stamp)
        notes.extend(own)
    if len(set(bars.values())) > 1:
        sizes = ", ".join(f"{t} {b}" for t, b in bars.items())
        raise DataError(f"the price series have different bar sizes ({sizes}): one at a time")
    return prepared, bars[next(iter(prepared))]


def _module_prices(
    paths: Sequence[Path],
    what: str,
    names: Mapping[str, str],
    bar: Bar,
    stamp: str,
    notes: list[str],
) -> dict[str, Named]:
    """Sector or global market series (``what``) from their price files, prepared with
    the targets' bar size ``bar`` (a series of another frequency is refused, naming
    its file and dates), each named by ``names`` or its ticker."""
    out: dict[str, Named] = {}
    for ticker, (path, series) in _read_prices(paths, what).items():
        prepared, _, own = prepare_prices(series, f"{path} ({what} {ticker})", bar=bar, stamp=stamp)
        notes.extend(own)
        out[ticker] = Named(names.get(ticker) or ticker, prepared)
    return out


def _coverage(
    named: Mapping[str, Named], what: str, dates: Sequence[dt.date], bar: Bar
) -> list[str]:
    """Notes on the series that miss some snapshot dates (``build.stale``: no bar by
    then, or the last one too old)."""
    notes = []
    for ticker, n in named.items():
        own = n.series.dates
        missing = [d for d in dates if stale(own, d, bar)]
        if missing:
            notes.append(
                f"{what} {ticker} ({n.series.dates[0]} .. {n.series.last_date}) has no"
                f" recent bar on {len(missing)} of {len(dates)} snapshot dates (first"
                f" {missing[0]}, last {missing[-1]}): left out of those snapshots"
            )
    return notes


def _macro(
    paths: Sequence[Path],
    spec: Mapping[str, SeriesSpec],
    default_lag: int,
    notes: list[str],
    lags: dict[str, int],
) -> dict[str, MacroSeries]:
    units = {name: s.unit for name, s in spec.items() if s.unit is not None}
    macro: dict[str, MacroSeries] = {}
    for path in paths:
        for series in load_macro(path, units):
            if series.name in lags:
                raise DataError(f"{path}: series {series.name} is also in another series file")
            own = spec.get(series.name, SeriesSpec())
            lag = default_lag if own.lag_days is None else own.lag_days
            prepared, _, said = prepare_macro(
                series, f"{path} ({series.name})", bar=own.bar, stamp=own.stamp, lag=lag
            )
            macro[series.name], lags[series.name] = prepared, lag
            notes.extend(said)
    return macro


def _fundamentals(paths: Sequence[Path], tickers: Sequence[str]) -> dict[str, list[Fundamentals]]:
    out: dict[str, list[Fundamentals]] = {}
    for path in paths:
        for key, records in load_fundamentals(path).items():
            if not key and len(tickers) != 1:
                raise DataError(
                    f"{path}: no symbol column, and there are {len(tickers)} tickers: say"
                    " whose figures these are (a symbol or ticker column)"
                )
            ticker = key or tickers[0]
            if ticker not in tickers:
                raise DataError(
                    f"{path}: ticker {ticker} has fundamentals but no prices (the prices"
                    f" hold {', '.join(tickers)})"
                )
            if ticker in out:
                raise DataError(f"{path}: {ticker}'s fundamentals are also in another file")
            out[ticker] = records
    return out


def build_snapshot_set(
    prices: Sequence[Path],
    out: Path,
    *,
    tickers: Mapping[str, str] | None = None,
    macro: Sequence[Path] = (),
    sentiment: Sequence[Path] = (),
    fundamentals: Sequence[Path] = (),
    sectors: Sequence[Path] = (),
    global_markets: Sequence[Path] = (),
    names: Mapping[str, str] | None = None,
    volatility: Path | None = None,
    spec: Mapping[str, SeriesSpec] | None = None,
    macro_lag: int = 0,
    bar: str | None = None,
    stamp: str = "auto",
    every: int = 1,
    horizon: int = 1,
    warmup: int | None = None,
    source: str,
    warnings: Sequence[str] = (),
    synthetic: bool = False,
) -> SetReport:
    """Read, check and write a snapshot set (see the module docstring). ``tickers``
    maps the tickers to keep to their display names (all of them, named by their
    ticker, when empty); ``names`` gives sector and global market tickers their
    display names."""
    for name, value in (("every", every), ("horizon", horizon), ("warmup", warmup or 1)):
        if value < 1:
            raise ConfigError(f"--{name} must be at least 1 bar, got {value}")
    notes: list[str] = []
    series, found_bar = _prices(prices, tickers or {}, bar, stamp, notes)
    lags: dict[str, int] = {}
    macro_series = _macro(macro, spec or {}, macro_lag, notes, lags)
    sentiment_series = _macro(sentiment, spec or {}, macro_lag, notes, lags)
    unused = sorted(set(spec or {}) - set(lags))
    if unused:
        raise DataError(f"series file: {', '.join(unused)} is in no macro or sentiment file")
    records = _fundamentals(fundamentals, list(series))
    sector_series = _module_prices(sectors, "sector", names or {}, found_bar, stamp, notes)
    global_series = _module_prices(
        global_markets, "global market", names or {}, found_bar, stamp, notes
    )
    vix = _module_prices(
        [volatility] if volatility else [], "volatility index", names or {}, found_bar, stamp, notes
    )
    if len(vix) > 1:
        raise DataError(f"{volatility}: a volatility index file holds one series, not {len(vix)}")
    unknown = sorted(
        set(names or {}) - set(sector_series) - set(global_series) - set(series) - set(vix)
    )
    if unknown:
        raise DataError(
            f"--name {', '.join(unknown)}: no such ticker in the price, sector or global files"
        )
    report = SetReport(found_bar, notes=notes)
    every_set: list[Snapshot] = []
    dates: set[dt.date] = set()
    for ticker, own in series.items():
        data = MarketData(
            indices={
                ticker: Named(
                    (tickers or {}).get(ticker) or (names or {}).get(ticker) or ticker, own
                )
            },
            sectors=sector_series,
            global_markets=global_series,
            volatility=next(iter(vix.values()), None),
            benchmark=ticker,
            macro=macro_series,
            sentiment_series=sentiment_series,
            fundamentals={ticker: records[ticker]} if ticker in records else {},
            bar=found_bar,
            publication_lag=lags,
        )
        try:
            made = snapshots_from_market(
                data,
                ticker,
                every=every,
                horizon=horizon,
                warmup=warmup,
                source=source,
                warnings=warnings,
                synthetic=synthetic,
            )
        except ValueError as exc:
            raise DataError(f"{ticker}: {exc}") from None
        if not made:
            raise DataError(
                f"{ticker}: {len(own)} {found_bar} bars are too few for a warmup of"
                f" {warmup or 'a year of bars'} and a horizon of {horizon}"
            )
        report.written[ticker] = len(made)
        report.first_last[ticker] = (made[0].as_of.isoformat(), made[-1].as_of.isoformat())
        report.ups[ticker] = sum(s.outcome.direction == "up" for s in made)
        every_set.extend(made)
        dates.update(s.as_of for s in made)
    for what, named in (
        ("sector", sector_series),
        ("global market", global_series),
        ("volatility index", vix),
    ):
        report.notes.extend(_coverage(named, what, sorted(dates), found_bar))
    write_snapshots(every_set, out)
    return report
