"""``stance_drift``: a side argues against its own position, or takes up an opponent's
case without rebutting it.

Four signals, in this order, each with its own guard against a rebuttal:

- explicit agreement: a sentence says outright that the speaker agrees with the other
  side's view ("I agree with my opponent", "我也同意您的观点"), and neither it nor the
  next sentence turns against it (no contrast or refutation cue): this holds even when
  a later part of the turn argues something else;
- self-criticism: a side whose name says which side it is (pro/con, 正方/反方) finds
  fault with itself named in the third person, as its opponents would ("a key weakness
  in the CON case", "the CON side's approach lacks a limiting principle" said by CON):
  a debater speaking for its side says "we" or "our case". A label that opens a
  sentence ("反方论点：") is read apart from the rest: the side's own heading names it
  without finding fault, unless the label itself does ("反方的论证缺乏数据支持：").
  Its only guard is the one the signals after explicit agreement share, that reported
  and quoted sentences and questions are not the speaker's voice: a turn that finds
  fault with itself and then answers the fault is still flagged;
- agreement: the turn agrees with the opponent ("my opponent is right", "对方说得对"),
  nothing in the turn rebuts the opponents or restates the side's own stance, and at
  least ``AGREE_OPPONENT_SHARE`` of its content terms are the opponents' own (used in
  their earlier turns or stances, never by this side or the topic);
- stance: when the stances differ only by a negation ("X should" / "X should not"), a
  sentence has at least ``STANCE_COVER`` of the stance's terms with the opponent's
  polarity, under the same guard as agreement.

Which terms are the opponents' own: with more than two sides (a panel, a committee, one
side per speaker), words that two or more of the other sides have used are not counted
as any one opponent's (the exchange's shared vocabulary, or the words of the question
being answered); nor are the words of the questions other sides put in the last
``QUESTION_WINDOW`` turns (an answer reuses the words of the question it answers) or an
opponent's framing (what it says in most of its turns). Sentences that report the
opponent ("my opponent says...", "对方辩友说..."), quoted words and questions are left
out of every signal but explicit agreement: quoting in order to answer is debate, not
drift. Explicit agreement reads every sentence of the turn, a quoted one too ('He
wrote: "I agree with my opponent."' is flagged unless a contrast or refutation cue
follows). A rebuttal is a clause that opens with a contrast or refutation cue ("but",
"that ignores", "但是", "站不住") and is not itself the opponent's words; a concession
that the side then answers ("I accept X, but Y") is therefore not drift.

No share of the opponents' words alone is a flag. Until 2026-12-07 a turn whose terms
were mostly the opponents' (the "echo") was flagged: on the real transcripts it was never
once right (0 of 14 flags on every labelled real split after tuning, most of some 55
false flags in the held-out splits' first runs), while the written sets' echo cases were
written to fit it; see docs/detectors.md "The echo signal goes". A side arguing the other
side's case in its own words is what the model-assisted mode's stance scan looks for.

Limits: a side that drifts in its own words, or by taking up the other side's points
without saying it agrees, is missed offline; a rebuttal without any cue word is not
seen as one.
"""

from __future__ import annotations

import re
from functools import lru_cache

from moot.detectors.cues import (
    AGAINST_SIDE,
    AGREEMENT,
    ATTRIBUTION,
    CONTRAST,
    DECLARED_STANCE,
    EXPLICIT_AGREEMENT,
    FOR_SIDE,
    REFUTATION,
)
from moot.detectors.finding import Finding
from moot.detectors.history import TurnHistory, history_for
from moot.detectors.lexical import (
    QUESTION_MARKS,
    clauses,
    content_terms,
    coverage,
    fold,
    polarity,
    shorten,
    split_sentences,
    to_sentence_mark,
    without_quotes,
)
from moot.detectors.messages import side_name
from moot.detectors.transcript import Transcript

AGREE_OPPONENT_SHARE = 0.2
"""Opponents' share needed when the turn also agrees with the opponent."""
STANCE_COVER = 0.75
"""Share of the stance's terms a sentence must state, with the opponent's polarity."""
STANCE_SHARE = 0.5
"""...and the stance's terms must be at least this share of the sentence's terms (a
sentence that states a stance is mostly the stance)."""
RHETORICAL = re.compile(
    r"^\W*(?:(?:but|and|so|yet|then|surely|well),?\s+)?"
    r"(?:doesn't|don't|isn't|aren't|wasn't|weren't|won't|wouldn't|can't|cannot|couldn't"
    r"|shouldn't|haven't|hasn't|hadn't|didn't|does not|do not|is not|are not|will not)\b"
    r"|难道|岂不|何尝|不[^?？]{0,40}吗\s*[?？]",
    re.IGNORECASE,
)
"""A question that asserts its answer: a negated auxiliary first ("Doesn't a ban
punish...?"), 难道, 岂不, 不...吗."""
QUESTION_WINDOW = 16
"""How many turns back the questions being answered are read (a committee's chain of
question and answer; a bound, so a long transcript is not re-read at every turn)."""
QUOTE_MARK = "…"
"""What ``without_quotes`` leaves where a quoted passage was."""
COPIED = 0.7
"""A rebuttal clause with at least this share of its character n-grams in the opponents'
earlier turns is their words copied (contrast words and all), not an answer."""


def _rebutted(text: str, history: TurnHistory, opponents: list[str]) -> bool:
    """Whether some clause of ``text`` answers rather than repeats the opponents: the text
    after a contrast ("but", "但是") up to the end of its sentence, or a phrase with a
    refutation word ("wrong", "站不住") in it, unless that text is copied from what the
    ``opponents`` said (in their recent turns, ``history``)."""
    return any(
        len(set(content_terms(span))) < 2 or history.copied_share(span, opponents) < COPIED
        for span in _answer_spans(text)
    )


@lru_cache(maxsize=4096)
def _answer_spans(text: str) -> tuple[str, ...]:
    """The spans of ``text`` that may answer the opponents (see ``_rebutted``): what
    follows a contrast to the end of its sentence, and phrases with a refutation word.
    They depend on the text alone, so a turn checked during a debate and again after it
    is read once."""
    folded = fold(text)
    spans = [to_sentence_mark(folded, m.start()) for m in CONTRAST.finditer(folded)]
    if not REFUTATION.may_match(folded):
        return tuple(spans)  # no part of a text has a word the whole text lacks
    for sentence in split_sentences(folded):
        for clause in clauses(sentence):
            spans.extend(p for p in re.split(r"[,，、]", clause) if REFUTATION.search(p))
    return tuple(spans)


@lru_cache(maxsize=16384)
def _own_voice(sentence: str) -> bool:
    """Whether a sentence is the speaker's own voice: it does not report the opponent,
    quote words in order to judge them, or ask a question (cached per sentence)."""
    return (
        not ATTRIBUTION.search(fold(sentence))
        and QUOTE_MARK not in sentence
        and not sentence.rstrip().endswith(("?", "？"))
    )


def _direction(side: str, stance: str) -> str | None:
    """``for`` or ``against`` the motion, when the side's name or stance says so."""
    folded = fold(f"{side} {stance}")
    if AGAINST_SIDE.search(folded):
        return "against"
    if FOR_SIDE.search(folded):
        return "for"
    return None


def _keeps_own_stance(text: str, side: str, transcript: Transcript) -> bool:
    """Whether the turn declares that its side keeps its own position on the motion
    ("We remain opposed to the motion", "我方仍然反对该动议"): a side saying where it stands
    is not voicing the other side, however much phrasing the two share."""
    own = _direction(side, transcript.sides[side])
    if own is None:
        return False
    declared = {
        "against" if m.group("against") or m.group("against2") or m.group("against3") else "for"
        for m in DECLARED_STANCE.finditer(fold(text))
    }
    return declared == {own}


def _explicit_agreement(sentences: list[str]) -> str | None:
    """The sentence that says outright the speaker agrees with the other side, when
    neither it nor the next sentence has a contrast or refutation cue."""
    for n, sentence in enumerate(sentences):
        folded = fold(sentence)
        if EXPLICIT_AGREEMENT.search(folded) is None:
            continue
        following = fold(" ".join(sentences[n : n + 2]))
        if not CONTRAST.search(following) and not REFUTATION.search(following):
            return sentence
    return None


_CASE_WORDS = r"(?:side|case|team|response|rebuttal|argument|position|approach|notion|view|plan)"
_FAULT_WORDS = (
    r"(?:lacks?|fails?|failed|weak|flawed|wrong|sidesteps?|ignores?|overlooks?|misses|cannot"
    r"|does not hold|doesn't hold|is not supported|falls short|collapses)"
)
_ZH_CASE_WORDS = r"(?:的)?(?:立场|论证|论点|观点|主张|方案|逻辑|回应|说法)?"
_ZH_FAULT_WORDS = (
    r"(?:缺乏|缺少|站不住|不成立|存在(?:明显的)?(?:漏洞|缺陷)|有(?:明显的)?(?:漏洞|缺陷)"
    r"|回避|忽视|忽略|是错误的)"
)


_LABEL_WORD = r"[^\s:：,，。.!?！？;；]{1,12}"
_HEADING = re.compile(rf"^\s*{_LABEL_WORD}(?: {_LABEL_WORD}){{0,2}}\s*[:：]")
"""A label that opens a sentence ("反方论点：", "反方论点论据3：", "CON rebuttal:"): read
apart from the sentence, so a side's heading is not joined to the words after it."""


@lru_cache(maxsize=256)
def _self_criticism_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    """Sentences in which a side finds fault with itself named in the third person, as
    its opponents would: "the CON case fails", "a key weakness in the CON case", "反方的
    论证缺乏依据" said by CON. A side speaking for itself says "we", "our case", "我方"."""
    own = "|".join(re.escape(n) for n in names)
    return re.compile(
        rf"\b(?:{own})(?:'s)? {_CASE_WORDS}\b[^.!?;]{{0,60}}\b{_FAULT_WORDS}\b"
        rf"|\b(?:weakness|weaknesses|flaw|flaws|gap|problem)(?: \w+)? (?:in|of|with) the"
        rf" (?:{own})(?:'s)? {_CASE_WORDS}\b"
        rf"|(?<![我己本])(?:{own}){_ZH_CASE_WORDS}[^。！？；]{{0,20}}{_ZH_FAULT_WORDS}"
    )


def _self_criticism(sentences: list[str], side: str, transcript: Transcript) -> str | None:
    """A sentence in which ``side`` finds fault with its own side named in the third
    person (see ``_self_criticism_pattern``), when the side's name says which side it is
    (pro/con, 正方/反方): a debater who calls its own case weak argues the other side's."""
    if _direction(side, transcript.sides[side]) is None:
        return None
    names = {fold(side), fold(side_name(side, transcript.lang, transcript.names))}
    names = {n for n in names if len(n) >= 2}
    if not names:
        return None
    pattern = _self_criticism_pattern(tuple(sorted(names)))
    for sentence in sentences:
        folded = fold(sentence)
        heading = _HEADING.match(folded)
        # the heading is read on its own ("反方的论证缺乏数据支持：" finds fault as a label)
        # and the rest without it ("反方论点：" only names the side)
        parts = (heading.group(), folded[heading.end() :]) if heading else (folded,)
        if any(map(pattern.search, parts)):
            return sentence
    return None


@lru_cache(maxsize=256)
def _opposite(own: str, opponent: str) -> bool:
    """Whether two stances say the same thing with opposite polarity ("X should..."
    against "X should not..."): only then can a sentence state the other one."""
    own_terms, opp_terms = set(content_terms(own)), set(content_terms(opponent))
    return len(opp_terms) >= 2 and own_terms == opp_terms and polarity(own) != polarity(opponent)


def _stance_sentence(sentences: list[str], own: str, opponent: str) -> str | None:
    """A sentence that states the ``opponent`` stance, when the two stances are
    ``_opposite``."""
    if not _opposite(own, opponent):
        return None
    opp_terms = set(content_terms(opponent))
    for sentence in sentences:
        terms = set(content_terms(sentence))
        if (
            coverage(opp_terms, terms) >= STANCE_COVER
            and coverage(terms, opp_terms) >= STANCE_SHARE
            and polarity(sentence) == polarity(opponent)
        ):
            return sentence
    return None


def _common_ground(history: TurnHistory, opponents: list[str], terms: set[str]) -> set[str]:
    """Those of ``terms`` that two or more of the other sides have used: with more than
    one other side this is the exchange's shared vocabulary (a committee's legal terms,
    the words of a question several speakers put), and with one side per speaker an
    ally's words are among it; it is nobody's case to voice."""
    return {t for t in terms if sum(t in history.side_terms[n] for n in opponents) >= 2}


@lru_cache(maxsize=4096)
def _asked(text: str) -> tuple[str, ...]:
    """The content terms of the open questions in ``text`` and of no statement there: a
    rhetorical question asserts its case, and a term the asker also states is the
    asker's (cached per text)."""
    if not QUESTION_MARKS.search(text):
        return ()
    asked: set[str] = set()
    stated: set[str] = set()
    for sentence in split_sentences(text):
        open_question = sentence.rstrip().endswith(("?", "？")) and not RHETORICAL.search(sentence)
        (asked if open_question else stated).update(content_terms(sentence))
    # a tuple, which the garbage collector stops tracking, not a frozenset, which it
    # walks at every full collection for as long as the cache keeps it
    return tuple(asked - stated)


def _question_answered(transcript: Transcript, index: int) -> set[str]:
    """The content terms of the questions other sides put in the last ``QUESTION_WINDOW``
    turns: an answer, or a rebuttal of an answer, reuses the words of the question it
    answers, which is answering it, not voicing its case (an interpellation's chain of
    question and answer, docs/detectors.md "Eighth round")."""
    side = transcript.turns[index].side
    asked: set[str] = set()
    for before in transcript.turns[max(0, index - QUESTION_WINDOW) : index]:
        if before.side != side:
            asked.update(_asked(before.text))
    return asked


_FOR_WORD = re.compile(r"\bfor\b|(?<!不)(?:支持|赞成)|正方")
"""A word for the motion, which makes a stance that also says "against" two-way."""


@lru_cache(maxsize=256)
def _ally_direction(side: str, stance: str) -> str | None:
    """``_direction`` when the name and stance say only that: None for a stance that has
    words both ways ("argues for Medicare for All and against a public option", "For: we
    should legislate against hate speech"), where "against" need not be the side's.
    Cached: every turn's check reads every side's (a debate's sides do not change)."""
    found = _direction(side, stance)
    folded = fold(f"{side} {stance}")
    if found == "against" and (_FOR_WORD.search(folded) or FOR_SIDE.search(folded)):
        return None  # (FOR_SIDE: "I support this position: we must oppose coal")
    return found


def _opponents(transcript: Transcript, side: str) -> list[str]:
    """The sides ``side`` can drift to: every other side, except one whose name or stance
    puts it on the same side of the motion as ``side`` (both for, both against): agreeing
    with an ally is not taking up an opponent's position."""
    own = _ally_direction(side, transcript.sides[side])
    return [
        name
        for name in transcript.sides
        if name != side and (own is None or _ally_direction(name, transcript.sides[name]) != own)
    ]


def check(transcript: Transcript, index: int, history: TurnHistory | None = None) -> Finding | None:
    """Whether turn ``index`` drifts to an opponent's position (earlier turns only;
    ``history`` of the turns before it saves re-reading them)."""
    turn = transcript.turns[index]
    side = turn.side
    opponents = _opponents(transcript, side)
    if not opponents:
        return None
    # a sentence that reports the opponent, quotes words in order to judge them ("The
    # claim “...” does not follow") or asks them a question answers them: it is not the
    # speaker voicing them
    sentences = [s for s in split_sentences(without_quotes(turn.text)) if _own_voice(s)]
    terms = {t for s in sentences for t in content_terms(s)}
    if not terms:
        return None
    history = history_for(transcript, index, history)
    agreeing = _explicit_agreement(split_sentences(turn.text))
    named = " / ".join(side_name(name, transcript.lang, transcript.names) for name in opponents)
    if agreeing is not None:
        found = {"opponents": named, "own": transcript.sides[side], "quote": shorten(agreeing, 120)}
        return Finding("stance_drift", index, side, "stance_drift.agrees", found)
    criticised = _self_criticism(sentences, side, transcript)
    if criticised is not None:
        found = {"own": side_name(side, transcript.lang, transcript.names)}
        found["quote"] = shorten(criticised, 120)
        return Finding("stance_drift", index, side, "stance_drift.self", found)
    # what is left is the agreement and the stance signals: a turn with neither an
    # agreement cue nor an opponent whose stance is its own negated can raise neither
    agrees = AGREEMENT.search(fold(" ".join(sentences))) is not None
    stated = [n for n in opponents if _opposite(transcript.sides[side], transcript.sides[n])]
    if not agrees and not stated:
        return None
    if _rebutted(turn.text, history, opponents) or _keeps_own_stance(turn.text, side, transcript):
        return None
    topic = set(content_terms(transcript.topic))
    # Only this turn's terms are looked up: the sides' vocabularies are never copied.
    own_terms = set(content_terms(transcript.sides[side])) | (terms & history.side_terms[side])
    opp_terms = {t for name in opponents for t in content_terms(transcript.sides[name])}
    opp_terms |= {t for t in terms if any(t in history.side_terms[n] for n in opponents)}
    if len(opponents) > 1:
        opp_terms -= _common_ground(history, opponents, terms)
    opp_terms -= _question_answered(transcript, index)
    # what an opponent says in most of its turns is its framing, not a point to voice
    opp_terms -= {t for n in opponents for t in history.framing(n, terms)}
    theirs = opp_terms - own_terms - topic
    values: dict[str, object] = {
        "opponents": named,
        "own": transcript.sides[side],
        "quote": shorten(" ".join(sentences), 120),
    }
    if agrees and coverage(terms, theirs) >= AGREE_OPPONENT_SHARE:
        return Finding("stance_drift", index, side, "stance_drift.agrees", values)
    for name in stated:
        stance = transcript.sides[name]
        sentence = _stance_sentence(sentences, transcript.sides[side], stance)
        if sentence is not None:
            named = side_name(name, transcript.lang, transcript.names)
            values.update(opponents=named, stance=stance, quote=shorten(sentence, 120))
            return Finding("stance_drift", index, side, "stance_drift.stance", values)
    return None
