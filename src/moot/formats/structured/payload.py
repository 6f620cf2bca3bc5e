"""The structured format's part of a result: opening arguments, cross-examinations
and closings, with ids and positions assigned by code."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from moot.sources.citations import Cited
from moot.usable import is_marker

ResponseType = Literal["refute", "challenge", "concede", "partial"]
RESPONSES: tuple[ResponseType, ...] = ("refute", "challenge", "concede", "partial")
STANDINGS = ("UPHELD", "PARTIALLY_UPHELD", "REFUTED", "UNCERTAIN")
"""The standing of an opening argument after the debate (best, partial, worst,
uncertain)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Argument(_Frozen):
    """One numbered opening argument; the id (``PRO-1``, ``B-2``) is assigned by code."""

    id: str
    side: str
    claim: str
    reasoning: str
    evidence: str
    """The evidence as text (in a debate over documents, the quotes with their
    passage ids)."""
    citations: list[Cited] = Field(default_factory=list)
    """In a debate over documents (``--sources``): each evidence item, the passage it
    cites and the words it quotes (empty otherwise)."""


class CrossExamination(_Frozen):
    """One position's answer to one argument of another position in round 2."""

    by: str
    target_id: str
    response: ResponseType
    reasoning: str
    follow_up: str


class StanceChange(_Frozen):
    """Whether a position's final stance moved during the debate, and why."""

    changed: bool
    reason: str

    @property
    def label(self) -> str:
        """The label key that shows it: ``stance.changed`` or ``stance.unchanged``, or
        ``stance.unstated`` when its reason is unusable text (the marker), since a
        model that gave no usable reason has not said whether or why it moved."""
        if is_marker(self.reason):
            return "stance.unstated"
        return "stance.changed" if self.changed else "stance.unchanged"


class Closing(_Frozen):
    """A position's closing statement (round 3)."""

    side: str
    concessions: list[str]
    unrefuted: list[str]
    final_stance: str
    stance_change: StanceChange


class StructuredPayload(_Frozen):
    """``payload["structured"]`` of a result."""

    arguments: list[Argument]
    cross_examinations: list[CrossExamination]
    closings: list[Closing]

    def argument(self, argument_id: str) -> Argument:
        """The opening argument with this id (``KeyError`` if there is none)."""
        for arg in self.arguments:
            if arg.id == argument_id:
                return arg
        raise KeyError(argument_id)
