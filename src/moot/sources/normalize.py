"""Text as a quote is compared with its passage (docs/citation-verification.md).

Both sides go through the same steps, in this order:

1. **Width and compatibility forms** (Unicode NFKC): full-width letters, digits and
   punctuation as their half-width forms (``３．５％`` -> ``3.5%``, ``，`` -> ``,``),
   ligatures and compatibility characters folded (``ﬁ`` -> ``fi``, ``…`` -> ``...``).
2. **Case**: case-folded (``Straße`` -> ``strasse``).
3. **Quotation marks**: every quotation mark, curly or straight, single or double,
   CJK corner brackets (「」『』), guillemets («»‹›) and their relatives, becomes ``"``.
4. **Dashes and minus signs**: hyphen, en and em dash, minus, figure dash ->
   ``-``.
5. **Whitespace**: every run of whitespace (line breaks, tabs, no-break and ideographic
   spaces) is one space; whitespace next to a CJK character is dropped (text pulled
   from PDFs often splits Chinese lines mid-sentence); a hyphen that ends a line
   inside a word is kept as a hyphen, the line break dropped.
6. **Soft characters**: zero-width spaces and joiners, soft hyphens and byte-order
   marks are removed.

A quote that is not found so is looked for once more with every quotation mark and
bracket (``"[]{}<>`` and the CJK ones, after step 3) left out of both
(:func:`find_unmarked`): a model
whose grammar cannot write a double quote or a bracket (the embedded backend's prose
pattern, ``moot.llm.grammar``) can still quote a passage that holds them, and
:func:`passage_span` gives the passage's own words for such a quote.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

QUOTE_MARKS: Final = (
    "\"'`´\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u2032\u2033\u2035\u2036"
    "\u00ab\u00bb\u2039\u203a\u300c\u300d\u300e\u300f\u301d\u301e\u301f\uff02\uff07"
    "\ufe41\ufe42\ufe43\ufe44"
)
"""Every character read as a quotation mark."""
DASHES: Final = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
"""Every character read as a hyphen or minus sign."""
_SOFT: Final = re.compile("[\u00ad\u200b\u200c\u200d\u2060\ufeff]")
_TABLE: Final = str.maketrans({**dict.fromkeys(QUOTE_MARKS, '"'), **dict.fromkeys(DASHES, "-")})
_CJK = r"\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_SPACE_NEAR_CJK: Final = re.compile(rf"(?<=[{_CJK}])\s+|\s+(?=[{_CJK}])")
_SPACE_AFTER_CJK_MARK: Final = re.compile(r"(?<=[\u3000-\u303f，；：！？（）])\s+")
"""Whitespace after Chinese punctuation ("，\n"): removed before NFKC makes "，" a ","."""
_SPACE: Final = re.compile(r"\s+")
_LINE_HYPHEN: Final = re.compile(r"(?<=\w)-[ \t]*\n\s*(?=\w)")


def normalise_text(text: str) -> str:
    """``text`` as quotes and passages are compared (the module's steps 1-6)."""
    text = _SPACE_AFTER_CJK_MARK.sub("", _SOFT.sub("", text))
    text = unicodedata.normalize("NFKC", text).casefold()
    text = text.translate(_TABLE)
    text = _LINE_HYPHEN.sub("-", text)
    text = _SPACE_NEAR_CJK.sub("", text)
    return _SPACE.sub(" ", text).strip()


ELLIPSIS: Final = re.compile(r"\s*(?:\.\s*){3,}\s*|\s*\[\s*\.\.\.\s*\]\s*")
"""An ellipsis in a quote (``...``, ``…`` after NFKC, ``[...]``): text left out."""
_PUNCTUATION: Final = r'[\s"\-,.;:!?，。；：！？、()\[\]]+'
_EDGES: Final = re.compile(rf"^{_PUNCTUATION}|{_PUNCTUATION}$")


def quote_fragments(quote: str) -> list[str]:
    """The normalised pieces of a quote that must occur in the passage, in order: the
    quote split at each ellipsis, each piece without the punctuation and quotation
    marks at its ends (a quote may end where the passage's sentence goes on)."""
    pieces = ELLIPSIS.split(normalise_text(quote))
    return [p for p in (_EDGES.sub("", piece) for piece in pieces) if p]


def find_quote(passage: str, quote: str) -> bool:
    """Whether every fragment of ``quote`` occurs in ``passage``, in order, after both
    are normalised. A quote with no text in it is not found."""
    fragments = quote_fragments(quote)
    if not fragments:
        return False
    text = normalise_text(passage)
    at = 0
    for fragment in fragments:
        found = _find_whole(text, fragment, at)
        if found < 0:
            return False
        at = found + len(fragment)
    return True


MARKS: Final = '"[]{}<>【】〔〕〈〉《》〖〗*'
"""What :func:`find_unmarked` leaves out: the quotation mark every quotation mark
becomes, brackets (a grammar-constrained prose string can hold no ASCII one;
a model may drop or swap the CJK ones as well) and Markdown's emphasis asterisks
(``*deploy*`` reads "deploy" once rendered)."""
_UNMARK: Final = str.maketrans(dict.fromkeys(MARKS + "\\", ""))


def _unmarked(text: str) -> str:
    return _SPACE.sub(" ", normalise_text(text).translate(_UNMARK)).strip()


def find_unmarked(passage: str, quote: str) -> bool:
    """Whether ``quote`` occurs in ``passage`` (as :func:`find_quote`) once quotation
    marks and brackets are left out of both."""
    return find_quote(_unmarked(passage), _unmarked(quote))


def passage_span(passage: str, quote: str) -> str | None:
    """The words of ``passage`` a quote written without its quotation marks and
    brackets stands for (case, width of quotation marks and white space may differ),
    or None when the quote (with no ellipsis) is not found so in the raw passage."""
    marks = "".join(re.escape(c) for c in sorted(set(QUOTE_MARKS + MARKS + "\\")))
    gap = f"[\\s{marks}]*"
    words = [w for w in re.split(rf"[\s{marks}]+", quote) if w]
    if not words or any(ELLIPSIS.search(w) for w in words):
        return None
    body = gap.join(gap.join(re.escape(c) for c in w) for w in words)
    found = re.search(body, passage, flags=re.IGNORECASE)
    return found.group(0).strip() if found else None


_CJK_CHAR: Final = re.compile(rf"[{_CJK}]")


def _normalised_with_offsets(text: str) -> tuple[str, list[int]]:
    """``text`` normalised as :func:`normalise_text` does, character by character,
    with the index in ``text`` that each character of the result comes from."""
    chars: list[str] = []
    where: list[int] = []
    for n, char in enumerate(text):
        if _SOFT.match(char):
            continue
        for out in unicodedata.normalize("NFKC", char).casefold().translate(_TABLE):
            chars.append(out)
            where.append(n)
    text_out: list[str] = []
    where_out: list[int] = []
    k = 0
    while k < len(chars):
        if not chars[k].isspace():
            text_out.append(chars[k])
            where_out.append(where[k])
            k += 1
            continue
        end = k
        while end < len(chars) and chars[end].isspace():
            end += 1
        before = text_out[-1] if text_out else ""
        after = chars[end] if end < len(chars) else ""
        line_hyphen = (
            before == "-"
            and "\n" in chars[k:end]
            and len(text_out) > 1
            and re.match(r"\w", text_out[-2]) is not None
            and re.match(r"\w", after) is not None
        )
        near_cjk = bool(_CJK_CHAR.match(before) or _CJK_CHAR.match(after))
        if before and after and not near_cjk and not line_hyphen:
            text_out.append(" ")
            where_out.append(where[k])
        k = end
    return "".join(text_out), where_out


def quote_spans(passage: str, quote: str) -> list[tuple[int, int]]:
    """Where the words of ``quote`` lie in ``passage``, as ``(start, end)`` indexes of
    the passage's own characters, one span per piece of the quote (an ellipsis leaves
    text out), found as :func:`find_quote` finds them, or as :func:`passage_span`
    does for a quote written without its quotation marks; empty when not found. The
    report marks these words."""
    text, where = _normalised_with_offsets(passage)
    fragments = quote_fragments(quote)
    spans: list[tuple[int, int]] = []
    at = 0
    for fragment in fragments:
        found = _find_whole(text, fragment, at)
        if found < 0:
            break
        at = found + len(fragment)
        spans.append((where[found], where[at - 1] + 1))
    else:
        if spans:
            return spans
    own = passage_span(passage, quote) if find_unmarked(passage, quote) else None
    start = passage.find(own) if own else -1
    return [(start, start + len(own))] if own and start >= 0 else []


def _find_whole(text: str, fragment: str, start: int) -> int:
    """Where ``fragment`` occurs in ``text`` from ``start`` on without cutting through
    a number at either end ("by 5" is not in "by 50"); -1 if nowhere."""
    found = text.find(fragment, start)
    while found >= 0:
        end = found + len(fragment)
        cut_before = fragment[0].isdigit() and found > 0 and text[found - 1].isdigit()
        cut_after = fragment[-1].isdigit() and end < len(text) and _continues_number(text, end)
        if not cut_before and not cut_after:
            return found
        found = text.find(fragment, found + 1)
    return -1


def _continues_number(text: str, at: int) -> bool:
    """Whether the number ending before ``at`` goes on (``5`` of ``50`` or ``5.25``)."""
    if text[at].isdigit():
        return True
    return text[at] in ".," and at + 1 < len(text) and text[at + 1].isdigit()
