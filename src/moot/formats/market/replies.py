"""What the market format's analysts, judge and baseline are asked to write.

These are the *reply* types: what a model produces. Ids, sides and every check are
code's business. Every string and list is bounded (so each call's output limit fits
the longest valid reply; see ``moot.llm.bounds``), and probabilities are whole
percentages (an integer schema every constrained decoder enforces; code divides by
100). The bounds are the standard protocol's; a model profile may ask for shorter
replies (``moot.profiles``), and Chinese replies get half the characters.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from moot.formats.market.payload import ChallengeType, Conviction, Direction
from moot.llm.schemas import pin_items
from moot.llm.types import OutputSpec

MIN_ARGUMENTS = 2
MAX_ARGUMENTS = 4
MAX_CLAIM = 50
STANCE_WORDS = (50, 100)
"""The final stance's length in words, under the standard profile."""


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


Point = Annotated[str, StringConstraints(min_length=3, max_length=200)]


class ArgumentDraft(_Reply):
    claim: str = Field(min_length=8, max_length=MAX_CLAIM)
    evidence: str = Field(min_length=10, max_length=400)
    confidence: int = Field(ge=0, le=100)
    """Percent."""
    counterpoints: list[Point] = Field(min_length=1, max_length=3)


class OpeningReply(_Reply):
    arguments: list[ArgumentDraft] = Field(min_length=MIN_ARGUMENTS, max_length=MAX_ARGUMENTS)


class ChallengeItem(_Reply):
    target_id: str = Field(max_length=24)
    challenge_type: ChallengeType
    reasoning: str = Field(min_length=10, max_length=400)
    new_evidence: str = Field(max_length=300)


class CrossExamReply(_Reply):
    challenges: list[ChallengeItem] = Field(min_length=1, max_length=4 * MAX_ARGUMENTS)


class ClosingReply(_Reply):
    refined_claims: list[Point] = Field(min_length=1, max_length=MAX_ARGUMENTS)
    concessions: list[Point] = Field(max_length=3)
    # a list of sentences, joined by code: no string beyond a llama.cpp grammar's limit
    final_stance: list[Annotated[str, StringConstraints(min_length=2, max_length=160)]] = Field(
        min_length=1, max_length=8
    )
    conviction_change: Conviction


class SynthesisReply(_Reply):
    bull_case: str = Field(min_length=20, max_length=500)
    bear_case: str = Field(min_length=20, max_length=500)
    judge_note: str = Field(min_length=20, max_length=400)


class BaselineReply(_Reply):
    direction: Direction
    probability_up: int = Field(ge=0, le=100)
    """Percent."""
    reasoning: str = Field(min_length=20, max_length=400)


def cross_exam_spec(base: OutputSpec, target_ids: list[str]) -> OutputSpec:
    """The cross-examination schema with one challenge slot per opposing argument."""
    return pin_items(base, "challenges", "target_id", target_ids)
