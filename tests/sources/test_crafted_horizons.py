"""Market horizons phrased the ways a writer phrases them, crafted through whole
market debates (``moot run --format market --kb demo --sources``), en and zh.

docs/market.md ("Evidence check", rule 7): a number said of a period must match a
field of that period (within 10%); a real number of the KB said of another period is
``wrong_period`` and names its field; "year to date" and its kin fit no field. A
month to date is a calendar period as well, which no field of a session count fits.
Written from the docs alone; the numbers are read from the demo KB at test time.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from crafted_backend import MarketCrafted
from test_crafted_market import _name, _pct, _run_market

from moot.formats.market.data import load_kb
from moot.llm.backend import ProviderFactory

UseProvider = Callable[[str, ProviderFactory], None]

F = "indices.EXI."
R5, R20 = F + "return_5d_pct", F + "return_20d_pct"

# (the period in English, in Chinese, which return is said of it, expected status,
# the field named)
PERIODS = [
    ("over the past week", "近一周", "r5", "matched", R5),
    ("over the past week", "近一周", "r20", "wrong_period", R20),
    ("over the last 20 sessions", "过去20个交易日", "r20", "matched", R20),
    ("over the last 20 sessions", "过去20个交易日", "r5", "wrong_period", R5),
    ("YTD", "年初至今", "r20", "wrong_period", R20),
    ("over 20 sessions", "20个交易日", "r20", "matched", R20),
    ("in the past five trading days", "近五日", "r5", "matched", R5),
    ("in the past five trading days", "近五日", "r20", "wrong_period", R20),
]
EN = [(en, which, status, field) for en, _, which, status, field in PERIODS]
ZH = [(zh, which, status, field) for _, zh, which, status, field in PERIODS]
CLAIMS = {
    "en": ["Momentum has turned", "The trend is intact", "Sellers are in control", "Buyers hold"],
    "zh": ["上涨动能已经转弱", "上升趋势依然完好", "卖方正在掌控局面", "买方仍然占据优势"],
}


# a period to date (a calendar period, like "year to date") fits no field of a
# session count, whatever its unit
TO_DATE = {
    "en": [
        ("month to date", "r20", "wrong_period", R20),
        ("MTD", "r20", "wrong_period", R20),
        ("quarter to date", "r20", "wrong_period", R20),
        ("over the last 20 sessions", "r20", "matched", R20),
    ],
    "zh": [
        ("本月以来", "r20", "wrong_period", R20),
        ("本月至今", "r20", "wrong_period", R20),
        ("本季度以来", "r20", "wrong_period", R20),
        ("过去20个交易日", "r20", "matched", R20),
    ],
}

Row = tuple[str, str, str, str]


def _cases(lang: str, rows: list[Row]) -> dict[str, list[MarketCrafted]]:
    exi = load_kb("demo").indices["EXI"]
    name = _name(exi)
    assert exi.return_5d_pct is not None
    assert exi.return_20d_pct is not None
    value = {"r5": _pct(exi.return_5d_pct), "r20": _pct(exi.return_20d_pct)}
    crafted = []
    for n, (period, which, status, field) in enumerate(rows):
        number = value[which]
        evidence = (
            f"{name} returned {number}% {period}."
            if lang == "en"
            else f"{name}{period}涨跌幅为{number}%。"
        )
        claim = CLAIMS[lang][n % 4]
        crafted.append(
            MarketCrafted(f"{which} said {period}", claim, evidence, number, status, field)
        )
    return (
        {"tech_bull": crafted[:4], "tech_bear": crafted[4:]}
        if len(crafted) > 4
        else {"tech_bull": crafted}
    )


def _call(lang: str) -> str:
    return (
        "Earnings call notes.\n\nThe chair said little.\n"
        if lang == "en"
        else "业绩会纪要\n\n董事长未作评论。\n"
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_horizons_phrased_otherwise_bind_numbers_to_their_period(
    lang: str, tmp_path: Path, use_provider: UseProvider
) -> None:
    _run_market(_cases(lang, EN if lang == "en" else ZH), _call(lang), lang, tmp_path, use_provider)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_period_to_date_fits_no_field(
    lang: str, tmp_path: Path, use_provider: UseProvider
) -> None:
    _run_market(_cases(lang, TO_DATE[lang]), _call(lang), lang, tmp_path, use_provider)
