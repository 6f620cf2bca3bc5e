"""A debate as the detectors read it, for formats whose judged units are some of its
turns (arguments, speeches)."""

from __future__ import annotations

from collections.abc import Mapping

from moot.detectors.transcript import JudgeScore, Transcript, Turn
from moot.schema import DebateResult


def unit_transcript(
    result: DebateResult, sides: Mapping[str, str], turns: list[Turn], units: list[str | None]
) -> tuple[Transcript, list[str | None]]:
    """The transcript of ``turns`` in speaking order, each position read as its stance
    in ``sides``; ``units[n]`` is the judged unit of turn ``n`` (None for a turn that
    is not one), and the judge's weighted score of a unit is the score of its turn."""
    index = {unit: n for n, unit in enumerate(units) if unit is not None}
    transcript = Transcript(
        topic=result.topic,
        lang=result.lang,
        sides=dict(sides),
        turns=turns,
        names={p.key: p.name for p in result.positions if p.key in sides},
        judge_scores=[
            JudgeScore(turn=index[s.argument_id], score=s.weighted)
            for s in result.judgement.scores
            if s.argument_id in index
        ],
    )
    return transcript, units
