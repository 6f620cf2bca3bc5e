"""``repetition``: a turn is at least 0.8 similar to an earlier turn of the same side.

Similarity is the larger of two wording measures, each a cosine between 0 and 1:
character n-grams of the whole text (3- to 5-grams of English, 1- to 3-grams of
Chinese), which survive reordered sentences and small edits; and content terms
(stemmed English content words; Chinese content characters and their bigrams),
which survive changed function words and inflections. A paraphrase that says the
same thing in new words scores far lower on both, and is not flagged: repetition
here is of wording, not of ideas. Turns with fewer than ``MIN_TERMS`` content terms
are too short to call repeated.

A turn is compared with its side's last ``history.REPEAT_WINDOW`` turns and with older
ones whose content terms share a sketch band with it (``moot.detectors.history``), so
a long transcript is not compared pair by pair.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache
from itertools import filterfalse

from moot.detectors.finding import Finding
from moot.detectors.history import TurnHistory, history_for
from moot.detectors.lexical import EN_STOPWORDS as _EN_STOP
from moot.detectors.lexical import (
    ZH_STOP_CHARS,
    cjk_runs,
    content_terms,
    cosine,
    latin_words,
    norm,
    shorten,
    similarity,
    stem,
)
from moot.detectors.transcript import Transcript

THRESHOLD = 0.8
"""A turn at least this similar to an earlier turn of its side repeats it."""
MIN_TERMS = 4
"""Turns with fewer content terms than this are never called repetitions."""
CHARS_AFTER = 0.3
"""The character n-gram cosine, the costlier measure, is only taken when the
content-term cosine reaches this: two texts that share few content words do not share
80% of their character n-grams."""


MEANING_BASE = 0.50
"""With the sentence encoder: a turn of ``MEANING_LENGTH`` distinct content terms
restates an earlier turn of its side when their cosine reaches this."""
MEANING_SLOPE = 0.08
"""The threshold grows by this much per natural-log unit of the turn's length in
distinct content terms (long turns on one motion are alike in meaning anyway):
``MEANING_BASE + MEANING_SLOPE * ln(terms / MEANING_LENGTH)``; 0.50 at 20 terms, 0.57
at 50, 0.63 at 100, 0.72 at 300."""
MEANING_LENGTH = 20
MEANING_MIN_TERMS = 20
"""Shorter turns ("That's not true.", a two-line rejoinder) are not judged by meaning:
their vectors are close to many turns."""
MEANING_OPPONENTS = 3
"""A restatement must be closer (by ``MEANING_MARGIN``) to the side's own earlier turn
than to any of the opponents' last this-many turns: answering the same exchange again
is not repeating."""
MEANING_MARGIN = 0.05


def meaning_threshold(terms: int) -> float:
    """The cosine at which a turn of ``terms`` distinct content terms restates one."""
    return MEANING_BASE + MEANING_SLOPE * math.log(max(terms, 1) / MEANING_LENGTH)


@lru_cache(maxsize=4096)
def _content_vector(text: str) -> Counter[str]:
    """Stemmed English content words, and Chinese content characters with the bigrams
    of the text once its function characters are removed."""
    # map and filterfalse keep the loop in C (stem is cached)
    vector: Counter[str] = Counter(map(stem, filterfalse(_EN_STOP.__contains__, latin_words(text))))
    for run in cjk_runs(text):
        kept = "".join(ch for ch in run if ch not in ZH_STOP_CHARS)
        vector.update(kept)
        vector.update(kept[i : i + 2] for i in range(len(kept) - 1))
    return vector


@lru_cache(maxsize=4096)
def _content_norm(text: str) -> float:
    return norm(_content_vector(text))


def turn_similarity(a: str, b: str) -> float:
    """How alike two turns are in wording: the larger of the character n-gram cosine and
    the content-term cosine (the first taken only from ``CHARS_AFTER`` of the second)."""
    content = cosine(_content_vector(a), _content_vector(b), _content_norm(a), _content_norm(b))
    if content < CHARS_AFTER:
        return content
    return max(similarity(a, b), content)


def check(transcript: Transcript, index: int, history: TurnHistory | None = None) -> Finding | None:
    """Whether turn ``index`` repeats an earlier turn of the same side (``history`` of
    the turns before it saves re-reading them)."""
    turn = transcript.turns[index]
    terms = content_terms(turn.text)
    if len(set(terms)) < MIN_TERMS:
        return None
    history = history_for(transcript, index, history)
    best: tuple[float, int] | None = None
    for earlier in history.repeat_candidates(turn.side, terms):
        other = transcript.turns[earlier]
        score = turn_similarity(turn.text, other.text)
        if score >= THRESHOLD and (best is None or score > best[0]):
            best = (score, earlier)
    if best is None:
        if history.meaning is not None:
            return _by_meaning(transcript, index, history, len(set(terms)))
        return None
    score, earlier = best
    return Finding(
        "repetition",
        index,
        turn.side,
        "repetition",
        {
            "earlier": earlier,
            "similarity": score,
            "threshold": THRESHOLD,
            "quote": shorten(turn.text, 120),
        },
    )


def _by_meaning(
    transcript: Transcript, index: int, history: TurnHistory, terms: int
) -> Finding | None:
    """Whether turn ``index`` restates an earlier turn of its side in meaning (the
    sentence encoder), with a threshold that grows with the turn's length."""
    meaning = history.meaning
    if meaning is None or terms < MEANING_MIN_TERMS:
        return None
    turn = transcript.turns[index]
    own = history.repeat_candidates(turn.side, content_terms(turn.text))
    if not own:
        return None
    score, at = meaning.best(turn.text, [transcript.turns[i].text for i in own])
    threshold = meaning_threshold(terms)
    if score < threshold:
        return None
    opponents = history.opponents_last(turn.side, MEANING_OPPONENTS)
    answered = meaning.best(turn.text, [transcript.turns[i].text for i in opponents])[0]
    if score - answered < MEANING_MARGIN:
        return None
    return Finding(
        "repetition",
        index,
        turn.side,
        "repetition.meaning",
        {
            "earlier": own[at],
            "similarity": score,
            "threshold": threshold,
            "quote": shorten(turn.text, 120),
        },
        mode="encoder",
    )
