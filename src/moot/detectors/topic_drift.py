"""``topic_drift``: a turn is unrelated to the motion.

Relatedness is measured against what the debate is about so far: the motion (topic
and every side's stance) and the earlier turns. A turn drifts when either

- it shares no content term with the motion, almost none (under
  ``UNRELATED_MAX_SHARE``) of its content terms occur anywhere in the debate so far,
  and it never addresses the debate (the opponent, the motion, a side by name); or
- it announces a change of subject ("speaking of which", "by the way", "顺便说一句",
  "说到这里"...), shares at most one term with the motion, and under
  ``CHANGE_MAX_SHARE`` of its terms with the debate so far.

Only earlier turns count, so a turn is judged the same during the debate and after
it. An on-topic tangent (an anecdote, a case from another city) usually ties back
with a word of the motion or of the earlier turns, and is not flagged.

Limits: a tangent that ties back only through meaning, with none of the debate's
words, is flagged; a drift that keeps reusing the debate's words is missed. Turns
with fewer than ``MIN_TERMS`` content terms are not judged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from moot.detectors.cues import ENGAGEMENT, SUBJECT_CHANGE, SUBJECT_CHANGE_LEAD
from moot.detectors.finding import Finding
from moot.detectors.lexical import common_terms, content_terms, coverage, fold, shorten
from moot.detectors.transcript import Transcript

UNRELATED_MAX_SHARE = 0.06
"""A turn with no motion term drifts if less than this share of its terms occur in the
debate so far."""
CHANGE_MAX_SHARE = 0.25
"""A turn that changes the subject drifts if less than this share of its terms occur in
the debate so far (and at most one is a motion term)."""
MIN_TERMS = 5
"""Turns with fewer distinct content terms are too short to judge."""


def motion_terms(transcript: Transcript) -> set[str]:
    """The content terms of the topic, the stances and the side names."""
    texts = [transcript.topic, *transcript.sides, *transcript.sides.values()]
    return {term for text in texts for term in content_terms(text)}


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


def check(transcript: Transcript, index: int) -> Finding | None:
    """Whether turn ``index`` is unrelated to the motion (judged on earlier turns only)."""
    turn = transcript.turns[index]
    terms = set(content_terms(turn.text))
    if len(terms) < MIN_TERMS:
        return None
    motion = motion_terms(transcript)
    context = set(motion)
    for earlier in transcript.turns[:index]:
        context.update(content_terms(earlier.text))
    on_motion = len(terms & motion)
    share = coverage(terms, context)
    common = common_terms()
    specific = terms - common
    specific_share = coverage(specific, context - common)
    folded = fold(turn.text)
    change = SUBJECT_CHANGE.search(folded) or SUBJECT_CHANGE_LEAD.search(folded)
    values: dict[str, object] = {
        "share": share,
        "quote": shorten(turn.text, 120),
        "topic": transcript.topic,
    }
    if change and on_motion <= 1 and share < CHANGE_MAX_SHARE:
        values["cue"] = change.group(0).strip(" ,，。.")
        return Finding("topic_drift", index, turn.side, "topic_drift.change", values)
    engaged = ENGAGEMENT.search(folded) or names_a_side(turn.text, transcript.sides)
    # One common word shared with the motion ("company", "city") does not tie a turn to it.
    tied = len(specific & motion) > 0 or len(terms & motion & common) > 1
    if index > 0 and not tied and specific_share < UNRELATED_MAX_SHARE and not engaged:
        return Finding("topic_drift", index, turn.side, "topic_drift.unrelated", values)
    return None
