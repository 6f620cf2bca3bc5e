"""Find every number an argument cites, in English or Chinese, with its unit, its
written precision and the metric it is attached to.

What counts as a citation, and what does not (docs/market.md, "Evidence check"):

- numbers with units: percentages (``3.5%``, ``3.5 percent``, ``百分之3.5``,
  ``百分之三点五``, ``2 个百分点``, ``35bp`` = 0.35 points), multiples (``15x``,
  ``1.4 times``, ``15倍``, ``十五倍``), amounts with a scale word (``2.9 trillion``,
  ``1.5bn``, ``28.6万亿``, ``3000亿``), prices (``$4,850``), plain numbers
  (``4,850``, ``28.5``), fractions (``7/10``) and dates (``2025-11-12``,
  ``May 15, 2024``, ``2024年5月15日``, ``in 2024``);
- not citations: parameters and periods (``MA20``, ``RSI(14)``, ``MACD(12,26,9)``,
  ``20-day``, ``52-week``, ``3 个月``, ``10Y``), names that contain digits (``S&P 500``,
  ``沪深300``, any name or ticker of the KB), identifiers (``tech_bull_arg_1``), list
  markers and ordinals (``1.``, ``#2``, ``第3``, ``2nd``), and small counts: whole
  numbers up to 12 with no unit and no metric label ("top 3 sectors").

Each citation records the precision it was written with: ``ulp`` is one unit in its
last written digit (0.1 for ``3.5``; 10 for ``4,850``, trailing zeros of a whole
number of four or more digits counting as rounding as long as that unit stays within
1% of the number), scaled by its scale word.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Final, Literal

from moot import numerals
from moot.numerals import CN_NUMERAL_CHARS, MAGNITUDES, ascii_digits, cn_number, written_unit

CitationKind = Literal["percent", "ratio", "number", "money", "fraction", "date"]
DatePrecision = Literal["day", "month", "year", "month_day"]

# Names that contain digits and are names, not data.
KNOWN_NAMES: Final = (
    "S&P 500", "S&P500", "Nasdaq 100", "Nasdaq-100", "Russell 2000", "Russell 1000",
    "FTSE 100", "FTSE 250", "CAC 40", "DAX 40", "Nikkei 225", "ASX 200", "Euro Stoxx 50",
    "Stoxx 600", "STOXX 50", "KOSPI 200", "Sensex 30", "Nifty 50", "CSI 300", "CSI 500",
    "CSI 1000", "沪深300", "中证500", "中证1000", "上证50", "上证180", "深证100", "创业板50",
    "科创50", "恒生科技", "MSCI ACWI", "Dow 30", "G7", "G20", "COVID-19", "Web3", "5G", "4G",
)  # fmt: skip

_MONTH = (
    r"(?P<mon>Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_DATE_PATTERNS: Final[tuple[tuple[re.Pattern[str], DatePrecision], ...]] = (
    (re.compile(r"(?<!\d)(?P<year>\d{4})[-/.](?P<month>\d{1,2})[-/.](?P<day>\d{1,2})(?!\d)"),
     "day"),
    (re.compile(r"(?P<year>\d{4})\s*年\s*(?P<month>\d{1,2})\s*月\s*(?P<day>\d{1,2})\s*[日号]"),
     "day"),
    (re.compile(_MONTH + r"\s+(?P<day>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<year>\d{4})(?!\d)"), "day"),
    (re.compile(r"(?<!\d)(?P<day>\d{1,2})(?:st|nd|rd|th)?\s+" + _MONTH
                + r",?\s+(?P<year>\d{4})(?!\d)"), "day"),
    (re.compile(r"(?P<year>\d{4})\s*年\s*(?P<month>\d{1,2})\s*月"), "month"),
    (re.compile(_MONTH + r",?\s+(?P<year>\d{4})(?!\d)"), "month"),
    (re.compile(r"(?<!\d)(?P<year>\d{4})[-/](?P<month>\d{1,2})(?![-/\d])"), "month"),
    (re.compile(r"(?<!\d)(?P<month>\d{1,2})\s*月\s*(?P<day>\d{1,2})\s*[日号]"), "month_day"),
    (re.compile(_MONTH + r"\s+(?P<day>\d{1,2})(?:st|nd|rd|th)?(?![\d,.])"), "month_day"),
    (re.compile(r"(?<!\d)(?P<year>(?:19|20)\d{2})\s*年(?!\s*\d)"), "year"),
    (re.compile(
        r"(?i:\b(?:in|since|by|from|until|through|during|of|early|late|mid|end|start|year))"
        r"[\s-]+(?P<year>(?:19|20)\d{2})(?![\d,.%])"
    ), "year"),
)  # fmt: skip

# Parameters, periods, identifiers and markers: masked before numbers are read.
_MASKS: Final = (
    # indicator parameters: MACD(12,26,9), RSI(14), RSI 14, ATR-14, MA 20, 20日均线 ...
    re.compile(r"MACD\s*\(\s*\d+(?:\s*,\s*\d+){1,2}\s*\)|MACD\s+\d+\s*/\s*\d+(?:\s*/\s*\d+)?",
               re.I),
    re.compile(r"(?<![A-Za-z])(?:RSI|ATR)\s*(?:\(\s*\d{1,2}\s*\)"
               r"|[- ]?\s*(?:6|9|14|20|21|24)(?![\d.%]))", re.I),
    re.compile(r"(?<![A-Za-z])(?:S?MA|EMA)\s*(?:\(\s*\d{1,3}\s*\)|[- ]?\s*\d{1,3}(?![\d.,%]))",
               re.I),
    # identifiers containing digits: MA20, T10Y2Y, tech_bull_arg_1, Q3, FY2024
    re.compile(r"(?<![A-Za-z0-9_.])[A-Za-z_][A-Za-z_]*\d[A-Za-z0-9_]*(?:-\d+)?"),
    # periods: 20-day, 52-week, 1-2 weeks, 3 months, 10-year, 5d, 10Y, 3个月, 5 年, 20日
    re.compile(
        r"(?<![\d.,])\d+(?:\.\d+)?(?:\s*(?:-|–|to|~|至|到)\s*\d+(?:\.\d+)?)?\s*-?\s*"
        r"(?:(?:trading\s+)?(?:days?|sessions?|weeks?|wks?|months?|mos?|years?|yrs?|quarters?"
        r"|periods?|bars?|d|w|y|Y)(?![A-Za-z])|个交易日|交易日|日|天|周|週|个月|個月|季度|期|月|年)"
    ),
    # ordinals and list markers: 2nd, 第3, #2, No. 4, (1), "1." at a line start
    re.compile(r"(?<![\d.])\d+(?:st|nd|rd|th)(?![A-Za-z])|第\s*\d+|#\s*\d+|\bNo\.\s*\d+"),
    re.compile(r"(?:^|(?<=\s))\(\d{1,2}\)|(?m:^\s*\d{1,2}[.)、](?!\d))"),
    re.compile(r"(?i:\b(?:argument|arg|point|item|claim)\s+\d+)|(?:论据|论点)\s*\d+"),
)  # fmt: skip

_NUMBER = re.compile(
    r"(?P<sign>[+\-])?(?P<cur>US\$|HK\$|\$|¥|￥|€|£|RMB\s?|CNY\s?|USD\s?)?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?P<mag>\s?(?:万亿|亿|万|千)|\s?(?:trillion|billion|million|thousand|tn|bn|mn)(?![A-Za-z])"
    r"|[kKMBT](?![A-Za-z]))?"
    r"(?P<unit>\s?(?:%|percentage points?|percent|per\s?cent|pct|pp|个百分点|百分点"
    r"|basis points?|bps?|基点|倍|times)(?![A-Za-z])|x(?![A-Za-z])|×)?"
)
_FRACTION = re.compile(r"(?<![\d.,/])(?P<a>\d{1,4})\s*/\s*(?P<b>\d{1,4})(?![\d.,/%])")
_CN = CN_NUMERAL_CHARS
_CN_NUMBER = re.compile(
    rf"百分之(?P<pct>[{_CN}]+)|(?P<num>[{_CN}]+)(?P<unit>倍|个百分点)|(?P<dec>[{_CN}]+点[{_CN}]+)"
)
_CONNECTOR = re.compile(
    r"(?:[\s,:=：，~≈(（]|\b(?:is|was|are|were|at|of|stands?|stood|sits?|sitting|near|around|about"
    r"|approximately|approx\.?|roughly|nearly|almost|only|just|reading|level|value|ratio|currently"
    r"|now|the|a|an|to|rose|fell|climbed|dropped|reached|hit)\b|为|是|约|达到|达|仅|高达|在|处于|仍"
    r"|已|大约|接近|目前|当前|升至|降至|至|了|的)$",
    re.I,
)
# metric label -> the KB fields it names, the field it most directly names first;
# matched at the end of the text before a number (more specific labels first)
_PE = r"(?:P\s*/\s*E|\bPE|price[- ]to[- ]earnings|price\s*/\s*earnings)"
LABELS: Final[tuple[tuple[str, re.Pattern[str], tuple[str, ...]], ...]] = (
    ("forward P/E",
     re.compile(rf"(?:forward\s+{_PE}(?:\s+ratio)?|(?:远期|预期|动态)市盈率)$", re.I),
     ("pe_forward",)),
    ("average P/E", re.compile(
        rf"(?:(?:average|long[- ]run|long[- ]term|historical)(?:\s+average)?\s+{_PE}"
        r"|(?:历史)?平均市盈率|市盈率(?:长期|历史)?均值)$", re.I),
     ("pe_long_term_avg",)),
    ("P/E", re.compile(rf"(?:{_PE}(?:\s+(?:ratio|multiple))?|earnings multiple|市盈率)$", re.I),
     ("pe_trailing", "pe_forward", "pe_long_term_avg")),
    ("P/B", re.compile(
        r"(?:(?:P\s*/\s*B|\bPB|price[- ]to[- ]book|price\s*/\s*book)(?:\s+(?:ratio|multiple))?"
        r"|市净率)$", re.I),
     ("pb",)),
    ("RSI", re.compile(r"(?:\bRSI\s*(?:\(\s*\d+\s*\)|-?\s*\d+)?|相对强弱指数?)$", re.I),
     ("rsi_14",)),
    ("MACD", re.compile(r"\bMACD\s*(?:\(\s*\d+(?:\s*,\s*\d+)*\s*\))?\s*(?:line|线)?$", re.I),
     ("macd", "macd_signal", "macd_histogram")),
    ("ATR", re.compile(r"(?:\bATR\s*(?:\(\s*\d+\s*\)|-?\s*\d+)?|平均真实波幅)$", re.I),
     ("atr_14", "atr_14_pct")),
    ("moving average", re.compile(
        r"(?:\b(?:S?MA|EMA)\s*(?:\(\s*\d+\s*\)|-?\s*\d+)?|moving average|均线|移动平均线?)$", re.I),
     ("sma_20", "sma_50", "sma_200", "close_vs_sma_20_pct", "close_vs_sma_50_pct",
      "close_vs_sma_200_pct")),
    ("VIX", re.compile(r"(?:\bVIX|volatility index|波动率指数|恐慌指数)$", re.I),
     ("volatility_index",)),
    ("volume ratio", re.compile(r"(?:volume ratio|量比|成交量比率?)$", re.I), ("volume_ratio",)),
    ("dividend yield", re.compile(r"(?:dividend yield|股息率)$", re.I), ("dividend_yield_pct",)),
    ("earnings yield", re.compile(r"(?:earnings yield|盈利收益率)$", re.I),
     ("earnings_yield_pct",)),
)  # fmt: skip
SMALL_COUNT: Final = 12


@dataclass(frozen=True)
class Citation:
    """A number (or date) cited in a text.

    ``value`` is in KB units: percent points for percentages, base units for scaled
    amounts, ``numerator / denominator`` for a fraction. ``signed`` is true when a
    ``+`` or ``-`` was written. ``label`` names the metric the number is attached to
    (``"P/E"``), and ``label_fields`` the KB fields that metric can be, the one it
    most directly names first.
    """

    text: str
    start: int
    end: int
    kind: CitationKind
    value: float
    ulp: float
    signed: bool = False
    label: str | None = None
    label_fields: tuple[str, ...] = ()
    date: dt.date | None = None
    date_precision: DatePrecision | None = None
    numerator: int | None = None
    denominator: int | None = None


def normalise(text: str) -> str:
    """Full-width digits and signs as ASCII (one character for one: offsets hold)."""
    return ascii_digits(text)


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


@lru_cache(maxsize=64)
def _digit_names(names: tuple[str, ...]) -> re.Pattern[str] | None:
    """The names with a digit in them (``S&P 500``, ``沪深300``), longest first."""
    found = sorted(
        {n for n in (*KNOWN_NAMES, *names) if any(ch.isdigit() for ch in n)}, key=len, reverse=True
    )
    return re.compile("|".join(re.escape(n) for n in found), re.I) if found else None


def _mask_names(text: str, names: tuple[str, ...]) -> str:
    pattern = _digit_names(names)
    if pattern is None:
        return text
    for match in pattern.finditer(text):
        text = _blank(text, match.start(), match.end())
    return text


def _dates(text: str) -> tuple[list[Citation], str]:
    found: list[Citation] = []
    for pattern, precision in _DATE_PATTERNS:
        for match in pattern.finditer(text):
            groups = match.groupdict()
            month = (
                numerals.MONTHS[groups["mon"].lower()[:3]]
                if groups.get("mon")
                else int(groups.get("month") or 1)
            )
            try:
                day = dt.date(int(groups.get("year") or 2000), month, int(groups.get("day") or 1))
            except ValueError:
                continue  # not a calendar date (2024-13-45): leave it
            found.append(
                Citation(
                    match.group(0).strip(),
                    match.start(),
                    match.end(),
                    "date",
                    0.0,
                    0.0,
                    date=day,
                    date_precision=precision,
                )
            )
            text = _blank(text, match.start(), match.end())
    return found, text


@lru_cache(maxsize=64)
def _names_pattern(names: tuple[str, ...]) -> re.Pattern[str] | None:
    """The KB's names and tickers at the end of a text ("P/E of ExampleIndex is 15")."""
    # a name with its parenthetical dropped too: "ExampleIndex" for "ExampleIndex (synthetic)"
    variants = {v.strip() for n in names for v in (n, re.sub(r"\s*\([^)]*\)\s*$", "", n))}
    usable = sorted({v for v in variants if v}, key=len, reverse=True)
    if not usable:
        return None
    return re.compile(
        "(?:" + "|".join(re.escape(n) for n in usable) + r")(?:['’]s)?\s*$", re.IGNORECASE
    )


def _label(before: str, names: re.Pattern[str] | None = None) -> tuple[str | None, tuple[str, ...]]:
    """The metric named just before a number, after connectors (and the names of the
    KB's entries, "the P/E of ExampleIndex is 15") are stripped."""
    context = before[-80:]
    for _ in range(12):
        match = _CONNECTOR.search(context)
        if not match or match.end() != len(context) or match.start() == match.end():
            match = names.search(context) if names is not None else None
            if not match or match.start() == match.end():
                break
        context = context[: match.start()]
    context = context[-25:]
    for name, pattern, fields in LABELS:
        if pattern.search(context):
            return name, fields
    return None, ()


def _cn_citations(text: str, original: str) -> tuple[list[Citation], str]:
    found: list[Citation] = []
    for match in _CN_NUMBER.finditer(text):
        if match.group("pct"):
            value, ulp = cn_number(match.group("pct"))
            kind: CitationKind = "percent"
        elif match.group("num"):
            value, ulp = cn_number(match.group("num"))
            kind = "ratio" if match.group("unit") == "倍" else "percent"
        else:
            value, ulp = cn_number(match.group("dec"))
            kind = "number"
        if not value and "零" not in match.group(0) and "〇" not in match.group(0):
            continue
        label, fields = _label(original[: match.start()])
        found.append(
            Citation(
                match.group(0),
                match.start(),
                match.end(),
                kind,
                value,
                ulp,
                label=label,
                label_fields=fields,
            )
        )
        text = _blank(text, match.start(), match.end())
    return found, text


def _unit_kind(unit: str) -> tuple[CitationKind | None, float]:
    """The kind a written unit gives, and the factor to KB units."""
    unit = unit.strip().lower()
    if not unit:
        return None, 1.0
    if unit in ("bp", "bps", "basis point", "basis points", "基点"):
        return "percent", 0.01
    if unit in ("x", "×", "times", "倍"):
        return "ratio", 1.0
    return "percent", 1.0


def extract_citations(text: str, names: Iterable[str] = ()) -> list[Citation]:
    """Every number and date cited in ``text``, in order of appearance. ``names`` are
    names that may contain digits and are not data (the KB's tickers and names)."""
    original = normalise(text)
    names = tuple(names)
    named = _names_pattern(names)
    work = _mask_names(original, names)
    found, work = _dates(work)
    for pattern in _MASKS:
        for match in pattern.finditer(work):
            work = _blank(work, match.start(), match.end())
    cn, work = _cn_citations(work, original)
    found += cn
    for match in _FRACTION.finditer(work):
        a, b = int(match.group("a")), int(match.group("b"))
        if b == 0 or a > b:
            continue
        found.append(
            Citation(
                match.group(0),
                match.start(),
                match.end(),
                "fraction",
                a / b,
                0.0,
                numerator=a,
                denominator=b,
            )
        )
        work = _blank(work, match.start(), match.end())
    for match in _NUMBER.finditer(work):
        start, end = match.start(), match.end()
        before = work[start - 1] if start else " "
        after = work[end] if end < len(work) else " "
        glued_before = before.isascii() and (before.isalnum() or before in "_.")
        if glued_before or (after.isascii() and after.isalpha()):
            continue  # part of a word, a version or an unknown unit (3m, 5G)
        sign = match.group("sign")
        digits = match.group("num").replace(",", "")
        magnitude = (match.group("mag") or "").strip()
        factor = MAGNITUDES.get(magnitude.lower() if magnitude.isascii() else magnitude, 1.0)
        unit_kind, unit_factor = _unit_kind(match.group("unit") or "")
        prefixed = work[max(0, start - 3) : start] == "百分之"
        kind: CitationKind = (
            "percent" if prefixed else unit_kind or ("money" if match.group("cur") else "number")
        )
        value = round(float(digits) * factor * unit_factor, 10)
        ulp = round(written_unit(digits) * factor * unit_factor, 10)
        label, fields = _label(original[:start], named)
        if (
            kind == "number"
            and not label
            and not sign
            and "." not in digits
            and not magnitude
            and value <= SMALL_COUNT
        ):
            continue  # a small count: "top 3 sectors"
        if sign == "-":
            value = -value
        if prefixed:
            start -= 3
        text_span = original[start:end].strip()
        found.append(
            Citation(
                text_span,
                start,
                end,
                kind,
                value,
                ulp,
                signed=bool(sign),
                label=label,
                label_fields=fields,
            )
        )
    # show each citation as written (full-width digits and all): offsets are the same
    return sorted(
        (replace(c, text=text[c.start : c.end].strip()) for c in found), key=lambda c: c.start
    )
