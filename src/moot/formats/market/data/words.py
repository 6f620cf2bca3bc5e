"""The market format's words in each language: KB module descriptions (the data
layer of an analyst's system prompt) and horizon units."""

from __future__ import annotations

from typing import Final

LANGS: Final = ("en", "zh")

MODULE_DESCRIPTIONS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "indices": "index levels, returns over 1/5/20/60/252 sessions, distance to the"
        " 52-week high and low",
        "technicals": "moving averages (20/50/200), RSI-14, MACD with signal line and"
        " histogram, ATR-14, volume ratio",
        "sectors": "sector levels, returns, strength against the benchmark index",
        "fundamentals": "valuation (P/E, P/B, earnings and dividend yield) and earnings growth",
        "macro": "macro indicators (growth, inflation, rates, yield spread, money supply)"
        " with their previous value and trend",
        "sentiment": "volatility index and regime, sector breadth, surveys and positioning",
        "global_markets": "foreign index levels and returns",
    },
    "zh": {
        "indices": "指数点位、1/5/20/60/252 个交易日回报、距 52 周高低点的距离",
        "technicals": "均线（20/50/200）、RSI(14)、MACD 及信号线和柱状图、ATR(14)、量比",
        "sectors": "行业点位、回报、相对基准指数的强弱",
        "fundamentals": "估值（市盈率、市净率、盈利收益率、股息率）与盈利增长",
        "macro": "宏观指标（增长、通胀、利率、收益率利差、货币供应）及前值和趋势",
        "sentiment": "波动率指数及其区间、行业广度、调查与持仓",
        "global_markets": "海外指数点位与回报",
    },
}

BAR_INDICES: Final[dict[str, dict[str, str]]] = {
    "en": {
        "weekly": "index levels, returns over 1/4/13/52 weeks, distance to the 52-week high"
        " and low (weekly bars)",
        "monthly": "index levels, returns over 1/3/6/12 months, distance to the 52-week high"
        " and low (monthly bars)",
        "quarterly": "index levels, returns over 1/2/4 quarters, distance to the 52-week high"
        " and low (quarterly bars)",
    },
    "zh": {
        "weekly": "指数点位、1/4/13/52 周回报、距 52 周高低点的距离（周线）",
        "monthly": "指数点位、1/3/6/12 个月回报、距 52 周高低点的距离（月线）",
        "quarterly": "指数点位、1/2/4 个季度回报、距 52 周高低点的距离（季线）",
    },
}
"""The ``indices`` description on other bars than daily: a monthly KB has no
1-session return to describe."""


def module_descriptions(lang: str, bar: str | None) -> dict[str, str]:
    """The modules' descriptions in ``lang`` for a KB of ``bar`` (daily when ``None``)."""
    out = dict(MODULE_DESCRIPTIONS[lang])
    if bar and bar != "daily":
        out["indices"] = BAR_INDICES[lang][bar]
    return out


HORIZON_UNITS: Final[dict[str, dict[str, tuple[str, str]]]] = {
    # unit letter -> (singular, plural)
    "en": {
        "d": ("day", "days"),
        "w": ("week", "weeks"),
        "m": ("month", "months"),
        "y": ("year", "years"),
    },
    "zh": {"d": ("天", "天"), "w": ("周", "周"), "m": ("个月", "个月"), "y": ("年", "年")},
}

HORIZON_RANGE: Final[dict[str, str]] = {"en": "{low} to {high}", "zh": "{low}至{high}"}
HORIZON_AMOUNT: Final[dict[str, str]] = {"en": "{n} {unit}", "zh": "{n} {unit}"}
