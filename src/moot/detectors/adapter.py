"""From a structured debate's result to the detectors' inputs.

The structured format (opening arguments, cross-examination, closings) becomes a
transcript of turns in speaking order: each argument (claim, reasoning, evidence),
each cross-examination answer (reasoning and follow-up), each closing stance. The
judge's weighted score of an argument becomes the score of that argument's turn.
Its recorded concessions (a cross-examination answered ``concede``), the closings'
concession lists and the judge's standings feed ``check_concessions``. Only
``moot.schema`` types are read: the detectors stay independent of the formats.
"""

from __future__ import annotations

from dataclasses import dataclass

from moot.detectors.false_consensus import Concession
from moot.detectors.transcript import JudgeScore, Transcript, Turn
from moot.schema import DebateResult

_STANCES = {
    "en": {"pro": "For: {topic}", "con": "Against: {topic}"},
    "zh": {"pro": "正方：{topic}", "con": "反方：{topic}"},
}


@dataclass(frozen=True)
class StructuredConcessions:
    """The structured format's concessions, as ``check_concessions`` takes them."""

    concessions: list[Concession]
    closing_concessions: dict[str, list[str]]
    standings: dict[str, str]
    target_texts: dict[str, str]


def _join(parts: list[str], lang: str) -> str:
    return ("" if lang == "zh" else " ").join(p.strip() for p in parts if p.strip())


def transcript_from_result(result: DebateResult) -> Transcript:
    """The debate of a structured result as a transcript, with the judge's scores."""
    stances = _STANCES[result.lang]
    turns: list[Turn] = []
    argument_turn: dict[str, int] = {}
    for argument in result.arguments:
        argument_turn[argument.id] = len(turns)
        text = _join([argument.claim, argument.reasoning, argument.evidence], result.lang)
        turns.append(Turn(side=argument.side, text=text))
    for cross in result.cross_examinations:
        turns.append(
            Turn(side=cross.by, text=_join([cross.reasoning, cross.follow_up], result.lang))
        )
    for closing in result.closings:
        turns.append(Turn(side=closing.side, text=closing.final_stance))
    scores = [
        JudgeScore(turn=argument_turn[s.argument_id], score=s.weighted)
        for s in result.judgement.scores
        if s.argument_id in argument_turn
    ]
    return Transcript(
        topic=result.topic,
        lang=result.lang,
        sides={side: stances[side].format(topic=result.topic) for side in ("pro", "con")},
        turns=turns,
        judge_scores=scores,
    )


def concessions_from_result(result: DebateResult) -> StructuredConcessions:
    """The concessions of a structured result, with what should reflect them."""
    concessions = [
        Concession(side=cross.by, target=cross.target_id, text=cross.reasoning)
        for cross in result.cross_examinations
        if cross.response == "concede"
    ]
    return StructuredConcessions(
        concessions=concessions,
        closing_concessions={c.side: list(c.concessions) for c in result.closings},
        standings={row.argument_id: row.standing for row in result.judgement.trace},
        target_texts={a.id: a.claim for a in result.arguments},
    )
