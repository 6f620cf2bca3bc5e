"""Figures a claim computes from its passage: a difference, a share, a ratio or a sum
of two numbers the passage states (docs/citation-verification.md, "Derived figures").

A derivation is tried only when the claim's own words signal it, and only over two
numbers of the same passage with the same unit (two percentages, two amounts, never a
year, a version, a duration, a count read from words or an identifier's part; amounts
of the same measure, ``4.5 倍`` and ``1.5 倍`` but never ``50G`` and ``2.1``):

- **difference**, signalled by "more than" (with up to three words between: "more
  respondents than"), "fewer than", "up from", "down from",
  "increase of", "rose by", "fell by", "比…多", "增加了", "下降了" and the like: the
  cited number is ``|a - b|`` at the precision it was written with;
- **share**, signalled by "share of", "占" (a percentage), or "one in N" / "1 in N"
  (a fraction of one): the cited percentage is ``100 * a / b`` (``a < b``) at its
  precision; "one in N" holds when ``b / a`` rounds to ``N``; a fraction word with
  "share of" or "占" ("over a third") when ``100 * a / b`` is its share to the whole
  percent, or, hedged or bounded, within ``HEDGED_SHARE`` of it on the bound's side;
- **ratio**, signalled by the cited number's own unit ("times", "倍", ``x``): the
  cited multiple is ``a / b`` (``a > b``) at its precision;
- **sum**, signalled by "in total", "combined", "taken together", "altogether",
  "合计", "一共", "总共", "共 12 个": the cited number is ``a + b`` at its precision.

Each operand is bound to the claim by its words: the clause of the passage it stands in
(between commas, brackets or sentence ends; a Markdown link counts as its text) shares
a term with the claim (an English word of three letters or more that is no common
word, a part of four letters or more of a hyphenated one, a word without its "'s", or
two Chinese characters), so
"训练集占全部问题的 60%" computes from "7500 个属于训练集" and "12,500 个数学问题",
never from "5000 个属于测试集".

The precision is the cited number's (:func:`moot.numerals.agrees`: it rounds or
truncates to the computed value), so a derived figure cannot be looser than a stated
one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import permutations
from typing import Final, Literal

from moot.numerals import agrees
from moot.sources.numbers import Number, near_share, prepare

Derivation = Literal["difference", "share", "ratio", "sum"]

_DIFFERENCE: Final = re.compile(
    r"\b(?:more|fewer|less|higher|lower|greater|larger|smaller)\s+(?:[\w'-]+\s+){0,3}?than\b"
    r"|\b(?:up|down)\s+from\b"
    r"|\b(?:increase|decrease|rise|drop|decline|fall|gain|loss|jump)s?\s+(?:of|by)\b"
    r"|\b(?:rose|risen|grew|grown|fell|fallen|dropped|declined|increased|decreased"
    r"|climbed|gained|lost|jumped|shrank|shrunk)\s+by\b"
    r"|\bdifference\b|\bgap\b"
    r"|比.{0,24}?(?:多|少|高|低|增加|减少|提高|降低)"
    r"|(?:增加|减少|下降|上升|提高|降低|增长|减少|回落|上涨|下跌)了|多出|相差|差距"
)
_SHARE: Final = re.compile(r"\bshare\s+of\b|占")
_SUM: Final = re.compile(
    r"\b(?:in\s+total|total(?:led|ing|s)?|combined|together|altogether|in\s+all|sum\s+of)\b"
    r"|合计|总计|共计|一共|总共|加起来|合起来|累计|共(?=\s*(?:有|达)?\s*[\d零〇一二两三四五六七八九十百千万])"
)
"""Words that signal a sum ("in total", "combined", "taken together", "合计", "共 12 个")."""
_ONE_IN: Final = re.compile(r"\b(?:one|1)\s+(?:in|out\s+of)(?:\s+every)?\s+\w+")
_RATIO_UNIT: Final = re.compile(r"(?:倍|times|x|×)$")


_MARKDOWN_LINK: Final = re.compile(r"\[([^\]\n]*)\]\([^)\s]*\)")
_CLAUSE: Final = re.compile(r"[;:!?()\[\]\n。；：！？（）]|,(?!\d{3}(?!\d))|\.(?!\d)")
_EN_WORD: Final = re.compile(r"[a-z][a-z'-]{2,}")
_STOP: Final = frozenset({
    "the", "and", "for", "are", "was", "were", "has", "have", "had", "with", "from", "that",
    "this", "than", "more", "less", "fewer", "over", "under", "into", "its", "their", "our",
    "your", "all", "per", "cent", "percent", "percentage", "point", "points", "about", "least",
    "most", "total", "combined", "together", "share",
})  # fmt: skip
"""Common English words that bind no operand to a claim."""


def _terms(text: str) -> set[str]:
    """The content terms of a prepared text: English words (no common ones) and pairs
    of adjacent Chinese characters."""
    words = [w.removesuffix("'s").strip("'-") for w in _EN_WORD.findall(text)]
    words += [part for w in words if "-" in w for part in w.split("-") if len(part) >= 4]
    terms = {w for w in words if len(w) >= 3 and w not in _STOP}
    for run in re.findall(r"[\u4e00-\u9fff]{2,}", text):
        terms.update(run[i : i + 2] for i in range(len(run) - 1))
    return terms


def _bound(number: Number, clauses: Sequence[str], claim_terms: set[str]) -> bool:
    """Whether a clause of the passage holding ``number`` shares a term with the claim."""
    return any(number.text in clause and _terms(clause) & claim_terms for clause in clauses)


def _operand(number: Number) -> bool:
    """A number arithmetic may use: a stated amount or percentage, not a year, a
    version, a duration, an identifier's part or a count read from words."""
    year = number.kind == "number" and number.unit == 1.0 and 1900 <= number.value <= 2100
    return not (
        number.derived
        or number.version
        or number.token
        or number.days
        or number.kind == "fraction"
        or year
        or number.value == 0
    )


def _pairs(passage: Sequence[Number], kind: str) -> list[tuple[Number, Number]]:
    """Ordered pairs of distinct values, both of ``kind``, of the same scale and the
    same measure (``4.5 倍`` and ``1.5 倍``, never ``50G`` and ``2.1``)."""
    operands = {
        (n.value, n.kind, n.scaled, n.measure): n for n in passage if _operand(n) and n.kind == kind
    }
    return [
        (a, b)
        for a, b in permutations(operands.values(), 2)
        if a.scaled == b.scaled and a.measure == b.measure
    ]


def derivation(
    passage_text: str, passage: Sequence[Number], cited: Number, claim: str
) -> Derivation | None:
    """The derivation by which ``cited`` (a number of ``claim``) follows from two numbers
    of ``passage`` (read from ``passage_text``), or None. Only the derivations
    ``claim``'s words signal are tried, over operands bound to the claim by its words."""
    if cited.derived or cited.version or cited.token or cited.days or cited.fractional:
        return None
    words = prepare(claim)
    clauses = _CLAUSE.split(_MARKDOWN_LINK.sub(r"\1", prepare(passage_text)))
    terms = _terms(words)
    bound = [n for n in passage if _bound(n, clauses, terms)]
    magnitude = abs(cited.value)
    if cited.kind == "number" and _RATIO_UNIT.search(cited.text.casefold()):
        for a, b in _pairs(bound, "number") + _pairs(bound, "percent"):
            if abs(a.value) > abs(b.value) and agrees(
                magnitude, cited.unit, abs(a.value / b.value), signed=False
            ):
                return "ratio"
        return None
    if cited.kind == "fraction":
        return _fraction_share(words, bound, cited)
    if cited.kind == "percent" and _SHARE.search(words):
        for a, b in _pairs(bound, "number"):
            if 0 < a.value < b.value and agrees(
                magnitude, cited.unit, 100 * a.value / b.value, signed=False
            ):
                return "share"
    if _DIFFERENCE.search(words):
        for a, b in _pairs(bound, cited.kind):
            if a.value > b.value and agrees(magnitude, cited.unit, a.value - b.value, signed=False):
                return "difference"
    if _SUM.search(words):
        for a, b in _pairs(bound, cited.kind):
            if a.value < b.value and agrees(magnitude, cited.unit, a.value + b.value, signed=False):
                return "sum"
    return None


def _fraction_share(words: str, bound: Sequence[Number], cited: Number) -> Derivation | None:
    """A fraction the claim gives as a share of two bound amounts: "one in N" when
    ``b / a`` rounds to N; any fraction ("over a third", "约四分之一") with "share of" or
    "占" when ``100 * a / b`` is its share to the whole percent, or, hedged or bounded,
    within :data:`moot.sources.numbers.HEDGED_SHARE` of it on the bound's side."""
    one_in = _ONE_IN.search(words) is not None and (
        abs(1 / cited.value - round(1 / cited.value)) <= 1e-9
    )
    if not one_in and not _SHARE.search(words):
        return None
    for a, b in _pairs(bound, "number"):
        if not 0 < a.value < b.value:
            continue
        if one_in and round(b.value / a.value) == round(1 / cited.value):
            return "share"
        share = 100 * a.value / b.value
        if near_share(share, 0.0, cited) if cited.hedged else abs(share - cited.share) <= 0.5:
            return "share"
    return None
