"""Market numbers of another index or another horizon, crafted through whole debates
(``moot run --format market --kb demo --sources``), written from issue 19 and
docs/market.md ("Evidence check", rule 7) alone.

The numbers are taken from the demo KB at test time: a real number of the KB said
of the wrong index or period must be ``wrong_entity`` / ``wrong_period`` and name
the field it belongs to; said of the right ones, ``matched``. A document that
repeats the wrong number, cited with a quote that checks out, changes nothing
("a number bound to another index or period stays wrong_entity / wrong_period
whatever the documents say").
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from crafted_backend import MarketCrafted, Plan, provider
from typer.testing import CliRunner

from moot.cli import app
from moot.formats.market.data import load_kb
from moot.llm.backend import ProviderFactory

UseProvider = Callable[[str, ProviderFactory], None]


def _pct(value: float) -> str:
    """A percentage as a writer would: two decimals, a true minus sign."""
    return f"{value:.2f}".replace("-", "\u2212")


def _name(entry: Any) -> str:
    return re.sub(r"\s*\(.*\)$", "", str(entry.name))


def _cases(lang: str) -> tuple[dict[str, list[MarketCrafted]], str]:
    kb = load_kb("demo")
    keys = sorted(kb.indices)
    main, other = ("EXI", next(k for k in keys if k != "EXI"))
    exi, oth = kb.indices[main], kb.indices[other]
    name = _name(exi)
    r5, r20, r60 = exi.return_5d_pct, exi.return_20d_pct, exi.return_60d_pct
    assert r5 is not None
    assert r20 is not None
    assert r60 is not None
    assert len({r5, r20, r60}) == 3
    f = f"indices.{main}."
    close_other = f"{oth.close:.2f}"
    if lang == "en":
        bull = [
            MarketCrafted(
                "another index's close",
                "Breadth is improving",
                f"{name} closed at {close_other} on the last session.",
                close_other,
                "wrong_entity",
                f"indices.{other}.close",
            ),
            MarketCrafted(
                "20-day return said of 5 days",
                "Momentum is fading now",
                f"{name} returned {_pct(r20)}% over the last 5 days.",
                _pct(r20),
                "wrong_period",
                f + "return_20d_pct",
            ),
            MarketCrafted(
                "20-day return said of the year to date",
                "The year so far is weak",
                f"{name} is {_pct(r20)}% year to date.",
                _pct(r20),
                "wrong_period",
                f + "return_20d_pct",
            ),
            MarketCrafted(
                "20-day return said of last quarter",
                "The quarter was weak",
                f"{name} returned {_pct(r20)}% last quarter.",
                _pct(r20),
                "wrong_period",
                f + "return_20d_pct",
            ),
        ]
        bear = [
            MarketCrafted(
                "own close",
                "The index holds its level",
                f"{name} closed at {exi.close:.2f} on the last session.",
                f"{exi.close:.2f}",
                "matched",
                f + "close",
            ),
            MarketCrafted(
                "5-day return said of 5 days",
                "The week was weak",
                f"{name} returned {_pct(r5)}% over the last 5 days.",
                _pct(r5),
                "matched",
                f + "return_5d_pct",
            ),
            MarketCrafted(
                "60-day return said of last quarter",
                "The quarter tells the story",
                f"{name} returned {_pct(r60)}% last quarter.",
                _pct(r60),
                "matched",
                f + "return_60d_pct",
            ),
            MarketCrafted(
                "a document repeats another index's close",
                "The call repeats a level",
                f"The chair said {name} closed at {close_other}.",
                close_other,
                "wrong_entity",
                f"indices.{other}.close",
                cite=f"{name} closed at {close_other}",
            ),
        ]
    else:
        bull = [
            MarketCrafted(
                "另一指数的收盘价",
                "市场广度正在持续改善",
                f"{name}最近一个交易日收于{close_other}点。",
                close_other,
                "wrong_entity",
                f"indices.{other}.close",
            ),
            MarketCrafted(
                "5日涨跌幅说成20日",
                "上涨动能正在明显减弱",
                f"{name}近20日涨跌幅为{_pct(r5)}%。",
                _pct(r5),
                "wrong_period",
                f + "return_5d_pct",
            ),
            MarketCrafted(
                "20日涨跌幅说成年初至今",
                "今年以来指数表现疲弱",
                f"{name}年初至今涨跌幅为{_pct(r20)}%。",
                _pct(r20),
                "wrong_period",
                f + "return_20d_pct",
            ),
            MarketCrafted(
                "20日涨跌幅说成上季度",
                "上季度指数表现疲弱",
                f"{name}上季度涨跌幅为{_pct(r20)}%。",
                _pct(r20),
                "wrong_period",
                f + "return_20d_pct",
            ),
        ]
        bear = [
            MarketCrafted(
                "本指数收盘价",
                "指数守住了关键点位",
                f"{name}最近一个交易日收于{exi.close:.2f}点。",
                f"{exi.close:.2f}",
                "matched",
                f + "close",
            ),
            MarketCrafted(
                "20日涨跌幅说成20日",
                "近一个月指数走势偏弱",
                f"{name}近20日涨跌幅为{_pct(r20)}%。",
                _pct(r20),
                "matched",
                f + "return_20d_pct",
            ),
            MarketCrafted(
                "5日涨跌幅说成过去5个交易日",
                "近一周指数走势偏弱",
                f"{name}过去5个交易日涨跌幅为{_pct(r5)}%。",
                _pct(r5),
                "matched",
                f + "return_5d_pct",
            ),
            MarketCrafted(
                "文件重复了另一指数的收盘价",
                "业绩会上重复了一个点位",
                f"董事长称{name}收于{close_other}点。",
                close_other,
                "wrong_entity",
                f"indices.{other}.close",
                cite=f"{name}收于{close_other}点",
            ),
        ]
    call = (
        f"Earnings call notes.\n\nThe chair said {name} closed at {close_other} this week.\n"
        if lang == "en"
        else f"业绩会纪要\n\n董事长称{name}收于{close_other}点。\n"
    )
    return {"tech_bull": bull, "tech_bear": bear}, call  # fmt: skip


def _record(result: dict[str, Any], agent: str, n: int, number: str) -> dict[str, Any]:
    arguments = [a for a in result["payload"]["market"]["arguments"] if a["agent"] == agent]
    records = arguments[n]["check"]["numbers"]
    plain = number.replace("\u2212", "-")
    found = [r for r in records if number in r["text"] or plain in r["text"].replace("\u2212", "-")]
    assert found, f"{agent} argument {n + 1}: no check of {number} in {records}"
    record: dict[str, Any] = found[0]
    return record


def _run_market(
    market: dict[str, list[MarketCrafted]],
    call: str,
    lang: str,
    tmp_path: Path,
    use_provider: UseProvider,
) -> dict[str, Any]:
    """Runs the crafted market debate; asserts every crafted number got its status and
    field, and returns the result JSON."""
    plan = Plan(market=market)
    use_provider("crafted", provider(plan))
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "call.md").write_text(call, encoding="utf-8")
    out = tmp_path / "r.json"
    topic = (
        "Will ExampleIndex close higher a month from now?"
        if lang == "en"
        else "ExampleIndex一个月后会收得更高吗？"
    )
    run = CliRunner().invoke(
        app,
        ["run", topic, "--format", "market", "--kb", "demo", "--model", "crafted:x",
         "--seed", "3", "--lang", lang, "--sources", str(folder), "--json", str(out)],
    )  # fmt: skip
    assert run.exit_code == 0, run.output
    assert not plan.unlocated, plan.unlocated
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    wrong = []
    for agent, cases in market.items():
        for n, case in enumerate(cases):
            record = _record(result, agent, n, case.number)
            if (record["status"], record["field"]) != (case.expected, case.field):
                wrong.append(
                    f"{agent}-{n + 1} ({case.kind}): expected {case.expected} {case.field},"
                    f" got {record['status']} {record['field']} ({record['note']})"
                )
    assert not wrong, "\n".join(wrong)
    return result


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_market_numbers_of_another_index_or_period_are_flagged(
    lang: str, tmp_path: Path, use_provider: UseProvider
) -> None:
    market, call = _cases(lang)
    result = _run_market(market, call, lang, tmp_path, use_provider)
    cited = [c for c in result["sources"]["citations"] if c["status"] != "no_source"]
    assert cited
    assert all(c["status"] == "verified" for c in cited), cited


def test_chinese_numeral_periods_right_after_a_latin_name(
    tmp_path: Path, use_provider: UseProvider
) -> None:
    kb = load_kb("demo")
    exi = kb.indices["EXI"]
    name, r5, r20 = _name(exi), exi.return_5d_pct, exi.return_20d_pct
    assert r5 is not None
    assert r20 is not None
    f = "indices.EXI."
    market = {
        "fund_bull": [
            MarketCrafted(
                "20日涨跌幅说成五日",
                "上涨动能正在明显减弱",
                f"{name}五日涨跌幅为{_pct(r20)}%。",
                _pct(r20),
                "wrong_period",
                f + "return_20d_pct",
            ),
            MarketCrafted(
                "5日涨跌幅说成一个月",
                "近一个月指数走势偏弱",
                f"{name}一个月涨跌幅为{_pct(r5)}%。",
                _pct(r5),
                "wrong_period",
                f + "return_5d_pct",
            ),
        ],
        "fund_bear": [
            MarketCrafted(
                "20日涨跌幅说成二十日",
                "近一个月指数走势偏弱",
                f"{name}二十日涨跌幅为{_pct(r20)}%。",
                _pct(r20),
                "matched",
                f + "return_20d_pct",
            ),
            MarketCrafted(
                "5日涨跌幅说成五个交易日",
                "近一周指数走势偏弱",
                f"{name}五个交易日涨跌幅为{_pct(r5)}%。",
                _pct(r5),
                "matched",
                f + "return_5d_pct",
            ),
        ],
    }
    _run_market(market, "业绩会纪要\n\n董事长称指数走势平稳。\n", "zh", tmp_path, use_provider)
