"""The free-form format's part of a result: every speech of every round."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

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


class FreeformPayload(_Frozen):
    """``payload["freeform"]`` of a result."""

    rounds: int
    speeches: list[Speech]
    detector_reasks: list[DetectorReask]
