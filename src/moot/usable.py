"""Whether a piece of model prose is usable text: the one rule for every output.

A small model constrained to JSON sometimes fills a prose field with debris (``[{``,
``{{ <debate> <rebuttal>``, ``furthermore: [``), with a loop ("1.1.1.1...") or with
no words at all. Such a value is not content. The structured-call layer checks every
string of every reply with :func:`unusable_reason`; a value that fails is replaced by
:func:`marker` ("(no usable text)") before anything reads it, and the result records a
warning with code ``UNUSABLE`` (``unusable_text``) and the field's path, which the
trust verdict reads. So the Markdown briefing, the HTML report and the JSON result all
show the marker, never the raw value (the raw reply stays in the call journal).

The rules, in order (the first that matches is the reason):

- ``debris``: template syntax (``{{``, ``}}``, ``{%``), the prompts' ``<debate>`` fence,
  markup (two tags or more making up ``TAG_SHARE`` of the text; one ``vector<int>`` is
  prose), or a quoted JSON key (``'reasoning':``); copies of the marker below making up
  ``MARKER_SHARE`` of the text or leaving no usable text (a judge reads the debate with
  its unusable fields marked, and SmolLM2 wrote the marker back into its key insight);
  a copy of the debate's own label lines (``LABEL_LINE``: "PRO-1: refute - refutation
  of CON-1 CON-2: challenge ...", the cross-examination as a closing prompt lists it,
  written back as a closing's stance and as the judge's questions);
  a list of labels (``LABEL_LIST_WORDS``: two argument ids or more and fewer than
  three words besides them, "concessions: CON-1 vs. PRO-1", given as a stance
  change's reason); a made-up heading in capitals at the start (``SHOUTED_LABEL``:
  "PARTIAIRAL ADAPTION: ...", the judge's recommendation) or a text in capitals
  (``SHOUTED_SHARE``: "CONS/REFULLIGUTE");
  a value that starts with a closing bracket (``]``, ``}``, ``)``, ``）``), a comma or a
  semicolon (the separator SmolLM2 writes where JSON's quote is banned: ``, You are``)
  or with two opening ones (``[{``),
  or ends with an opening one (``furthermore: [``); or one in which ``{ } [ ] < >``
  and ``"`` are four or more and a tenth of the visible characters or more;
- ``loop``: a run of at least ``LOOP_CHARS`` characters made of one unit of at most
  10 characters repeated 8 times or more;
- ``no_words``: fewer than two words (a Chinese character counts as a word), in a
  field meant for sentences (a schema ``maxLength`` of ``SENTENCE_FIELD`` or more).

Across the fields of one reply, :func:`copied_texts` finds a judge's reasons that are
near-copies for most of the arguments (``COPIED``): the judge check flags them, and
they are shown as the marker too (``MARKED_CODES``).

Only free, non-empty strings are checked: a string whose schema has an ``enum`` (a
response type, a pinned id) is never prose, and an empty one (a field the format lets
stay empty, such as a challenge's new evidence) shows nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Sequence
from difflib import SequenceMatcher
from functools import lru_cache
from itertools import islice
from typing import Any, Literal

from moot.regex_gate import gated
from moot.text import CJK_RANGES, join_sentences

UNUSABLE = "unusable_text"
"""The warning code of a prose field that was not usable text."""

MARKERS = {"en": "(no usable text)", "zh": "（无可用文本）"}
"""What is shown instead of an unusable value, by language."""

LOOP = re.compile(r"(.{1,10}?)\1{7,}", re.DOTALL)
LOOP_CHARS = 24
"""A string with a run of at least this many characters made of one unit of at most 10
characters repeated 8 times or more ("1.1.1.1...", "the the the ...") is a model caught
in a loop."""

_KEY = r"['\"“‘「『＂][a-z_][A-Za-z0-9_]*['\"”’」』＂]\s*[:：]"
"""A quoted JSON key and its colon, in ASCII or full-width quotes (Gemma 3 270M wrote
``》，“reasoning”: “…`` into Chinese prose). A schema's keys start in lower case; a
quoted word in capitals before a colon (“AI”：) is prose."""
_MARKUP = gated(rf"</?debate\s*>|\{{\{{|\}}\}}|\{{%|%\}}|{_KEY}")
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9_-]*\s*/?>")
_COPIED_MARKER = re.compile("|".join(re.escape(m) for m in MARKERS.values()), re.IGNORECASE)
_LABEL = re.compile(r"\b[A-Z]{1,4}-\d{1,3}\s*[:：]")
LABEL_LINE = re.compile(
    r"^\s*[A-Z]{1,4}-\d{1,3}\s*[:：]|\b[A-Z]{1,4}-\d{1,3}\s*[:：]\s*[a-z]+\s*(?:-|—)"
    r"|\b[A-Z]{1,4}-\d{1,3}\s*[:：]\s*(?:refute|challenge|concede|partial)\b"
)
"""The shape of a label line a prompt lists the debate in (``CON-1: refute - ...``: an
id and a colon at the start, an id, a colon, one lowercase word and a dash, or an id,
a colon and a response type, "Pro on CON-3: refute argument is ..."): a
value holding one, or two labels (an id and a colon) or more, copies the debate's
structure instead of saying something. An id inside a sentence ("The weakest point
is CON-2: it names no source") is prose."""
SHOUTED_LABEL = re.compile(r"^\W*((?:[A-Z]{2,}[\s_]+)*[A-Z]{2,})(?:\s*[:：]|\s+[-–—])")
SHOUTED_LETTERS = 8
"""A text that opens with a label in capitals (``PARTIAIRAL ADAPTION:``, ``KEY
INSIGHT:``, ``PARTIAIREA -``: capital words before a colon or a dash, at least
``SHOUTED_LETTERS`` capital letters in all) is a heading the model made up, often of
words that do not exist, not a sentence; an acronym before a colon (``GDPR:``, ``US
GDP:``, ``UNESCO -``) is prose."""
SHOUTED_SHARE = 0.6
"""A text whose letters are this share capitals or more, ``SHOUTED_LETTERS`` of them at
least (words of two letters or more, two of them in capitals), is written in
capitals: "CONS/REFULLIGUTE", "PARTIAIRALLING THEIR RISKS TOGETHER ...", made-up words
among them; acronyms inside prose ("the OECD and the WHO") are not, nor the Latin words
of a text that is mostly Chinese (HIV, WHO, AI) or one note ("(CROSSTALK)")."""
_CAPS_WORD = re.compile(r"[A-Za-z]{2,}")
_ID = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z][A-Za-z_]{0,15}-\d{1,3}(?!\d)")
LABEL_LIST_WORDS = 3
"""A text naming two argument ids or more with fewer than this many words of its own
besides them (a Chinese character counting as half a word) is a list of labels, not a
reason ("concessions: CON-1 vs. PRO-1")."""
TAG_SHARE = 0.3
"""Two tags or more that make up this share of a text make it markup."""
_JSON_EDGE = gated(r"^\s*[\]})）,;，；]|^\s*[\[{]\s*[\[{\"]|[\[{][\s,:]*$")
_JSON_HEAD = re.compile(r"\s*(?:[\]})）,;，；]|[\[{]\s*[\[{\"])")
"""``_JSON_EDGE``'s two alternatives anchored at the start, tried by ``match``."""
_FENCE = re.compile(r"</?debate\s*>")
_QUOTED_KEY = re.compile(_KEY)
_TEMPLATE = ("{{", "}}", "{%", "%}")
_ID_DASH = re.compile(r"[A-Z]-\d")
"""What ``LABEL_LINE`` and ``_LABEL`` both need: a capital letter, a dash, a digit."""


def _opens_at_end(text: str) -> bool:
    """``_JSON_EDGE``'s last alternative (``[\\[{][\\s,:]*$``): an opening bracket followed
    by nothing but whitespace, commas and colons. ``str.rstrip`` strips the characters
    ``\\s`` matches (both are Unicode's ``isspace``)."""
    end = text.rstrip()
    while end[-1:] in (",", ":"):
        end = end[:-1].rstrip()
    return end[-1:] in ("[", "{")


def debris_syntax(text: str) -> bool:
    """Whether ``_MARKUP`` or ``_JSON_EDGE`` matches in ``text``: the same answer with
    each alternative tried only where it can match (the template pairs as substrings,
    the fence only after a ``<``, the JSON edges at the two ends instead of at every
    position), about a tenth of the two searches' cost on a reply's strings."""
    if any(map(text.__contains__, _TEMPLATE)):
        return True
    if "<" in text and _FENCE.search(text):
        return True
    if (":" in text or "：" in text) and _QUOTED_KEY.search(text):
        return True
    return _JSON_HEAD.match(text) is not None or _opens_at_end(text)


_PUNCTUATION = frozenset('{}[]<>"')
PUNCTUATION_SHARE = 0.1
PUNCTUATION_MIN = 4
_CJK = CJK_RANGES
_CJK_CHAR = re.compile(f"[{_CJK}]")
_CAPITAL = re.compile("[A-Z]")
_WORD = re.compile(rf"[{_CJK}]|(?:(?![{_CJK}])[^\W\d_]){{2,}}(?:_[^\W\d_]+)*")
"""A word: a CJK character, or two letters or more; words joined by underscores
(``slippery_slope``, a schema's label) are one."""
_ASCII_WORD = re.compile(r"[A-Za-z]{2,}(?:_[A-Za-z]+)*")
"""``_WORD`` in ASCII text, where a letter (``[^\\W\\d_]``) is ``[A-Za-z]`` and no
character is CJK: the same matches without a look-ahead at every letter."""


def words(text: str) -> list[str]:
    """Every ``_WORD`` in ``text``, in order."""
    return (_ASCII_WORD if text.isascii() else _WORD).findall(text)


Reason = Literal["debris", "loop", "no_words"]


_CHUNK = 8
"""The prefilter's chunk: a looping run repeats every chunk of it within 10 characters."""


_RECURRING_CHUNK = re.compile(rf"(?:.{{{_CHUNK}}})*?(?=(.{{{_CHUNK}}})).{{1,10}}?\1", re.DOTALL)
"""``may_loop``'s test in the regex engine: at a multiple of ``_CHUNK`` (the lazy
repeat steps by whole chunks from the start), the chunk there (captured in a
look-ahead) recurs 1 to 10 characters on."""


def may_loop(text: str) -> bool:
    """A cheap necessary condition for a looping run, so that the ``LOOP`` regex (about a
    microsecond a character) runs on few texts. A run of period ``p`` <= 10 and length
    ``L`` >= max(``LOOP_CHARS``, 8p) holds a chunk starting at a multiple of
    ``_CHUNK`` no later than 7 characters into it, and that chunk recurs ``p``
    characters on, inside the run, because ``L`` >= 15 + ``p`` for every ``p`` <= 10.
    The same test as ``text.find(chunk, start + 1, start + _CHUNK + 10) != -1`` for
    each chunk ``text[start : start + _CHUNK]``, ``start`` a multiple of ``_CHUNK``
    below ``len(text) - _CHUNK``, run by the regex engine (a third cheaper than that
    loop on a debate's texts)."""
    return _RECURRING_CHUNK.match(text) is not None


def looping_runs(text: str) -> list[str]:
    """The looping runs (see ``LOOP``) in ``text``."""
    return list(_looping_runs(text))


@lru_cache(maxsize=4096)
def _looping_runs(text: str) -> tuple[str, ...]:
    """``looping_runs``, cached: a reply's strings are checked for loops and then for
    usable text, and the verdict reads the judge's fields again."""
    if not may_loop(text):
        return ()
    return tuple(m.group(0) for m in LOOP.finditer(text) if len(m.group(0)) >= LOOP_CHARS)


MARKER_SHARE = 0.25
"""A model's text that copies the marker (a judge reads the debate with its unusable
fields marked) is debris when the copies make up this share of it or more, or when
what is left is not usable text of at least two words; a debater's reply that quotes
an opponent's marked claim once inside its own sentences stays usable."""


def _copies_marker(text: str, visible: int) -> bool:
    if "(" not in text and "（" not in text:  # every marker opens with one
        return False
    copies = _COPIED_MARKER.findall(text)
    if not copies:
        return False
    rest = _COPIED_MARKER.sub(" ", text)
    share = sum(len("".join(c.split())) for c in copies) / visible
    return share >= MARKER_SHARE or unusable_reason(rest) is not None or not rest.strip()


def _shouted_label(text: str) -> bool:
    if len(_CAPITAL.findall(text)) < SHOUTED_LETTERS:
        return False  # most texts: too few capitals for either rule
    found = SHOUTED_LABEL.match(text)
    if found is not None and sum(c.isupper() for c in found.group(1)) >= SHOUTED_LETTERS:
        return True
    words = _CAPS_WORD.findall(_ID.sub(" ", text))
    letters = "".join(words)
    if len(letters) < len(_CJK_CHAR.findall(text)):
        return False  # mostly Chinese: its Latin words are acronyms (HIV, WHO, AI)
    capitals = sum(c.isupper() for c in letters)
    shouting = sum(w.isupper() for w in words) >= 2  # "(CROSSTALK)" is one word
    return shouting and capitals >= SHOUTED_LETTERS and capitals >= SHOUTED_SHARE * len(letters)


def _label_list(text: str) -> bool:
    if "-" not in text or len(_ID.findall(text)) < 2:
        return False
    rest = _ID.sub(" ", text)
    cjk = len(_CJK_CHAR.findall(rest))
    latin = len(words(rest)) - cjk
    return latin + cjk / 2 < LABEL_LIST_WORDS


SENTENCE_FIELD = 40
"""A string field whose schema allows this many characters or more is meant for
sentences: fewer than two words there is not usable."""


def unusable_reason(text: str, *, sentence: bool = True, composed: bool = False) -> Reason | None:
    """Why ``text`` is not usable prose, or ``None`` when it is; ``sentence=False`` for
    a short field, where one word is enough; ``composed=True`` for a text that code put
    together from fields (a transcript turn), which may hold a field's marker."""
    return _reason(text, sentence, composed)


REASONS_CACHED = 16384
"""Answers of :func:`unusable_reason` kept: a reply's strings are checked when it
arrives and again by the trust verdict, the judge's fields by the judge's checks, and a
debate's claims come back inside later prompts' replies; with a thousand debates at
once, a text's checks lie thousands of checks apart."""


@lru_cache(maxsize=REASONS_CACHED)
def _reason(text: str, sentence: bool, composed: bool) -> Reason | None:
    visible = len("".join(text.split()))
    if not visible:
        return None  # an empty field (no new evidence) says nothing and shows nothing
    if debris_syntax(text):
        return "debris"
    if not composed and _copies_marker(text, visible):
        return "debris"
    # every label has a dash and a colon (``CON-1: refute``), and a capital before a digit
    labelled = "-" in text and (":" in text or "：" in text) and _ID_DASH.search(text)
    if not composed and labelled and (LABEL_LINE.search(text) or len(_LABEL.findall(text)) >= 2):
        return "debris"  # a copy of the debate's label lines
    if not composed and (_label_list(text) or _shouted_label(text)):
        return "debris"
    tags = _TAG.findall(text) if "<" in text else []
    if len(tags) >= 2 and sum(map(len, tags)) >= TAG_SHARE * len(text.strip()):
        return "debris"
    marks = sum(map(text.count, _PUNCTUATION))
    if marks >= PUNCTUATION_MIN and marks >= PUNCTUATION_SHARE * visible:
        return "debris"
    if looping_runs(text):
        return "loop"
    if sentence and next(islice(_WORD.finditer(text), 1, None), None) is None:
        return "no_words"  # not even a second word
    return None


SYNTHESIS_WORDS = 3
"""The fewest words of a sentence the judge's synthesis (key insight, recommendation,
an unresolved question) must be: SmolLM2 wrote "Defensive argument" as a
recommendation and "2. Challenge CON-3" as a question."""


COPIED = "copied_reason"
"""The warning code of a judge's reason that is a near-copy of its reasons for most
other arguments (see :func:`copied_texts`): shown as the marker, like unusable text."""
MARKED_CODES = frozenset({UNUSABLE, COPIED})
"""Rule problems whose field is shown as the marker when a reply is kept with them."""
COPY_RATIO = 0.85
COPY_MIN = 3
COPY_SHARE = 0.5
"""Texts alike to ``COPY_RATIO`` or more (their words, a Chinese character counting as
one, ids left out, case ignored) are near-copies; a group of at least ``COPY_MIN`` of
them and ``COPY_SHARE`` of all the texts is a copy: SmolLM2 gave six arguments "Pro-2
is not supported by the evidence provided." with some id, whatever each one's
cross-examination. Two alike among many may be one flaw found twice."""


def _copy_key(text: str) -> tuple[str, ...]:
    return tuple(words(_ID.sub(" ", text).lower()))


def _alike(
    a: tuple[str, ...], b: tuple[str, ...], count_a: Counter[str], count_b: Counter[str]
) -> bool:
    """Whether ``SequenceMatcher(None, a, b).ratio() >= COPY_RATIO``, answered "no"
    without the matcher when the words the two share (as multisets: what
    ``quick_ratio`` counts, never fewer than the matcher's matches) are too few; the
    same float formula, so the answer is exact."""
    total = len(a) + len(b)
    if total and 2.0 * min(len(a), len(b)) / total < COPY_RATIO:
        return False
    shared = count_a.keys() & count_b.keys()  # the multiset intersection, summed in C
    common = sum(map(min, map(count_a.__getitem__, shared), map(count_b.__getitem__, shared)))
    if total and 2.0 * common / total < COPY_RATIO:
        return False
    return SequenceMatcher(None, a, b).ratio() >= COPY_RATIO


def copied_texts(texts: Sequence[str]) -> list[int]:
    """The indices of ``texts`` (a judge's reasons, one per argument) in a group of
    near-copies that makes up most of them (see ``COPY_RATIO``); empty texts, markers
    and unusable texts are left to the other rules."""
    keys = {
        n: _copy_key(text)
        for n, text in enumerate(texts)
        if text.strip() and not is_marker(text) and unusable_reason(text) is None
    }
    group = {n: n for n in keys}

    def root(n: int) -> int:
        while group[n] != n:
            n = group[n]
        return n

    order = list(keys)
    counts = {n: Counter(key) for n, key in keys.items()}
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            if root(a) != root(b) and _alike(keys[a], keys[b], counts[a], counts[b]):
                group[root(b)] = root(a)
    sizes = Counter(root(n) for n in keys)
    least = max(COPY_MIN, COPY_SHARE * len(texts))
    return sorted(n for n in keys if sizes[root(n)] >= least)


def word_count(text: str) -> int:
    """Words in ``text`` (a Chinese character counts as one; figures do not)."""
    return len(words(text))


def marker(lang: str) -> str:
    """What is shown instead of an unusable value in ``lang`` (English if unknown)."""
    return MARKERS.get(lang, MARKERS["en"])


def is_marker(text: str) -> bool:
    """Whether ``text`` is the marker an unusable value was replaced by."""
    return text.strip() in MARKERS.values()


def join_usable(parts: list[str], lang: str) -> str:
    """Sentences of one field (a closing's final stance) as one text: the usable ones
    joined, the marked ones left out (their warnings name them), or one marker when
    none is usable, never the marker repeated as if it were a sentence."""
    kept = [p for p in parts if not is_marker(p)]
    return join_sentences(kept, lang) or marker(lang)


def shown(text: str, lang: str) -> str:
    """``text`` when it is usable, else the marker: for any output that prints model
    prose that did not pass through the structured-call layer."""
    return text if unusable_reason(text) is None else marker(lang)


def unusable_fields(
    value: Any, schema: Any, path: str = "", verbatim: Collection[str] = ()
) -> list[tuple[str, Reason]]:
    """``(path, reason)`` for every free string of a parsed JSON ``value`` (checked
    against its JSON ``schema``) that is not usable; a path reads
    ``arguments[1].claim`` (lists count from 1), as the echo check's do. Strings of
    the properties named in ``verbatim`` (copied from the user's data, not prose:
    ``OutputSpec.verbatim``) are not checked."""
    return unusable_among(free_strings(value, schema, path, verbatim))


def unusable_among(strings: Iterable[tuple[str, str, bool]]) -> list[tuple[str, Reason]]:
    """``unusable_fields`` of a reply's :func:`free_strings`, for a caller that reads
    them for its own checks too (one walk for both)."""
    return [
        (where, reason)
        for where, text, sentence in strings
        if (reason := unusable_reason(text, sentence=sentence)) is not None
    ]


STRING_HOLDERS = (str, dict, list)
"""What may hold a string in a parsed JSON value: a number, boolean or null holds none,
and the walks over a reply's strings do not step into one (a judge's reply is mostly
scores)."""


def free_strings(
    value: Any, schema: Any, path: str = "", verbatim: Collection[str] = ()
) -> Iterator[tuple[str, str, bool]]:
    """``(path, text, sentence)`` for every free string of a parsed JSON ``value``: not
    an enum or const of its ``schema``, not in a ``verbatim`` property; ``sentence``
    when its field is prose long enough to hold sentences (``SENTENCE_FIELD``). Found
    by one walk into a list (no generator for each node and no chain of them for each
    string to pass through), in the walk's order."""
    found: list[tuple[str, str, bool]] = []
    _free_strings(value, schema, path, verbatim, found)
    return iter(found)


def _free_strings(
    value: Any,
    schema: Any,
    path: str,
    verbatim: Collection[str],
    found: list[tuple[str, str, bool]],
) -> None:
    node = schema if isinstance(schema, dict) else {}
    if isinstance(value, str):
        if "enum" not in node and "const" not in node:
            found.append((path, value, int(node.get("maxLength", 0)) >= SENTENCE_FIELD))
    elif isinstance(value, dict):
        properties = node.get("properties", {})
        extra = node.get("additionalProperties")
        for key, item in value.items():
            if (key in verbatim and isinstance(item, str)) or not isinstance(item, STRING_HOLDERS):
                continue  # a number, boolean or null holds no string
            sub = properties.get(key, extra if isinstance(extra, dict) else {})
            where = f"{path}.{key}" if path else str(key)
            _free_strings(item, sub, where, verbatim, found)
    elif isinstance(value, list):
        fixed = node.get("prefixItems", [])
        for n, item in enumerate(value, start=1):
            if isinstance(item, STRING_HOLDERS):
                sub = fixed[n - 1] if n <= len(fixed) else node.get("items", {})
                _free_strings(item, sub, f"{path}[{n}]", verbatim, found)
