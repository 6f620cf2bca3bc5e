"""Code's check of one citation: does the quote occur in the passage it cites, and
does every number of the claim and the quote occur there, or follow from it by a
documented rule? (docs/citation-verification.md)

Statuses, in the order they are decided:

- ``no_source``: the cited passage is empty (no document, no passage, or a passage
  with no text);
- ``not_in_source``: the quote is empty, or does not occur in the passage after both
  are normalised (:mod:`moot.sources.normalize`), not even with quotation marks and
  brackets left out of both; a quote may leave text out with an ellipsis, its pieces
  then occurring in order;
- ``number_mismatch``: a number of the claim (:mod:`moot.sources.numbers`) is not
  supported by any number of the passage (:func:`supports`); the quote's numbers are
  the passage's own once the quote is found, cut nowhere inside a number;
- ``verified``: otherwise.

The note says what was wrong, naming the number and the passage's closest number,
in the debate's language (``en`` or ``zh``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Final, Literal

from moot.numerals import CN_NUMERAL_CHARS, agrees, cn_number
from moot.sources.arithmetic import derivation
from moot.sources.normalize import find_quote, find_unmarked, normalise_text, passage_span
from moot.sources.numbers import HEDGED_SHARE as HEDGED_SHARE  # the tolerance of hedged figures
from moot.sources.numbers import Number, near_share, read_numbers, within_bound

CitationStatus = Literal["verified", "not_in_source", "number_mismatch", "no_source"]
STATUSES: Final[tuple[CitationStatus, ...]] = (
    "verified",
    "not_in_source",
    "number_mismatch",
    "no_source",
)

_NOTES: Final[dict[str, dict[str, str]]] = {
    "en": {
        "no_source": "the cited passage has no text",
        "no_quote": "the citation quotes nothing",
        "not_found": "the quote does not occur in the passage",
        "not_found_numbers": "the quote occurs in the passage only with other numbers ({numbers})",
        "mismatch": "not in the passage: {numbers}",
        "closest": "{number} (closest: {closest})",
        "elsewhere": "{number} (stated in {where})",
        "sep": "; ",
    },
    "zh": {
        "no_source": "所引段落没有文字",
        "no_quote": "引用没有给出原文",
        "not_found": "引文不在所引段落中",
        "not_found_numbers": "引文只有换成其他数字（{numbers}）才出现在段落中",
        "mismatch": "段落中没有这些数字：{numbers}",
        "closest": "{number}（最接近的是 {closest}）",
        "elsewhere": "{number}（出现在 {where}）",
        "sep": "；",
    },
}


@dataclass(frozen=True)
class CitationCheck:
    """The verdict on one citation: its status and a note saying why (empty when
    ``verified``)."""

    status: CitationStatus
    note: str
    quote: str | None = None
    """The passage's own words for a quote found only with quotation marks and
    brackets left out (a grammar-constrained model cannot write them), when they can
    be cut from the passage; the citation then keeps them as its quote."""


def _language(lang: str) -> dict[str, str]:
    return _NOTES["zh" if lang.lower().startswith("zh") else "en"]


def supports(passage: Number, cited: Number) -> bool:
    """Whether a number of the passage supports a cited number (the rules of
    docs/citation-verification.md, "Numbers"):

    1. **Rounding**: the passage's value rounds or truncates to the cited number at the
       precision it was written with (:func:`moot.numerals.agrees`); signs count only
       when both wrote one.
    2. **Scale words**: values compare in base units (``1.2 billion`` = ``12亿`` =
       ``1,200 million``); a scaled cited number is also supported by the same figure
       written bare (a table with its unit in the header), and a bare cited number by
       the figure of a scaled one.
    3. **Percent and fraction forms**: a percentage matches a percentage, or a fraction
       at its share (``25%`` = ``1/4`` = ``a quarter`` = ``1 in 4`` = ``四分之一``), or
       a bare number of the passage; a fraction matches an equal fraction or a
       percentage that rounds to its share, or to its value, at the percentage's
       precision ("a quarter point" = ``0.25 percentage point`` = ``25 basis points``).
       A mixed number or fraction before a percent word is a percentage
       (``5-3/4 percent`` = ``5.75%``, ``1/4 percentage point`` = ``0.25`` points). A
       bare cited number matches a number of any form. A hedged fraction ("about
       half", "近一半") is supported by a percentage within :data:`HEDGED_SHARE` of its
       share (:func:`_near_share`).
    4. **Small counts**: a bare whole number up to 12 is also found as an English number
       word or a Chinese numeral of the passage (``3`` = ``three`` = ``三``); unhedged,
       it is whole: no decimal rounds or truncates to it (``3.10`` is no "3 roles").
       What only a passage's liberal reading gives (a word, an ordinal, a list's
       length) supports whole bare numbers only, never a percentage or a decimal.
    5. **Versions** are names: the same version only (:func:`_same_version`); a number
       inside an identifier is a token: the same token only ("20B" for
       ``InternLM2-20B``, not "200亿").
    6. **Durations** compare in days (:func:`_same_duration`); a cited duration is
       supported by a duration only.
    7. **Bounds**: a bounded cited number ("more than 3,000", "under 5%") is supported
       on its side and near it (:func:`moot.sources.numbers.within_bound`), a bounded
       fraction ("more than four in five", "过半") within :data:`HEDGED_SHARE` of its
       share on its side; by rounding when the passage writes the same bound.
    8. **Months named in a date** ("November 30, 2018" -> 11) support a part of a date
       written in digits only (``2018-11-30``), never a count.
    """
    if passage.token:
        return cited.text.casefold().replace(" ", "") == passage.text
    if passage.month and not cited.date:
        return False  # "November 30" gives 11 to a date, not to "11 updates"
    if passage.version or cited.version:
        return _same_version(passage, cited)
    if cited.days:
        return bool(passage.days) and _same_duration(passage, cited)
    if cited.small and not cited.hedged and not _whole(passage):
        return False  # a count is whole: 3.10 is no "3 roles"
    whole = cited.value == round(cited.value) and "." not in cited.text
    if passage.derived and not passage.scaled and (cited.kind != "number" or not whole):
        return False  # a count, a word or an ordinal is no percentage, amount or decimal
    signed = cited.signed and passage.signed
    if not _precise_enough(passage, cited):
        return False
    if cited.kind == "fraction":
        if passage.kind == "fraction":
            return abs(passage.value - cited.value) < 1e-9
        if passage.kind == "percent" and cited.hedged:
            return near_share(passage.value, passage.unit, cited)
        return passage.kind == "percent" and any(
            agrees(passage.value, passage.unit, value, signed=False)
            for value in (cited.share, cited.value)
        )
    if passage.kind == "fraction":
        return cited.kind == "percent" and _agrees(
            cited, cited.value, cited.unit, passage.share, signed=False, bound=passage.bound
        )
    if cited.kind == "percent" and passage.kind == "number" and passage.scaled:
        return False
    if _agrees(cited, cited.value, cited.unit, passage.value, signed=signed, bound=passage.bound):
        return True
    if cited.scaled and not passage.scaled and _bare(passage) and not passage.derived:
        # a table's figure with its unit in the header; a count (two kinds of model) is
        # no such figure: "2M" is not two
        return _agrees(
            cited,
            cited.mantissa,
            cited.mantissa_unit,
            passage.value,
            signed=signed,
            bound=passage.bound,
        )
    if passage.scaled and not cited.scaled and cited.kind == "number":
        return _agrees(
            cited, cited.value, cited.unit, passage.mantissa, signed=signed, bound=passage.bound
        )
    return False


def _agrees(
    cited: Number, value: float, unit: float, written: float, *, signed: bool, bound: str = ""
) -> bool:
    """Rule 1 for the cited figure ``value`` written to ``unit`` (the figure itself, or
    the figure before its scale word): it rounds or truncates to the passage's
    ``written`` value; a bounded one ("more than 3,000", "under 5%") holds it on its
    side, within :data:`HEDGED_SHARE` (:func:`moot.sources.numbers.within_bound`),
    unless the passage writes the same bound ("at least 67%" for "at least
    two-thirds": rounding)."""
    if cited.bound and cited.bound != bound:
        return within_bound(cited, written, scale=cited.value / value if value else 1.0)
    return agrees(value, unit, written, signed=signed)


def _bare(number: Number) -> bool:
    """A figure written with no unit letters (``4.2``, ``4,200``, ``万``), as a table
    whose unit is in its header writes it; ``3G`` or ``20x`` carries a unit of its own."""
    return not any(ch.isascii() and ch.isalpha() for ch in number.text)


def _whole(number: Number) -> bool:
    """A whole number, before its scale word too (``1.8B`` is not)."""
    return number.value == round(number.value) and number.mantissa == round(number.mantissa)


def _digits(number: Number) -> str:
    return re.sub(r"[^\d.]", "", number.text).strip(".")


def _same_version(passage: Number, cited: Number) -> bool:
    """Rule 5, versions: a version is a name, not a quantity. It supports the same
    version written the same way, or a cited version it starts with (``3.12.0`` supports
    "3.12"), and nothing by rounding (``3.10`` supports no "3 years")."""
    if cited.kind != "number" or passage.kind != "number":
        return False
    here, there = _digits(passage), _digits(cited)
    return bool(there) and (here == there or ("." in there and here.startswith(there + ".")))


def _same_duration(passage: Number, cited: Number) -> bool:
    """Rule 6, durations: two durations compare in days, the cited one at the precision
    it was written with, or within 3% (months and years are not whole numbers of days):
    "1 year" is a "12-month" cadence, "60 months" is "5 years"."""
    want, have = cited.value * cited.days, passage.value * passage.days
    return abs(want - have) <= max(cited.unit * cited.days / 2, 0.03 * abs(have))


def _precise_enough(passage: Number, cited: Number) -> bool:
    """Rule 5, fractions are exact: a number written with a fraction (``1-1/2
    percent``) is supported only by its own value, and a passage's fraction
    (``6-1/2 percent``) only by its value or by a cited number written finer than the
    fraction's step (``6.5%``, ``6.50%``) — unless the cited number is hedged ("about
    7 percent"). Rounding ``3-1/2`` to ``4`` or ``1-3/4`` to ``1-1/2`` is a different
    figure, not a rounded one."""
    if cited.hedged or abs(passage.value - cited.value) < 1e-9:
        return True
    if cited.fractional:
        return False
    return not passage.fractional or cited.unit < passage.unit


def _closest(cited: Number, numbers: Sequence[Number]) -> Number | None:
    comparable = [n for n in numbers if n.kind != "fraction"]
    if cited.kind == "fraction" or not comparable:
        return None
    return min(comparable, key=lambda n: abs(abs(n.value) - abs(cited.value)))


Elsewhere = Iterable[tuple[str, str]]
"""The other passages of the sources, as ``(passage id, text)``: where a number the
cited passage does not state may come from (provenance)."""


def _exact(passage: Number, cited: Number) -> bool:
    """Whether ``passage`` states ``cited`` as it is: the same version, the same
    duration, or the same value of the same kind, not a rounding of it."""
    if passage.version or cited.version:
        return _same_version(passage, cited)
    if cited.days or passage.days:
        return abs(cited.value * cited.days - passage.value * passage.days) < 1e-6
    if passage.kind != cited.kind:
        return False
    return abs(abs(passage.value) - abs(cited.value)) <= 1e-9 * max(1.0, abs(cited.value))


ELSEWHERE_READS: Final = 50
"""At most this many other passages holding a number's digits are read for it."""


def _plain(value: float) -> str:
    """A value's digits as a passage would write them (``18``, ``3000000``, ``3.5``)."""
    return f"{value:.6f}".rstrip("0").rstrip(".")


def _digit_pattern(digits: str) -> re.Pattern[str]:
    """``digits`` as a whole number in a text without thousands separators: ``17.5``
    in ``17.50%``, not in ``117.53``."""
    whole, _, fraction = digits.partition(".")
    return re.compile(
        rf"(?<![\d.,]){re.escape(whole)}"
        + (rf"\.{re.escape(fraction.rstrip('0'))}0*" if fraction.rstrip("0") else r"(?:\.0+)?")
        + r"(?!\d|\.\d)"
    )


_CN_RUN = re.compile(f"[{CN_NUMERAL_CHARS}]+")


def _states_in_chinese(text: str, values: set[float]) -> bool:
    """Whether ``text`` writes one of ``values`` in Chinese numerals (``十八`` for 18,
    ``三百万`` for 3,000,000): the cheap test before a passage is read in full."""
    if text.isascii():
        return False
    for run in _CN_RUN.finditer(text):
        numeral = run.group().strip("点")
        if numeral:
            value, _ = cn_number(numeral)
            if any(abs(value - v) <= 1e-9 * max(1.0, v) for v in values):
                return True
    return False


def stated_in(cited: Number, elsewhere: Iterable[tuple[str, str]]) -> str | None:
    """The first other passage that states ``cited`` exactly, read strictly (no number
    words, counts or identifier parts), or None. Only passages holding its digits as a
    number (``17.5`` in ``17.50%``, not in ``117.53``) are read, at most
    :data:`ELSEWHERE_READS` of them."""
    values = {abs(cited.value), abs(cited.mantissa)}
    # a number written in Chinese numerals is looked for by its value's digits too
    written = [_digits(cited)] if _digits(cited) else sorted({_plain(v) for v in values})
    patterns = [_digit_pattern(digits) for digits in written]
    reads = 0
    for ident, text in elsewhere:
        flat = text.replace(",", "")
        if not any(p.search(flat) for p in patterns) and not _states_in_chinese(text, values):
            continue
        if any(_exact(number, cited) for number in read_numbers(text)):
            return ident
        reads += 1
        if reads >= ELSEWHERE_READS:
            break
    return None


def _figure(cited: Number) -> bool:
    """A figure, not a count: a percentage, a fraction, a scaled amount, a decimal, a
    duration, or a whole number over :data:`moot.sources.numbers.SMALL_COUNT`. A small
    count is too common to say where it comes from."""
    return not cited.small or bool(cited.days)


@dataclass(frozen=True)
class Missing:
    """A number of a claim the cited passage does not support."""

    cited: Number
    closest: Number | None
    """The passage's closest number (None when it has none)."""
    where: str | None = None
    """Another passage that states it (provenance), when one does."""


def unsupported_numbers(
    passage_text: str, text: str, elsewhere: Elsewhere | None = None
) -> list[Missing]:
    """The numbers of ``text`` no number of the passage supports, each with the
    passage's closest number (``None`` when it has none) and, for a figure, the first
    passage of ``elsewhere`` that states it (``None`` when none does). A duration is
    compared in days when the passage measures time, by its value otherwise. A number
    is also supported when it is a difference, share or ratio of two numbers of the
    passage that the claim's words signal (:func:`moot.sources.arithmetic.derivation`)."""
    passage = read_numbers(passage_text, liberal=True)
    timed = any(number.days for number in passage)
    missing = []
    as_written = []  # each missing number as the claim wrote it (a duration in days)
    for read in read_numbers(text):
        cited = replace(read, days=0.0) if read.days and not timed else read
        if not any(supports(number, cited) for number in passage) and (
            derivation(passage_text, passage, cited, text) is None
        ):
            missing.append(Missing(cited, _closest(cited, passage)))
            as_written.append(read)
    if elsewhere is None or not any(_figure(m.cited) for m in missing):
        return missing
    others = list(elsewhere)
    return [
        replace(m, where=stated_in(read, others)) if _figure(m.cited) else m
        for m, read in zip(missing, as_written, strict=True)
    ]


def _numbers_note(missing: Sequence[Missing], words: dict[str, str]) -> str:
    shown = []
    for item in missing:
        if item.where is not None:
            shown.append(words["elsewhere"].format(number=item.cited.text, where=item.where))
        elif item.closest is not None:
            shown.append(words["closest"].format(number=item.cited.text, closest=item.closest.text))
        else:
            shown.append(item.cited.text)
    return words["sep"].join(dict.fromkeys(shown))


_CN_NUMERAL = frozenset(CN_NUMERAL_CHARS) - {"点"}
"""Chinese numerals (moot.numerals'); 点 counts only inside a number, after one."""


def _without_numbers(text: str) -> str:
    """``text`` with every number as one ``#``: a run of digits, separators and
    Chinese numerals (``四十二``, ``一百五十``, ``四点五``), so a quote that differs from
    the passage only in its numbers, however either writes them, is found this way."""
    out: list[str] = []
    for ch in normalise_text(text):
        numeral = ch.isdigit() or ch in ".," or ch in _CN_NUMERAL
        if numeral or (ch == "点" and out and out[-1] == "#"):
            if not out or out[-1] != "#":
                out.append("#")
        else:
            out.append(ch)
    return "".join(out)


def verify_citation(
    passage_text: str,
    quote: str,
    claim_text: str,
    lang: str,
    elsewhere: Elsewhere | None = None,
) -> CitationCheck:
    """Check one citation: ``quote`` from the passage ``passage_text`` supporting the
    claim ``claim_text``. ``lang`` is the language of the note (``en`` or ``zh``).
    ``elsewhere`` (the other passages of the sources) gives provenance: the note of a
    ``number_mismatch`` names the passage a figure not in this one is stated in."""
    words = _language(lang)
    if not passage_text.strip():
        return CitationCheck("no_source", words["no_source"])
    if not normalise_text(quote).strip(" \"'"):
        return CitationCheck("not_in_source", words["no_quote"])
    restored: str | None = None
    if find_quote(passage_text, quote):
        pass
    elif find_unmarked(passage_text, quote):
        restored = passage_span(passage_text, quote)
    else:
        if find_quote(_without_numbers(passage_text), _without_numbers(quote)):
            missing = unsupported_numbers(passage_text, quote)
            if missing:
                note = words["not_found_numbers"].format(numbers=_numbers_note(missing, words))
                return CitationCheck("not_in_source", note)
        return CitationCheck("not_in_source", words["not_found"])
    missing = unsupported_numbers(passage_text, claim_text, elsewhere)
    if missing:
        note = words["mismatch"].format(numbers=_numbers_note(missing, words))
        return CitationCheck("number_mismatch", note, restored)
    return CitationCheck("verified", "", restored)
