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

Price files are streamed (``load_price_table``, ``load_prices``): read and decoded
line by line whatever their size, only the tickers kept parsed, each one's dates
checked as they come, at most ``MAX_BARS`` bars held (the streaming limit). Macro and
fundamentals files are read whole, up to ``moot.safe_json.MAX_BYTES``.

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
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from pathlib import Path
from typing import cast

from pydantic import ValidationError

from moot.errors import DataError
from moot.formats.market.data.bars import month_end, quarter_end
from moot.formats.market.data.files import open_text, read_json, read_utf8
from moot.formats.market.data.kb import UNITS, Fundamentals, Unit
from moot.formats.market.data.series import MacroSeries, PriceBar, PriceSeries

PRICE_COLUMNS = ("date", "open", "high", "low", "close")
RANGE_COLUMNS = ("open", "high", "low")
CLOSE_COLUMNS = ("close", "price", "adj close", "adj_close")
"""Names the close column may have, in order of preference: ``close`` (Yahoo,
Stooq), ``price`` (vega's ``stocks.csv``), then an adjusted close alone."""
SYMBOL_COLUMNS = ("symbol", "ticker")
_HEADER_UNIT = re.compile(r"(?P<name>.*?)\s*\[(?P<unit>[a-z]+)\]\s*")


Row = tuple[int, list[str]]
"""A data row: its line number and its cells, stripped."""


def _stream(lines: Iterable[str], source: str) -> tuple[list[str], Iterator[Row]]:
    """The header (stripped) and the data rows with their line numbers, read as they
    are needed; a row with more or fewer cells than the header is refused, naming its
    line."""
    reader = csv.reader(lines)

    def records() -> Iterator[list[str]]:
        try:
            for record in reader:
                if any(cell.strip() for cell in record):
                    yield record
        except csv.Error as exc:
            raise DataError(f"{source} line {reader.line_num}: {exc}") from exc

    found = records()
    first = next(found, None)
    if first is None:
        raise DataError(f"{source} is empty: it needs a header row and data rows")
    header = [cell.strip() for cell in first]

    def rows() -> Iterator[Row]:
        any_row = False
        for record in found:
            if len(record) != len(header):
                raise DataError(
                    f"{source} line {reader.line_num}: {len(record)} cells,"
                    f" the header has {len(header)}"
                )
            any_row = True
            yield reader.line_num, [cell.strip() for cell in record]
        if not any_row:
            raise DataError(f"{source} has a header but no data rows")

    return header, rows()


def _rows(text: str, source: str) -> tuple[list[str], list[Row]]:
    """The header and every data row of CSV text (``_stream``)."""
    header, rows = _stream(io.StringIO(text), source)
    return header, list(rows)


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
    row: list[str],
    index: dict[str, int],
    close: str,
    source: str,
    line: int,
    dates: Callable[[str, int], dt.date] | None = None,
) -> PriceBar:
    """One bar from a row: open, high and low when the file has them, else the close
    alone; ``DataError`` naming the line and the column of a bad cell. ``dates``
    reads the date cell (``_dates``: cached) when given."""
    cell = row[index["date"]]
    day = dates(cell, line) if dates is not None else _date(cell, source, line)
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
    header: list[str], rows: Iterator[Row], source: str
) -> tuple[list[str], Iterator[Row], str]:
    """The header and rows of a price file with yfinance's ticker rows taken out, and
    the ticker they name (``""`` when there are none). yfinance writes one download
    of one ticker with a second header row naming it, either
    ``Date,Adj Close,Close,...`` then ``,^GSPC,^GSPC,...`` or
    ``Price,Close,High,...`` then ``Ticker,AAPL,AAPL,...`` and ``Date,,,...``."""
    first = next(rows, None)
    if first is None:
        raise DataError(f"{source} has a header but no data rows")
    line, cells = first
    tickers = set(cells[1:])
    if cells[0].lower() not in ("", "ticker") or len(tickers) != 1 or not next(iter(tickers)):
        return header, itertools.chain([first], rows), ""
    if header[0].lower() == "price":
        third = next(rows, None)
        if third is None or third[1][0].lower() != "date" or any(third[1][1:]):
            raise DataError(
                f"{source} line {line + 1}: a yfinance file's third row should be"
                " Date followed by empty cells"
            )
        header = ["date", *header[1:]]
    return header, rows, next(iter(tickers))


MAX_BARS = 5_000_000
"""The streaming limit: price bars a price file may leave in memory (some 200 bytes
each, 1 GB in all). A file is read row by row whatever its size; rows of the
tickers not kept (``keep``) are skipped, so a larger file loads when only some of
its tickers are kept."""


class _Bars:
    """Bars by ticker as rows stream in: each ticker's dates checked to increase as
    they come (naming the line), the total held to ``MAX_BARS``."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.bars: dict[str, list[PriceBar]] = {}
        self.total = 0

    def add(self, key: str, bar: PriceBar, line: int, what: str = "") -> None:
        own = self.bars.setdefault(key, [])
        if own:
            earlier = own[-1].date
            if bar.date == earlier:
                raise DataError(f"{self.source} line {line}: duplicate date {bar.date}{what}")
            if bar.date < earlier:
                raise DataError(
                    f"{self.source} line {line}: dates must increase{what}: {bar.date} comes"
                    f" after {earlier}"
                )
        own.append(bar)
        self.total += 1
        if self.total > MAX_BARS:
            raise DataError(
                f"{self.source} line {line}: over {MAX_BARS:,} price bars to hold in memory"
                " (the streaming limit): keep fewer tickers (--ticker) or split the file"
            )

    def series(self) -> dict[str, PriceSeries]:
        return {key: PriceSeries(tuple(own)) for key, own in self.bars.items()}


def _dates(source: str) -> Callable[[str, int], dt.date]:
    """``_date`` with a cache: the dates of a long file repeat once per ticker."""
    seen: dict[str, dt.date] = {}

    def day(cell: str, line: int) -> dt.date:
        found = seen.get(cell)
        if found is None:
            found = seen[cell] = _date(cell, source, line)
        return found

    return day


def _one_series(header: list[str], rows: Iterator[Row], source: str) -> PriceSeries:
    index = _price_index(header, source)
    if any(name in index for name in SYMBOL_COLUMNS):
        raise DataError(
            f"{source}: the file has a symbol column: read it with parse_price_table"
            " (several tickers in one file)"
        )
    close = _close_column(index, header, source)
    bars = _Bars(source)
    for line, row in rows:
        bars.add("", _price_bar(row, index, close, source, line), line)
    return bars.series()[""]


def parse_prices(text: str, source: str = "prices") -> PriceSeries:
    """A price series of one instrument from CSV text (see the module docstring)."""
    header, rows = _stream(io.StringIO(text), source)
    header, rows, _ = _yfinance_rows(header, rows, source)
    return _one_series(header, rows, source)


def parse_price_table(
    text: str, source: str = "prices", keep: Collection[str] | None = None
) -> dict[str, PriceSeries]:
    """Price series by ticker from CSV text in any of three shapes:

    - long: a ``symbol`` (or ``ticker``) column, ``date`` and ``close`` or ``price``
      (optionally open, high, low, volume): one row per ticker and date, each
      ticker's dates increasing (vega's ``stocks.csv`` is ``symbol,date,price``);
    - wide: ``date`` and one column per ticker holding its closes (an empty cell or
      ``.``: no price that day);
    - one instrument (``date,open,high,low,close[,volume]`` or ``date,close``): keyed
      ``""`` (or by the ticker yfinance's header row names), the caller names it.

    ``keep``: the tickers to read from a long or wide file (all when None); the rows
    and columns of the others are skipped unread beyond their cell count.
    """
    return _price_table(*_stream(io.StringIO(text), source), source, keep)


def _price_table(
    header: list[str], rows: Iterator[Row], source: str, keep: Collection[str] | None
) -> dict[str, PriceSeries]:
    header, rows, named = _yfinance_rows(header, rows, source)
    index = _price_index(header, source)
    symbol = next((index[n] for n in SYMBOL_COLUMNS if n in index), None)
    if symbol is None:
        if any(name in index for name in CLOSE_COLUMNS):
            return {named: _one_series(header, rows, source)}
        return _wide_prices(header, rows, index["date"], source, keep)
    close = _close_column(index, header, source)
    bars = _Bars(source)
    dates = _dates(source)
    for line, row in rows:
        ticker = row[symbol]
        if not ticker:
            raise DataError(f"{source} line {line}: the symbol is empty")
        if keep is not None and ticker not in keep:
            continue
        bar = _price_bar(row, index, close, source, line, dates)
        bars.add(ticker, bar, line, f" of {ticker}")
    return bars.series()


def _wide_prices(
    header: list[str],
    rows: Iterator[Row],
    date_col: int,
    source: str,
    keep: Collection[str] | None = None,
) -> dict[str, PriceSeries]:
    tickers = [(i, name) for i, name in enumerate(header) if i != date_col]
    if not tickers or any(not name for _, name in tickers):
        raise DataError(
            f"{source}: no ticker columns (or one without a name); give date and close"
            " (one instrument), symbol,date,price (long) or date,TICKER1,TICKER2 (wide)"
        )
    if len({name for _, name in tickers}) != len(tickers):
        raise DataError(f"{source}: a ticker column appears twice")
    if keep is not None:
        tickers = [(i, name) for i, name in tickers if name in keep]
    bars = _Bars(source)
    previous: dt.date | None = None
    for line, row in rows:
        day = _date(row[date_col], source, line)
        if previous is not None and day <= previous:
            what = "duplicate date" if day == previous else "dates must increase:"
            later = f" {day} comes after {previous}" if day < previous else f" {day}"
            raise DataError(f"{source} line {line}: {what}{later}")
        previous = day
        for i, name in tickers:
            if row[i] in MISSING_MACRO:
                continue
            price = _number(row[i], name, source, line)
            if price <= 0:
                raise DataError(f"{source} line {line}: {name} {price:g} is not a positive price")
            bars.add(name, PriceBar(day, None, None, None, price), line)
    empty = [name for _, name in tickers if name not in bars.bars]
    if empty:
        raise DataError(f"{source}: ticker {', '.join(empty)} has no price")
    return bars.series()


def load_prices(path: str | Path) -> PriceSeries:
    """A price series from a CSV file, read row by row (see the module docstring)."""
    path = Path(path)
    with open_text(path, "price history") as lines:
        header, rows = _stream(lines, str(path))
        header, rows, _ = _yfinance_rows(header, rows, str(path))
        return _one_series(header, rows, str(path))


def load_price_table(
    path: str | Path, keep: Collection[str] | None = None
) -> dict[str, PriceSeries]:
    """Price series by ticker from a CSV file (``parse_price_table``), read row by
    row: a file of any size loads while the bars kept stay within ``MAX_BARS``."""
    path = Path(path)
    with open_text(path, "price history") as lines:
        return _price_table(*_stream(lines, str(path)), str(path), keep)


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


def parse_fundamentals_json(
    data: object, source: str = "fundamentals"
) -> dict[str, list[Fundamentals]]:
    """Dated fundamentals from JSON: an object mapping each ticker to a list of
    records, or a list of records each naming its ``symbol`` (or ``ticker``; one
    ticker without it, keyed ``""``). A record is an object with ``date``
    (``YYYY-MM-DD``, when the figures were published) and any of the ``Fundamentals``
    fields, numbers or null; each ticker's dates increasing. Errors name the record
    (``IBM[2]``, ``[5]``) and the field."""
    records: list[tuple[str, str, object]] = []
    if isinstance(data, dict):
        for key, items in data.items():
            if not isinstance(items, list):
                raise DataError(f"{source}: {key} must be a list of dated records")
            records += [(key, f"{key}[{n}]", item) for n, item in enumerate(items)]
    elif isinstance(data, list):
        for n, item in enumerate(data):
            symbol = next(
                (item.get(k) for k in SYMBOL_COLUMNS if isinstance(item, dict) and k in item), ""
            )
            records.append((str(symbol or ""), f"[{n}]", item))
    else:
        raise DataError(f"{source}: expected an object of ticker -> records, or a list of records")
    out: dict[str, list[Fundamentals]] = {}
    for key, where, item in records:
        if not isinstance(item, dict):
            raise DataError(f"{source} {where}: a record must be an object")
        values = {k: v for k, v in item.items() if k not in SYMBOL_COLUMNS}
        unknown = sorted(set(values) - {"date", *FUNDAMENTAL_FIELDS})
        if unknown:
            raise DataError(
                f"{source} {where}: {', '.join(unknown)} are not fundamentals; use date and"
                f" any of {', '.join(FUNDAMENTAL_FIELDS)}"
            )
        if not isinstance(values.get("date"), str):
            raise DataError(f"{source} {where}: date is missing (YYYY-MM-DD)")
        try:
            record = Fundamentals.model_validate(values)
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"])
            raise DataError(f"{source} {where}.{field}: {first['msg']}") from None
        own = out.setdefault(key, [])
        before = own[-1].date if own else None
        if before is not None and record.date is not None and record.date <= before:
            raise DataError(
                f"{source} {where}: dates must increase: {record.date} comes after {before}"
            )
        own.append(record)
    if not out:
        raise DataError(f"{source}: no fundamentals records")
    return out


def load_fundamentals(path: str | Path) -> dict[str, list[Fundamentals]]:
    """Dated fundamentals from a CSV file (``parse_fundamentals``), or from a JSON
    file when its name ends in ``.json`` (``parse_fundamentals_json``)."""
    path = Path(path)
    if path.suffix.lower() == ".json":
        return parse_fundamentals_json(read_json(path, "fundamentals"), str(path))
    return parse_fundamentals(read_utf8(path, "fundamentals"), str(path))


def load_macro(path: str | Path, units: Mapping[str, Unit] | None = None) -> list[MacroSeries]:
    """Macro series from a CSV file, long or wide (see the module docstring)."""
    path = Path(path)
    return parse_macro(read_utf8(path, "macro series"), str(path), units)
