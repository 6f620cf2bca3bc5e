"""``false_consensus``: a concession is not reflected in the closing or the standings.

On a transcript. A side concedes when one of its turns grants the opponent a point
("I concede that...", "I accept...", "my opponent is right", "我承认", "对方说得对"),
unless it negates the grant ("we do not accept"). The side's closing is its last
turn, if it comes after the concession. The flag goes on that closing when it does
not acknowledge any concession (no granting sentence of its own) and either

- claims that nothing of the opponent's case stands or that it conceded nothing
  ("we concede nothing", "not a single point survives", "every number they offered
  collapses", "没有任何一个论点站得住脚", "所谓的成绩根本不能说明问题"); or
- says the opposite of what was conceded: a part of a closing sentence (cut at commas
  and conjunctions) that shares at least ``CONTRADICTION_COVER`` of the conceded
  sentence's content terms (its granting words aside) with the opposite polarity (one
  negation more or less).

Structured variant (``check_concessions``), for formats that record concessions: each
concession names the conceding side and what it conceded (an argument id or a
point). It is not reflected when the side's closing lists concessions and none of
them names the target or shares at least ``LISTED_COVER`` of its terms, or when the
judge's standing of the conceded argument is one of ``REFUTING_STANDINGS`` (the
opponent granted it, yet it was ruled refuted). With more than two sides the standing
is held to a concession only when every side other than the argument's own conceded
it: one of several opponents granting a point is not a consensus, and the judge may
rightly follow another opponent who refuted it.

Limits: a concession or a closing claim worded without these cues is missed, and a
closing that simply never mentions the concession is not flagged on a transcript
(closings summarise; silence is not a denial).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict

from moot.detectors.cues import CONCESSION, NEGATED_CONCESSION
from moot.detectors.finding import Finding
from moot.detectors.lexical import (
    content_terms,
    coverage,
    fold,
    polarity,
    shorten,
    split_sentences,
)
from moot.detectors.transcript import Flag, Transcript
from moot.regex_gate import gated
from moot.usable import is_marker

CONTRADICTION_COVER = 0.5
"""Share of a concession's terms a closing sentence must repeat to contradict it."""
LISTED_COVER = 0.5
"""Share of a conceded point's terms a closing concession must share to list it."""
REFUTING_STANDINGS = frozenset({"REFUTED"})
"""Standings that contradict an opponent's concession of the argument."""

CLAIMS_NOTHING_STANDS = gated(
    r"\b(?:we |i )?(?:concede|conceded|concedes|grant|granted) nothing\b"
    r"|\bnothing (?:to concede|conceded|was conceded)\b"
    r"|\b(?:has|have|had) (?:not|never|failed to) (?:established|shown|proved|proven|demonstrated"
    r"|made|offered|given us|establish|show|prove|demonstrate|make|offer|give us) (?:a single"
    r"|any|one|a shred|a credible|a valid|a convincing)\b"
    r"|\b(?:given us|offered|provided|made|shown) (?:no|not a single|not one|nothing) ?"
    r"(?:credible|valid|real|serious|convincing)?\b"
    r"|\bnot (?:a single|one) (?:\w+ )?(?:of )?(?:their |our |his |her |the )?(?:points?|arguments?"
    r"|claims?|benefits?|numbers?|reasons?|figures?|savings?) (?:\w+ )?(?:survives?|stands?|holds?"
    r"|has survived|remains?)\b"
    r"|\b(?:every|each|all)(?: single)?(?: one)?(?: of)? (?:their |the |his |her )?(?:points?"
    r"|arguments?|claims?|numbers?|figures?|reasons?)\b[^.;]{0,40}\b(?:collapsed|collapses"
    r"|collapse|fallen|falls|fell|failed|fails|crumbled|crumbles|refuted|demolished)\b"
    r"|\bno [\w\s]{1,30} (?:that|which) survives\b|\bcollapses? under scrutiny\b"
    r"|\b(?:prove|proves|proved|show|shows|showed) (?:absolutely )?nothing\b"
    r"|\b(?:all|every one|each) of our (?:points|arguments|claims) (?:stands?|remains?|survives?"
    r"|holds?)\b|\bnothing (?:they|the other side|my opponent) (?:said|offered|raised) (?:survives"
    r"|stands)\b"
    r"|没有任何一个|没有任何(?:证据|论点|论据|办法|作用|用处|意义|道理|优势|好处)"
    r"|(?:都|全部|统统|全都)站不住|所有(?:的)?(?:论点|论据|理由)都(?:成立|没有被|站得住)"
    r"|毫无(?:用处|道理|根据|意义|价值|说服力)|一纸空文|不值一提|所谓的|根本不能说明"
    r"|一点都不比|一点也不比|(?:什么|任何东西)都没有承认|没有承认任何"
)
"""A closing claiming that nothing of the opponent's case stands, or nothing was conceded."""


_PARTS = re.compile(r"[,，;；:：]|\s+(?:and|but|while)\s+|而且|但是|但")
"""Where a closing sentence is cut before its parts are compared with a concession."""


class Concession(BaseModel):
    """A concession a format recorded: ``side`` conceded ``target`` (an argument id or a
    point), in ``text``, in turn ``turn`` when the format has turn numbers."""

    model_config = ConfigDict(frozen=True)

    side: str
    target: str
    text: str = ""
    turn: int | None = None


def _grants(sentence: str) -> bool:
    folded = fold(sentence)
    return bool(CONCESSION.search(folded)) and not NEGATED_CONCESSION.search(folded)


def _closing_finding(
    transcript: Transcript, side: str, conceded: int, concession: str, closing: int
) -> Finding | None:
    closing_sentences = split_sentences(transcript.turns[closing].text)
    if any(_grants(s) for s in closing_sentences):
        return None
    values: dict[str, object] = {"conceded": conceded, "concession": shorten(concession, 100)}
    for sentence in closing_sentences:
        if CLAIMS_NOTHING_STANDS.search(fold(sentence)):
            values["quote"] = shorten(sentence, 120)
            return Finding("false_consensus", closing, side, "false_consensus.claim", values)
    granted_text = CONCESSION.sub(" ", fold(concession))
    granted = set(content_terms(granted_text))
    for sentence in closing_sentences:
        for part in _PARTS.split(sentence):
            terms = set(content_terms(part))
            covered = bool(granted) and coverage(granted, terms) >= CONTRADICTION_COVER
            if covered and polarity(part) != polarity(granted_text):
                values["quote"] = shorten(sentence, 120)
                kind = "false_consensus.contradiction"
                return Finding("false_consensus", closing, side, kind, values)
    return None


def detect(transcript: Transcript) -> list[Finding]:
    """A finding on each closing that disowns its side's earlier concession."""
    findings: list[Finding] = []
    for side in transcript.sides:
        own = [i for i, turn in enumerate(transcript.turns) if turn.side == side]
        if len(own) < 2:
            continue
        closing = own[-1]
        for index in own[:-1]:
            granted = [s for s in split_sentences(transcript.turns[index].text) if _grants(s)]
            found = next(
                (
                    f
                    for s in granted
                    if (f := _closing_finding(transcript, side, index, s, closing)) is not None
                ),
                None,
            )
            if found is not None:
                findings.append(found)
                break
    return findings


def _listed(concession: Concession, listed: Sequence[str], target_text: str) -> bool:
    target = concession.target.strip().lower()
    terms = set(content_terms(target_text or concession.text))
    for entry in listed:
        if target and target in entry.lower():
            return True
        if terms and coverage(terms, set(content_terms(entry))) >= LISTED_COVER:
            return True
    return False


def _shown(said: str, target_text: str) -> str:
    """What a concession is quoted as: the conceding side's words, else (none, or a
    field shown as "(no usable text)") the conceded argument's own text."""
    return said if said.strip() and not is_marker(said) else target_text


def check_concessions(
    concessions: Sequence[Concession],
    *,
    closing_concessions: Mapping[str, Sequence[str]],
    standings: Mapping[str, str],
    target_texts: Mapping[str, str] | None = None,
    owners: Mapping[str, str] | None = None,
    sides: Sequence[str] = (),
    lang: str = "en",
) -> list[Flag]:
    """Flags for concessions that a side's closing concessions or the judge's standings
    do not reflect. ``closing_concessions`` maps a side to the concessions its closing
    lists (a side without a closing is skipped); ``standings`` maps a target to the
    judge's standing; ``target_texts`` maps a target id to its text, for matching.
    ``owners`` (a target to the side that made it) and ``sides`` (every side of the
    debate) let a debate of more than two sides hold a standing only to a concession
    every other side made."""
    texts = target_texts or {}
    owned = owners or {}
    conceders: dict[str, set[str]] = {}
    for concession in concessions:
        conceders.setdefault(concession.target, set()).add(concession.side)
    flags: list[Flag] = []
    for concession in concessions:
        values: dict[str, object] = {
            "target": concession.target,
            "concession": shorten(_shown(concession.text, texts.get(concession.target, "")), 100),
        }
        listed = closing_concessions.get(concession.side)
        target_text = texts.get(concession.target, "")
        if listed is not None and not _listed(concession, listed, target_text):
            finding = Finding(
                "false_consensus",
                concession.turn,
                concession.side,
                "false_consensus.unlisted",
                values,
            )
            flags.append(finding.flag(lang))
        standing = standings.get(concession.target)
        owner = owned.get(concession.target)
        others = {side for side in sides if side != owner}
        agreed = owner is None or len(sides) <= 2 or others <= conceders[concession.target]
        if standing in REFUTING_STANDINGS and agreed:
            values["standing"] = standing
            finding = Finding(
                "false_consensus",
                concession.turn,
                concession.side,
                "false_consensus.standing",
                values,
            )
            flags.append(finding.flag(lang))
    return flags
