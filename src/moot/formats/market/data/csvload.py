"""CSV loaders for price history and macro series.

Price history: a header with ``date, open, high, low, close`` and optionally
``volume`` (any order, any case; other columns are ignored; yfinance's second header
row naming the ticker is read and names the series), one row per session,
dates ``YYYY-MM-DD`` strictly increasing. A date may carry a time after it, as
pandas writes a timestamp (``2024-01-02 00:00:00-05:00``): the session is the date
written. An empty volume cell means the volume is not known (then there is no volume
ratio); every other cell must be a finite number, with or without thousands
separators.

Macro series, in either shape:

- long: ``date, name, value`` and optionally ``unit`` (one row per observation);
- wide: ``date`` and one column per series; an empty cell, or ``.`` (how FRED marks a
  missing value), means no observation that day. A column header may give the
  series' unit in brackets: ``CPI_YOY [percent]``.

The date column may also be named ``observation_date``, as in FRED's downloads, so a
FRED CSV (``observation_date,CPIAUCSL``) loads as it is.

Units are those of the KB (``percent``, ``ratio``, ``level``, ``score``, ``count``);
a series without one is a ``level``. Every error is a ``DataError`` naming the file,
the line and the problem: missing columns, bad or unsorted or duplicate dates, values
that are not finite numbers, a file that is not UTF-8.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import itertools
import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import cast

from moot.errors import DataError
from moot.formats.market.data.bars import month_end, quarter_end
from moot.formats.market.data.files import read_utf8
from moot.formats.market.data.kb import UNITS, Fundamentals, Unit
from moot.formats.market.data.series import MacroSeries, PriceBar, PriceSeries

PRICE_COLUMNS = ("date", "open", "high", "low", "close")
RANGE_COLUMNS = ("open", "high", "low")
CLOSE_COLUMNS = ("close", "price", "adj close", "adj_close")
"""Names the close column may have, in order of preference: ``close`` (Yahoo,
Stooq), ``price`` (vega's ``stocks.csv``), then an adjusted close alone."""
SYMBOL_COLUMNS = ("symbol", "ticker")
_HEADER_UNIT = re.compile(r"(?P<name>.*?)\s*\[(?P<unit>[a-z]+)\]\s*")


def _rows(text: str, source: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """The header (lower-cased, stripped) and the data rows with their line numbers;
    a row with more or fewer cells than the header is refused, naming its line."""
    reader = csv.reader(io.StringIO(text))
    header: list[str] | None = None
    rows: list[tuple[int, list[str]]] = []
    try:
        for record in reader:
            if not any(cell.strip() for cell in record):
                continue
            if header is None:
                header = [cell.strip() for cell in record]
                continue
            if len(record) != len(header):
                raise DataError(
                    f"{source} line {reader.line_num}: {len(record)} cells,"
                    f" the header has {len(header)}"
                )
            rows.append((reader.line_num, [cell.strip() for cell in record]))
    except csv.Error as exc:
        raise DataError(f"{source} line {reader.line_num}: {exc}") from exc
    if header is None:
        raise DataError(f"{source} is empty: it needs a header row and data rows")
    if not rows:
        raise DataError(f"{source} has a header but no data rows")
    return header, rows


DATE_COLUMNS = ("date", "observation_date")
"""Names the date column may have (the second is FRED's)."""
MISSING_MACRO = ("", ".")
"""Macro cells that mean no observation (``.`` is FRED's mark)."""


_OTHER_DATES = ("%b %d %Y", "%Y%m%d")
"""Date forms read besides ISO: ``Jan 1 2000`` (vega's datasets) and ``20000103``
(Stooq's older exports)."""


def _date(cell: str, source: str, line: int) -> dt.date:
    """A ``YYYY-MM-DD`` date, or the date of a timestamp written after it
    (``2024-01-02 00:00:00-05:00``, ``2024-01-02T16:00:00``), or ``Jan 1 2000``, or
    ``20000103``."""
    try:
        if len(cell) > 10 and cell[10] in " T":
            dt.datetime.fromisoformat(cell)  # the rest must be a time
            return dt.date.fromisoformat(cell[:10])
        return dt.date.fromisoformat(cell)
    except ValueError:
        for form in _OTHER_DATES:
            try:
                return dt.datetime.strptime(cell, form).date()
            except ValueError:
                continue
        raise DataError(
            f"{source} line {line}: date {cell!r} is not a date (YYYY-MM-DD, Jan 1 2000"
            " or 20000103)"
        ) from None


def _date_column(header: list[str], source: str) -> int:
    """Where the date column is (``date`` or ``observation_date``, any case)."""
    lowered = [h.lower() for h in header]
    for name in DATE_COLUMNS:
        if name in lowered:
            return lowered.index(name)
    raise DataError(f"{source}: missing column date; the header has {', '.join(header)}")


def _number(cell: str, column: str, source: str, line: int) -> float:
    if not cell:
        raise DataError(f"{source} line {line}: {column} is empty")
    try:
        value = float(cell.replace(",", ""))
    except ValueError:
        raise DataError(f"{source} line {line}: {column} {cell!r} is not a number") from None
    if not math.isfinite(value):
        raise DataError(f"{source} line {line}: {column} {cell!r} is not a finite number")
    return value


def _check_dates(dates: list[tuple[int, dt.date]], source: str, what: str = "") -> None:
    for (_, earlier), (line, later) in itertools.pairwise(dates):
        if later == earlier:
            raise DataError(f"{source} line {line}: duplicate date {later}{what}")
        if later < earlier:
            raise DataError(
                f"{source} line {line}: dates must increase{what}: {later} comes after {earlier}"
            )


def _price_bar(
    row: list[str], index: dict[str, int], close: str, source: str, line: int
) -> PriceBar:
    """One bar from a row: open, high and low when the file has them, else the close
    alone; ``DataError`` naming the line and the column of a bad cell."""
    day = _date(row[index["date"]], source, line)
    c = _number(row[index[close]], close, source, line)
    ranged = all(k in index for k in RANGE_COLUMNS)
    o, h, lo = (
        (_number(row[index[k]], k, source, line) for k in RANGE_COLUMNS)
        if ranged
        else (None, None, None)
    )
    for name, value in (("open", o), ("high", h), ("low", lo), (close, c)):
        if value is not None and value <= 0:
            raise DataError(f"{source} line {line}: {name} {value:g} is not a positive price")
    if (o is not None and h is not None and lo is not None) and (
        not lo <= min(o, c) or not max(o, c) <= h
    ):
        raise DataError(
            f"{source} line {line}: open {o} and close {c} must lie within low {lo} and high {h}"
        )
    cell = row[index["volume"]] if "volume" in index else ""
    volume = _number(cell, "volume", source, line) if cell else None
    if volume is not None and volume < 0:
        raise DataError(f"{source} line {line}: volume {volume} is negative")
    return PriceBar(day, o, h, lo, c, volume)


def _close_column(index: dict[str, int], header: list[str], source: str) -> str:
    for name in CLOSE_COLUMNS:
        if name in index:
            return name
    raise DataError(
        f"{source}: missing column close (or price); the header has {', '.join(header)}"
        f" (needed: date and close or price; optional: open, high, low together, volume)"
    )


def _price_index(header: list[str], source: str) -> dict[str, int]:
    index = {name.lower(): i for i, name in enumerate(header)}
    if "date" not in index and DATE_COLUMNS[1] in index:
        index["date"] = index[DATE_COLUMNS[1]]
    if "date" not in index:
        raise DataError(f"{source}: missing column date; the header has {', '.join(header)}")
    partial = [c for c in RANGE_COLUMNS if c in index]
    if partial and len(partial) < len(RANGE_COLUMNS):
        missing = [c for c in RANGE_COLUMNS if c not in index]
        raise DataError(
            f"{source}: missing column(s) {', '.join(missing)}; open, high and low come"
            " together or not at all (a close-only file has date and close)"
        )
    return index


def _yfinance_rows(
    header: list[str], rows: list[tuple[int, list[str]]], source: str
) -> tuple[list[str], list[tuple[int, list[str]]], str]:
    """The header and rows of a price file with yfinance's ticker rows taken out, and
    the ticker they name (``""`` when there are none). yfinance writes one download
    of one ticker with a second header row naming it, either
    ``Date,Adj Close,Close,...`` then ``,^GSPC,^GSPC,...`` or
    ``Price,Close,High,...`` then ``Ticker,AAPL,AAPL,...`` and ``Date,,,...``."""
    if not rows:
        return header, rows, ""
    first = rows[0][1]
    label = first[0].lower()
    tickers = {cell for cell in first[1:]}
    if label not in ("", "ticker") or len(tickers) != 1 or not next(iter(tickers)):
        return header, rows, ""
    ticker = next(iter(tickers))
    rest = rows[1:]
    if header[0].lower() == "price":
        if not rest or rest[0][1][0].lower() != "date" or any(rest[0][1][1:]):
            raise DataError(
                f"{source} line {rows[0][0] + 1}: a yfinance file's third row should be"
                " Date followed by empty cells"
            )
        rest = rest[1:]
        header = ["date", *header[1:]]
    if not rest:
        raise DataError(f"{source} has a header but no data rows")
    return header, rest, ticker


def parse_prices(text: str, source: str = "prices") -> PriceSeries:
    """A price series of one instrument from CSV text (see the module docstring)."""
    header, rows = _rows(text, source)
    header, rows, _ = _yfinance_rows(header, rows, source)
    index = _price_index(header, source)
    if any(name in index for name in SYMBOL_COLUMNS):
        raise DataError(
            f"{source}: the file has a symbol column: read it with parse_price_table"
            " (several tickers in one file)"
        )
    close = _close_column(index, header, source)
    bars: list[PriceBar] = []
    dates: list[tuple[int, dt.date]] = []
    for line, row in rows:
        bar = _price_bar(row, index, close, source, line)
        dates.append((line, bar.date))
        bars.append(bar)
    _check_dates(dates, source)
    return PriceSeries(tuple(bars))


def parse_price_table(text: str, source: str = "prices") -> dict[str, PriceSeries]:
    """Price series by ticker from CSV text in any of three shapes:

    - long: a ``symbol`` (or ``ticker``) column, ``date`` and ``close`` or ``price``
      (optionally open, high, low, volume): one row per ticker and date, each
      ticker's dates increasing (vega's ``stocks.csv`` is ``symbol,date,price``);
    - wide: ``date`` and one column per ticker holding its closes (an empty cell or
      ``.``: no price that day);
    - one instrument (``date,open,high,low,close[,volume]`` or ``date,close``): keyed
      ``""``, the caller names it.
    """
    header, rows = _rows(text, source)
    header, rows, named = _yfinance_rows(header, rows, source)
    index = _price_index(header, source)
    symbol = next((index[n] for n in SYMBOL_COLUMNS if n in index), None)
    if symbol is None:
        if any(name in index for name in CLOSE_COLUMNS):
            return {named: parse_prices(text, source)}
        return _wide_prices(header, rows, index["date"], source)
    close = _close_column(index, header, source)
    bars: dict[str, list[tuple[int, PriceBar]]] = {}
    for line, row in rows:
        ticker = row[symbol]
        if not ticker:
            raise DataError(f"{source} line {line}: the symbol is empty")
        bars.setdefault(ticker, []).append((line, _price_bar(row, index, close, source, line)))
    out = {}
    for ticker, own in bars.items():
        _check_dates([(line, b.date) for line, b in own], source, f" of {ticker}")
        out[ticker] = PriceSeries(tuple(b for _, b in own))
    return out


def _wide_prices(
    header: list[str], rows: list[tuple[int, list[str]]], date_col: int, source: str
) -> dict[str, PriceSeries]:
    tickers = [(i, name) for i, name in enumerate(header) if i != date_col]
    if not tickers or any(not name for _, name in tickers):
        raise DataError(
            f"{source}: no ticker columns (or one without a name); give date and close"
            " (one instrument), symbol,date,price (long) or date,TICKER1,TICKER2 (wide)"
        )
    if len({name for _, name in tickers}) != len(tickers):
        raise DataError(f"{source}: a ticker column appears twice")
    dates: list[tuple[int, dt.date]] = []
    bars: dict[str, list[PriceBar]] = {name: [] for _, name in tickers}
    for line, row in rows:
        day = _date(row[date_col], source, line)
        dates.append((line, day))
        for i, name in tickers:
            if row[i] in MISSING_MACRO:
                continue
            price = _number(row[i], name, source, line)
            if price <= 0:
                raise DataError(f"{source} line {line}: {name} {price:g} is not a positive price")
            bars[name].append(PriceBar(day, None, None, None, price))
    _check_dates(dates, source)
    empty = [name for name, own in bars.items() if not own]
    if empty:
        raise DataError(f"{source}: ticker {', '.join(empty)} has no price")
    return {name: PriceSeries(tuple(own)) for name, own in bars.items()}


def load_prices(path: str | Path) -> PriceSeries:
    """A price series from a CSV file (see the module docstring)."""
    path = Path(path)
    return parse_prices(read_utf8(path, "price history"), str(path))


def load_price_table(path: str | Path) -> dict[str, PriceSeries]:
    """Price series by ticker from a CSV file (``parse_price_table``)."""
    path = Path(path)
    return parse_price_table(read_utf8(path, "price history"), str(path))


def _unit(text: str, source: str, where: str) -> Unit:
    if text in UNITS:
        return cast(Unit, text)
    raise DataError(f"{source} {where}: unit {text!r} is not one of {', '.join(UNITS)}")


def parse_macro(
    text: str, source: str = "macro series", units: Mapping[str, Unit] | None = None
) -> list[MacroSeries]:
    """Macro series from CSV text, long or wide (see the module docstring). ``units``
    gives a series' unit where the file does not; the file wins where both do."""
    units = dict(units or {})
    header, rows = _rows(text, source)
    header, rows = _period_columns(header, rows, source)
    lowered = [h.lower() for h in header]
    date_col = _date_column(header, source)
    if {"name", "value"} <= set(lowered):
        return _parse_long(header, lowered, rows, source, units, date_col)
    if len(header) < 2:
        raise DataError(
            f"{source}: no series columns; give date,name,value[,unit] (long) or"
            " date,SERIES1,SERIES2,... (wide)"
        )
    return _parse_wide(header, rows, source, units, date_col)


def _period_columns(
    header: list[str], rows: list[tuple[int, list[str]]], source: str
) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """A file dated by ``year`` and ``quarter`` (or ``month``) columns, as one dated by
    ``date``: each row is dated by the last day of its period (a quarter's figure is
    not known before the quarter ends; its release lag counts from there)."""
    lowered = [h.lower().strip('"') for h in header]
    if any(name in lowered for name in DATE_COLUMNS) or "year" not in lowered:
        return header, rows
    part = next((p for p in ("quarter", "month") if p in lowered), None)
    if part is None:
        return header, rows
    y, q = lowered.index("year"), lowered.index(part)
    keep = [i for i in range(len(header)) if i not in (y, q)]
    out = []
    for line, row in rows:
        try:
            year, n = int(float(row[y])), int(float(row[q]))
            day = quarter_end(year, n) if part == "quarter" else month_end(year, n)
        except ValueError as exc:
            raise DataError(
                f"{source} line {line}: year {row[y]!r} and {part} {row[q]!r}: {exc}"
            ) from None
        out.append((line, [day.isoformat(), *(row[i] for i in keep)]))
    return ["date", *(header[i] for i in keep)], out


def _parse_long(
    header: list[str],
    lowered: list[str],
    rows: list[tuple[int, list[str]]],
    source: str,
    units: dict[str, Unit],
    date_col: int,
) -> list[MacroSeries]:
    name_col, value_col = lowered.index("name"), lowered.index("value")
    unit_col = lowered.index("unit") if "unit" in lowered else None
    points: dict[str, list[tuple[int, dt.date, float]]] = {}
    file_units: dict[str, Unit] = {}
    for line, row in rows:
        name = row[name_col]
        if not name:
            raise DataError(f"{source} line {line}: empty series name")
        day = _date(row[date_col], source, line)
        value = _number(row[value_col], "value", source, line)
        if unit_col is not None and row[unit_col]:
            unit = _unit(row[unit_col], source, f"line {line}")
            if file_units.setdefault(name, unit) != unit:
                raise DataError(
                    f"{source} line {line}: series {name} changes unit"
                    f" from {file_units[name]} to {unit}"
                )
        points.setdefault(name, []).append((line, day, value))
    series = []
    for name, observed in points.items():
        _check_dates([(line, day) for line, day, _ in observed], source, f" in series {name}")
        unit = file_units.get(name) or units.get(name, "level")
        series.append(MacroSeries(name, unit, tuple((day, v) for _, day, v in observed)))
    return series


def _parse_wide(
    header: list[str],
    rows: list[tuple[int, list[str]]],
    source: str,
    units: dict[str, Unit],
    date_col: int,
) -> list[MacroSeries]:
    columns: list[tuple[int, str, Unit]] = []
    for i, cell in enumerate(header):
        if i == date_col:
            continue
        match = _HEADER_UNIT.fullmatch(cell)
        name = match.group("name") if match else cell
        if not name:
            raise DataError(f"{source}: column {i + 1} has no name")
        unit = (
            _unit(match.group("unit"), source, f"column {name}")
            if match
            else units.get(name, "level")
        )
        columns.append((i, name, unit))
    names = [name for _, name, _ in columns]
    if len(set(names)) != len(names):
        raise DataError(f"{source}: a series column appears twice ({', '.join(names)})")
    dates: list[tuple[int, dt.date]] = []
    points: dict[str, list[tuple[dt.date, float]]] = {name: [] for name in names}
    for line, row in rows:
        day = _date(row[date_col], source, line)
        dates.append((line, day))
        for i, name, _ in columns:
            if row[i] not in MISSING_MACRO:
                points[name].append((day, _number(row[i], name, source, line)))
    _check_dates(dates, source)
    empty = [name for name in names if not points[name]]
    if empty:
        raise DataError(f"{source}: series {', '.join(empty)} has no value")
    return [MacroSeries(name, unit, tuple(points[name])) for _, name, unit in columns]


FUNDAMENTAL_FIELDS: tuple[str, ...] = tuple(
    name for name in Fundamentals.model_fields if name not in ("name", "date")
)


def parse_fundamentals(text: str, source: str = "fundamentals") -> dict[str, list[Fundamentals]]:
    """Dated fundamentals from CSV text: ``date`` (when the figures were published), an
    optional ``symbol`` (or ``ticker``) column, and any of the ``Fundamentals`` fields
    (``pe_trailing``, ``pb``, ``dividend_yield_pct``...); an empty cell is a figure
    not given. Keyed by ticker (``""`` without a symbol column); each ticker's dates
    increasing. Another column is refused, naming it."""
    header, rows = _rows(text, source)
    lowered = [h.lower() for h in header]
    date_col = _date_column(header, source)
    symbol = next((lowered.index(n) for n in SYMBOL_COLUMNS if n in lowered), None)
    fields = [(i, name) for i, name in enumerate(lowered) if i not in (date_col, symbol)]
    unknown = [header[i] for i, name in fields if name not in FUNDAMENTAL_FIELDS]
    if unknown or not fields:
        raise DataError(
            f"{source}: column(s) {', '.join(unknown) or '(none)'} are not fundamentals; use"
            f" date, symbol and any of {', '.join(FUNDAMENTAL_FIELDS)}"
        )
    out: dict[str, list[tuple[int, dt.date, Fundamentals]]] = {}
    for line, row in rows:
        day = _date(row[date_col], source, line)
        values = {name: _number(row[i], name, source, line) for i, name in fields if row[i]}
        key = row[symbol] if symbol is not None else ""
        record = Fundamentals.model_validate({"date": day, **values})
        out.setdefault(key, []).append((line, day, record))
    for key, records in out.items():
        _check_dates([(line, day) for line, day, _ in records], source, f" of {key}")
    return {key: [r for _, _, r in records] for key, records in out.items()}


def load_fundamentals(path: str | Path) -> dict[str, list[Fundamentals]]:
    """Dated fundamentals from a CSV file (``parse_fundamentals``)."""
    path = Path(path)
    return parse_fundamentals(read_utf8(path, "fundamentals"), str(path))


def load_macro(path: str | Path, units: Mapping[str, Unit] | None = None) -> list[MacroSeries]:
    """Macro series from a CSV file, long or wide (see the module docstring)."""
    path = Path(path)
    return parse_macro(read_utf8(path, "macro series"), str(path), units)
