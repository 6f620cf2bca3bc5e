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
  under ``CHANGE_MAX_SHARE`` of its terms with the debate so far; or
- it is not a speech at all (``non_speech``): a raw tool call, JSON or a function call
  whose values share no term with the motion (a search for the motion itself is on
  it), or a bare number (digits and no word: "2331") that answers no question; or
- it is the framework's scaffolding, not a speech (``scaffolding``): sentences that
  echo an instruction on how to write the argument ("The argument should be 100-200
  words", "字数控制在300字以内") or the framework's fallback text where the model
  returned nothing ("模型未返回可读推理") hold at least ``SCAFFOLDING_SHARE`` of its
  characters, whatever its length; or
- it serves a user who is not in the debate (``SERVICE_TALK``: "请提供公司代码", "please
  provide", an offer to look something up) and never addresses the debate, whatever
  words of the motion it repeats.

With the sentence encoder (the encoder pass), a turn of at least ``MEANING_MIN_TERMS``
terms is judged by a calibrated model (``moot.detectors.learned``), which has the last
word (the rules' verdict is one of its features: it keeps, overrules or adds a flag): its
cosine with the motion, with the opponents' last turns and with its side's last turn, the
share of its terms said before and of the motion's, whether it addresses the debate, and
its length, weighed by a logistic regression fitted on the train splits; a non-speech's
or scaffolding's flag stands (``STANDING``: the model does not judge what is no speech).
A short turn (fewer than ``SHORT_TERMS`` terms) that the model or the word-sharing rule
would flag is left alone when it is close in meaning to one of the last ``SHORT_WINDOW``
turns: it answers them in new words.

Only earlier turns count, so a turn is judged the same during the debate and after
it. An on-topic tangent (an anecdote, a case from another city) usually ties back
with a word of the motion or of the earlier turns, and is not flagged.

Limits: a tangent that ties back only through meaning, with none of the debate's
words, is flagged; a drift that keeps reusing the debate's words (or the motion's) is
missed; an opening statement is judged only by the change-of-subject rule. Turns with
fewer than ``MIN_TERMS`` distinct content terms are not judged, and the word-sharing
rule needs ``UNRELATED_MIN_TERMS`` (a fragment is read with the turn it continues, not
alone), so a short off-topic aside with no cue is missed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from moot.detectors.cues import (
    ADDRESS,
    ENGAGEMENT,
    META_TALK,
    PRESCRIBED,
    ROLE_PRESCRIPTION,
    SCAFFOLDING,
    SERVICE_TALK,
    SUBJECT_CHANGE,
    SUBJECT_CHANGE_LEAD,
)
from moot.detectors.finding import Finding
from moot.detectors.hanzi import simplified
from moot.detectors.history import TurnHistory, history_for
from moot.detectors.history import motion_terms as motion_terms
from moot.detectors.learned import Features, log_length, model
from moot.detectors.lexical import (
    QUESTION_MARKS,
    common_terms,
    content_terms,
    coverage,
    fold,
    shorten,
    split_sentences,
)
from moot.detectors.transcript import Transcript

UNRELATED_MAX_SHARE = 0.06
"""A turn not tied to the motion drifts if less than this share of its distinctive
(not very common) terms occur earlier in the debate."""
CHANGE_MAX_SHARE = 0.25
"""A turn that changes the subject drifts if less than this share of its terms occur
earlier in the debate (and at most one is a motion term)."""
MIN_TERMS = 5
"""Turns with fewer distinct content terms are too short to judge."""
UNRELATED_MIN_TERMS = 10
"""The rule that judges a turn by the words it shares with the motion and the debate
needs this many distinct content terms. A fragment of fewer (a line cut off by
crosstalk, "I paid $38 million one year", "... that's offshore back into the
country") continues or answers the turn next to it and shares no word with the debate
by chance: on the real train split every such flag (5 of 5) was wrong. Shorter turns
are still judged by the change-of-subject and meta-talk cues."""
MEANING_MIN_TERMS = 10
"""With the sentence encoder, turns of at least this many distinct content terms are judged
by the calibrated model (``learned``), which keeps, overrules or adds a lexical flag (a
non-speech's or scaffolding's flag stands, ``STANDING``); shorter turns (a fragment, a
one-line retort) keep the lexical verdict."""
SHORT_TERMS = 25
"""With the encoder, a turn of fewer distinct content terms (one to four sentences) is short:
its cosines are noisy and its words, new to the debate, say little, so a flag by the model
or by the word-sharing rule needs it also to be far from the turns just before it."""
SHORT_ANSWER_MIN = 0.35
"""A short turn whose best cosine with the last ``SHORT_WINDOW`` turns reaches this answers
them (a retort in new words, "tie businesses' hands" on a minimum wage) and is left alone
(docs/detectors.md, "Tenth round")."""
SHORT_WINDOW = 3
OPPONENT_WINDOW = 4
"""A turn is compared with the opponents' last this-many turns (judged against the motion
and what the opponent just said, not the debate so far)."""


_CALL = re.compile(r"[A-Za-z_][\w.]*\((.*)\)\s*;?", re.DOTALL)
"""A whole turn that is one function call ("search(query='...')"): its arguments."""
_WORD = re.compile(r"[^\W\d_]")
"""A letter of any script (a Chinese character is one)."""
_DIGIT = re.compile(r"\d")


def _strings(value: object) -> list[str]:
    """The string values (not the keys) of a parsed JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def non_speech(text: str) -> str | None:
    """What ``text`` says if it is not a speech but a raw tool call, JSON or a function
    call (its string values, its arguments), ``""`` for a bare number (digits and no
    word), None for a speech (or a turn of punctuation only, a speaker cut off)."""
    stripped = text.strip()
    if not stripped:
        return None
    if stripped[0] in "{[" and stripped[-1] in "}]":
        try:
            value = json.loads(stripped)
        except (ValueError, RecursionError):
            value = None
        if isinstance(value, dict | list):
            return " ".join(_strings(value))
    call = _CALL.fullmatch(stripped)
    if call is not None:
        return call.group(1)
    if _WORD.search(stripped) is None and _DIGIT.search(stripped) is not None:
        return ""  # a bare number; a dash or an ellipsis (a speaker cut off) is no call
    return None


NON_SPEECH_KEY = "topic_drift.nonspeech"
"""The key of a non-speech flag: it stands in the encoder pass (the model does not judge a
tool call)."""


def _non_speech_check(transcript: Transcript, index: int, history: TurnHistory) -> Finding | None:
    """Turn ``index`` when it is a non-speech (``non_speech``) off the motion: a tool call
    none of whose values is a term of the motion, or a wordless turn that does not follow
    a question (a bare number may answer one)."""
    turn = transcript.turns[index]
    said = non_speech(turn.text)
    if said is None:
        return None
    if said:
        if set(content_terms(said)) & history.motion:
            return None
    elif index > 0 and QUESTION_MARKS.search(transcript.turns[index - 1].text[-200:]):
        return None
    values: dict[str, object] = {"quote": shorten(turn.text, 120), "topic": transcript.topic}
    return Finding("topic_drift", index, turn.side, NON_SPEECH_KEY, values)


SCAFFOLDING_KEY = "topic_drift.scaffolding"
"""The key of a scaffolding flag (an echoed instruction, a fallback text): it stands in the
encoder pass, as a non-speech's does."""
STANDING = frozenset({NON_SPEECH_KEY, SCAFFOLDING_KEY})
"""The flags the calibrated model does not judge: the turn is not a speech."""
SCAFFOLDING_SHARE = 0.5
"""A turn is scaffolding when sentences of scaffolding hold at least this share of its
characters: a model that echoes its instructions and then argues is judged on its argument."""
ROLES = frozenset({"debater", "speaker", "writer"})
"""Who an instruction names besides the sides (``ROLE_PRESCRIPTION``)."""


def scaffolding(text: str, sides: Iterable[str]) -> str | None:
    """The first cue of ``text`` when it is the framework's scaffolding rather than a speech:
    sentences that echo an instruction on how to write the argument, or the framework's
    fallback text (``SCAFFOLDING``, ``ROLE_PRESCRIPTION`` naming a side or a debater), hold
    at least ``SCAFFOLDING_SHARE`` of its characters; None otherwise."""
    folded = fold(text)
    prescribed = PRESCRIBED.search(folded) is not None
    if not prescribed and SCAFFOLDING.search(folded) is None:
        return None
    roles = ROLES | {fold(name).strip() for name in sides}
    cue, held, total = "", 0, 0
    for sentence in split_sentences(folded):
        size = len(sentence.strip())
        total += size
        found = SCAFFOLDING.search(sentence)
        if found is None and prescribed:
            role = ROLE_PRESCRIPTION.match(sentence.strip())
            found = role if role is not None and role.group("role") in roles else None
        if found is not None:
            held += size
            cue = cue or found.group(0).strip(" (.。")
    return cue if cue and held >= SCAFFOLDING_SHARE * total else None


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
    ``history`` of the turns before it saves re-reading them): the lexical rules, and
    with the sentence encoder the calibrated model, which has the last word on turns of
    at least ``MEANING_MIN_TERMS`` terms (the lexical verdict is one of its features)."""
    history = history_for(transcript, index, history)
    found = lexical_check(transcript, index, history)
    if history.meaning is None:
        return found
    return _by_meaning(transcript, index, history, found)


def lexical_check(transcript: Transcript, index: int, history: TurnHistory) -> Finding | None:
    """The lexical rules' verdict on turn ``index`` (``history`` at ``index``)."""
    turn = transcript.turns[index]
    history = history_for(transcript, index, history)
    found = _non_speech_check(transcript, index, history)
    if found is not None:
        return found
    cue = scaffolding(turn.text, transcript.sides)
    if cue is not None:
        echoed: dict[str, object] = {"quote": shorten(turn.text, 120), "cue": cue}
        return Finding("topic_drift", index, turn.side, SCAFFOLDING_KEY, echoed)
    terms = set(content_terms(turn.text))
    if len(terms) < MIN_TERMS:
        return None
    motion = history.motion
    context = history.said
    common = common_terms()
    folded = fold(turn.text)
    # a cue as written (folding keeps offsets when the text had no full-width forms)
    source = turn.text if len(folded) == len(turn.text) else folded

    change = SUBJECT_CHANGE.search(folded) or SUBJECT_CHANGE_LEAD.search(folded)
    if (
        change
        and len(terms & motion) <= 1
        and (share := coverage(terms, context)) < CHANGE_MAX_SHARE
    ):
        cue = source[change.start() : change.end()].strip(" ,，。.")
        return _drift(transcript, index, "topic_drift.change", cue=cue, share=share)

    specific = terms - common
    # One common word shared with the motion ("company", "city") does not tie a turn to it.
    tied = bool(specific & motion) or len(terms & motion & common) > 1
    metas = list(META_TALK.finditer(folded))
    if metas:
        # what follows the last such cue is what the model went on to write
        tail = set(content_terms(folded[metas[-1].end() :]))
        judged = tail if len(tail) >= MIN_TERMS else terms
        if not (judged - common) & motion and len(judged & motion & common) <= 1:
            cue = source[metas[-1].start() : metas[-1].end()].strip(" ,，。.#*:：")
            return _drift(transcript, index, "topic_drift.meta", cue=cue)
    service = SERVICE_TALK.search(simplified(folded))
    if service is not None and not ENGAGEMENT.search(folded):
        # a user outside the debate is served: the motion's words do not make it a speech
        cue = source[service.start() : service.end()]
        return _drift(transcript, index, "topic_drift.meta", cue=cue)

    # specific terms are not common, so this is their share in context minus common terms
    specific_share = coverage(specific, context)
    if (
        index > 0
        and len(terms) >= UNRELATED_MIN_TERMS
        and not tied
        and specific_share < UNRELATED_MAX_SHARE
        # engagement is looked for only when it decides (its patterns are long)
        and not (
            ENGAGEMENT.search(folded)
            or ADDRESS.search(folded)
            or names_a_side(turn.text, transcript.sides)
        )
    ):
        return _drift(transcript, index, "topic_drift.unrelated", share=specific_share)
    return None


def _drift(transcript: Transcript, index: int, key: str, **found: object) -> Finding:
    """A lexical rule's flag on turn ``index``: its quote and the motion, then what the rule
    found (built only for a flag: most turns raise none)."""
    turn = transcript.turns[index]
    values = {"quote": shorten(turn.text, 120), "topic": transcript.topic, **found}
    return Finding("topic_drift", index, turn.side, key, values)


def meaning_features(
    transcript: Transcript, index: int, history: TurnHistory, lexical: bool
) -> Features | None:
    """The calibrated model's features of turn ``index`` (``history`` at ``index``, with
    the encoder; see ``learned``; ``lexical``: whether the lexical rules flag it), or
    None when it is too short to judge by meaning."""
    meaning = history.meaning
    turn = transcript.turns[index]
    terms = set(content_terms(turn.text))
    if meaning is None or len(terms) < MEANING_MIN_TERMS:
        return None
    relevance = history.relevance(index)
    opponents = history.opponents_last(turn.side, OPPONENT_WINDOW)
    answers = max(meaning.best(turn.text, [transcript.turns[i].text for i in opponents])[0], 0.0)
    own = next(
        (
            i
            for i in range(index - 1, max(index - 17, -1), -1)
            if transcript.turns[i].side == turn.side
        ),
        None,
    )
    own_last = (
        0.0 if own is None else max(meaning.similarity(turn.text, transcript.turns[own].text), 0.0)
    )
    folded = fold(turn.text)
    addresses = bool(
        ENGAGEMENT.search(folded)
        or ADDRESS.search(folded)
        or names_a_side(turn.text, transcript.sides)
    )
    length = log_length(len(terms))
    values = {
        "motion": relevance,
        "answers": answers,
        "own_last": own_last,
        "shared": coverage(terms - common_terms(), history.said),
        "motion_terms": coverage(terms, history.motion),
        "addresses": 1.0 if addresses else 0.0,
        "length": length,
        "motion_x_length": relevance * length,
        "lexical": 1.0 if lexical else 0.0,
    }
    return Features(values, None, relevance)


def takes_back(
    transcript: Transcript, index: int, history: TurnHistory, lexical: Finding | None
) -> bool:
    """Whether the model's flag on turn ``index`` is taken back: the turn is a short answer
    (``_answers_short``) and no lexical rule but word sharing (``lexical``) flagged it."""
    unrelated = lexical is None or lexical.evidence == "topic_drift.unrelated"
    return unrelated and _answers_short(transcript, index, history)


def _answers_short(transcript: Transcript, index: int, history: TurnHistory) -> bool:
    """Whether turn ``index`` is short (``SHORT_TERMS``) and close in meaning to one of the
    last ``SHORT_WINDOW`` turns (``SHORT_ANSWER_MIN``): it answers them."""
    meaning = history.meaning
    text = transcript.turns[index].text
    if meaning is None or index == 0 or len(set(content_terms(text))) >= SHORT_TERMS:
        return False
    window = [t.text for t in transcript.turns[max(0, index - SHORT_WINDOW) : index]]
    return meaning.best(text, window)[0] >= SHORT_ANSWER_MIN


def _by_meaning(
    transcript: Transcript, index: int, history: TurnHistory, lexical: Finding | None
) -> Finding | None:
    """The calibrated model's verdict on turn ``index``: the lexical flag when both
    agree, a flag by meaning when only the model finds the turn off the motion, none
    when the model overrules the lexical rules; the lexical verdict alone for a turn too
    short for the model."""
    if lexical is not None and lexical.evidence in STANDING:
        return lexical
    fitted = model("topic_drift")
    found = meaning_features(transcript, index, history, lexical is not None)
    if fitted is None or found is None:
        return lexical
    probability = fitted.probability(found.values)
    if probability < fitted.threshold:
        return None
    turn = transcript.turns[index]
    if takes_back(transcript, index, history, lexical):
        return None
    if lexical is not None:
        return lexical
    values: dict[str, object] = {
        "quote": shorten(turn.text, 120),
        "topic": transcript.topic,
        "relevance": found.similarity,
        "probability": probability,
        "threshold": fitted.threshold,
    }
    return Finding("topic_drift", index, turn.side, "topic_drift.learned", values, "encoder")
