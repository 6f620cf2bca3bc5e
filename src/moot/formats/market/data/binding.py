"""What a cited number is about: the entry (index, sector, ticker, series) and the
period (horizon) the text attaches to it (docs/market.md, "Evidence check", rule 7).

- **Entities.** Every entry of the KB is known by its key (``EXI``) and its name with
  and without its parenthetical (``ExampleIndex (synthetic)``, ``ExampleIndex``),
  matched case-insensitively as whole words. A number is about the entries named in
  its clause (clauses end at ``,`` ``;`` ``:`` and at "and", "while", "but",
  "versus", "whereas", 和, 而, 但, 、); when its clause names none, about the nearest
  entry named before it in its sentence; otherwise about no entry in particular.
- **Periods.** "5-day", "5 days", "five sessions", "20 日", "过去5个交易日", "五日"
  (sessions); weeks (x5), months (x21), quarters (x63) and years (x252) likewise
  ("52-week", "12-month", "3个月", "1年"); and words: "today", "yesterday", 当日
  (1 session), "last week", 本周 (5), "last month", 近一个月 (21), "last quarter",
  上季度 (63), "past year", "12 months", "year on year", "YoY", 近一年, 同比 (252),
  "year to date", "YTD", 年初至今, and a quarter, month or week to date ("MTD",
  本月以来, 本季度至今) (calendar periods to date, which no field of a KB is); a
  moving average's length (``MA200``, ``SMA(50)``). A number is about the periods named in
  its clause; when its clause names none, the periods named before it in its
  sentence (a semicolon ends a sentence here: "returned 8.62% over 60 sessions;
  earnings grew 4.58%" names no period for 4.58%); otherwise about no period in
  particular.
- **A field's period** comes from its name: ``return_5d_pct`` (5), ``high_52w`` (252),
  ``sma_50`` and ``close_vs_sma_50_pct`` (50), ``eps_growth_yoy_pct`` (252). Indicator
  parameters (``rsi_14``, ``atr_14``) and fields with no horizon (``close``) have none.
  A period fits a field when they differ by at most 10% (a month of 21 sessions fits
  the 20-session field, 52 weeks the 252-session one).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from moot.formats.market.data.facts import Fact
from moot.numerals import CN_DIGITS, cn_number

YTD: Final = -1
"""A period to date ("year to date", "month to date", 本月以来): a calendar period
that fits no field with a horizon of sessions."""
TOLERANCE: Final = 0.10
_UNITS: Final = {"d": 1, "w": 5, "m": 21, "q": 63, "y": 252}
_WORD_NUMBERS: Final = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
    "thirty": 30, "fifty": 50, "sixty": 60, "hundred": 100,
}  # fmt: skip
_CN_DIGITS = "一二两三四五六七八九十百零〇"
# A number of digits or words must not continue a name or another number ("MA20"); a
# Chinese numeral only not another numeral, since Chinese text runs straight on from a
# Latin name ("ExampleIndex五日") and a numeral cut short reads another period ("十日").
_NUMBER = (
    r"(?P<n>(?<![A-Za-z0-9_.,])(?:\d+|(?:"
    + "|".join(sorted(_WORD_NUMBERS, key=len, reverse=True))
    + rf")(?![A-Za-z]))|(?<![{_CN_DIGITS}])[一二两三四五六七八九十百]+)"
)  # fmt: skip
_PERIOD: Final = re.compile(
    rf"{_NUMBER}\s*-?\s*(?:"
    r"(?:trading[\s-]+)?(?P<d>days?|sessions?|d)(?![A-Za-z])"
    r"|(?P<w>weeks?|wks?|w)(?![A-Za-z])|(?P<m>months?|mos?)(?![A-Za-z])"
    r"|(?P<q>quarters?)(?![A-Za-z])|(?P<y>years?|yrs?|y)(?![A-Za-z])"
    r"|(?P<zd>个交易日|交易日|日(?!期)|天)|(?P<zw>周|週)|(?P<zm>个月|個月)|(?P<zq>个季度|季度)"
    r"|(?P<zy>年(?!\d|[一二三四五六七八九十]+月)))",
    re.IGNORECASE,
)
_WORD_PERIODS: Final[tuple[tuple[re.Pattern[str], int], ...]] = (
    (re.compile(r"(?:year|quarter|month|week)[\s-]+to[\s-]+date|\b[yqmw]td\b|年初至今"
                r"|今年以来|年内|(?:本季度?|本月|本周|季初|月初|周初)(?:以来|至今)", re.I), YTD),
    (re.compile(r"\b(?:today|yesterday|overnight|on the day|daily)\b|当日|今日|昨日|单日|日内",
                re.I), 1),
    (re.compile(r"\b(?:last|past|previous|this|the|a)\s+week\b|\bweekly\b|上周|本周|近一周",
                re.I), 5),
    (re.compile(r"\b(?:last|past|previous|this|the|a)\s+month\b|\bmonthly\b|上个?月|本月|近一个?月",
                re.I), 21),
    (re.compile(r"\b(?:last|past|previous|this|the|a)\s+quarter\b|\bquarterly\b"
                r"|上个?季度|本季度|近一个?季度", re.I), 63),
    (re.compile(r"\b(?:last|past|previous|this|the|a)\s+year\b|\b(?:annual|yearly)\b"
                r"|\byear[\s-]+(?:on|over)[\s-]+year\b|\byoy\b|过去一年|近一年|一年来|同比",
                re.I), 252),
)  # fmt: skip
_MOVING_AVERAGE: Final = re.compile(r"(?<![A-Za-z])(?:S?MA|EMA)\s*\(?\s*(\d{1,3})(?!\d)", re.I)
_CLAUSE_END: Final = re.compile(
    r"[;；:：、，]|,(?!\d)|\s(?:and|while|but|versus|vs\.?|whereas|compared\s+with)\s|[和而但]",
    re.IGNORECASE,
)
_SENTENCE_END: Final = re.compile(r"[!?。！？;；\n]|\.(?!\d)")
_FIELD_DAYS: Final = re.compile(r"(?:^|_)(\d+)d(?:_|$)")
_FIELD_SMA: Final = re.compile(r"(?:^|_)sma_(\d+)(?:_|$)")


@dataclass(frozen=True)
class Binding:
    """The entries (KB keys) and periods (sessions, or :data:`YTD`) a number is
    about; empty when the text names none."""

    entities: frozenset[str] = frozenset()
    periods: frozenset[int] = frozenset()


def entity_of(fact: Fact) -> str | None:
    """The key of the entry a fact belongs to (``EXI`` for ``indices.EXI.close``,
    ``SURVEY_BULLISH`` for ``sentiment.indicators.SURVEY_BULLISH.value``), or
    ``None`` for a field of no entry (``sentiment.volatility_index``)."""
    parts = fact.path.split(".")
    return parts[-2] if len(parts) >= 3 else None


def period_of(field: str) -> int | None:
    """A field's horizon in sessions, from its name (``None``: it has none)."""
    if "52w" in field:
        return 252
    if "yoy" in field:
        return 252
    for pattern in (_FIELD_DAYS, _FIELD_SMA):
        match = pattern.search(field)
        if match:
            return int(match.group(1))
    return None


def fits(period: int, field_period: int) -> bool:
    """Whether a named period fits a field's horizon (within :data:`TOLERANCE`)."""
    if period == YTD:
        return False
    return abs(period - field_period) <= TOLERANCE * field_period


@lru_cache(maxsize=64)
def _names(pairs: tuple[tuple[str, str], ...]) -> tuple[re.Pattern[str] | None, dict[str, str]]:
    """A pattern of every entry's key and names, and name (lower case) -> key."""
    keys: dict[str, str] = {}
    for key, name in pairs:
        for variant in (key, name, re.sub(r"\s*\([^)]*\)\s*$", "", name)):
            variant = variant.strip()
            if len(variant) >= 2:
                keys.setdefault(variant.lower(), key)
    if not keys:
        return None, keys
    alternatives = "|".join(re.escape(n) for n in sorted(keys, key=len, reverse=True))
    pattern = re.compile(rf"(?<![A-Za-z0-9_])(?:{alternatives})(?![A-Za-z0-9_])", re.I)
    return pattern, keys


def entries(facts: Iterable[Fact]) -> tuple[tuple[str, str], ...]:
    """(key, name) of every entry the facts belong to."""
    found: dict[tuple[str, str], None] = {}
    for fact in facts:
        key = entity_of(fact)
        if key is not None:
            found[(key, fact.name or key)] = None
    return tuple(found)


def _period_value(match: re.Match[str]) -> int:
    raw = match.group("n").lower()
    if raw.isdigit():
        n = int(raw)
    elif raw in _WORD_NUMBERS:
        n = _WORD_NUMBERS[raw]
    elif all(ch in CN_DIGITS or ch in "十百" for ch in raw):
        n = int(cn_number(raw)[0])
    else:
        return 0
    groups = match.groupdict()
    unit = next(u for u in ("d", "w", "m", "q", "y") if groups[u] or groups["z" + u])
    if unit == "y" and n >= 1900:
        return 0  # a year: 2025年
    return n * _UNITS[unit]


def periods_in(text: str) -> list[tuple[int, int, int]]:
    """(start, end, sessions) of every period the text names."""
    found = [
        (m.start(), m.end(), value)
        for m in _PERIOD.finditer(text)
        if (value := _period_value(m)) > 0
    ]
    found += [(m.start(), m.end(), int(m.group(1))) for m in _MOVING_AVERAGE.finditer(text)]
    for pattern, value in _WORD_PERIODS:
        found += [(m.start(), m.end(), value) for m in pattern.finditer(text)]
    return sorted(found)


def _bounds(text: str, start: int, end: int, pattern: re.Pattern[str]) -> tuple[int, int]:
    left = max((m.end() for m in pattern.finditer(text, 0, start)), default=0)
    right = next((m.start() for m in pattern.finditer(text, end)), len(text))
    return left, right


def bind(text: str, start: int, end: int, names: Sequence[tuple[str, str]]) -> Binding:
    """What the number at ``text[start:end]`` is about (the module's rules); ``names``
    are the KB's entries as :func:`entries` gives them."""
    sentence = _bounds(text, start, end, _SENTENCE_END)
    clause = _bounds(text, start, end, _CLAUSE_END)
    clause = (max(clause[0], sentence[0]), min(clause[1], sentence[1]))
    pattern, keys = _names(tuple(names))
    mentions = (
        [(m.start(), m.end(), keys[m.group(0).lower()]) for m in pattern.finditer(text)]
        if pattern is not None
        else []
    )
    in_clause = {k for s, e, k in mentions if s >= clause[0] and e <= clause[1]}
    if not in_clause:
        before = [k for s, e, k in mentions if s >= sentence[0] and e <= start]
        in_clause = {before[-1]} if before else set()
    periods = periods_in(text)
    spans = [(s, e) for s, e, _ in periods]
    named = {
        p for s, e, p in periods if s >= clause[0] and e <= clause[1] and not _inside(s, e, spans)
    }
    if not named:
        named = {
            p for s, e, p in periods if s >= sentence[0] and e <= start and not _inside(s, e, spans)
        }
    return Binding(frozenset(in_clause), frozenset(named))


def _inside(start: int, end: int, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether a span lies strictly within a longer one ("5日" inside "过去5个交易日")."""
    return any(s <= start and end <= e and (e - s) > (end - start) for s, e in spans)
