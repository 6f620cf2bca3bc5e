"""Regexes searched only where they can match: a text that contains none of the words
every match must contain is answered "no match" without running the regex.

The detectors' cue patterns (and the usable-text rule's) are long alternations
(``\\b(?:but|however|...)\\b|...``) that the regex engine tries at every position
of a text; most texts match none of them. ``required_words`` reads a pattern's parse
tree and finds a set of literal strings such that every match contains at least one
of them ("but", "however", ...); ``Gated`` checks those with ``str.__contains__`` (a
fast substring search) before the regex. The answer is always the regex's own: the
gate only skips searches that cannot succeed. A pattern with no such set (or compiled
with ``re.IGNORECASE``) is simply always searched.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from operator import add
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

_Words = frozenset[str] | None
"""Literal strings one of which every match contains, or None when there are none."""

PRODUCT = 48
"""The most strings a run of consecutive items is spelled out into ("i " x {"would ",
"'d ", ""} x {"like", "want"} x " to " ...): beyond it the run is cut in two."""
_ZERO_WIDTH = frozenset([""])


SELECTIVE = 8
"""Words of this weight are rare enough in a text (a Latin letter, digit, space or
mark weighs 1, a Chinese character 3): of several sets whose lightest word is at
least this heavy, the smallest is the cheapest to look for."""


def _weight(word: str) -> int:
    return sum(3 if ord(ch) >= 0x2E80 else 1 for ch in word)


def _best(options: list[frozenset[str]]) -> _Words:
    """The most useful of several sets that each hold on their own: the lightest word
    as heavy as possible up to ``SELECTIVE``, then the fewest words, then the heaviest
    lightest word. A set holding "" says nothing."""
    usable = [words for words in options if words and "" not in words]
    if not usable:
        return None

    def key(words: frozenset[str]) -> tuple[int, int, int]:
        lightest = min(map(_weight, words))
        return (min(lightest, SELECTIVE), -len(words), lightest)

    return max(usable, key=key)


def _product(left: frozenset[str], right: frozenset[str]) -> frozenset[str]:
    return frozenset(a + b for a in left for b in right)


def _spelled(items: Any) -> _Words:
    """Every string a sequence of parsed items can match, when they are few (at most
    ``PRODUCT``); None otherwise."""
    found = _ZERO_WIDTH
    for op, av in items:
        words = _exact(op, av)
        if words is None or len(found) * len(words) > PRODUCT:
            return None
        found = _product(found, words)
    return found


def _exact(op: Any, av: Any) -> _Words:
    """Every string one parsed item can match, when they are few; None otherwise."""
    if op is sre.LITERAL:
        return frozenset([chr(av)])
    if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
        return _ZERO_WIDTH  # an anchor or a look-around matches no characters
    if op is sre.IN:
        if any(kind is not sre.LITERAL for kind, _ in av):
            return None  # a range, a category or a negated class
        return frozenset(chr(code) for _, code in av)
    if op is sre.SUBPATTERN:
        _group, add_flags, _del_flags, pattern = av
        return None if add_flags & sre.SRE_FLAG_IGNORECASE else _spelled(pattern)
    if op is sre.BRANCH:
        found: set[str] = set()
        for alternative in av[1]:
            words = _spelled(alternative)
            if words is None:
                return None
            found |= words
        return frozenset(found) if len(found) <= PRODUCT else None
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        low, high, pattern = av
        once = _spelled(pattern)
        if once is None or high > 2:
            return None
        found = set()
        words = _ZERO_WIDTH
        for times in range(high + 1):
            if times >= low:
                found |= words
            words = _product(words, once)
        return frozenset(found) if len(found) <= PRODUCT else None
    return None


def _sequence(items: Any) -> _Words:
    """Words one of which every match of a sequence of parsed items contains: the
    strings that some run of consecutive items can match, spelled out, or any one
    item's own words (each item's match is a substring of the sequence's match).

    A run is only worth spelling out where it cannot be lengthened for free: a run
    next to an item that matches one string only (a literal character, an anchor) is
    beaten by the same run with that item added."""
    items = list(items)
    exact = [_exact(op, av) for op, av in items]
    options: list[frozenset[str]] = []
    for start, (op, av) in enumerate(items):
        if exact[start] is None:
            required = _required(op, av)
            if required:
                options.append(required)
            continue
        if start and _single(exact[start - 1]):
            continue  # the run from the item before is at least as good
        run = _ZERO_WIDTH
        for words in exact[start:]:
            if words is None or len(run) * len(words) > PRODUCT:
                break
            if not _single(words):
                options.append(run)
            run = _product(run, words)
        options.append(run)
    return _best(options)


def _single(words: _Words) -> bool:
    return words is not None and len(words) == 1


def _required(op: Any, av: Any) -> _Words:
    """Words one of which every match of one parsed item contains."""
    if op is sre.SUBPATTERN:
        _group, add_flags, _del_flags, pattern = av
        return None if add_flags & sre.SRE_FLAG_IGNORECASE else _sequence(pattern)
    if op is sre.ATOMIC_GROUP:
        return _sequence(av)
    if op is sre.BRANCH:
        found: set[str] = set()
        for alternative in av[1]:
            words = _sequence(alternative)
            if not words:
                return None  # one alternative needs nothing: neither does the whole
            found |= words
        return frozenset(found)
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        low, _high, pattern = av
        return _sequence(pattern) if low >= 1 else None
    # any character, a class too wide to spell out, a back-reference: nothing certain
    return None


def required_words(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """Literal strings one of which every match of ``pattern`` contains (None when no
    such set is known: then every text must be searched)."""
    if pattern.flags & re.IGNORECASE:
        return None
    parsed = sre_parse.parse(pattern.pattern, pattern.flags)
    if parsed.state.flags & sre.SRE_FLAG_IGNORECASE:
        return None
    return _sequence(parsed)


class Gated:
    """A compiled pattern searched only in texts that contain one of its
    ``required_words`` (``search``, ``finditer``, ``sub`` and ``split`` answer as the
    pattern's own do). The words are found on first use (tens of milliseconds for a
    long pattern), so importing a module of patterns stays cheap."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.regex = pattern
        self.pattern = pattern.pattern
        self._words: tuple[str, ...] | None = None
        self._looked_for: tuple[tuple[str, ...], tuple[str, ...]] | None = None
        self._known = False

    @property
    def words(self) -> tuple[str, ...] | None:
        """The required words, lightest first (the likeliest to be present), or None."""
        if not self._known:
            words = required_words(self.regex)
            self._words = tuple(sorted(words, key=lambda w: (_weight(w), w))) if words else None
            if self._words is not None:
                self._looked_for = looked_for(self._words)
            self._known = True
        return self._words

    def may_match(self, text: str) -> bool:
        """False only when no match is possible in ``text``."""
        if self.words is None or self._looked_for is None:
            return True
        ascii_words, every_word = self._looked_for
        # str.isascii is a flag CPython keeps: no scan
        words = ascii_words if text.isascii() else every_word
        return any(map(text.__contains__, words))

    def search(self, text: str) -> re.Match[str] | None:
        return self.regex.search(text) if self.may_match(text) else None

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.regex.finditer(text) if self.may_match(text) else iter(())

    def sub(self, replacement: str, text: str) -> str:
        return self.regex.sub(replacement, text) if self.may_match(text) else text

    def split(self, text: str) -> list[str]:
        return self.regex.split(text) if self.may_match(text) else [text]


def looked_for(words: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The words a gate looks for in a text, in their order: those holding no other of
    the ``words`` (a text holding "fails to" holds "fail"), first those an ASCII text can
    hold, then all. A text holds one of the ``words`` exactly when it holds one of these."""
    kept = tuple(w for w in words if not any(v != w and v in w for v in words))
    return tuple(w for w in kept if w.isascii()), kept


def gated(pattern: str, flags: int = 0) -> Gated:
    """``re.compile(pattern, flags)``, gated by its required words."""
    return Gated(re.compile(pattern, flags))


KEY_LENGTH = 4
"""A word is looked up in ``GateSet`` by one slice of it this long (the whole word when
shorter): a text that holds the word holds the slice."""
SLICE_WINDOW = 4096
"""``GateSet`` builds a text's slices this many characters at a time: every slice is a
string of its own (about 185 bytes a character), so a clause of a megabyte without a
full stop (speech recognition) would otherwise hold hundreds of megabytes at once."""
_COMMON = " etaoinsrhldcumfpgwybvkxjqz'"
"""Latin letters, most frequent in English first (with the space and the apostrophe):
a slice of rarer letters is in fewer texts. Any other character counts as rare."""


def _rarity(part: str) -> int:
    return sum(_COMMON.index(ch) if ch in _COMMON else len(_COMMON) for ch in part)


def _key(word: str) -> str:
    """The slice of ``word`` that ``GateSet`` looks for: its rarest ``KEY_LENGTH``
    characters in a row (the first of equals), or the whole word."""
    if len(word) <= KEY_LENGTH:
        return word
    slices = [word[i : i + KEY_LENGTH] for i in range(len(word) - KEY_LENGTH + 1)]
    return max(slices, key=_rarity)


class GateSet:
    """Several gated patterns tried on the same texts (the ad hominem forms on each
    clause): ``possible`` says at once which of them can match a text, from one pass
    over the text's short slices instead of each pattern's words in turn. Each required
    word stands for one slice of it (``_key``); a pattern none of whose slices the text
    holds holds none of its words. A pattern it keeps is still searched through its own
    gate, so the answers are the patterns' own."""

    def __init__(self, gates: Sequence[Gated]) -> None:
        self.gates = tuple(gates)
        self._keys: tuple[frozenset[str] | None, ...] = ()
        self._long: frozenset[str] = frozenset()
        self._short: tuple[str, ...] = ()
        self._known = False

    def _prepare(self) -> None:
        self._keys = tuple(
            None if gate.words is None else frozenset(map(_key, gate.words)) for gate in self.gates
        )
        every = frozenset(chain.from_iterable(k for k in self._keys if k is not None))
        self._long = frozenset(k for k in every if len(k) == KEY_LENGTH)
        self._short = tuple(sorted(k for k in every if len(k) < KEY_LENGTH))
        self._known = True

    def possible(self, text: str) -> list[bool]:
        """For each gate in order, False only when its pattern cannot match ``text``."""
        if not self._known:
            self._prepare()
        held: set[str] = set()
        # a window at a time (overlapping by a key's length less one, so every slice is
        # in one window): the slices of a long clause are built a window's worth at once
        for start in range(0, max(len(text), 1), SLICE_WINDOW):
            held.update(self._held(text[start : start + SLICE_WINDOW + KEY_LENGTH - 1]))
        return [keys is None or not held.isdisjoint(keys) for keys in self._keys]

    def _held(self, text: str) -> frozenset[str]:
        """The keys ``text`` holds: those of ``KEY_LENGTH`` characters among its slices
        of that length (each built from the one a character shorter, in C, and dropped
        once looked up), the few shorter ones (whole short words) by substring search."""
        slices: Iterable[str] = text
        for n in range(1, KEY_LENGTH):
            slices = map(add, slices, text[n:])
        return self._long.intersection(slices).union(filter(text.__contains__, self._short))
