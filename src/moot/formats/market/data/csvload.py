"""CSV loaders for price history and macro series.

Price history: a header with ``date, open, high, low, close`` and optionally
``volume`` (any order, any case; other columns are ignored), one row per session,
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
from moot.formats.market.data.files import read_utf8
from moot.formats.market.data.kb import UNITS, Unit
from moot.formats.market.data.series import MacroSeries, PriceBar, PriceSeries

PRICE_COLUMNS = ("date", "open", "high", "low", "close")
_HEADER_UNIT = re.compile(r"(?P<name>.*?)\s*\[(?P<unit>[a-z]+)\]\s*")


def _rows(text: str, source: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """The header (lower-cased, stripped) and the data rows with their line numbers."""
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


def _date(cell: str, source: str, line: int) -> dt.date:
    """A ``YYYY-MM-DD`` date, or the date of a timestamp written after it
    (``2024-01-02 00:00:00-05:00``, ``2024-01-02T16:00:00``)."""
    try:
        if len(cell) > 10 and cell[10] in " T":
            dt.datetime.fromisoformat(cell)  # the rest must be a time
            return dt.date.fromisoformat(cell[:10])
        return dt.date.fromisoformat(cell)
    except ValueError:
        raise DataError(
            f"{source} line {line}: date {cell!r} is not a date in YYYY-MM-DD form"
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


def parse_prices(text: str, source: str = "prices") -> PriceSeries:
    """A price series from CSV text (see the module docstring)."""
    header, rows = _rows(text, source)
    index = {name.lower(): i for i, name in enumerate(header)}
    if "date" not in index and DATE_COLUMNS[1] in index:
        index["date"] = index[DATE_COLUMNS[1]]
    missing = [c for c in PRICE_COLUMNS if c not in index]
    if missing:
        raise DataError(
            f"{source}: missing column(s) {', '.join(missing)}; the header has"
            f" {', '.join(header)} (needed: {', '.join(PRICE_COLUMNS)}, optional: volume)"
        )
    has_volume = "volume" in index
    bars: list[PriceBar] = []
    dates: list[tuple[int, dt.date]] = []
    for line, row in rows:
        if len(row) != len(header):
            raise DataError(f"{source} line {line}: {len(row)} cells, the header has {len(header)}")
        day = _date(row[index["date"]], source, line)
        o, h, lo, c = (_number(row[index[k]], k, source, line) for k in PRICE_COLUMNS[1:])
        cell = row[index["volume"]] if has_volume else ""
        volume = _number(cell, "volume", source, line) if cell else None
        if min(o, h, lo, c) <= 0:
            raise DataError(f"{source} line {line}: prices must be positive")
        if not lo <= min(o, c) or not max(o, c) <= h:
            raise DataError(
                f"{source} line {line}: open {o} and close {c} must lie within"
                f" low {lo} and high {h}"
            )
        if volume is not None and volume < 0:
            raise DataError(f"{source} line {line}: volume {volume} is negative")
        dates.append((line, day))
        bars.append(PriceBar(day, o, h, lo, c, volume))
    _check_dates(dates, source)
    return PriceSeries(tuple(bars))


def load_prices(path: str | Path) -> PriceSeries:
    """A price series from a CSV file (see the module docstring)."""
    path = Path(path)
    return parse_prices(read_utf8(path, "price history"), str(path))


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
        if len(row) != len(header):
            raise DataError(f"{source} line {line}: {len(row)} cells, the header has {len(header)}")
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
        if len(row) != len(header):
            raise DataError(f"{source} line {line}: {len(row)} cells, the header has {len(header)}")
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


def load_macro(path: str | Path, units: Mapping[str, Unit] | None = None) -> list[MacroSeries]:
    """Macro series from a CSV file, long or wide (see the module docstring)."""
    path = Path(path)
    return parse_macro(read_utf8(path, "macro series"), str(path), units)
