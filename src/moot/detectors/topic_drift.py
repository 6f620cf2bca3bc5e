"""``topic_drift``: a turn is unrelated to the motion.

Relatedness is measured against what the debate is about so far: the motion (topic,
every side's stance and name) and the earlier turns. Very common words ("city",
"money", "week", "时间", "问题") are set aside, since sharing one says little about
sharing a subject. A turn drifts when either

- it is not tied to the motion (no distinctive term of the motion, at most one common
  one), under ``UNRELATED_MAX_SHARE`` of its distinctive terms occur anywhere earlier
  in the debate, and it never addresses the debate (the opponent, the motion, a side
  by name, the other speaker as "you"); this needs at least one earlier turn to
  compare with; or
- it talks about the task or its reader instead of the motion, as a model slipping
  out of the debate does (a leaked "### Instruction:", "I apologize", "尊敬的用户",
  "祝您在比赛中取得好成绩"), and what follows the last such cue (the whole turn when
  little follows) is not tied to the motion; judged on the turn alone, so a debate
  that has already drifted does not excuse it, nor does addressing the opponent; or
- it announces a change of subject ("speaking of which", "by the way", "let me also
  mention", "顺便说一句", "说到这里"...), shares at most one term with the motion and
  under ``CHANGE_MAX_SHARE`` of its terms with the debate so far.

Only earlier turns count, so a turn is judged the same during the debate and after
it. An on-topic tangent (an anecdote, a case from another city) usually ties back
with a word of the motion or of the earlier turns, and is not flagged.

Limits: a tangent that ties back only through meaning, with none of the debate's
words, is flagged; a drift that keeps reusing the debate's words (or the motion's) is
missed; an opening statement is judged only by the change-of-subject rule. Turns with
fewer than ``MIN_TERMS`` distinct content terms are not judged.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from moot.detectors.cues import (
    ADDRESS,
    ENGAGEMENT,
    META_TALK,
    SUBJECT_CHANGE,
    SUBJECT_CHANGE_LEAD,
)
from moot.detectors.finding import Finding
from moot.detectors.history import TurnHistory, history_for
from moot.detectors.history import motion_terms as motion_terms
from moot.detectors.lexical import common_terms, content_terms, coverage, fold, shorten
from moot.detectors.transcript import Transcript

UNRELATED_MAX_SHARE = 0.06
"""A turn not tied to the motion drifts if less than this share of its distinctive
(not very common) terms occur earlier in the debate."""
CHANGE_MAX_SHARE = 0.25
"""A turn that changes the subject drifts if less than this share of its terms occur
earlier in the debate (and at most one is a motion term)."""
MIN_TERMS = 5
"""Turns with fewer distinct content terms are too short to judge."""
RELEVANCE_BASE = 0.12
"""With the sentence encoder: a turn of ``RELEVANCE_LENGTH`` distinct content terms is
far from the motion when the cosine of its vector with the topic's and every stance's
stays under this."""
RELEVANCE_SLOPE = 0.02
"""Per natural-log unit of length in distinct content terms (a long turn on the motion
comes closer to it than a short one): ``RELEVANCE_BASE + RELEVANCE_SLOPE * ln(terms /
RELEVANCE_LENGTH)``; 0.11 at 10 terms, 0.15 at 300."""
RELEVANCE_LENGTH = 20
MEANING_MIN_TERMS = 10
"""Shorter turns are not judged by meaning."""
OPPONENT_WINDOW = 4
"""A turn far from the motion still counts as on topic when it answers one of the
opponents' last this-many turns that was itself on the motion."""
ON_MOTION = 0.20
"""An opponent's turn is on the motion when its cosine with the motion reaches this."""
ANSWERS = 0.35
"""A turn answers an opponent's turn when their cosine reaches this."""


def relevance_threshold(terms: int) -> float:
    """The motion cosine under which a turn of ``terms`` distinct terms is far from it."""
    return RELEVANCE_BASE + RELEVANCE_SLOPE * math.log(max(terms, 1) / RELEVANCE_LENGTH)


def names_a_side(text: str, names: Iterable[str]) -> bool:
    """Whether ``text`` mentions one of the side ``names`` (as a word, for Latin names)."""
    folded = fold(text)
    for name in names:
        key = fold(name).strip()
        if len(key) < 2:
            continue
        if re.search(r"[a-z0-9]", key):
            if re.search(rf"(?<![a-z0-9]){re.escape(key)}(?![a-z0-9])", folded):
                return True
        elif key in folded:
            return True
    return False


def check(transcript: Transcript, index: int, history: TurnHistory | None = None) -> Finding | None:
    """Whether turn ``index`` is unrelated to the motion (judged on earlier turns only;
    ``history`` of the turns before it saves re-reading them)."""
    turn = transcript.turns[index]
    terms = set(content_terms(turn.text))
    if len(terms) < MIN_TERMS:
        return None
    history = history_for(transcript, index, history)
    motion = history.motion
    context = history.said
    common = common_terms()
    folded = fold(turn.text)
    values: dict[str, object] = {"quote": shorten(turn.text, 120), "topic": transcript.topic}

    change = SUBJECT_CHANGE.search(folded) or SUBJECT_CHANGE_LEAD.search(folded)
    share = coverage(terms, context)
    if change and len(terms & motion) <= 1 and share < CHANGE_MAX_SHARE:
        # the cue as written (folding keeps offsets when the text had no full-width forms)
        source = turn.text if len(folded) == len(turn.text) else folded
        values["cue"] = source[change.start() : change.end()].strip(" ,，。.")
        values["share"] = share
        return Finding("topic_drift", index, turn.side, "topic_drift.change", values)

    specific = terms - common
    # One common word shared with the motion ("company", "city") does not tie a turn to it.
    tied = bool(specific & motion) or len(terms & motion & common) > 1
    metas = list(META_TALK.finditer(folded))
    if metas:
        # what follows the last such cue is what the model went on to write
        tail = set(content_terms(folded[metas[-1].end() :]))
        judged = tail if len(tail) >= MIN_TERMS else terms
        if not (judged - common) & motion and len(judged & motion & common) <= 1:
            source = turn.text if len(folded) == len(turn.text) else folded
            values["cue"] = source[metas[-1].start() : metas[-1].end()].strip(" ,，。.#*:：")
            return Finding("topic_drift", index, turn.side, "topic_drift.meta", values)
    # specific terms are not common, so this is their share in context minus common terms
    specific_share = coverage(specific, context)
    if (
        index > 0
        and not tied
        and specific_share < UNRELATED_MAX_SHARE
        # engagement is looked for only when it decides (its patterns are long)
        and not (
            ENGAGEMENT.search(folded)
            or ADDRESS.search(folded)
            or names_a_side(turn.text, transcript.sides)
        )
    ):
        values["share"] = specific_share
        return Finding("topic_drift", index, turn.side, "topic_drift.unrelated", values)
    if history.meaning is not None and len(terms) >= MEANING_MIN_TERMS:
        return _by_meaning(transcript, index, history, len(terms), values)
    return None


def _by_meaning(
    transcript: Transcript,
    index: int,
    history: TurnHistory,
    terms: int,
    values: dict[str, object],
) -> Finding | None:
    """Whether turn ``index`` is far in meaning from the motion and answers none of the
    opponents' last on-motion turns (the sentence encoder)."""
    meaning = history.meaning
    if meaning is None:
        return None
    relevance = history.relevance(index)
    threshold = relevance_threshold(terms)
    if relevance >= threshold:
        return None
    turn = transcript.turns[index]
    on_motion = [
        transcript.turns[i].text
        for i in history.opponents_last(turn.side, OPPONENT_WINDOW)
        if history.relevance(i) >= ON_MOTION
    ]
    if meaning.best(turn.text, on_motion)[0] >= ANSWERS:
        return None
    values.update(relevance=relevance, threshold=threshold)
    return Finding("topic_drift", index, turn.side, "topic_drift.meaning", values, "encoder")
