"""Bar sizes, period stamps and the price shapes of common exports."""

from __future__ import annotations

import datetime as dt

import pytest

from moot.errors import DataError
from moot.formats.market.data.bars import detect_bar, horizon_words, period_end
from moot.formats.market.data.build import MarketData, Named, build_kb
from moot.formats.market.data.csvload import parse_macro, parse_price_table
from moot.formats.market.data.prepare import prepare_macro, prepare_prices
from moot.formats.market.data.series import MacroSeries

YAHOO = (
    "Date,Open,High,Low,Close,Adj Close,Volume\n"
    "2024-01-02,10,11,9,10.5,10.4,1000\n"
    "2024-01-03,10.5,11.5,10,11,10.9,1200\n"
)
STOOQ = (
    "Date,Open,High,Low,Close,Volume\n20240102,10,11,9,10.5,1000\n20240103,10.5,11.5,10,11,1200\n"
)


def days(start: dt.date, step: int, n: int) -> list[dt.date]:
    return [start + dt.timedelta(days=step * i) for i in range(n)]


def test_yahoo_and_stooq_exports_load_as_they_are() -> None:
    for text in (YAHOO, STOOQ):
        (series,) = parse_price_table(text, "x.csv").values()
        assert series.dates == [dt.date(2024, 1, 2), dt.date(2024, 1, 3)]
        assert series.closes == [10.5, 11.0]  # the close, not the adjusted close
        assert not series.close_only


def test_a_wide_file_gives_one_close_only_series_per_ticker() -> None:
    table = parse_price_table("date,AAA,BBB\n2024-01-02,1,.\n2024-01-03,2,5\n", "w.csv")
    assert {k: v.closes for k, v in table.items()} == {"AAA": [1.0, 2.0], "BBB": [5.0]}
    assert all(v.close_only for v in table.values())


@pytest.mark.parametrize(
    ("step", "bar"), [(1, "daily"), (7, "weekly"), (30, "monthly"), (91, "quarterly")]
)
def test_the_bar_is_read_from_the_median_gap(step: int, bar: str) -> None:
    assert detect_bar(days(dt.date(2020, 1, 6), step, 30)) == bar


def test_weekly_bars_dated_on_monday_move_to_friday_and_name_their_returns() -> None:
    mondays = days(dt.date(2024, 1, 1), 7, 60)
    text = "date,close\n" + "".join(f"{d},{100 + i}\n" for i, d in enumerate(mondays))
    (series,) = parse_price_table(text, "w.csv").values()
    moved, bar, notes = prepare_prices(series, "w.csv (X)")
    assert bar == "weekly"
    assert moved.dates[0] == dt.date(2024, 1, 5)
    assert notes == [
        "w.csv (X): weekly values dated at their period's start, moved to its last day"
        " (2024-01-01 -> 2024-01-05): a period's value is not known before it ends"
    ]
    kept, _, none = prepare_prices(series, "w.csv (X)", stamp="end")
    assert kept.dates == mondays
    assert none == []
    kb = build_kb(
        MarketData(indices={"X": Named("X", moved)}, bar="weekly"),
        moved.dates[-1],
        source="test",
    )
    quote = kb.indices["X"]
    assert quote.return_4w_pct == pytest.approx((159 / 155 - 1) * 100, abs=0.006)
    assert quote.return_52w_pct == pytest.approx((159 / 107 - 1) * 100, abs=0.006)
    assert quote.return_5d_pct is None
    assert quote.high_52w == 159  # 52 weekly closes
    assert quote.low_52w == 108
    assert kb.meta.bar == "weekly"


def test_a_quarterly_macro_series_dated_at_its_start_is_moved_and_lag_is_asked() -> None:
    series = MacroSeries(
        "GDP",
        "level",
        ((dt.date(2023, 1, 1), 1.0), (dt.date(2023, 4, 1), 2.0), (dt.date(2023, 7, 1), 3.0)),
    )
    moved, bar, notes = prepare_macro(series, "gdp.csv (GDP)")
    assert bar == "quarterly"
    assert [d for d, _ in moved.points] == [
        dt.date(2023, 3, 31),
        dt.date(2023, 6, 30),
        dt.date(2023, 9, 30),
    ]
    assert "no publication lag" in notes[1]
    _, _, lagged = prepare_macro(series, "gdp.csv (GDP)", lag=30)
    assert len(lagged) == 1


def test_year_and_month_columns_date_by_the_months_end() -> None:
    (series,) = parse_macro("year,month,UNRATE\n2024,1,3.7\n2024,2,3.9\n", "u.csv")
    assert series.points == ((dt.date(2024, 1, 31), 3.7), (dt.date(2024, 2, 29), 3.9))
    with pytest.raises(DataError, match=r"u.csv line 2: year '2024' and quarter '5'"):
        parse_macro("year,quarter,X\n2024,5,1\n", "u.csv")


def test_mixed_frequencies_and_two_dates_in_one_period_are_refused() -> None:
    dates = sorted([*days(dt.date(2024, 1, 1), 31, 6), dt.date(2024, 3, 8)])
    text = "date,close\n" + "".join(f"{d},1\n" for d in dates)
    (series,) = parse_price_table(text, "m.csv").values()
    with pytest.raises(DataError, match=r"m.csv \(X\): 2024-03-08 is 5 days after 2024-03-03"):
        prepare_prices(series, "m.csv (X)")
    dates = [dt.date(2024, 1, 1), dt.date(2024, 2, 1), dt.date(2024, 2, 22), dt.date(2024, 3, 22)]
    text = "date,close\n" + "".join(f"{d},1\n" for d in dates)
    (series,) = parse_price_table(text, "m.csv").values()
    with pytest.raises(DataError, match="2024-02-01 and 2024-02-22 fall in one monthly period"):
        prepare_prices(series, "m.csv (X)", bar="monthly", stamp="start")


def test_period_ends_and_horizon_words() -> None:
    assert period_end(dt.date(2024, 2, 1), "monthly") == dt.date(2024, 2, 29)
    assert period_end(dt.date(2024, 4, 2), "quarterly") == dt.date(2024, 6, 30)
    assert period_end(dt.date(2024, 1, 3), "weekly") == dt.date(2024, 1, 5)
    assert horizon_words(1, "monthly", "en") == "1 month"
    assert horizon_words(3, "quarterly", "en") == "3 quarters"
    assert horizon_words(2, "weekly", "zh") == "2 周"


def test_every_new_word_exists_in_english_and_chinese() -> None:
    from moot.formats.market.command_words import WORDS
    from moot.formats.market.data.bars import HORIZON_WORDS
    from moot.formats.market.data.words import BAR_INDICES, module_descriptions

    for table in (WORDS, HORIZON_WORDS, BAR_INDICES):
        assert set(table["en"]) == set(table["zh"])
    monthly = module_descriptions("zh", "monthly")
    assert "1/3/6/12 个月" in monthly["indices"]
    assert module_descriptions("en", None)["indices"].startswith("index levels, returns over 1/5")
