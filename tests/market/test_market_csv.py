"""CSV loaders: good files load, and every kind of bad file gets an error naming the
file, the line and the problem."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import pytest

from moot.errors import ConfigError, DataError
from moot.formats.market.data.csvload import (
    load_macro,
    load_prices,
    parse_fundamentals,
    parse_macro,
    parse_price_table,
    parse_prices,
)

PRICES = """Date,Open,High,Low,Close,Volume,Adj Close
2024-01-02,100,102,99,101,1000,101
2024-01-03,101,103,100.5,102.5,1200,102.5
2024-01-04,102.5,"1,104.0",102,103,,103
"""


def test_prices_load_with_any_column_order_and_case(tmp_path: Path) -> None:
    path = tmp_path / "p.csv"
    path.write_text(
        "close,DATE,low,high,open\n10,2024-01-02,9,11,10\n10.5,2024-01-03,10,11,10.2\n",
        encoding="utf-8",
    )
    series = load_prices(path)
    assert [b.date for b in series.bars] == [dt.date(2024, 1, 2), dt.date(2024, 1, 3)]
    assert series.closes == [10.0, 10.5]
    assert series.volumes is None  # no volume column


def test_prices_utf8_bom_and_thousands_separators_are_read(tmp_path: Path) -> None:
    path = tmp_path / "p.csv"
    path.write_bytes(
        '\ufeffdate,open,high,low,close,volume\n2024-01-02,"4,850.5","4,900",4800,4850,1\n'.encode()
    )
    series = load_prices(path)
    assert series.bars[0].open == 4850.5
    assert series.bars[0].high == 4900.0


def test_timestamps_as_pandas_writes_them_give_the_session_date() -> None:
    """A price CSV saved from a pandas frame (yfinance's, say) dates its rows with
    timestamps; the session is the date written."""
    text = (
        "Date,Open,High,Low,Close,Adj Close,Volume\n"
        "2024-01-02 00:00:00-05:00,100,102,99,101,101,1000\n"
        "2024-01-03T16:00:00,101,103,100.5,102.5,102.5,1200\n"
    )
    series = parse_prices(text)
    assert [b.date for b in series.bars] == [dt.date(2024, 1, 2), dt.date(2024, 1, 3)]
    for bad in ("2024-01-02 25:00:00", "2024-01-02 noon", "2024-01-02x"):
        with pytest.raises(DataError, match=r"line 2: date .* is not a date"):
            parse_prices(f"date,open,high,low,close\n{bad},1,2,1,1\n")


def test_fred_downloads_load_as_they_are(tmp_path: Path) -> None:
    """FRED names the date column observation_date (DATE in older files) and marks a
    missing value with '.'."""
    path = tmp_path / "CPIAUCSL.csv"
    path.write_text(
        "observation_date,CPIAUCSL\n2024-01-01,308.4\n2024-02-01,.\n2024-03-01,312.2\n",
        encoding="utf-8",
    )
    (cpi,) = load_macro(path)
    assert cpi.name == "CPIAUCSL"
    assert cpi.points == ((dt.date(2024, 1, 1), 308.4), (dt.date(2024, 3, 1), 312.2))
    (rate,) = parse_macro("DATE,UNRATE\n2024-01-01,3.7\n2024-02-01,3.9\n")
    assert rate.points[-1] == (dt.date(2024, 2, 1), 3.9)
    with pytest.raises(DataError, match=r"line 2: value '\.' is not a number"):
        parse_macro("observation_date,name,value\n2024-01-01,CPI,.\n")  # long: no gaps


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is empty"),
        ("date,open,high,low,close\n", "no data rows"),
        ("date,open,high,close\n2024-01-02,1,2,1\n", "missing column.*low"),
        ("date,open,high,low,close\n2024-13-02,1,2,1,1\n", "line 2: date '2024-13-02' is not"),
        ("date,open,high,low,close\n02/01/2024,1,2,1,1\n", "YYYY-MM-DD"),
        (
            "date,open,high,low,close\n2024-01-03,1,2,1,1\n2024-01-02,1,2,1,1\n",
            "line 3: dates must increase: 2024-01-02 comes after 2024-01-03",
        ),
        (
            "date,open,high,low,close\n2024-01-02,1,2,1,1\n2024-01-02,1,2,1,1\n",
            "line 3: duplicate date 2024-01-02",
        ),
        ("date,open,high,low,close\n2024-01-02,1,2,1,nan\n", "close 'nan' is not a finite"),
        ("date,open,high,low,close\n2024-01-02,1,inf,1,1\n", "high 'inf' is not a finite"),
        ("date,open,high,low,close\n2024-01-02,1,2,1,\n", "close is empty"),
        ("date,open,high,low,close\n2024-01-02,1,2,1,abc\n", "close 'abc' is not a number"),
        ("date,open,high,low,close\n2024-01-02,1,2,1\n", "4 cells, the header has 5"),
        ("date,open,high,low,close\n2024-01-02,1,2,1.5,1.2\n", "must lie within low 1.5"),
        ("date,open,high,low,close\n2024-01-02,0,2,0,1\n", "open 0 is not a positive price"),
        ("date,open,high,low,close,volume\n2024-01-02,1,2,1,1,-5\n", "volume -5.0 is negative"),
    ],
)
def test_bad_price_csv_is_refused_clearly(text: str, message: str) -> None:
    with pytest.raises(DataError, match=message) as info:
        parse_prices(text, "prices.csv")
    assert str(info.value).startswith("prices.csv")


def test_price_csv_that_is_not_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "gbk.csv"
    path.write_bytes("date,open,high,low,close\n2024-01-02,1,2,1,1\n# 收盘\n".encode("gbk"))
    with pytest.raises(DataError, match=r"gbk.csv is not UTF-8: byte .* on line 3"):
        load_prices(path)


def test_missing_file_is_a_data_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="cannot read price history"):
        load_prices(tmp_path / "absent.csv")
    assert issubclass(DataError, ConfigError)


def test_prices_from_the_docstring_example() -> None:
    series = parse_prices(PRICES)
    assert len(series) == 3
    assert series.bars[2].high == 1104.0
    assert series.volumes is None  # one bar without volume: no volume ratio


def test_macro_long_format() -> None:
    text = (
        "date,name,value,unit\n"
        "2024-01-01,CPI,3.4,percent\n"
        "2024-01-01,M2,2.9e13,\n"
        "2024-02-01,CPI,3.2,percent\n"
        "2024-02-01,M2,2.91e13,\n"
    )
    series = {s.name: s for s in parse_macro(text, units={"M2": "level"})}
    assert series["CPI"].unit == "percent"
    assert series["CPI"].points == ((dt.date(2024, 1, 1), 3.4), (dt.date(2024, 2, 1), 3.2))
    assert series["M2"].unit == "level"


def test_macro_wide_format_with_units_in_headers_and_gaps(tmp_path: Path) -> None:
    path = tmp_path / "macro.csv"
    path.write_text(
        "date,CPI_YOY [percent],GDP [percent],PMI\n"
        "2024-01-01,3.4,,50.1\n"
        "2024-02-01,3.2,,49.8\n"
        "2024-03-01,3.1,2.5,50.3\n",
        encoding="utf-8",
    )
    series = {s.name: s for s in load_macro(path)}
    assert series["CPI_YOY"].unit == "percent"
    assert series["GDP"].points == ((dt.date(2024, 3, 1), 2.5),)  # the empty cells are gaps
    assert series["PMI"].unit == "level"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name,value\nCPI,3\n", "missing column date"),
        ("date\n2024-01-01\n", "no series columns"),
        ("date,name,value\n2024-01-01,CPI,x\n", "line 2: value 'x' is not a number"),
        ("date,name,value\n2024-01-01,CPI,inf\n", "not a finite number"),
        ("date,name,value\n2024-01-01,,3\n", "line 2: empty series name"),
        (
            "date,name,value\n2024-02-01,CPI,3\n2024-01-01,CPI,3\n",
            "dates must increase in series CPI",
        ),
        ("date,name,value\n2024-01-01,CPI,3\n2024-01-01,CPI,3\n", "duplicate date 2024-01-01 in"),
        ("date,name,value,unit\n2024-01-01,CPI,3,percentage\n", "unit 'percentage' is not one"),
        (
            "date,name,value,unit\n2024-01-01,CPI,3,percent\n2024-02-01,CPI,3,level\n",
            "changes unit from percent to level",
        ),
        ("date,A,B\n2024-01-02,1,2\n2024-01-01,1,2\n", "dates must increase"),
        ("date,A,A\n2024-01-02,1,2\n", "appears twice"),
        ("date,A,B\n2024-01-02,1,\n", "series B has no value"),
        ("date,A [pct]\n2024-01-02,1\n", "unit 'pct' is not one"),
    ],
)
def test_bad_macro_csv_is_refused_clearly(text: str, message: str) -> None:
    with pytest.raises(DataError, match=message):
        parse_macro(text, "macro.csv")


@pytest.mark.parametrize(
    ("parse", "text"),
    [
        (parse_price_table, "symbol,date,price\nAAA,2024-01-02,1\nAAA,2024-01-03\n"),
        (parse_price_table, "date,AAA,BBB\n2024-01-02,1,2\n2024-01-03,1\n"),
        (parse_macro, "date,name,value\n2024-01-31,cpi,1\n2024-02-29,cpi\n"),
        (parse_fundamentals, "date,ticker,eps\n2024-01-02,AAA,1,2\n"),
    ],
)
def test_every_loader_refuses_a_row_of_the_wrong_width(
    parse: Callable[[str, str], object], text: str
) -> None:
    with pytest.raises(DataError, match=r"data.csv line \d: \d cells, the header has \d"):
        parse(text, "data.csv")
