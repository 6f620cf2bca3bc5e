"""Replies that copy the prompt's own field instructions instead of answering them.

Every prompt that asks for JSON describes its fields one to a line, as
``- "bull_case": the bull side's case as it stood ...``. A small model often writes
the description back as the value ("The bull side's case as it stood at the end of
the debate, in two or three sentences."): well-formed, schema-valid and empty of
content. This module finds those copies so the caller can re-ask, or keep the reply
with a warning; it knows nothing of what the fields mean."""

from __future__ import annotations

import re
from collections.abc import Iterator, KeysView, Sequence
from functools import lru_cache
from typing import Any

from moot.llm.types import Message
from moot.text import CJK_RANGES, cjk_share, normalise
from moot.usable import STRING_HOLDERS

FIELD_LINE = re.compile(r'^[ \t]*- "[A-Za-z_][A-Za-z0-9_]*"[ \t]*[:：][ \t]*(.+?)[ \t]*$', re.M)
"""A field instruction line of a prompt: its description is the first group."""

ECHO_CHARS = 30
"""A value echoes an instruction when it repeats a run of at least this many characters
of it (case and spacing ignored): longer than the phrases a real answer shares with
its question ("the bull side's case"), shorter than any description's body."""

ECHO_CHARS_CJK = 12
"""The same for a run that contains Chinese characters (one carries about a word)."""

SHORT_COPY_CHARS = 16
SHORT_COPY_SHARE = 0.75
SHORT_COPY_WORDS = 3
"""A short value is an echo when a run of at least ``SHORT_COPY_CHARS`` characters of
an instruction makes up ``SHORT_COPY_SHARE`` of it or more: "./40 to 80 words in all."
as a sentence of a final stance is the field's own length rule copied back, though the
run is shorter than ``ECHO_CHARS``. Only prose of ``SHORT_COPY_WORDS`` words or more."""


REWORDED_WORDS = 4
"""A prose value of two to this many words, every one of which one field description
holds, rewords that description instead of answering it: SmolLM2 wrote "logic/fact
error," and "partial/core accepted," as the reasons of its cross-examination, from
``"refute" (logic or fact error)`` and ``"partial" (core accepted, degree or scope
disputed)``. Longer values are read by their runs (``ECHO_CHARS``)."""

REWORDED_CJK = (4, 11)
"""The same for Chinese: a value of this many Chinese characters (fewest, most), with
no Latin word, every two-character piece of which one description holds."""

_LETTERS = re.compile(r"[^\W\d_]+")
_LATIN = re.compile(r"[A-Za-z]")
_CJK_RUN = re.compile(f"[{CJK_RANGES}]+")


@lru_cache(maxsize=1024)
def _vocabulary(description: str) -> tuple[frozenset[str], frozenset[str]]:
    """A description's Latin words and its two-character Chinese pieces."""
    return frozenset(_LETTERS.findall(description)), frozenset(_pieces(description))


def _pieces(text: str) -> set[str]:
    """The two-character pieces of ``text``'s runs of Chinese characters."""
    runs = _CJK_RUN.findall(text)
    return {run[i : i + 2] for run in runs for i in range(len(run) - 1)}


def reworded(text: str, descriptions: Sequence[str]) -> bool:
    """Whether a short prose ``text`` is made only of one description's words (see
    ``REWORDED_WORDS``, ``REWORDED_CJK``)."""
    normal = _normal(text)
    if len(normal) > 80:
        return False  # a bound, cheap to test, that four words of prose stay under
    hanzi = sum(map(len, _CJK_RUN.findall(normal)))
    if hanzi:
        fewest, most = REWORDED_CJK
        if not fewest <= hanzi <= most or _LATIN.search(normal):
            return False
        pieces = _pieces(normal)
        return any(pieces <= _vocabulary(d)[1] for d in descriptions)
    words = _LETTERS.findall(normal)
    if not 2 <= len(words) <= REWORDED_WORDS:
        return False
    return any(set(words) <= _vocabulary(d)[0] for d in descriptions)


_PUNCTUATION = re.compile(r"[^\w\s]")


def fold(text: str) -> str:
    """``normalise`` with punctuation read as space, for the copy searches: a model
    that drops the commas of "why it changed, or why it did not" still copies it."""
    return normalise(_PUNCTUATION.sub(" ", text))


def instructions(messages: Sequence[Message]) -> list[str]:
    """The field descriptions in ``messages`` (folded, without repeats)."""
    found = [found for message in messages for found in _descriptions(message.content)]
    return list(dict.fromkeys(found))


@lru_cache(maxsize=1024)
def _descriptions(content: str) -> tuple[str, ...]:
    """The field descriptions in one message, normalised (cached: the calls of a
    debate send the same system prompt and field instructions again and again)."""
    if '- "' not in content:  # every field line holds it: most messages have none
        return ()
    return tuple(map(_folded, (match.group(1) for match in FIELD_LINE.finditer(content))))


@lru_cache(maxsize=4096)
def _folded(description: str) -> str:
    """``fold`` of one field description (cached: a message that holds the field lines
    also holds the debate so far, so it is new at every call while its lines are not)."""
    return fold(description)


RULE_CHARS = 40
"""A value copies a line of the system prompt when it repeats a run of at least this
many characters of it: longer than for a field description, since a system prompt may
also hold data a reply should quote (a market's instrument names)."""

RULE_CHARS_CJK = 16
"""The same for a run that contains Chinese characters."""


def rules(messages: Sequence[Message], topic: str = "") -> list[str]:
    """The lines of the system messages in ``messages`` (the rules: "You argue AGAINST
    the topic, whatever you privately think.", which SmolLM2 wrote back as an argument's
    reasoning), each with the ``topic`` cut out, since a reply may name the topic
    (normalised, without repeats)."""
    found = [
        rule
        for message in messages
        if message.role == "system"
        for rule in _rule_lines(message.content, topic)
    ]
    return list(dict.fromkeys(found))


@lru_cache(maxsize=256)
def _rule_lines(content: str, topic: str) -> tuple[str, ...]:
    """The normalised lines of one system message with ``topic`` cut out (cached: every
    call of a debate sends the same system prompt)."""
    # the whole topic, and each of its lines (a topic of several lines spans lines)
    cuts = [c for c in (fold(topic), *map(fold, topic.splitlines())) if c]
    found = []
    for line in content.splitlines():
        rule = fold(line)
        for cut in cuts:
            rule = fold(rule.replace(cut, " "))
        if len(rule) >= RULE_CHARS_CJK:
            found.append(rule)
    return tuple(found)


@lru_cache(maxsize=1024)
def _normal(text: str) -> str:
    """:func:`fold`, cached: a reply's strings are searched twice, for copies of the
    system prompt's rules and of the field descriptions, one search after the other."""
    return fold(text)


def _strings(value: Any, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, STRING_HOLDERS):
                yield from _strings(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for n, item in enumerate(value, start=1):
            if isinstance(item, STRING_HOLDERS):
                yield from _strings(item, f"{path}[{n}]")


def _texts(value: Any, found: list[str]) -> list[str]:
    """The strings ``_strings`` walks to, in its order, without their paths (most
    replies copy nothing, and a path is only wanted for a copy): added to ``found``."""
    if isinstance(value, str):
        found.append(value)
    elif isinstance(value, dict):
        for item in value.values():
            if isinstance(item, STRING_HOLDERS):
                _texts(item, found)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, STRING_HOLDERS):
                _texts(item, found)
    return found


SHINGLE = min(ECHO_CHARS, ECHO_CHARS_CJK)
"""Any copy shares a run of at least this many characters with its description."""


@lru_cache(maxsize=1024)
def _shingles(text: str) -> KeysView[str]:
    """The ``SHINGLE``-character substrings of a text, as the keys of a plain dict: a
    set-like view the garbage collector does not walk (a frozenset it does, every
    entry of every cached one at each full collection)."""
    return dict.fromkeys([text[i : i + SHINGLE] for i in range(len(text) - SHINGLE + 1)]).keys()


@lru_cache(maxsize=1024)
def _starts(description: str) -> dict[str, list[int]]:
    """Where each ``SHINGLE``-character substring of a description starts (ascending)."""
    found: dict[str, list[int]] = {}
    for j in range(len(description) - SHINGLE + 1):
        found.setdefault(description[j : j + SHINGLE], []).append(j)
    return found


def longest_shared(text: str, description: str) -> tuple[int, int, int]:
    """``(i, j, size)`` of the longest run ``text[i:i+size] == description[j:j+size]``
    of at least ``SHINGLE`` characters, the earliest in ``text`` and then in
    ``description`` among the longest (as ``difflib.SequenceMatcher(None, text,
    description, autojunk=False).find_longest_match`` chooses); ``(0, 0, 0)`` when
    they share no such run. Every such run opens with a shared ``SHINGLE``-character
    substring, so only those starts are extended, and only where the characters
    before them differ (else a longer run holds them)."""
    starts = _starts(description)
    best = (0, 0, 0)
    for i in range(len(text) - SHINGLE + 1):
        found = starts.get(text[i : i + SHINGLE])
        if found is None:
            continue
        for j in found:
            if i and j and text[i - 1] == description[j - 1]:
                continue
            size, end = SHINGLE, min(len(text) - i, len(description) - j)
            while size < end and text[i + size] == description[j + size]:
                size += 1
            if size > best[2]:
                best = (i, j, size)
    return best


def _copied_run(
    text: str,
    description: str,
    chars: int = ECHO_CHARS,
    chars_cjk: int = ECHO_CHARS_CJK,
    short: bool = True,
) -> str:
    """The longest run ``text`` shares with ``description`` if it is long enough to
    be a copy (``chars``, ``chars_cjk`` with Chinese; or ``SHORT_COPY_CHARS`` that
    make up most of a short ``text``), else ``""``. Texts that share no
    ``SHINGLE``-character run, nearly all of them, are told apart without the
    longest-match search."""
    if _shingles(description).isdisjoint(_shingles(text)):
        return ""
    i, _, size = longest_shared(text, description)
    run = text[i : i + size]
    limit = chars_cjk if cjk_share(run) > 0 else chars
    # prose of three words or more: an enum value ("appeal_to_authority") or an id
    # copied from its field's list of choices is what the field asks for
    most = (
        short
        and size >= SHORT_COPY_CHARS
        and size >= SHORT_COPY_SHARE * len(text.strip())
        and len(text.split()) >= SHORT_COPY_WORDS
    )
    return run if size >= limit or most else ""


@lru_cache(maxsize=256)
def _owners(descriptions: tuple[str, ...]) -> dict[str, tuple[int, ...]]:
    """Every ``SHINGLE``-character substring of any of ``descriptions``, with the
    indices of the descriptions that hold it (ascending)."""
    owners: dict[str, list[int]] = {}
    for n, description in enumerate(descriptions):
        for shingle in _shingles(description):
            owners.setdefault(shingle, []).append(n)
    return {shingle: tuple(found) for shingle, found in owners.items()}


@lru_cache(maxsize=256)
def _pooled(descriptions: tuple[str, ...]) -> frozenset[str]:
    """Every ``SHINGLE``-character substring of any of ``descriptions`` (a set: its
    intersection with a text's runs walks the smaller of the two)."""
    return frozenset(_owners(descriptions))


@lru_cache(maxsize=8192)
def _copy_in(
    normal: str, descriptions: tuple[str, ...], chars: int, chars_cjk: int, short: bool
) -> str:
    """The run a normalised text copies from the first of ``descriptions`` it copies,
    else ``""`` (cached: a debate's replies repeat their claims, and its prompts their
    rules and descriptions). Only the descriptions it shares a ``SHINGLE``-character
    run with are searched, in their order."""
    pooled = _pooled(descriptions)
    # shorter than a run, or sharing no run with any description: no copy
    if len(normal) < SHINGLE or pooled.isdisjoint(shingles := _shingles(normal)):
        return ""
    owners = _owners(descriptions)
    for n in sorted(set().union(*map(owners.__getitem__, pooled.intersection(shingles)))):
        run = _copied_run(normal, descriptions[n], chars, chars_cjk, short)
        if run:
            return run
    return ""


def echoes(
    value: Any,
    descriptions: Sequence[str],
    *,
    chars: int = ECHO_CHARS,
    chars_cjk: int = ECHO_CHARS_CJK,
    short: bool = True,
) -> list[tuple[str, str]]:
    """``(path, copied run)`` for every string in a parsed JSON ``value`` that copies
    one of ``descriptions`` (a run of ``chars`` characters, ``chars_cjk`` with
    Chinese; ``short``: also a short prose value that is mostly one run, see
    ``SHORT_COPY_SHARE``); a path reads ``arguments[1].claim`` (lists count from 1)."""
    key = tuple(descriptions)
    if not any(_copy_in(_normal(t), key, chars, chars_cjk, short) for t in _texts(value, [])):
        return []
    found = []
    for path, text in _strings(value, ""):
        run = _copy_in(_normal(text), key, chars, chars_cjk, short)
        if run:
            found.append((path, run))
    return found
