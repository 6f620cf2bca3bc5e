"""Evidence verification by code: planted wrong numbers are all flagged, correct
numbers (also rounded ones) never are, in English and Chinese."""

from __future__ import annotations

from typing import Any

import pytest

from moot.formats.market.data.analysts import load_panel
from moot.formats.market.data.citations import extract_citations
from moot.formats.market.data.evidence import (
    EvidenceReport,
    NumberCheck,
    penalised_evidence,
    verify_numbers,
)
from moot.formats.market.data.kb import KnowledgeBase, parse_kb
from moot.formats.market.data.slices import agent_slice
from moot.numerals import agrees, cn_number

KB: dict[str, Any] = {
    "meta": {"as_of": "2026-05-15", "source": "test fixture", "warnings": []},
    "indices": {
        "EXI": {
            "name": "ExampleIndex", "date": "2026-05-15", "close": 4850.0,
            "return_1d_pct": 0.8, "return_5d_pct": 2.1, "return_20d_pct": 4.8,
            "return_252d_pct": 28.5, "high_52w": 5010.0, "low_52w": 3412.0,
            "vs_52w_high_pct": -3.2, "vs_52w_low_pct": 42.1,
        },
    },
    "technicals": {
        "EXI": {
            "sma_20": 4720.0, "sma_50": 4510.0, "sma_200": 4120.0, "rsi_14": 62.0,
            "macd": 58.3, "macd_signal": 42.1, "macd_histogram": 16.2, "atr_14": 45.2,
            "volume_ratio": 1.4,
        },
    },
    "sectors": {
        "XTECH": {"name": "Technology", "close": 520.0, "return_5d_pct": 3.2,
                  "return_20d_pct": 7.5, "relative_20d_pct": 2.7, "benchmark": "EXI"},
        "XFIN": {"name": "Financials", "close": 180.0, "return_5d_pct": -0.5,
                 "return_20d_pct": 1.2, "relative_20d_pct": -3.6, "benchmark": "EXI"},
    },
    "fundamentals": {
        "EXI": {"pe_trailing": 28.5, "pe_forward": 25.2, "pe_long_term_avg": 24.0,
                "earnings_yield_pct": 3.51, "dividend_yield_pct": 1.4},
    },
    "macro": {
        "CPI": {"name": "CPI y/y", "unit": "percent", "value": 3.1, "previous": 3.4,
                "change": -0.3, "date": "2026-05-01", "trend": "falling"},
        "T10Y2Y": {"name": "10y-2y spread", "unit": "percent", "value": -0.35,
                   "date": "2026-05-01"},
        "M2": {"name": "M2", "unit": "level", "value": 2.92e14, "date": "2026-04-30"},
    },
    "sentiment": {"volatility_index": 18.2, "volatility_regime": "normal",
                  "sectors_total": 10, "sectors_positive_5d": 7, "breadth_5d_pct": 70.0},
    "global_markets": {
        "N225": {"name": "Nikkei 225", "close": 39200.0, "return_5d_pct": 1.3},
    },
}  # fmt: skip


def kb() -> KnowledgeBase:
    return parse_kb(KB)


def slice_of(agent_id: str) -> KnowledgeBase:
    return agent_slice(kb(), load_panel().agent(agent_id))


def by_text(report: EvidenceReport) -> dict[str, NumberCheck]:
    return {c.text: c for c in report.checks}


def statuses(text: str, agent_id: str) -> dict[str, str]:
    return {c.text: c.status for c in verify_numbers(text, slice_of(agent_id)).checks}


CORRECT_EN = {
    "fund_bear": (
        "ExampleIndex trades at a P/E of 28.5x against a long-run average P/E of 24.0"
        " (+18.8%), about 28 times earnings; the forward P/E is 25.2 and the earnings"
        " yield 3.51% (roughly 3.5%). The index sits at 4,850, or 4.85k; Technology rose"
        " 7.5% over 20 days while Financials fell 0.5% in a week. Dividend yield: 1.4%.",
        {"28.5x", "24.0", "+18.8%", "28 times", "25.2", "3.51%", "3.5%", "4,850", "4.85k",
         "7.5%", "0.5%", "1.4%"},
    ),
    "tech_bull": (
        "Price 4,850 is above MA20 (4,720), MA50 (4,510) and MA200 (4,120); RSI(14) is 62"
        " and the MACD line 58.3 is above its signal 42.1. Volume is 1.4x the 20-day"
        " average. The index is -3.2% from its 52-week high of 5,010, i.e. 3.2% below it,"
        " and 17.7% above the 200-day average.",
        {"4,850", "4,720", "4,510", "4,120", "62", "58.3", "42.1", "1.4x", "-3.2%",
         "5,010", "3.2%", "17.7%"},
    ),
    "macro_bear": (
        "CPI is 3.1% (down 0.3 points from 3.4%), the 10y-2y spread is inverted by 35bp"
        " (-0.35%), M2 stands at 292 trillion, and the Nikkei 225 gained 1.3% in 5 days."
        " Data as of 2026-05-15; CPI dated May 2026.",
        {"3.1%", "0.3", "3.4%", "35bp", "-0.35%", "292 trillion", "1.3%", "2026-05-15",
         "May 2026"},
    ),
    "senti_bull": (
        "7/10 sectors rose over 5 days (70% breadth) and the VIX at 18.2 is calm.",
        {"7/10", "70%", "18.2"},
    ),
}  # fmt: skip

CORRECT_ZH = {
    "fund_bull": (
        "ExampleIndex 市盈率28.5倍，高于长期均值24.0（+18.8%），约28倍；盈利收益率3.51%，"
        "即百分之三点五；科技行业20日上涨7.5%，金融5日下跌0.5%。",
        {"28.5倍", "24.0", "+18.8%", "28倍", "3.51%", "百分之三点五", "7.5%", "0.5%"},
    ),
    "macro_bull": (
        "CPI 回落至3.1%，前值3.4%，下降0.3个百分点；M2 达292万亿，即2920000亿；"
        "截至2026年5月15日。",
        {"3.1%", "3.4%", "0.3个百分点", "292万亿", "2920000亿", "2026年5月15日"},
    ),
    "tech_bear": (
        "RSI 14 为 62，接近超买；价格4,850距52周高点5,010仅-3.2%；MACD线58.3，量比1.4倍。",
        {"62", "4,850", "5,010", "-3.2%", "58.3", "1.4倍"},
    ),
}  # fmt: skip


# ids by language and agent: the cases hold sets, whose printed order differs between
# processes (pytest-xdist's workers must collect the same ids)
@pytest.mark.parametrize(
    "case",
    [*CORRECT_EN.items(), *CORRECT_ZH.items()],
    ids=[*(f"en-{a}" for a in CORRECT_EN), *(f"zh-{a}" for a in CORRECT_ZH)],
)
def test_correct_numbers_are_never_flagged(case: tuple[str, tuple[str, set[str]]]) -> None:
    agent_id, (text, expected) = case
    found = statuses(text, agent_id)
    assert set(found) == expected, f"cited numbers found: {sorted(found)}"
    flagged = {t: s for t, s in found.items() if s == "unsupported"}
    assert not flagged, f"false flags: {flagged}"


WRONG_EN = {
    "fund_bear": (
        "The P/E is 15, PE 15x, a forward P/E of 19, a long-run average P/E of 16, an"
        " earnings yield of 5.2%, Technology rose 12% over 20 days, the index is at"
        " 5,400 and the dividend yield is 2.9%.",
        {"15": "fundamentals.EXI.pe_trailing", "15x": "fundamentals.EXI.pe_trailing",
         "19": "fundamentals.EXI.pe_forward", "16": "fundamentals.EXI.pe_long_term_avg",
         "5.2%": "fundamentals.EXI.earnings_yield_pct", "12%": None, "5,400": None,
         "2.9%": "fundamentals.EXI.dividend_yield_pct"},
    ),
    "tech_bull": (
        "Price 4,990 is above MA20 (4,620); RSI(14) is 71 and the MACD line 48.3 tops its"
        " signal; volume is 2.4x average; the index is +3.2% from its 52-week high and its"
        " P/E of 28.5 is fine.",
        {"4,990": None, "4,620": "technicals.EXI.sma_20", "71": "technicals.EXI.rsi_14",
         "48.3": "technicals.EXI.macd", "2.4x": None, "+3.2%": None, "28.5": None},
    ),
    "macro_bear": (
        "CPI is 4.1%, the spread is -0.55%, M2 is 350 trillion, and as of 2026-04-01"
        " the Nikkei 225 gained 2.3%.",
        {"4.1%": None, "-0.55%": None, "350 trillion": "macro.M2.value", "2026-04-01": None,
         "2.3%": None},
    ),
    "fund_bull": (
        "A price-to-earnings multiple of 15, a price/earnings of 16, an earnings multiple"
        " of 14, a P/E multiple of 13.5 and a price-to-book ratio of 2.1.",
        {"15": "fundamentals.EXI.pe_trailing", "16": "fundamentals.EXI.pe_trailing",
         "14": "fundamentals.EXI.pe_trailing", "13.5": "fundamentals.EXI.pe_trailing",
         "2.1": None},
    ),
    "senti_bear": (
        "9/10 sectors fell, breadth is only 40% and the VIX at 28.2 is elevated.",
        {"9/10": None, "40%": None, "28.2": "sentiment.volatility_index"},
    ),
}  # fmt: skip

WRONG_ZH = {
    "fund_bear": (
        "当前市盈率15倍，远期市盈率为19倍，盈利收益率百分之五点二，科技行业上涨百分之十二，"
        "股息率2.9%。",
        {"15倍": "fundamentals.EXI.pe_trailing", "19倍": "fundamentals.EXI.pe_forward",
         "百分之五点二": None, "百分之十二": None, "2.9%": "fundamentals.EXI.dividend_yield_pct"},
    ),
    "macro_bear": (
        "CPI 升至4.1%，M2 达350万亿，利差为-0.55%，截至2026年4月1日。",
        {"4.1%": None, "350万亿": "macro.M2.value", "-0.55%": None, "2026年4月1日": None},
    ),
    "tech_bear": (
        "RSI 为 71，MA20 为 4,620，量比2.4倍，市盈率28.5倍。",
        {"71": "technicals.EXI.rsi_14", "4,620": "technicals.EXI.sma_20", "2.4倍": None,
         "28.5倍": None},
    ),
}  # fmt: skip


@pytest.mark.parametrize(
    "case",
    [*WRONG_EN.items(), *WRONG_ZH.items()],
    ids=[*(f"en-{a}" for a in WRONG_EN), *(f"zh-{a}" for a in WRONG_ZH)],
)
def test_planted_wrong_numbers_are_all_flagged(
    case: tuple[str, tuple[str, dict[str, str | None]]],
) -> None:
    agent_id, (text, planted) = case
    report = by_text(verify_numbers(text, slice_of(agent_id)))
    assert set(report) == set(planted), f"cited numbers found: {sorted(report)}"
    for cited, closest in planted.items():
        check = report[cited]
        assert check.status == "unsupported", f"{cited!r} was not flagged: {check}"
        if closest is not None:
            assert check.field == closest, f"{cited!r}: closest {check.field}, not {closest}"


def test_wrong_and_correct_numbers_together() -> None:
    text = (
        "P/E of 28.5x vs a long-run 24.0, yet some claim PE 15; earnings yield 3.51%, not"
        " 5.2%. 市盈率28.5倍，而非市盈率15倍。"
    )
    report = verify_numbers(text, slice_of("fund_bear"))
    flagged = [c.text for c in report.unsupported]
    assert flagged == ["15", "5.2%", "15倍"]
    assert len(report.supported) == 4


def test_the_pe_15_check_names_the_kb_value() -> None:
    check = verify_numbers("PE 15", slice_of("fund_bear")).checks[0]
    assert (check.status, check.field, check.kb_value) == (
        "unsupported",
        "fundamentals.EXI.pe_trailing",
        28.5,
    )
    right = verify_numbers("PE 28.5", slice_of("fund_bear")).checks[0]
    assert (right.status, right.field, right.kb_value) == (
        "matched",
        "fundamentals.EXI.pe_trailing",
        28.5,
    )


def test_a_metric_outside_the_slice_is_unsupported_even_if_the_number_exists() -> None:
    # 28.5 is the index's 252-day return in the technical slice, but there is no P/E there
    check = verify_numbers("a P/E of 28.5", slice_of("tech_bull")).checks[0]
    assert check.status == "unsupported"
    assert check.note == "no P/E in the data"
    assert verify_numbers("a 252-day return of 28.5%", slice_of("tech_bull")).checks[0].status == (
        "matched"
    )


def test_derived_numbers_carry_their_formula() -> None:
    check = by_text(verify_numbers("P/E 28.5 vs long-run 24.0: +18.8%", slice_of("fund_bull")))
    derived = check["+18.8%"]
    assert derived.status == "derived"
    assert (
        derived.field
        == "(fundamentals.EXI.pe_trailing / fundamentals.EXI.pe_long_term_avg - 1) x 100"
    )
    # without the two cited fields the same number is not derivable
    alone = verify_numbers("the premium is +18.8%", slice_of("fund_bull")).checks[0]
    assert alone.status == "unsupported"


def test_parameters_periods_names_and_markers_are_not_citations() -> None:
    text = (
        "1. MA20, MA 50 and the 200-day line; RSI(14); MACD(12,26,9); ATR-14; the 52-week"
        " high; over the next 3 months or 1-2 weeks; the 10Y yield; tech_bull_arg_1 and"
        " argument 2; #3; the 2nd point; top 3 sectors; the S&P 500, Nikkei 225 and CSI 300;"
        " 5G. 第1条：20日均线、沪深300、未来3个月、5 年均值、近52周。"
    )
    assert extract_citations(text, ["Nikkei 225"]) == []
    assert verify_numbers(text, kb()).checks == ()


def test_extraction_reads_units_and_precision() -> None:
    text = "3.5%, 35bp, 15x, 1.4 times, 2.9 trillion, $4,850, 28.6万亿, 3000亿, 百分之3.5"
    text += ", 二十八点五倍"
    found = {c.text: c for c in extract_citations(text)}
    assert (found["3.5%"].kind, found["3.5%"].value, found["3.5%"].ulp) == ("percent", 3.5, 0.1)
    assert (found["35bp"].kind, found["35bp"].value) == ("percent", 0.35)
    assert (found["15x"].kind, found["1.4 times"].kind) == ("ratio", "ratio")
    assert found["2.9 trillion"].value == 2.9e12
    assert found["2.9 trillion"].ulp == 1e11
    assert (found["$4,850"].kind, found["$4,850"].value, found["$4,850"].ulp) == (
        "money",
        4850.0,
        10.0,
    )
    assert found["28.6万亿"].value == 2.86e13
    assert found["3000亿"].value == 3e11
    assert (found["百分之3.5"].kind, found["百分之3.5"].value) == ("percent", 3.5)
    assert (found["二十八点五倍"].kind, found["二十八点五倍"].value) == ("ratio", 28.5)


def test_full_width_digits_are_read_and_shown_as_written() -> None:
    report = verify_numbers("市盈率为２８．５倍，而非１５倍", slice_of("fund_bull"))
    assert [(c.text, c.status) for c in report.checks] == [
        ("２８．５倍", "matched"),
        ("１５倍", "unsupported"),
    ]


def test_chinese_numerals() -> None:
    assert cn_number("二十八点五") == (28.5, 0.1)
    assert cn_number("十五") == (15.0, 1.0)
    assert cn_number("一百零五") == (105.0, 1.0)
    assert cn_number("三千二百万") == (32_000_000.0, 1.0)
    assert cn_number("两亿五千万") == (250_000_000.0, 1.0)
    assert cn_number("二十八万亿") == (28e12, 1.0)


def test_rounding_tolerance_rule() -> None:
    # the KB value rounds or truncates to the cited one at its written precision
    assert agrees(28.0, 1.0, 28.5, signed=False)  # 28.5 -> "about 28"
    assert agrees(29.0, 1.0, 28.5, signed=False)  # 28.5 rounds to 29
    assert agrees(28.0, 1.0, 28.9, signed=False)  # 28.9 truncated to 28
    assert not agrees(27.0, 1.0, 28.5, signed=False)
    assert not agrees(30.0, 1.0, 28.5, signed=False)
    assert not agrees(29.0, 1.0, 28.4, signed=False)  # neither rounds nor truncates to 29
    assert agrees(3.5, 0.1, 3.51, signed=False)
    assert not agrees(3.6, 0.1, 3.51, signed=False)
    assert agrees(3.2, 0.1, -3.2, signed=False)  # unsigned: by magnitude
    assert not agrees(3.2, 0.1, -3.2, signed=True)  # "+3.2%" against -3.2
    assert agrees(-3.2, 0.1, -3.2, signed=True)


def test_evidence_penalty_rule() -> None:
    def report(statuses: list[str]) -> EvidenceReport:
        return EvidenceReport(
            tuple(NumberCheck("1", 0, 1, "number", 1.0, s, None, None) for s in statuses)  # type: ignore[arg-type]
        )

    assert penalised_evidence(8, report([])) == 8  # nothing cited: unchanged
    assert penalised_evidence(8, report(["matched", "derived"])) == 8
    assert penalised_evidence(8, report(["matched", "unsupported"])) == 6  # -2 each
    assert penalised_evidence(9, report(["matched", "unsupported", "unsupported"])) == 5
    assert penalised_evidence(8, report(["unsupported"])) == 3  # all invented: at most 3
    assert penalised_evidence(2, report(["unsupported"])) == 1  # never below 1
    assert penalised_evidence(10, report(["matched"] * 2 + ["unsupported"] * 5)) == 1
    assert penalised_evidence(2.5, report(["unsupported"])) == 1
    assert penalised_evidence(1, report(["unsupported"])) == 1
