"""What the per-turn detectors need to know about the turns before the one they judge,
kept up to date as a transcript is read in order, so that judging every turn of a
long transcript costs about as much per turn as judging one (``moot lint`` on 100,000
turns). Nothing here decides anything; the detectors ask.

- every content term said so far (with the motion's), and each side's own, as sets:
  their size is bounded by the vocabulary, not by the number of turns;
- each side's last ``RECENT`` turns' runs of words (``shingles``), pooled (each mapped
  to the last turn that used it; older ones are pruned every ``RECENT`` turns), for
  "is this copied from what the opponents said": read into the pool only when a detector
  first asks about that side, since most turns never need it;
- for repetition, each side's last ``REPEAT_WINDOW`` turns, and a sketch index of all
  its earlier turns: three bands of the six content terms with the smallest stable
  hash. Two turns with nearly the same content terms share a band, so an old turn
  repeated word for word is still found, without comparing every pair.

A transcript no longer than the windows is judged exactly as by comparing all pairs.
"""

from __future__ import annotations

import zlib
from collections import Counter, deque
from collections.abc import Iterable

from moot.detectors.lexical import cjk_runs, content_terms, latin_words
from moot.detectors.meaning import Encoder
from moot.detectors.transcript import Transcript

RECENT = 50
"""Turns per side whose words count as "what that side said" for copy checks."""
REPEAT_WINDOW = 12
"""Earlier turns of the same side always compared for repetition."""
SKETCH_BANDS = 3
"""Bands of two smallest-hash content terms each, indexing older turns."""
BAND_CANDIDATES = 2
"""Most recent older turns taken from each matching band."""
FRAMING_TURNS = 3
FRAMING_SHARE = 0.5
LAST_TURNS = 16
"""Turns of any side kept in order, for "the opponents' last turns"."""


SHINGLE_WORDS = 3
"""English runs of this many words, and Chinese runs of one more characters, are what
"copied" is measured on: a sentence copied from the opponent repeats their runs of
words; one in the speaker's own words shares few, however common its words are."""


def shingles(text: str) -> set[str]:
    """The runs of ``SHINGLE_WORDS`` words (English) and ``SHINGLE_WORDS + 1``
    characters (Chinese) of a text."""
    words = latin_words(text)
    # each run of SHINGLE_WORDS words, joined in C (zip stops at the last full run)
    runs = zip(*(words[k:] for k in range(SHINGLE_WORDS)), strict=False)
    found = set(map(" ".join, runs))
    size = SHINGLE_WORDS + 1
    for run in cjk_runs(text):
        found.update(run[i : i + size] for i in range(len(run) - size + 1))
    return found


def motion_terms(transcript: Transcript) -> set[str]:
    """The content terms of the topic, the stances and the side names."""
    texts = [transcript.topic, *transcript.sides, *transcript.sides.values()]
    return {term for text in texts for term in content_terms(text)}


def _term_hash(term: str) -> int:
    return zlib.crc32(term.encode("utf-8"))


def sketch(terms: Iterable[str]) -> tuple[tuple[int, ...], ...]:
    """The bands of a turn's content-term sketch (empty for fewer than two terms)."""
    hashes = sorted({_term_hash(t) for t in terms})[: 2 * SKETCH_BANDS]
    return tuple(tuple(hashes[i : i + 2]) for i in range(0, len(hashes) - 1, 2))


class TurnHistory:
    """The turns of ``transcript`` before a given index, indexed for the detectors.
    ``advance(index)`` takes in the turns up to (not including) ``index``; it only moves
    forward, so the detectors are run on the turns in order."""

    def __init__(self, transcript: Transcript, meaning: Encoder | None = None) -> None:
        self.transcript = transcript
        self.meaning = meaning
        """The sentence encoder, or None when the detectors run lexically."""
        self.motion_texts = [
            text for text in (transcript.topic, *transcript.sides.values()) if text.strip()
        ]
        self._last: deque[int] = deque(maxlen=LAST_TURNS)
        self._relevance: dict[int, float] = {}
        self.position = 0
        self.motion = motion_terms(transcript)
        self.said: set[str] = set(self.motion)
        self.side_terms: dict[str, set[str]] = {side: set() for side in transcript.sides}
        self.side_turns: dict[str, int] = dict.fromkeys(transcript.sides, 0)
        self._term_turns: dict[str, Counter[str]] = {side: Counter() for side in transcript.sides}
        self._recent: dict[str, deque[int]] = {side: deque() for side in transcript.sides}
        self._pool: dict[str, dict[str, int]] = {side: {} for side in transcript.sides}
        self._unpooled: dict[str, deque[int]] = {
            side: deque(maxlen=RECENT) for side in transcript.sides
        }
        """Each side's recent turns not read into its pool yet (an older one would only
        map runs to a turn that ``copied_share`` no longer counts)."""
        self._taken: dict[str, int] = dict.fromkeys(transcript.sides, 0)
        self._window: dict[str, deque[int]] = {s: deque() for s in transcript.sides}
        self._bands: dict[str, dict[tuple[int, ...], list[int]]] = {
            side: {} for side in transcript.sides
        }

    def advance(self, index: int) -> None:
        """Take in every turn before ``index``."""
        if index < self.position:
            raise ValueError("a TurnHistory only moves forward")
        for i in range(self.position, index):
            self._take(i)
        self.position = index

    def _take(self, i: int) -> None:
        turn = self.transcript.turns[i]
        self._last.append(i)
        terms = content_terms(turn.text)
        self.said.update(terms)
        self.side_terms[turn.side].update(terms)
        self.side_turns[turn.side] += 1
        self._term_turns[turn.side].update(set(terms))  # one more turn for each term (in C)
        recent = self._recent[turn.side]
        recent.append(i)
        self._unpooled[turn.side].append(i)
        self._taken[turn.side] += 1
        if len(recent) > RECENT:
            recent.popleft()
            if self._taken[turn.side] % RECENT == 0:  # now and then, forget older runs
                oldest = recent[0]
                pool = self._pool[turn.side]
                self._pool[turn.side] = {g: at for g, at in pool.items() if at >= oldest}
        window = self._window[turn.side]
        window.append(i)
        if len(window) > REPEAT_WINDOW:
            old = window.popleft()
            for band in sketch(content_terms(self.transcript.turns[old].text)):
                self._bands[turn.side].setdefault(band, []).append(old)

    def copied_share(self, part: str, sides: Iterable[str]) -> float:
        """The share of ``part``'s word runs (``shingles``) found in the recent turns
        of ``sides``."""
        grams = shingles(part)
        if not grams:
            return 0.0
        sides = list(sides)
        for side in sides:
            self._read_into_pool(side)
        pools = [(self._pool[s], self._recent[s][0]) for s in sides if self._recent[s]]
        found = sum(1 for g in grams if any(p.get(g, -1) >= oldest for p, oldest in pools))
        return found / len(grams)

    def _read_into_pool(self, side: str) -> None:
        """Map each word run of ``side``'s unpooled turns, in order, to the last of its
        turns that used it."""
        pool, waiting = self._pool[side], self._unpooled[side]
        while waiting:
            i = waiting.popleft()
            pool.update(dict.fromkeys(shingles(self.transcript.turns[i].text), i))

    def repeat_candidates(self, side: str, terms: Iterable[str]) -> list[int]:
        """Earlier turns of ``side`` worth comparing with a turn of these content
        ``terms``: its last ``REPEAT_WINDOW`` turns and the older ones sharing a band."""
        found = set(self._window[side])
        bands = self._bands[side]
        if bands:  # else no turn of the side is older than the window yet
            for band in sketch(terms):
                found.update(bands.get(band, [])[-BAND_CANDIDATES:])
        return sorted(found)

    def framing(self, side: str, terms: Iterable[str]) -> set[str]:
        """Those of ``terms`` that ``side`` used in more than ``FRAMING_SHARE`` of its
        turns (at least ``FRAMING_TURNS`` of them): the side's set phrasing (a template,
        a sign-off, "illustrative figure"), not a point it made once."""
        count = self.side_turns[side]
        if count < FRAMING_TURNS:
            return set()
        counts = self._term_turns[side]
        return {t for t in terms if counts.get(t, 0) > FRAMING_SHARE * count}

    def opponents_last(self, side: str, count: int) -> list[int]:
        """The last ``count`` turns (at most ``LAST_TURNS`` back) not spoken by ``side``,
        oldest first."""
        found = [i for i in self._last if self.transcript.turns[i].side != side]
        return found[-count:] if count > 0 else []

    def relevance(self, index: int) -> float:
        """How close turn ``index`` is in meaning to the motion: the highest cosine of
        its sentence vector with the topic's and each stance's (needs ``meaning``)."""
        found = self._relevance.get(index)
        if found is None:
            if self.meaning is None:
                raise ValueError("relevance needs the sentence encoder")
            text = self.transcript.turns[index].text
            found = self.meaning.best(text, self.motion_texts)[0] if self.motion_texts else 0.0
            self._relevance[index] = found
        return found


def history_for(transcript: Transcript, index: int, history: TurnHistory | None) -> TurnHistory:
    """``history`` moved to ``index``, or a new one when none is given (or it is past
    ``index``, or belongs to another transcript)."""
    if history is None or history.transcript is not transcript or history.position > index:
        history = TurnHistory(transcript)
    history.advance(index)
    return history
