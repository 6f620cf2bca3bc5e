"""Sectors, global markets and a volatility index from the user's price files
(``moot snapshots --sectors/--global/--volatility``), and fundamentals from JSON.
The real-data checks use vega_datasets' monthly stock prices (tests/data/market,
SOURCES.md) as sector series of the IBM target, recomputed from the raw file with
plain loops; GOOG starts in August 2004, so it is absent from the earlier
snapshots."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from test_market_realdata import STOCKS, raw_prices
from typer.testing import CliRunner

from moot.cli import app
from moot.errors import DataError
from moot.formats.market.data.csvload import (
    parse_fundamentals_json,
    parse_price_table,
    parse_prices,
)
from moot.formats.market.data.snapshots import load_snapshots
from moot.formats.market.data.snapshotset import build_snapshot_set

YF_OLD = (
    "Date,Adj Close,Close,High,Low,Open,Volume\n"
    ",^VIX,^VIX,^VIX,^VIX,^VIX,^VIX\n"
    "2005-09-01,13.15,13.15,13.37,12.31,12.86,0\n"
    "2005-09-02,13.57,13.57,13.72,13.03,13.21,0\n"
)
YF_NEW = (
    "Price,Close,High,Low,Open,Volume\n"
    "Ticker,AAPL,AAPL,AAPL,AAPL,AAPL\n"
    "Date,,,,,\n"
    "2024-01-02,185.64,188.44,183.89,187.15,82488700\n"
    "2024-01-03,184.25,185.88,183.43,184.22,58414500\n"
)


def test_yfinance_files_load_with_their_ticker_rows() -> None:
    old = parse_price_table(YF_OLD, "vix.csv")
    assert list(old) == ["^VIX"]
    assert old["^VIX"].closes == [13.15, 13.57]
    new = parse_price_table(YF_NEW, "aapl.csv")
    assert list(new) == ["AAPL"]
    assert new["AAPL"].bars[1].date == dt.date(2024, 1, 3)
    assert new["AAPL"].bars[1].high == 185.88
    assert parse_prices(YF_NEW, "aapl.csv").closes == [185.64, 184.25]
    with pytest.raises(DataError, match=r"aapl.csv line 3: a yfinance file's third row"):
        parse_price_table(YF_NEW.replace("Date,,,,,", "2024-01-01,1,1,1,1,1"), "aapl.csv")


def test_sectors_from_a_real_file_recompute_and_an_absent_one_is_left_out(
    tmp_path: Path,
) -> None:
    out = tmp_path / "snaps"
    report = build_snapshot_set(
        [STOCKS],
        out,
        tickers={"IBM": "IBM"},
        sectors=[STOCKS],
        names={"MSFT": "Microsoft"},
        source="vega_datasets stocks.csv",
    )
    raw = raw_prices()
    snaps = load_snapshots(out)
    assert len(snaps) == 111
    checked = 0
    for snap in snaps:
        sectors = snap.kb.sectors
        for ticker, prices in raw.items():
            at = [i for i, (day, _) in enumerate(prices) if day == snap.as_of]
            if not at:
                assert ticker not in sectors, (snap.id, ticker)
                continue
            i = at[0]
            entry = sectors[ticker]
            assert entry.close == pytest.approx(prices[i][1], abs=0.006)
            assert entry.benchmark == "IBM"
            assert entry.relative_20d_pct is None  # named by sessions: daily bars only
            for k, name in ((1, "return_1m_pct"), (3, "return_3m_pct")):
                value = getattr(entry, name)
                if i >= k:
                    expected = (prices[i][1] / prices[i - k][1] - 1) * 100
                    assert value == pytest.approx(expected, abs=0.006), (snap.id, name)
                    checked += 1
                else:
                    assert value is None
        assert snap.kb.sentiment is not None
        assert snap.kb.sentiment.sectors_total == len(sectors)
        # breadth is counted over 5 and 20 sessions: not on monthly bars
        assert snap.kb.sentiment.sectors_positive_5d is None
    assert checked > 800
    assert snaps[0].kb.sectors["MSFT"].name == "Microsoft"
    assert "GOOG" not in snaps[0].kb.sectors
    assert "GOOG" in snaps[-1].kb.sectors
    goog = [n for n in report.notes if n.startswith("sector GOOG")]
    assert len(goog) == 1
    assert "left out of those snapshots" in goog[0]


def _monthly(path: Path, ticker: str, months: list[tuple[int, int]], price: float) -> None:
    lines = ["symbol,date,close"]
    for n, (year, month) in enumerate(months):
        day = (dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)).isoformat()
        lines.append(f"{ticker},{day},{price + n}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_series_that_ends_early_is_not_shown_at_a_stale_close(tmp_path: Path) -> None:
    """A global market whose file stops in mid-2003 leaves the later snapshots (its
    last close is not carried forward); the guard is ``build.fresh``."""
    early = tmp_path / "early.csv"
    _monthly(early, "EARLY", [(y, m) for y in (2001, 2002, 2003) for m in range(1, 13)][:30], 50)
    out = tmp_path / "snaps"
    report = build_snapshot_set(
        [STOCKS], out, tickers={"IBM": "IBM"}, global_markets=[early], source="test"
    )
    snaps = {s.id: s for s in load_snapshots(out)}
    assert "EARLY" in snaps["IBM_2003-06-30"].kb.global_markets
    # two months after its last bar (2003-06-30): within the 70 days a month allows
    assert "EARLY" in snaps["IBM_2003-08-31"].kb.global_markets
    assert "EARLY" not in snaps["IBM_2003-09-30"].kb.global_markets
    assert "EARLY" not in snaps["IBM_2010-02-28"].kb.global_markets
    assert any(n.startswith("global market EARLY") for n in report.notes)


def test_a_sector_of_another_frequency_is_refused_naming_its_file(tmp_path: Path) -> None:
    weekly = tmp_path / "weekly.csv"
    start = dt.date(2001, 1, 5)
    rows = [f"{(start + dt.timedelta(weeks=n)).isoformat()},{10 + n}" for n in range(60)]
    weekly.write_text("date,close\n" + "\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"weekly.csv \(sector weekly\)"):
        build_snapshot_set(
            [STOCKS], tmp_path / "x", tickers={"IBM": "IBM"}, sectors=[weekly], source="t"
        )
    assert not (tmp_path / "x").exists()


def test_the_command_fills_sectors_global_markets_and_volatility(tmp_path: Path) -> None:
    vix = tmp_path / "vix.csv"
    months = [(y, m) for y in range(2000, 2011) for m in range(1, 13)][:123]
    _monthly(vix, "VIX", months, 12)
    runner = CliRunner()
    out = tmp_path / "cli"
    args = ["snapshots", str(STOCKS), "--out", str(out), "--ticker", "IBM"]
    args += ["--sectors", str(STOCKS), "--global", str(STOCKS), "--volatility", str(vix)]
    args += ["--name", "AAPL=Apple"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    snap = load_snapshots(out)[-1]
    assert snap.kb.sectors["AAPL"].name == "Apple"
    assert snap.kb.global_markets["AAPL"].name == "Apple"
    assert snap.kb.sentiment is not None
    # the last snapshot is 2010-02-28, the 122nd month: 12 + 121
    assert snap.kb.sentiment.volatility_index == 133
    assert snap.kb.sentiment.volatility_regime == "high"
    assert {"sectors", "global_markets", "sentiment"} <= set(snap.kb.present_modules())
    bad = runner.invoke(app, [*args[:3], str(tmp_path / "y"), *args[4:], "--name", "XYZ=No"])
    assert bad.exit_code == 2
    assert "--name XYZ: no such ticker" in bad.stderr
    assert not (tmp_path / "y").exists()


def test_fundamentals_come_from_json_too(tmp_path: Path) -> None:
    """Figures written here for the test: the JSON path, its dates and refusals."""
    by_ticker = tmp_path / "funds.json"
    by_ticker.write_text(
        json.dumps(
            {
                "IBM": [
                    {"date": "2003-02-15", "pe_trailing": 20.5, "dividend_yield_pct": 0.8},
                    {"date": "2004-02-15", "pe_trailing": 18.0, "dividend_yield_pct": None},
                ],
                "AAPL": [{"date": "2003-02-15", "pe_trailing": 30.0}],
            }
        ),
        encoding="utf-8",
    )
    out = tmp_path / "out"
    build_snapshot_set(
        [STOCKS],
        out,
        tickers={"IBM": "IBM", "AAPL": "Apple"},
        fundamentals=[by_ticker],
        source="test",
    )
    snaps = {s.id: s for s in load_snapshots(out)}
    assert snaps["IBM_2003-01-31"].kb.fundamentals == {}
    assert snaps["IBM_2003-03-31"].kb.fundamentals["IBM"].pe_trailing == 20.5
    assert snaps["IBM_2004-03-31"].kb.fundamentals["IBM"].pe_trailing == 18.0
    assert snaps["IBM_2004-03-31"].kb.fundamentals["IBM"].dividend_yield_pct is None
    assert snaps["AAPL_2003-03-31"].kb.fundamentals["AAPL"].pe_trailing == 30.0
    rows = [{"symbol": "IBM", "date": "2003-02-15", "pb": 4.5}]
    assert parse_fundamentals_json(rows, "f.json")["IBM"][0].pb == 4.5
    bad = [
        ({"IBM": [{"date": "2003-02-15", "pe": 1}]}, r"f.json IBM\[0\]: pe are not fundamentals"),
        ({"IBM": [{"pb": 1}]}, r"f.json IBM\[0\]: date is missing"),
        ({"IBM": [{"date": "2003-02-30"}]}, r"f.json IBM\[0\]\.date: "),
        (
            {"IBM": [{"date": "2004-01-01"}, {"date": "2003-01-01"}]},
            r"f.json IBM\[1\]: dates must increase: 2003-01-01 comes after 2004-01-01",
        ),
        ([1], r"f.json \[0\]: a record must be an object"),
        ("x", "expected an object of ticker -> records"),
    ]
    for data, message in bad:
        with pytest.raises(DataError, match=message):
            parse_fundamentals_json(data, "f.json")
