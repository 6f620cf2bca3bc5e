"""Reading numbers as people write them, shared by every check that compares a cited
number with its source: the market format's evidence check and the citation
verifier of ``moot.sources``.

- :func:`ascii_digits`: full-width digits and signs (``３．５％``, ``−``) as ASCII,
  one character for one, so offsets hold;
- :func:`cn_number`: a Chinese numeral (``二十八点五``, ``三千二百万``, ``二〇二三``)
  as its value and the precision it was written with;
- :func:`written_unit`: one unit in the last written digit of a number (``3.5`` -> 0.1,
  ``4,850`` -> 10);
- :data:`MONTHS`: English month names and their abbreviations as month numbers;
- :data:`MAGNITUDES`: scale words (``billion``, ``bn``, ``亿``, ``万亿``);
- :func:`agrees`: whether a value rounds or truncates to a cited number at the
  precision it was written with.
"""

from __future__ import annotations

from typing import Final

_FULLWIDTH = str.maketrans(
    {**{chr(0xFF10 + i): str(i) for i in range(10)}, "％": "%", "．": ".", "＋": "+",
     "－": "-", "−": "-", "／": "/", "（": "(", "）": ")", "＄": "$"}
)  # fmt: skip

CN_DIGITS: Final = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5,
                    "六": 6, "七": 7, "八": 8, "九": 9}  # fmt: skip
CN_NUMERAL_CHARS: Final = "零〇一二两三四五六七八九十百千万亿点"
"""Every character a Chinese numeral is written with (``点`` is the decimal point)."""

MONTHS: Final = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12, "jan": 1,
    "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10,
    "nov": 11, "dec": 12,
}  # fmt: skip
"""English month names, full and abbreviated (lower case), as month numbers."""

MAGNITUDES: Final = {
    "万亿": 1e12, "亿": 1e8, "万": 1e4, "千": 1e3, "trillion": 1e12, "tn": 1e12, "t": 1e12,
    "billion": 1e9, "bn": 1e9, "b": 1e9, "million": 1e6, "mn": 1e6, "m": 1e6,
    "thousand": 1e3, "k": 1e3,
}  # fmt: skip
"""Scale words (lower case) and the factor each stands for."""


def ascii_digits(text: str) -> str:
    """Full-width digits and signs as ASCII (one character for one: offsets hold)."""
    return text.translate(_FULLWIDTH)


def written_unit(digits: str) -> float:
    """One unit in the last written digit of ``digits`` (commas already removed).

    Trailing zeros of a whole number of four or more digits count as rounding as long
    as that unit stays within 1% of the number (``4,850`` -> 10, ``3000`` -> 10)."""
    if "." in digits:
        return 10.0 ** -len(digits.split(".")[1])
    stripped = digits.lstrip("0") or "0"
    zeros = len(stripped) - len(stripped.rstrip("0")) if len(stripped) >= 4 else 0
    unit = 1.0
    while zeros and unit * 10 <= float(stripped) / 100:
        unit *= 10
        zeros -= 1
    return unit


def _cn_integer(text: str) -> int:
    """A Chinese integer numeral: 十/百/千 scale the digit before them within a group,
    万 closes a group of ten thousands and 亿 one of hundred millions (万亿 = 10^12); a
    scale character with no digit before it counts one (``万`` = 10^4, ``千`` = 1000).
    Digits written one after another with no scale character (``二〇二三``) are read
    positionally."""
    if len(text) > 1 and all(ch in CN_DIGITS for ch in text):
        return int("".join(str(CN_DIGITS[ch]) for ch in text))
    hundred_millions, ten_thousands, section, digit = 0, 0, 0, 0
    for ch in text:
        if ch in CN_DIGITS:
            digit = CN_DIGITS[ch]
        elif ch in "十百千":
            section += (digit or 1) * {"十": 10, "百": 100, "千": 1000}[ch]
            digit = 0
        elif ch == "万":
            ten_thousands += (section + digit or 1) * 10_000
            section, digit = 0, 0
        elif ch == "亿":
            group = hundred_millions + ten_thousands + section + digit
            hundred_millions = (group or 1) * 100_000_000
            ten_thousands, section, digit = 0, 0, 0
    return hundred_millions + ten_thousands + section + digit


def cn_number(text: str) -> tuple[float, float]:
    """A Chinese numeral (``二十八点五``) as (value, ulp)."""
    whole, _, decimals = text.partition("点")
    value = float(_cn_integer(whole))
    if decimals:
        value += float("0." + "".join(str(CN_DIGITS.get(ch, 0)) for ch in decimals))
        return value, 10.0 ** -len(decimals)
    return value, 1.0


def agrees(cited: float, unit: float, value: float, *, signed: bool) -> bool:
    """Whether ``value`` rounds or truncates to ``cited`` at precision ``unit`` (one
    unit in its last written digit): ``|cited - value| <= unit/2``, or
    ``cited <= value < cited + unit`` in magnitude. Signs are compared only when the
    citation wrote one (``signed``); otherwise magnitudes are ("fell 3.2%" cites -3.2)."""
    if not signed:
        cited, value = abs(cited), abs(value)
    eps = 1e-9 * max(1.0, abs(value))
    if abs(cited - value) <= unit / 2 + eps:
        return True
    same_sign = value == 0 or (cited >= 0) == (value >= 0)
    return same_sign and abs(cited) - eps <= abs(value) < abs(cited) + unit - eps
