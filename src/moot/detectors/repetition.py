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

With the sentence encoder (the encoder pass), a turn the wording rule leaves alone is
judged by a calibrated model (``moot.detectors.learned``): its cosine with the mean of
the side's earlier turns (a summary restates several at once), the wording similarity
with the side's earlier turn closest in meaning, the share of its own terms
(not the motion's, not any other side's) the side never used and the share of its
sentences that are questions, weighed by a logistic regression fitted on the train-side
splits (four features: the ones that held when a whole source was left out,
docs/detectors.md "Sixth round", "Seventh round" and "Fourteenth round"). Its threshold
is the one that gives the whole detector its best F0.5 out of source; since session 18
it is high enough that the model adds few flags (its flags had been right about one time
in five on the held-out splits), so most paraphrase is not flagged in either pass; what it
adds since the fourteenth round is mostly a summary that restates several of the side's
speeches at once.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import filterfalse

from moot.detectors.finding import Finding
from moot.detectors.history import TurnHistory, history_for, motion_terms
from moot.detectors.learned import Features, model
from moot.detectors.lexical import EN_STOPWORDS as _EN_STOP
from moot.detectors.lexical import (
    ZH_STOP_CHARS,
    cjk_runs,
    content_terms,
    cosine,
    coverage,
    latin_words,
    norm,
    shorten,
    similarity,
    split_sentences,
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


MODEL_MIN_TERMS = 4
"""With the sentence encoder, turns of at least this many distinct content terms that the
wording rule leaves alone are judged by the calibrated model (``learned``)."""


def _question_share(text: str) -> float:
    """The share of a text's sentences that are questions (pressing a question again is
    not restating a point)."""
    sentences = split_sentences(text)
    asked = sum(1 for s in sentences if s.rstrip().endswith(("?", "？")))
    return asked / len(sentences) if sentences else 0.0


@lru_cache(maxsize=4096)
def _content_vector(text: str) -> dict[str, int]:
    """Stemmed English content words, and Chinese content characters with the bigrams
    of the text once its function characters are removed. A plain dict of strings and
    counts, which the garbage collector does not track (a ``Counter`` it does, and it
    walks every entry of every cached one at each full collection)."""
    # map and filterfalse keep the loop in C (stem is cached)
    vector: Counter[str] = Counter(map(stem, filterfalse(_EN_STOP.__contains__, latin_words(text))))
    for run in cjk_runs(text):
        kept = "".join(ch for ch in run if ch not in ZH_STOP_CHARS)
        vector.update(kept)
        vector.update(kept[i : i + 2] for i in range(len(kept) - 1))
    return dict(vector.items())


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
            return _by_meaning(transcript, index, history)
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


def _novel_specific(
    transcript: Transcript, side: str, terms: set[str], history: TurnHistory
) -> float:
    """The share of the turn's own terms that ``side`` never used before. Own terms are
    those neither the motion's nor used by any other side: the scaffolding every turn of
    a debate shares (the motion's words, the facts of one article that both sides cite,
    a template's headings) is not what a turn claims, and a new claim in a templated
    turn is new in these terms (docs/detectors.md, "Seventh round"). A turn with no own
    term (an answer in the opponent's words) is measured on all its terms: 0 would call
    it a full restatement."""
    shared = motion_terms(transcript)
    others = [history.side_terms[name] for name in transcript.sides if name != side]
    specific = {t for t in terms if t not in shared and not any(t in o for o in others)}
    return 1.0 - coverage(specific or terms, history.side_terms.get(side, set()))


def meaning_features(transcript: Transcript, index: int, history: TurnHistory) -> Features | None:
    """The calibrated model's features of turn ``index`` (``history`` at ``index``, with
    the encoder; see ``learned``), or None when it is too short or its side has said
    nothing before."""
    meaning = history.meaning
    turn = transcript.turns[index]
    terms = set(content_terms(turn.text))
    if meaning is None or len(terms) < MODEL_MIN_TERMS:
        return None
    own = history.repeat_candidates(turn.side, terms)
    if not own:
        return None
    texts = [transcript.turns[i].text for i in own]
    best, at = meaning.best(turn.text, texts)
    values = {
        "pooled": meaning.pooled(turn.text, texts),
        "wording": turn_similarity(turn.text, transcript.turns[own[at]].text),
        "novel_specific": _novel_specific(transcript, turn.side, terms, history),
        "question": _question_share(turn.text),
    }
    return Features(values, own[at], best)


def _by_meaning(transcript: Transcript, index: int, history: TurnHistory) -> Finding | None:
    """Whether turn ``index`` restates an earlier turn of its side in meaning: the
    calibrated model's probability reaches its threshold."""
    fitted = model("repetition")
    found = meaning_features(transcript, index, history)
    if fitted is None or found is None or found.earlier is None:
        return None
    probability = fitted.probability(found.values)
    if probability < fitted.threshold:
        return None
    turn = transcript.turns[index]
    return Finding(
        "repetition",
        index,
        turn.side,
        "repetition.learned",
        {
            "earlier": found.earlier,
            "similarity": found.similarity,
            "probability": probability,
            "threshold": fitted.threshold,
            "quote": shorten(turn.text, 120),
        },
        mode="encoder",
    )
