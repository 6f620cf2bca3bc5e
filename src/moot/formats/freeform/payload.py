"""The free-form format's part of a result: every speech of every round."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from moot.schema import ArgumentScore
from moot.sources.citations import Cited

STANDINGS = ("STRONG", "MIXED", "WEAK", "UNCERTAIN")
"""How a speech held up by the end of the debate (best, partial, worst, uncertain)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Speech(_Frozen):
    """One speech: ``id`` is ``PREFIX-Rn`` (``PRO-R2``, ``B-R1``), assigned by code;
    ``responds_to`` lists the previous round's speeches it answers."""

    id: str
    side: str
    round: int
    text: str
    responds_to: list[str]
    citations: list[Cited] = Field(default_factory=list)
    """In a debate over documents (``--sources``): the passages the speech cites and
    the words it quotes (empty otherwise)."""


class DetectorReask(_Frozen):
    """A speech asked for again once because a detector fired on its first version."""

    speech_id: str
    detectors: list[str]
    reason: str
    fixed: bool
    """Whether the rewrite no longer tripped those detectors."""


class RoundScore(_Frozen):
    """The judge's interim score after one round (``--judge-each-round``): each of the
    round's speeches (weighted score) and each position's mean over its speeches of
    that round, computed by code from the judge's integer scores."""

    round: int
    scores: dict[str, float]
    """Position key -> the mean weighted score of its speeches of this round."""
    speeches: list[ArgumentScore]
    """Each speech of the round: the judge's integer scores and their weighted score."""
    leader: str | None
    """The position with the highest score this round (None on a tie at the top)."""


class FreeformPayload(_Frozen):
    """``payload["freeform"]`` of a result."""

    rounds: int
    speeches: list[Speech]
    detector_reasks: list[DetectorReask]
    round_scores: list[RoundScore] = Field(default_factory=list)
    """With ``--judge-each-round``: the judge's score after every round, in round order
    (the trajectory); empty otherwise. The verdict is still the final judgement."""
