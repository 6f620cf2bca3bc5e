"""Numbers in prose, English or Chinese, as the citation verifier compares them
(docs/citation-verification.md, "Numbers").

A :class:`Number` keeps its value in base units (percentages in percent points,
``2.9 billion`` as 2.9e9, ``3000亿`` as 3e11), the precision it was written with
(``unit``: one unit in its last written digit, scaled by its scale word), whether a
sign was written, and, for a scaled number, the value before its scale word (a table
may give "USD million" in a header and ``4.2`` in a cell).

What is read: digits with or without thousands separators (``1,234.5``), full-width
digits (``３．５``), signs (``+``, ``-``, ``−``), currencies, scale words
(``thousand``, ``million``, ``bn``, ``万``, ``亿``, ``万亿``), percent forms
(``%``, ``percent``, ``per cent``, ``percentage points``, ``pp``, ``basis points`` =
0.01 points, ``百分之三点五``, ``个百分点``, ``基点``, ``三成`` = 30%), multiples
(``15x``, ``15倍``), fractions (``3/4``, ``三分之一``, ``one third``,
``two-thirds``, ``a quarter of``, ``half of``, ``一半``, ``1 in 5``, ``3 out of
10``), mixed numbers (``5-3/4``, ``2 1/4``, ``2¼``; before a percent word a mixed
number or fraction is a percentage: ``1/4 percentage point`` = 0.25 points), unit
suffixes (``13GB``, ``6G``) and Chinese numerals (``二十八点五``, ``一百零五``,
``二〇二三``, ``万``, read by :func:`moot.numerals.cn_number`, the reader the market
check uses).

A hedged whole number ("about 500", "约40%", "1100左右") counts its trailing zeros as
rounding, however short it is (``about 500`` -> precision 100). A bound before or after
a number ("more than 3,000", "over a third", "at least 165", "less than 5%", "过半",
"超过", "不到", "七成以上") is kept as :attr:`Number.bound` (never on a year, a date's part
or a duration), and a number word before a percent word is a percentage ("fifty
percent", "twenty-five per cent").

Read as what they are: versions (``3.12.0``, ``Python 3.12``) as names, not
quantities; a number followed by a unit of time as a duration (its ``days``); a date's
parts whatever the separator (``2024.07.19``). In a passage also the numbers inside
identifiers (the ``20B`` of ``InternLM2-20B-Reward``, as tokens), ordinals ("the 11th",
"the tenth") and the lengths of lists, items of one shape included
(``1.8B、7B 和 20B`` -> 3; code names with underscores are one word), and the month
of a date that names it ("November 30, 2018" -> 11, for a date only).

What is not a number: digits after Latin letters (``COVID-19``, ``G20``, ``Q3``,
``S2:p14``), digits before letters that are no unit, ordinals (``2nd``, ``第3``,
``第三``), list markers at a line start (``1.``, ``(2)``), and the parts of a slash
fraction. In a passage (``liberal``), English number words
(``three``, ``twenty``) and single Chinese numerals (``三``) are read too, so that a
small count in a claim can be found in them; in a claim or quote a Chinese numeral is
read only when it cannot be an ordinary word (two characters or more, or with a unit).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from typing import Final, Literal

from moot.numerals import (
    CN_DIGITS,
    CN_NUMERAL_CHARS,
    MAGNITUDES,
    MONTHS,
    ascii_digits,
    cn_number,
    written_unit,
)
from moot.sources.normalize import DASHES

NumberKind = Literal["number", "percent", "fraction"]
Bound = Literal["", "above", "below"]
SMALL_COUNT: Final = 12
"""Whole numbers up to this, written bare, are small counts ("the 3 risks")."""


@dataclass(frozen=True)
class Number:
    """A number read from a text. ``value`` is in base units (percent points for a
    percentage, ``numerator / denominator`` for a fraction); ``unit`` is one unit in
    its last written digit, in the same units; ``mantissa`` and ``mantissa_unit``
    are the same before the scale word."""

    text: str
    value: float
    unit: float
    kind: NumberKind = "number"
    signed: bool = False
    scaled: bool = False
    mantissa: float = 0.0
    mantissa_unit: float = 0.0
    fractional: bool = False
    """Written with a fraction (``5-3/4``, ``1/2 percent``): an exact value, not one
    rounded to its last digit."""
    hedged: bool = False
    """Hedged by its text ("about 500", "约40%", "1100左右")."""
    version: bool = False
    """A version, not a quantity (``3.12.0``, ``Python 3.12``, ``TiDB 2.0``): it supports,
    and is supported by, the same version only, never by rounding."""
    token: bool = False
    """A part of an identifier (the ``20B`` of ``InternLM2-20B-Reward``): it supports the
    same token only ("20B", not "200亿")."""
    derived: bool = False
    """Read only as a passage is read (``liberal``): a number word, an ordinal, a list's
    length, the number inside an identifier. A count read so supports whole bare
    numbers only (``moot.sources.verify.supports``)."""
    approach: bool = False
    """Hedged from below ("nearly a third", "almost half", "近一半"): the figure it hedges
    is at most this one."""
    bound: Bound = ""
    """A bound written before or after the number: ``above`` ("more than 3,000",
    "over a third", "at least 165", "超过", "以上"), ``below`` ("less than 5%",
    "under half", "不到", "以下"). A bound is read as the near bound a careful writer
    uses: the figure it bounds lies on its side, within :data:`HEDGED_SHARE` of it
    (``moot.sources.verify.supports``)."""
    measure: str = ""
    """What an amount counts, as written around its digits: its currency, its unit
    suffix and a multiple's unit (``$``, ``gb``, ``倍``; empty for a bare number). Two
    amounts are of the same unit when their measures are equal
    (:mod:`moot.sources.arithmetic`)."""
    bound_unit: float = 0.0
    """For a bounded number, one unit of its last written digit with its trailing zeros
    counted as rounding, as for a hedge ("over 3,000": 1,000): how far from it the
    figure it bounds may lie (:func:`within_bound`)."""
    month: bool = False
    """A month read from its name in a passage's date ("November 30, 2018" -> 11): it
    supports a part of a date written in digits only (:attr:`date`), never a count."""
    date: bool = False
    """A part of a date written in digits (``2018-11-30``, ``11/30/2018``,
    ``2018年11月30日``)."""
    days: float = 0.0
    """For a duration ("18 months", "12-month", "两年"), the days one unit of it lasts;
    durations compare in days (``moot.sources.verify.supports``)."""

    @property
    def share(self) -> float:
        """A fraction as a percentage (``1/4`` -> 25)."""
        return 100 * self.value

    @property
    def small(self) -> bool:
        """A bare whole number up to :data:`SMALL_COUNT` (it may be found as a word)."""
        return (
            self.kind == "number"
            and not self.scaled
            and self.unit == 1.0
            and 0 <= self.value <= SMALL_COUNT
        )


_TABLE: Final = str.maketrans({**dict.fromkeys(DASHES, "-"), "\u2044": "/", "\u2215": "/"})
_WORDS: Final = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "a": 1, "an": 1,
    "single": 1, "double": 2, "twice": 2, "both": 2, "dozen": 12,
}  # fmt: skip
_DENOMINATORS: Final = {
    "half": 2, "halves": 2, "third": 3, "fourth": 4, "quarter": 4, "fifth": 5, "sixth": 6,
    "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10,
}  # fmt: skip
_COUNT_WORDS: Final = ("single", "double", "twice", "both", "dozen")
"""Words that are counts in a passage ("a single blank line" = 1), never a part of a
fraction ("1 in 5")."""
_WORD = "|".join(
    sorted((w for w in _WORDS if w not in ("a", "an", *_COUNT_WORDS)), key=len, reverse=True)
)
_PASSAGE_WORD = "|".join(sorted((*_WORD.split("|"), *_COUNT_WORDS), key=len, reverse=True))
_DENOM = (
    r"(?:half|halves|thirds?|fourths?|quarters?|fifths?|sixths?|sevenths?|eighths?|ninths?|tenths?)"
)
_CN = CN_NUMERAL_CHARS
_MASKS: Final = (
    # identifiers and names with digits (Latin letters): COVID-19, G20, Q3, H1N1, S2:p14
    re.compile(r"(?<![A-Za-z0-9_.])[A-Za-z_]+(?:[-:]?[A-Za-z_]*\d+)+[A-Za-z_]*(?![A-Za-z0-9_])"),
    # ordinals and list markers: 2nd, 第3, 第三, #2, (1), "1." at a line start
    re.compile(rf"(?<![\d.])\d+(?:st|nd|rd|th)(?![a-z])|第\s*(?:\d+|[{_CN}]+)|#\s*\d+", re.I),
    re.compile(r"(?m:^\s*\(?\d{1,2}[.)、](?!\d))"),
)
_FRACTION_WORDS: Final = re.compile(
    rf"\b(?P<n>a|an|one|two|three|four|five|six|seven|eight|nine|\d+)[\s-]+(?P<d>{_DENOM})"
    rf"(?:\s+of\b)?|\b(?P<half>half)\s+of\b|(?P<cnhalf>一半|(?<=过)半)",
    re.I,
)
_ONE_IN: Final = re.compile(
    rf"\b(?P<a>\d+|{_WORD})\s+(?:in|out\s+of|of\s+every|in\s+every)\s+(?P<b>\d+|{_WORD})\b",
    re.I,
)
_SLASH: Final = re.compile(r"(?<![\d./,])(?P<a>\d{1,4})\s*/\s*(?P<b>\d{1,4})(?![\d./%,])")
_PERCENT_AFTER: Final = re.compile(
    r"\s*(?:%|per\s?cent|percentage[\s-]points?|(?:to|-|and)\s+[\d/ -]+\s*(?:%|per\s?cent))", re.I
)
_MIXED: Final = re.compile(
    r"(?<![\d./,])(?P<whole>\d{1,4})(?:-|\s+)(?P<a>\d{1,2})\s*/\s*(?P<b>\d{1,2})(?![\d./,])"
)
_VULGAR: Final = {"¼": "-1/4", "½": "-1/2", "¾": "-3/4", "⅓": "-1/3", "⅔": "-2/3", "⅛": "-1/8"}
_NUMBER: Final = re.compile(
    r"(?P<sign>(?<![\w.,)\]%])[+-])?"
    r"(?P<cur>us\$|hk\$|\$|¥|€|£|rmb\s?|cny\s?|usd\s?)?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?P<mag>\s?(?:万亿|亿|万|千)|\s?(?:trillion|billion|million|thousand|tn|bn|mn)(?![a-z])"
    r"|[kmbt](?![a-z]))?"
    r"(?P<unit>[\s-]?(?:%|percentage[\s-]points?|per\s?cent|pct|pp|个百分点|百分点"
    r"|basis[\s-]points?|bps?|基点|倍|times)(?![a-z])|x(?![a-z])|×"
    r"|\s?成(?![为立长功本员果就熟交效绩]))?"
    r"(?P<sfx>\s?(?:gib|mib|gb|mb|kb|tb|ms|km|kg|cm|mm|g|s|h)(?![a-z]))?",
    re.I,
)
_CN_NUMBER: Final = re.compile(
    rf"(?P<pct>百分之)?(?P<cn>[{_CN}]+)"
    rf"(?P<unit>个百分点|百分点|倍|成(?![为立长功本员果就熟交效绩])|分之(?P<num>[{_CN}]+))?"
)
_HEDGE_BEFORE: Final = re.compile(
    r"(?:\b(?:about|around|roughly|approximately|approx\.?|nearly|almost|some|circa)"
    r"|[~≈]|约|大约|大概|近|将近|接近)\s*(?:us\$|\$|¥|€|£)?$",
    re.I,
)
_HEDGE_AFTER: Final = re.compile(r"^\s*(?:\S{0,3}\s*)?(?:左右|上下)")
_MARKDOWN_ESCAPE: Final = re.compile(r"\\([\\`*_{}\[\]()#+\-.!%|])")
"""A Markdown escape (``35.9\\%``, ``13\\.1 GB``): the character stands for itself."""
_ONE_UNIT: Final = re.compile(
    r"\b(?:a|an)\s+(?:second|minute|hour|day|week|fortnight|month|year|decade|century)\b"
)
"""In a passage, "a month" or "an hour" is one of them."""
_IDENTIFIER_PART: Final = re.compile(r"\d+(?:\.\d+)?[kmbt]?")
"""A part of an identifier (between ``-``, ``_`` or ``:``) that is a number, with its
scale letter: the ``20B`` of ``InternLM2-20B-Reward``, the ``3090`` of ``RTX-3090``."""
_DOTTED_DATE: Final = re.compile(
    r"(?<![\d.])((?:19|20)\d\d)[./]((?:0?[1-9]|1[0-2]))[./]((?:0?[1-9]|[12]\d|3[01]))(?![\d.])"
)
"""``2024.07.19`` or ``2024/07/19``: a date, its parts numbers (as ``2024-07-19``)."""
_VERSION: Final = re.compile(r"(?<![A-Za-z0-9_.])v?(\d+\.\d+(?:\.\d+)+)(?![A-Za-z0-9_]|\.\d)")
"""A version of three parts or more (``3.12.0``, ``1.1.1``)."""
_NAMED_VERSION: Final = re.compile(
    r"(?<![A-Za-z0-9_.])[A-Z][\w+.-]*\s+v?(\d+\.\d+)(?![A-Za-z0-9_%]|\.\d|\s*(?:%|per\s?cent))"
)
"""A number of two parts after a capitalised name (``Python 3.12``, ``TiDB 2.0``)."""
_DURATION: Final = re.compile(
    r"[\s-]?(?P<unit>seconds?|minutes?|hours?|days?|weeks?|fortnights?|months?|years?"
    r"|decades?|个月|个星期|星期|周|天|年)(?![a-z])"
)
_DAYS: Final = {
    "second": 1 / 86400, "minute": 1 / 1440, "hour": 1 / 24, "day": 1.0, "week": 7.0,
    "fortnight": 14.0, "month": 30.4375, "year": 365.25, "decade": 3652.5, "个月": 30.4375,
    "个星期": 7.0, "星期": 7.0, "周": 7.0, "天": 1.0, "年": 365.25,
}  # fmt: skip
_ORDINAL_WORDS: Final = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
}  # fmt: skip
_MARKDOWN_LINK: Final = re.compile(r"\[([^\]\n]*)\]\([^)\s]*\)")
_NUMBERED_LINE: Final = re.compile(r"^\s*(\d{1,2})[.)、]\s")
_BULLET_LINE: Final = re.compile(r"^(\s*)[-*•]\s")
_MONTH_DAY: Final = re.compile(
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)-(\d{1,2})\b"
)
"""``2025-Jan-27``: the day is a number, not part of an identifier."""
_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_MONTH_DATE: Final = re.compile(
    rf"\b(?P<m1>{_MONTH})\.?\s+(?=\d{{1,2}}(?:st|nd|rd|th)?\b|(?:19|20)\d\d\b)"
    rf"|(?<=\d\s)(?P<m2>{_MONTH})\.?(?=,?\s+(?:19|20)\d\d\b)"
)
"""A month named in a date ("November 30, 2018", "30 Nov 2018", "March 2024"): in a
passage the month is also its number (11), so that the date can be cited as
``2018-11-30``."""
_DIGIT_DATE: Final = re.compile(
    r"(?<![\d.])(?:19|20)\d\d-\d{1,2}-\d{1,2}(?!\d|\.\d)"
    r"|(?<![\d./])\d{1,2}/\d{1,2}/(?:19|20)\d\d(?!\d|\.\d)"
    r"|(?:(?:19|20)\d\d\s*年\s*)?\d{1,2}\s*月(?:\s*\d{1,2}\s*[日号])?"
)
"""A date written in digits: its parts are :attr:`Number.date`."""
_COMPOUND_WORD: Final = re.compile(
    r"\b(?P<tens>twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[\s-]+"
    r"(?P<ones>one|two|three|four|five|six|seven|eight|nine)\b"
)
"""``twenty four`` and ``twenty-four`` are 24 (not 20 and 4)."""
_WORD_NAME = r"[A-Z][\w'&-]*(?:\.[A-Z][\w'&-]*)*"
_NAME = rf"{_WORD_NAME}(?:[ \t]+{_WORD_NAME}){{0,3}}"
_EN_LIST: Final = re.compile(
    rf"(?<![\w'&-]){_NAME}(?:[ \t]*,[ \t\n]*{_NAME})*,?\s+(?:and|or)\s+{_NAME}(?![\w'&-])"
)
_EN_LIST_SEP: Final = re.compile(r"\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+")
_ZH_ITEM = r"(?:\d+\.\d+)?[\u4e00-\u9fff\w·]{1,12}(?: [A-Za-z][\w·]{0,11}){0,3}"
"""A Chinese list item: a run of characters, or a name of Latin words ("VS Code"); it
may start with a decimal ("1.8B")."""
_ZH_LIST: Final = re.compile(
    rf"{_ZH_ITEM}(?: ?、 ?{_ZH_ITEM})+(?: ?(?:和|与|及|以及|或) ?(?:其他)?{_ZH_ITEM})?"
)
_ZH_LIST_SEP: Final = re.compile(r" ?(?:、|以及|和|与|及|或) ?")
_ORDINAL_FRACTION: Final = re.compile(
    r"(?<![\d./])(\d{1,2})\s*/\s*(\d{1,2})(?:st|nd|rd|th)s?(?![a-z])"
)
"""``1/5th``, ``3/4th``, ``2/3rds``: a fraction written with an ordinal ending, read as
``1/5`` (not as the ordinal ``5th``)."""
_RANGE_SCALE: Final = re.compile(
    r"(?<![\d.,])(\d+(?:\.\d+)?)(\s*(?:~|-|至|到|to)\s*\d+(?:\.\d+)?\s?"
    r"(万亿|亿|万|trillion|billion|million|thousand|bn|mn)(?![a-z]))"
)
"""A range with one scale word after its last end (``0.22 ~ 2.42 万亿``, ``5-10
million``): the scale word is read after both ends (``0.22万亿``)."""
_BOUND_ABOVE: Final = re.compile(
    r"(?:\b(?:more\s+than|over|above|at\s+least|upwards\s+of|in\s+excess\s+of|greater\s+than"
    r"|higher\s+than)(?:\s+an?)?|超过|超出|逾|多于|高于|至少|不少于|不低于)\s*(?:us\$|\$|¥|€|£)?$",
    re.I,
)
_BOUND_BELOW: Final = re.compile(
    r"(?:\b(?:less\s+than|fewer\s+than|under|below|lower\s+than|at\s+most)(?:\s+an?)?"
    r"|不到|不足|少于|低于|至多|不超过)\s*(?:us\$|\$|¥|€|£)?$",
    re.I,
)
_BOUND_AFTER: Final = re.compile(
    r"^\s*(?:\S{0,3}?\s*)?(?P<above>以上)|^\s*(?:\S{0,3}?\s*)?(?P<below>以下|以内)"
)
"""Bounds written before a number ("more than 3,000", "不到 5%") or after it ("三成以上"):
the figure is on that side of the number (:attr:`Number.bound`)."""
HEDGED_SHARE: Final = 0.075
"""A hedged or bounded figure ("about half", "近一半", "三分之一左右", "more than four in
five", "over 3,000") is supported by a value within this share of it (relative),
widened by half the value's last digit: "about half" by 46-54% (45.8-54.2 written with
one decimal), "about a third" by 31-36%; "nearly" or "almost" only from below
("nearly a third": 31-33%, "almost a quarter": 23-25%), "more than" only from above
("more than four in five": 80-86%)."""
_APPROACH: Final = re.compile(r"(?:\b(?:nearly|almost|just\s+under)|将近|接近|近)\s*$")
"""Hedges that approach a figure from below ("nearly a third", "近一半")."""
_CN_WORDS: Final = frozenset({"万一", "千万", "一一", "百万一"})
"""Strings of numeral characters that are ordinary words in a claim (万一 = in case,
千万 = by all means)."""


def prepare(text: str) -> str:
    """``text`` as numbers are read from it: NFKC (full-width forms as half-width),
    Markdown escapes undone (``5\\.5`` is 5.5), dashes and minus signs as ``-``,
    case-folded."""
    for glyph, written in _VULGAR.items():
        text = re.sub(rf"(?<=\d){glyph}", written, text).replace(glyph, written.lstrip("-"))
    text = _MARKDOWN_ESCAPE.sub(r"\1", unicodedata.normalize("NFKC", text))
    return ascii_digits(text.translate(_TABLE)).casefold()


def _hedged(text: str, start: int, end: int) -> bool:
    """Whether the number at ``text[start:end]`` is hedged ("about", "约", "左右")."""
    return bool(
        _HEDGE_BEFORE.search(text[max(0, start - 16) : start])
        or _HEDGE_AFTER.match(text[end : end + 8])
    )


def _bound(text: str, start: int, end: int) -> Bound:
    """The bound written around the number at ``text[start:end]`` ("more than", "不到",
    "以上"), or ``""``."""
    before = text[max(0, start - 16) : start]
    if _BOUND_ABOVE.search(before):
        return "above"
    if _BOUND_BELOW.search(before):
        return "below"
    after = _BOUND_AFTER.match(text[end : end + 8])
    if after is None:
        return ""
    return "above" if after.group("above") else "below"


def near_share(percent: float, unit: float, cited: Number) -> bool:
    """A hedged or bounded fraction ``cited`` ("about half", "more than four in five") is
    supported by a percentage ``percent`` (written to ``unit``) within
    :data:`HEDGED_SHARE` of its share, on the side its bound or a hedge from below
    names."""
    share, value = cited.share, abs(percent)
    if (cited.approach or cited.bound == "below") and value - unit / 2 > share + 1e-9:
        return False
    if cited.bound == "above" and value + unit / 2 < share - 1e-9:
        return False
    return abs(value - share) <= HEDGED_SHARE * share + unit / 2 + 1e-9


def within_bound(cited: Number, value: float, *, scale: float = 1.0) -> bool:
    """A bounded number ``cited`` ("more than 3,000", "at least 165", "under 5%") is
    supported by ``value`` on its side of it, closer than one unit of its last written
    digit (its trailing zeros counted as rounding, as for a hedge) and within
    :data:`HEDGED_SHARE` of it: "over 3,000" by 3,000-3,225, not by 2,996 or 3,900;
    "less than 5%" by 4.1-5%; "less than 86.3%" not by 83.6%, "less than 12" not by 11.
    ``scale`` is the cited number's value over the one compared (its figure before its
    scale word is compared with a table's bare figure)."""
    want, have = abs(cited.value) / scale, abs(value)
    eps = 1e-9 * max(1.0, want)
    if abs(have - want) <= eps:
        return True
    if cited.bound == "above" and have < want:
        return False
    if cited.bound == "below" and have > want:
        return False
    window = (cited.bound_unit or cited.unit) / scale
    return abs(have - want) < min(window, HEDGED_SHARE * want) - eps


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


def _count(word: str) -> int | None:
    return int(word) if word.isdigit() else _WORDS.get(word.lower())


def _mixed(text: str, found: list[Number]) -> str:
    """Mixed numbers (``5-3/4``, ``2 1/4``, ``2¼``) and ``a/b`` followed by a percent
    word (``1/4 percent``, ``1/4 to 1/2 percent``, ``1/4 percentage point``): values in
    percent points when a percent word follows, precision one unit of the denominator."""
    for pattern in (_MIXED, _SLASH):
        for match in pattern.finditer(text):
            a, b = int(match.group("a")), int(match.group("b"))
            whole = int(match.groupdict().get("whole") or 0)
            percent = _PERCENT_AFTER.match(text, match.end()) is not None
            if not b or a >= b or (pattern is _SLASH and not percent):
                continue
            value = whole + a / b
            kind: NumberKind = "percent" if percent else "number"
            hedged = _hedged(text, match.start(), match.end())
            days = 0.0 if percent else _days_after(text, match.end())
            found.append(Number(match.group(0), value, 1 / b, kind, mantissa=value,
                                mantissa_unit=1 / b, fractional=True,
                                hedged=hedged, days=days))  # fmt: skip
            text = _blank(text, match.start(), match.end())
    return text


def _fractions(text: str, found: list[Number], *, keep_parts: bool) -> str:
    """Fractions in words, ``a in b`` and ``a/b``; blanked unless their parts are to be
    read as numbers too (``keep_parts``: in a passage, for fractions in words)."""
    for pattern in (_FRACTION_WORDS, _ONE_IN, _SLASH):
        for match in pattern.finditer(text):
            if match.groupdict().get("half") or match.groupdict().get("cnhalf"):
                a, b = 1, 2
            elif "d" in match.groupdict() and match.group("d"):
                a = _count(match.group("n")) or 0
                b = _DENOMINATORS[match.group("d").lower().rstrip("s").replace("halve", "half")]
            else:
                a_count, b_count = _count(match.group("a")), _count(match.group("b"))
                if a_count is None or b_count is None:
                    continue
                a, b = a_count, b_count
            if not b or not a or a > b:
                continue
            found.append(_fraction(match.group(0).strip(), a / b, text, match.start(), match.end()))
            if not keep_parts or pattern is _SLASH:
                text = _blank(text, match.start(), match.end())
    return text


def _fraction(shown: str, value: float, text: str, start: int, end: int) -> Number:
    """A fraction read at ``text[start:end]``, hedged as its text hedges it ("about
    half", "近一半", "三分之一左右"); "nearly" and "almost" approach it from below, and a
    bound ("more than four in five", "过半", "不到三分之一") holds it on one side."""
    approach = _APPROACH.search(text[max(0, start - 16) : start]) is not None
    bound: Bound = "above" if text[start - 1 : start] == "过" else _bound(text, start, end)
    return Number(shown, value, 0.0, "fraction", hedged=_hedged(text, start, end) or bool(bound),
                  approach=approach, bound=bound)  # fmt: skip


_WORD_PERCENT: Final = re.compile(
    rf"\b(?:(?P<tens>twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[\s-]+"
    rf"(?P<ones>one|two|three|four|five|six|seven|eight|nine)|(?P<hundred>(?:a|one)\s+hundred)"
    rf"|(?P<word>{_WORD}))[\s-]?(?P<unit>percentage[\s-]points?|per\s?cent)(?![a-z])",
    re.I,
)
"""A number word before a percent word ("fifty percent", "twenty-five per cent", "one
hundred percent", "two percentage points"): a stated percentage."""


def _word_percents(text: str, found: list[Number]) -> str:
    """Percentages written in words (:data:`_WORD_PERCENT`), read in a claim and a
    passage alike, hedged and bounded as digits are."""
    for match in _WORD_PERCENT.finditer(text):
        if match.group("tens"):
            value = float(_WORDS[match.group("tens")] + _WORDS[match.group("ones")])
        elif match.group("hundred"):
            value = 100.0
        else:
            value = float(_WORDS[match.group("word").lower()])
        start, end = match.start(), match.end()
        found.append(Number(match.group(0), value, 1.0, "percent", mantissa=value,
                            mantissa_unit=1.0, hedged=_hedged(text, start, end),
                            bound=_bound(text, start, end)))  # fmt: skip
        text = _blank(text, start, end)
    return text


def _unit_of(unit: str) -> tuple[NumberKind, float]:
    unit = re.sub(r"[\s-]+", " ", unit.strip().lower())
    if not unit or unit in ("倍", "times", "x", "×"):
        return "number", 1.0
    if unit in ("bp", "bps", "basis point", "basis points", "基点"):
        return "percent", 0.01
    if unit == "成":  # tenths, as 三成 (6 成 = 60%)
        return "percent", 10.0
    return "percent", 1.0


def _days_after(text: str, end: int) -> float:
    """The days one unit of the duration a number at ``text[:end]`` counts ("18
    months", "12-month", "两年"), or 0 when no unit of time follows."""
    match = _DURATION.match(text, end)
    if match is None:
        return 0.0
    unit = match.group("unit")
    return _DAYS[unit.rstrip("s") if unit.isascii() else unit]


def _digit_numbers(text: str, found: list[Number], versions: frozenset[str] = frozenset()) -> str:
    dates = [m.span() for m in _DIGIT_DATE.finditer(text)]
    for match in _NUMBER.finditer(text):
        start, end = match.start(), match.end()
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if (before.isascii() and (before.isalnum() or before in "_.")) or (
            after.isascii() and after.isalpha()
        ):
            continue  # part of a word or an unknown unit (3m2, 5g)
        digits = match.group("num").replace(",", "")
        magnitude = (match.group("mag") or "").strip()
        factor = MAGNITUDES.get(magnitude.lower(), 1.0) if magnitude else 1.0
        kind, unit_factor = _unit_of((match.group("unit") or "").lstrip("-"))
        if text[max(0, start - 3) : start] == "百分之":
            kind = "percent"
        year_like = len(digits) == 4 and digits.isdigit() and 1900 <= int(digits) <= 2100
        unit = 1.0 if year_like else written_unit(digits)
        hedged = _hedged(text, start, end)
        bare = not any(match.group(g) for g in ("mag", "unit", "sfx", "cur"))
        days = 0.0 if year_like or not bare else _days_after(text, end)
        date = any(a <= start < b for a, b in dates)
        bound = "" if year_like or date or days else _bound(text, start, end)
        round_unit = unit
        if "." not in digits:
            zeros = len(digits) - len(digits.rstrip("0"))
            round_unit = max(unit, 10.0 ** min(zeros, len(digits) - 1))
        if hedged:
            unit = round_unit
        sign = -1.0 if match.group("sign") == "-" else 1.0
        mantissa = sign * float(digits) * unit_factor
        multiple = "x" if kind == "number" and match.group("unit") else ""
        written = (re.sub(r"\s+", "", match.group(g) or "") for g in ("cur", "sfx"))
        measure = "|".join(written).strip("|")
        found.append(
            Number(
                match.group(0).strip(),
                round(mantissa * factor, 10),
                round(unit * factor * unit_factor, 10),
                kind,
                signed=bool(match.group("sign")),
                scaled=factor != 1.0,
                mantissa=round(mantissa, 10),
                mantissa_unit=round(unit * unit_factor, 10),
                hedged=hedged,
                bound=bound,
                bound_unit=round(round_unit * factor * unit_factor, 10) if bound else 0.0,
                date=date,
                measure=measure + multiple,
                version=bare and digits in versions,
                days=days,
            )
        )
        text = _blank(text, start, end)
    return text


def _cn_numbers(text: str, found: list[Number], *, liberal: bool) -> str:
    for match in _CN_NUMBER.finditer(text):
        numeral = match.group("cn").rstrip("点")
        unit = match.group("unit") or ""
        if unit.startswith("分之"):
            denominator, _ = cn_number(numeral)
            numerator, _ = cn_number(match.group("num").rstrip("点"))
            if denominator and 0 < numerator <= denominator:
                found.append(_fraction(match.group(0), numerator / denominator, text,
                                       match.start(), match.end()))  # fmt: skip
            continue
        bare = not liberal and not unit and not match.group("pct")
        if not numeral or (bare and (len(numeral) < 2 or numeral in _CN_WORDS)):
            continue
        value, ulp = cn_number(numeral)
        if not value and not any(ch in "零〇" for ch in numeral):
            continue
        kind: NumberKind = "number"
        if match.group("pct") or unit in ("个百分点", "百分点"):
            kind = "percent"
        elif unit == "成":
            kind, value, ulp = "percent", value * 10, ulp * 10
        # a year written digit by digit (二〇二三年) is a date, not a duration of years
        year = len(numeral) == 4 and set(numeral) <= CN_DIGITS.keys() and 1900 <= value <= 2100
        duration = kind == "number" and not unit and not year
        days = _days_after(text, match.end()) if duration else 0.0
        found.append(Number(match.group(0), value, ulp, kind, mantissa=value, mantissa_unit=ulp,
                            derived=liberal and len(numeral) == 1 and kind == "number" and not unit,
                            bound=_bound(text, match.start(), match.end()),
                            days=days))  # fmt: skip
        text = _blank(text, match.start(), match.end())
    return text


def _versions(text: str, work: str, found: list[Number]) -> tuple[str, frozenset[str]]:
    """Versions are read first, as one number each: three parts or more (``3.12.0``),
    and two parts after a capitalised name (``Python 3.12``) or of a family the text
    writes with three (``3.10`` beside ``3.11.0``). Returns ``work`` with the long ones
    blanked, and the two-part ones to read as versions."""
    families: set[str] = set()
    for match in _VERSION.finditer(work):
        found.append(Number(match.group(0), float(".".join(match.group(1).split(".")[:2])),
                            0.0, version=True))  # fmt: skip
        families.add(match.group(1).split(".")[0])
        work = _blank(work, match.start(), match.end())
    named = {m.group(1) for m in _NAMED_VERSION.finditer(unicodedata.normalize("NFKC", text))}
    family = {
        m.group(0)
        for m in re.finditer(r"(?<![A-Za-z0-9_.])\d+\.\d+(?![A-Za-z0-9_%]|\.\d)", work)
        if m.group(0).split(".")[0] in families
    }
    return work, frozenset(named | family)


def read_numbers(text: str, *, liberal: bool = False) -> list[Number]:
    """Every number in ``text``. ``liberal`` (for a passage) also reads English number
    words, single Chinese numerals, ordinals, the numbers inside identifiers and both
    a fraction and its parts."""
    work = _MONTH_DAY.sub(r"\1 \2", prepare(text))
    work = _RANGE_SCALE.sub(r"\1 \3\2", _ORDINAL_FRACTION.sub(r"\1/\2", work))
    work = _DOTTED_DATE.sub(r"\1-\2-\3", work)
    found: list[Number] = []
    work, versions = _versions(text, work, found)
    for pattern in _MASKS:
        for match in pattern.finditer(work):
            if liberal and pattern is _MASKS[0]:
                for part in re.split(r"[-_:]", match.group(0)):
                    if _IDENTIFIER_PART.fullmatch(part):
                        parts: list[Number] = []
                        _digit_numbers(part, parts)
                        found.extend(replace(n, token=True, derived=True)
                                     for n in parts)  # fmt: skip
            elif liberal and pattern is _MASKS[1] and match.group(0)[0].isdigit():
                value = float(re.sub(r"\D+$", "", match.group(0)))
                found.append(Number(match.group(0), value, 1.0, mantissa=value,
                                    mantissa_unit=1.0, derived=True))  # fmt: skip
            work = _blank(work, match.start(), match.end())
    work = _mixed(work, found)
    work = _word_percents(work, found)
    work = _fractions(work, found, keep_parts=liberal)
    work = _digit_numbers(work, found, versions)
    work = _cn_numbers(work, found, liberal=liberal)
    if liberal:
        for match in _COMPOUND_WORD.finditer(work):
            value = float(_WORDS[match.group("tens")] + _WORDS[match.group("ones")])
            found.append(Number(match.group(0), value, 1.0, mantissa=value, mantissa_unit=1.0,
                                derived=True, days=_days_after(work, match.end())))  # fmt: skip
            work = _blank(work, match.start(), match.end())
        for match in re.finditer(rf"\b(?:{_PASSAGE_WORD})\b", work):
            value = float(_WORDS[match.group(0)])
            found.append(Number(match.group(0), value, 1.0, mantissa=value, mantissa_unit=1.0,
                                derived=True, days=_days_after(work, match.end())))  # fmt: skip
        for match in re.finditer(rf"\b(?:{'|'.join(_ORDINAL_WORDS)})\b", work):
            value = float(_ORDINAL_WORDS[match.group(0)])
            found.append(Number(match.group(0), value, 1.0, mantissa=value, mantissa_unit=1.0,
                                derived=True))  # fmt: skip
        found.extend(list_counts(text))
        prepared = prepare(text)
        for match in _MONTH_DATE.finditer(prepared):
            name = match.group("m1") or match.group("m2")
            value = float(MONTHS[name])
            found.append(Number(name, value, 1.0, mantissa=value, mantissa_unit=1.0,
                                derived=True, month=True))  # fmt: skip
        for match in _ONE_UNIT.finditer(prepared):
            found.append(Number(match.group(0), 1.0, 1.0, mantissa=1.0, mantissa_unit=1.0,
                                derived=True,
                                days=_days_after(prepared, match.start() + 2)))  # fmt: skip
    return found


def list_counts(text: str) -> list[Number]:
    """The number of names in each list of names of ``text``, as small counts: names
    joined by "and" or "or" ("Chicago and Minneapolis" -> 2, "Boston, Cleveland,
    Richmond, and San Francisco" -> 4), or items separated by ``、`` ("北京、上海和广州"
    -> 3). An English name is up to four capitalised words; a Chinese list needs at
    least one ``、`` (``和`` alone joins clauses as often as names)."""
    text = _MARKDOWN_LINK.sub(r"\1", unicodedata.normalize("NFKC", text))
    # a line's own marker (``27、``, ``3.``) numbers the line: it is no item of a list
    unmarked = _MASKS[2].sub(lambda marker: " " * len(marker.group(0)), text)
    counts: list[tuple[str, int]] = []
    for pattern, separator in ((_EN_LIST, _EN_LIST_SEP), (_ZH_LIST, _ZH_LIST_SEP)):
        for match in pattern.finditer(unmarked):
            counts.append((match.group(0), len(separator.split(match.group(0).strip()))))
    counts += _line_lists(text)
    counts += _parallel_items(text)
    return [
        Number(shown, float(count), 1.0, mantissa=float(count), mantissa_unit=1.0, derived=True)
        for shown, count in counts
        if 2 <= count <= SMALL_COUNT
    ]


_CLAUSE_END: Final = re.compile(r"[。；;!?！？\n]|[.:：](?=\s|$)")
"""Where a clause ends, in NFKC text (a full-width comma is a comma there, and joins
items)."""
_ITEM_SEP: Final = re.compile(r"\s*(?:,|、)?\s*(?:\b(?:and|or)\b|以及|和|与|及|或)\s*|\s*[,、]\s*")


def _shape(token: str) -> str:
    """A token's shape: its numbers as ``D``, its capitalised words as ``A``, its
    lower-case ones as ``a``; a Chinese one keeps its last character (``基础版`` and
    ``对话版`` are both ``…版``). A plain lower-case word has none: prose is no list."""
    token = re.sub(r"(?<=[A-Za-z0-9])_(?=[A-Za-z0-9])", "", token.strip(" `*'\"()[]"))
    shape = re.sub(r"\d+(?:\.\d+)?", "D", token)
    shape = re.sub(r"[a-z]+", "a", re.sub(r"[A-Z][A-Za-z]*", "A", shape))
    if re.search(r"[\u4e00-\u9fff]$", shape):
        return "…" + shape[-1]
    return "" if shape == "a" else shape


def _parallel_items(text: str) -> list[tuple[str, int]]:
    """The length of each run of two or more items of one shape joined by commas,
    ``、``, "and", "or", 和, 与, 及 or 或 within a clause: ``:pep:`634`, :pep:`635`,
    :pep:`636``` (3), ``1.8B、7B 和 20B`` (3), ``基础版和对话版`` (2). The first item is
    compared by its last word, the last by its first; the items between are short (at
    most three words)."""
    found: list[tuple[str, int]] = []
    for clause in _CLAUSE_END.split(unicodedata.normalize("NFKC", text)):
        items = [i.split() for i in _ITEM_SEP.split(clause) if i.strip()]
        run: list[list[str]] = []
        for words in [*items, []]:
            if (
                run
                and words
                and _shape(words[0]) != ""
                and _shape(words[0]) == _shape(run[-1][-1])
                and (len(run) == 1 or len(run[-1]) <= 3)
            ):
                run.append(words)
                continue
            if len(run) >= 2:
                found.append(("、".join(" ".join(w) for w in run), len(run)))
            run = [words] if words else []
    return found


def _line_lists(text: str) -> list[tuple[str, int]]:
    """The length of each list written one item a line: a numbered list that counts
    from 1 (``1.``, ``2)``, ``3、``: its last number) or a run of bullets (``-``,
    ``*``, ``•``) at one indentation."""
    found: list[tuple[str, int]] = []
    numbered: list[int] = []
    bullets: list[str] = []

    def close() -> None:
        if numbered and numbered == list(range(1, len(numbered) + 1)):
            found.append((f"1-{len(numbered)}.", len(numbered)))
        if bullets:
            found.append((f"{len(bullets)} bullets", len(bullets)))
        numbered.clear()
        bullets.clear()

    for line in text.splitlines():
        if not line.strip():
            continue
        number = _NUMBERED_LINE.match(line)
        bullet = _BULLET_LINE.match(line)
        if number is not None:
            if bullets:
                close()
            numbered.append(int(number.group(1)))
        elif bullet is not None:
            if numbered or (bullets and bullets[-1] != bullet.group(1)):
                close()
            bullets.append(bullet.group(1))
        elif not line.startswith((" ", "\t")):
            close()  # an indented line continues the item above
    close()
    return found
