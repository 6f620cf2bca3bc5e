"""The market data path on real public data nobody here wrote (tests/data/market,
SOURCES.md): vega_datasets' monthly stock prices (``symbol,date,price``, five tickers,
dated on the first of each month) and statsmodels' US quarterly macro data
(``year,quarter`` columns). Every figure checked is recomputed from the raw files
with the csv module and plain loops."""

from __future__ import annotations

import calendar
import csv
import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from test_market_backtest_run import recompute
from typer.testing import CliRunner

from moot.cli import app
from moot.errors import DataError
from moot.formats.market.backtest import run_backtest, topic_of
from moot.formats.market.data.csvload import load_macro, load_price_table, parse_price_table
from moot.formats.market.data.kb import dump_kb
from moot.formats.market.data.snapshots import load_snapshots
from moot.formats.market.data.snapshotset import build_snapshot_set, parse_series_spec
from moot.options import RunOptions
from moot.store import Store

DATA = Path(__file__).parent.parent / "data" / "market"
STOCKS = DATA / "vega_stocks.csv"
MACRO = DATA / "statsmodels_macrodata.csv"


def raw_prices() -> dict[str, list[tuple[dt.date, float]]]:
    """The stock file read by hand: month-end date (the month the price is of), price."""
    out: dict[str, list[tuple[dt.date, float]]] = {}
    with STOCKS.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            day = dt.datetime.strptime(row["date"], "%b %d %Y").date()
            end = dt.date(day.year, day.month, calendar.monthrange(day.year, day.month)[1])
            out.setdefault(row["symbol"], []).append((end, float(row["price"])))
    return out


def raw_gdp() -> list[tuple[dt.date, float]]:
    """Real GDP by quarter-end date, read by hand."""
    out = []
    with MACRO.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            year, quarter = int(float(row["year"])), int(float(row["quarter"]))
            month = 3 * quarter
            end = dt.date(year, month, calendar.monthrange(year, month)[1])
            out.append((end, float(row["realgdp"])))
    return out


def build(out: Path, **kwargs: Any) -> Any:
    options: dict[str, Any] = {
        "macro": [MACRO],
        "spec": parse_series_spec(
            '[series.realgdp]\nlag_days = 30\nunit = "level"\n'
            '[series.unemp]\nlag_days = 7\nunit = "percent"\n',
            "spec.toml",
        ),
        "macro_lag": 45,
        "source": "vega_datasets stocks.csv; statsmodels macrodata.csv",
    }
    options.update(kwargs)
    return build_snapshot_set([STOCKS], out, **options)


@pytest.fixture(scope="module")
def real_set(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    out = tmp_path_factory.mktemp("real") / "snaps"
    return out, build(out)


def test_the_long_file_loads_per_ticker_and_its_month_start_stamps_are_moved() -> None:
    table = load_price_table(STOCKS)
    raw = raw_prices()
    assert sorted(table) == ["AAPL", "AMZN", "GOOG", "IBM", "MSFT"]
    assert {k: len(v) for k, v in table.items()} == {k: len(v) for k, v in raw.items()}
    assert all(v.close_only for v in table.values())
    assert table["IBM"].bars[0].date == dt.date(2000, 1, 1)  # as written
    macro = {s.name: s for s in load_macro(MACRO)}
    assert macro["realgdp"].points[0] == (dt.date(1959, 3, 31), 2710.349)


def test_the_set_holds_every_ticker_with_monthly_horizons(real_set: tuple[Path, Any]) -> None:
    out, report = real_set
    raw = raw_prices()
    assert report.bar == "monthly"
    # a year of bars of warmup (12), a 1-month horizon: n - 12 snapshots per ticker
    assert report.written == {k: len(v) - 12 for k, v in raw.items()}
    snapshots = load_snapshots(out)
    assert len(snapshots) == sum(report.written.values()) >= 100
    assert {s.target for s in snapshots} == set(raw)
    assert all(s.id == f"{s.target}_{s.as_of}" for s in snapshots)
    assert sum(
        "vega_stocks.csv (IBM): monthly values dated at their period's start" in n
        for n in report.notes
    )
    ibm = [s for s in snapshots if s.target == "IBM"]
    first = ibm[0]
    assert first.as_of == raw["IBM"][11][0] == dt.date(2000, 12, 31)
    assert first.kb.meta.bar == "monthly"
    quote = first.kb.indices["IBM"].model_dump(exclude_none=True)
    assert not any(k.endswith("d_pct") for k in quote)  # no "1-day" or "5-day" return
    assert {"return_1m_pct", "return_3m_pct", "return_6m_pct"} <= set(quote)
    assert first.kb.technicals["IBM"].atr_14 is None
    assert any("closes only" in w for w in first.kb.meta.warnings)
    assert "close higher 1 month after 2000-12-31" in topic_of(first, "en")
    assert "之后 1 个月的收盘价" in topic_of(first, "zh")


def test_every_return_and_outcome_recomputes_from_the_raw_file(
    real_set: tuple[Path, Any],
) -> None:
    out, _ = real_set
    raw = raw_prices()
    checked = 0
    for snap in load_snapshots(out):
        prices = raw[snap.target]
        i = next(n for n, (day, _) in enumerate(prices) if day == snap.as_of)
        close = prices[i][1]
        quote = snap.kb.indices[snap.target]
        for k, name in ((1, "return_1m_pct"), (3, "return_3m_pct"), (6, "return_6m_pct")):
            expected = (close / prices[i - k][1] - 1) * 100
            assert getattr(quote, name) == pytest.approx(expected, abs=0.006), (snap.id, name)
            checked += 1
        later = prices[i + 1]
        assert snap.outcome.end_date == later[0]
        assert snap.outcome.return_pct == pytest.approx((later[1] / close - 1) * 100, abs=1e-4)
        checked += 1
    assert checked > 1500


def test_quarterly_macro_enters_after_its_quarter_and_lag(real_set: tuple[Path, Any]) -> None:
    out, _ = real_set
    gdp = raw_gdp()
    for snap in load_snapshots(out):
        known = [(d, v) for d, v in gdp if d + dt.timedelta(days=30) <= snap.as_of]
        entry = snap.kb.macro.get("realgdp")
        if not known:
            assert entry is None
            continue
        assert entry is not None
        assert entry.date == known[-1][0]
        assert entry.value == pytest.approx(known[-1][1], abs=0.006)
    assert load_snapshots(out)[0].kb.macro["unemp"].unit == "percent"


def test_planted_future_rows_never_reach_an_earlier_kb(tmp_path: Path) -> None:
    """Rows after 2006 multiplied by 1000: every KB dated before them is unchanged."""
    lines = STOCKS.read_text(encoding="utf-8").splitlines()
    planted = [lines[0]]
    for line in lines[1:]:
        symbol, day, price = line.split(",")
        year = int(day.split()[-1])
        planted.append(f"{symbol},{day},{float(price) * 1000 if year >= 2006 else price}")
    path = tmp_path / "stocks.csv"
    path.write_text("\n".join(planted) + "\n", encoding="utf-8")
    a = build(tmp_path / "a", tickers={"IBM": "IBM"})
    b = build_snapshot_set(
        [path],
        tmp_path / "b",
        tickers={"IBM": "IBM"},
        macro=[MACRO],
        spec=parse_series_spec(
            '[series.realgdp]\nlag_days = 30\nunit = "level"\n'
            '[series.unemp]\nlag_days = 7\nunit = "percent"\n',
            "spec.toml",
        ),
        macro_lag=45,
        source="vega_datasets stocks.csv; statsmodels macrodata.csv",
    )
    assert a.written == b.written
    before = [s for s in load_snapshots(tmp_path / "a") if s.as_of < dt.date(2005, 12, 31)]
    after = {s.id: s for s in load_snapshots(tmp_path / "b")}
    assert len(before) > 50
    for snap in before:
        assert dump_kb(snap.kb) == dump_kb(after[snap.id].kb), snap.id
        assert snap.outcome == after[snap.id].outcome
    # the last one before: its outcome (Dec 2005 -> Jan 2006) does see the planted row
    assert after["IBM_2005-12-31"].outcome.return_pct > 1000


def test_a_second_ticker_never_overwrites_and_a_collision_writes_nothing(
    tmp_path: Path,
) -> None:
    out = tmp_path / "one"
    build(out, tickers={"IBM": "IBM"})
    build(out, tickers={"AAPL": "Apple"})
    names = sorted(p.name for p in out.iterdir())
    assert sum(n.startswith("IBM_") for n in names) == sum(n.startswith("AAPL_") for n in names)
    before = sorted(p.name for p in out.iterdir())
    with pytest.raises(DataError, match=r"snapshot\(s\) IBM_2000-12-31.* exist already"):
        build(out, tickers={"IBM": "IBM", "MSFT": "MSFT"})
    assert sorted(p.name for p in out.iterdir()) == before  # not even MSFT's were written
    assert not any(p.name.startswith(".") for p in out.iterdir())


def test_the_command_builds_the_set_and_exits_2_on_a_collision(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "cli"
    args = ["snapshots", str(STOCKS), "--out", str(out), "--macro", str(MACRO)]
    args += ["--macro-lag", "45", "--ticker", "IBM=International Business Machines"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "wrote 111 snapshots of IBM (2000-12-31 .. 2010-02-28)" in result.stdout
    assert "monthly bars" in result.stdout
    assert "dated at their period's start" in result.stderr
    snap = load_snapshots(out)[0]
    assert snap.kb.indices["IBM"].name == "International Business Machines"
    again = runner.invoke(app, [*args, "--lang", "zh"])
    assert again.exit_code == 2
    assert "exist already" in again.stderr
    zh = runner.invoke(app, [*args[:3], str(tmp_path / "zh"), *args[4:], "--lang", "zh"])
    assert "写入 IBM 的 111 个快照" in zh.stdout
    absent = runner.invoke(app, [*args[:3], str(tmp_path / "x"), "--ticker", "XYZ"])
    assert absent.exit_code == 2
    assert "XYZ not in the price file" in absent.stderr
    assert not (tmp_path / "x").exists()


def test_a_backtest_on_real_snapshots_recomputes(tmp_path: Path) -> None:
    """Eight yearly IBM snapshots (a 12-month horizon, no overlap), debated by the
    scripted model: every figure of the report recomputed from its rows."""
    out = tmp_path / "yearly"
    build(out, tickers={"IBM": "IBM"}, every=12, horizon=12)
    snapshots = load_snapshots(out)
    assert len(snapshots) == 9
    assert "close higher 12 months after" in topic_of(snapshots[0], "en")
    store = Store()
    report = run_backtest(
        out, RunOptions(model="scripted:demo", seed=3), store=store, backtest_id="ibm"
    )
    # the analysts are told what a monthly KB holds, never "returns over 1/5/20 sessions"
    system = [
        m["content"]
        for call in store.calls(report.debates[0].run_id)
        for m in call.messages
        if m["role"] == "system"
    ]
    described = [t for t in system if "- indices: " in t]
    assert len(described) == 8  # each analyst's opening describes its modules
    assert all("returns over 1/3/6/12 months" in text for text in described)
    assert not any("1/5/20/60/252 sessions" in text for text in system)
    doc = json.loads(json.dumps(report.to_json()))
    recompute(doc, horizon=12, bars_a_year=12)
    modules = doc["modules"]
    assert modules["filled"]["indices"] == modules["filled"]["macro"] == 9
    assert modules["filled"]["fundamentals"] == modules["filled"]["sentiment"] == 0
    assert "fundamentals" in modules["empty"]
    # the fundamentals and sentiment analysts had the index alone, on every snapshot
    assert modules["index_only"] == {
        "fund_bull": 9,
        "fund_bear": 9,
        "senti_bull": 9,
        "senti_bear": 9,
    }
    hold = doc["trader"]["strategies"]["IBM"]["buy_and_hold"]
    raw = dict(raw_prices()["IBM"])
    first, last = snapshots[0], snapshots[-1]
    assert hold["total_return_pct"] == pytest.approx(
        (raw[last.outcome.end_date] / raw[first.as_of] - 1) * 100, abs=0.01
    )  # the outcomes hold returns to 4 decimals


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("symbol,date,price\nA,2000-01-03,nan\n", "line 2: price 'nan' is not a finite number"),
        ("symbol,date,price\nA,2000-01-03,inf\n", "line 2: price 'inf' is not a finite number"),
        ("symbol,date,price\nA,2000-01-03,0\n", "line 2: price 0 is not a positive price"),
        ("symbol,date,price\nA,2000-01-03,-2\n", "line 2: price -2 is not a positive price"),
        (
            "symbol,date,price\nA,2000-01-04,1\nB,2000-01-03,1\nA,2000-01-03,1\n",
            "line 4: dates must increase of A",
        ),
        ("symbol,date,price\nA,2000-01-03,1\nA,2000-01-03,2\n", "line 3: duplicate date"),
        ("date,AAA,BBB\n2000-01-03,1,-1\n", "line 2: BBB -1 is not a positive price"),
        ("date,open,close\n2000-01-03,1,1\n", "missing column(s) high, low"),
    ],
)
def test_bad_price_files_name_the_line_and_column(text: str, message: str) -> None:
    with pytest.raises(DataError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_price_table(text, "p.csv")


def test_mixed_frequencies_are_refused_with_the_dates(tmp_path: Path) -> None:
    lines = STOCKS.read_text(encoding="utf-8").splitlines()
    mixed = [*lines[:40], "MSFT,Mar 15 2003,20.0", *lines[40:]]
    assert "Mar 1 2003" in lines[39]
    assert "Apr 1 2003" in lines[40]
    path = tmp_path / "mixed.csv"
    path.write_text("\n".join(mixed) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"mixed.csv \(MSFT\): 2003-03-15 is 14 days after"):
        build_snapshot_set([path], tmp_path / "out", source="x")
    assert not (tmp_path / "out").exists()


def test_a_price_file_streams_within_the_limit_of_bars_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A price file is read row by row: over ``MAX_BARS`` kept it is refused naming
    the line, and it loads when only some tickers are kept (``--ticker``)."""
    import moot.formats.market.data.csvload as csvload

    whole = load_price_table(STOCKS)
    monkeypatch.setattr(csvload, "MAX_BARS", 300)
    with pytest.raises(DataError, match=r"vega_stocks\.csv line 302: over 300 price bars"):
        load_price_table(STOCKS)
    kept = load_price_table(STOCKS, keep={"IBM", "MSFT"})
    assert kept == {"IBM": whole["IBM"], "MSFT": whole["MSFT"]}
    report = build(tmp_path / "kept", tickers={"IBM": "IBM"})
    assert report.written == {"IBM": 111}
    with pytest.raises(DataError, match="streaming limit"):
        build(tmp_path / "all")
    assert not (tmp_path / "all").exists()
    # a price file is not held to the size limit of a JSON file: it is never read whole
    import moot.formats.market.data.files as files

    monkeypatch.setattr(files, "MAX_BYTES", 1000)
    assert STOCKS.stat().st_size > 1000
    assert load_price_table(STOCKS, keep={"IBM"}) == {"IBM": whole["IBM"]}


def test_fundamentals_and_sentiment_come_from_files(tmp_path: Path) -> None:
    """Figures written here for the test (not real data): the loader's path, dates and
    refusals are what is checked."""
    funds = tmp_path / "funds.csv"
    funds.write_text(
        "symbol,date,pe_trailing,dividend_yield_pct\n"
        "IBM,2003-02-15,20.5,0.8\nIBM,2004-02-15,18.0,\nAAPL,2003-02-15,30.0,0\n",
        encoding="utf-8",
    )
    mood = tmp_path / "mood.csv"
    mood.write_text(
        "date,BULLS [percent]\n2003-01-31,40\n2003-02-28,45\n2003-03-31,50\n", encoding="utf-8"
    )
    out = tmp_path / "out"
    build(out, tickers={"IBM": "IBM", "AAPL": "Apple"}, fundamentals=[funds], sentiment=[mood])
    snaps = {s.id: s for s in load_snapshots(out)}
    early, mid, late = snaps["IBM_2003-01-31"], snaps["IBM_2003-03-31"], snaps["IBM_2004-03-31"]
    assert early.kb.fundamentals == {}
    assert mid.kb.fundamentals["IBM"].pe_trailing == 20.5
    assert late.kb.fundamentals["IBM"].pe_trailing == 18.0
    assert late.kb.fundamentals["IBM"].dividend_yield_pct is None
    assert snaps["AAPL_2003-03-31"].kb.fundamentals["AAPL"].pe_trailing == 30.0
    # lag 45 days (--macro-lag) from the month's end
    assert mid.kb.sentiment is not None
    assert mid.kb.sentiment.indicators["BULLS"].value == 40
    assert mid.kb.sentiment.indicators["BULLS"].unit == "percent"
    assert {"fundamentals", "sentiment"} <= set(mid.kb.present_modules())
    with pytest.raises(DataError, match="ticker AAPL has fundamentals but no prices"):
        build(tmp_path / "x", tickers={"IBM": "IBM"}, fundamentals=[funds])
    funds.write_text("date,pe,pb\n2003-01-01,1,2\n", encoding="utf-8")
    with pytest.raises(DataError, match="column\\(s\\) pe are not fundamentals"):
        build(tmp_path / "y", tickers={"IBM": "IBM"}, fundamentals=[funds])
    assert not (tmp_path / "x").exists()
    assert not (tmp_path / "y").exists()
