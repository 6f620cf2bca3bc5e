"""What the judge is asked to write. Weighted scores and totals are not here: code
computes them from the integer scores."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from moot.llm.schemas import enum_item_field, output_spec, pin_items
from moot.llm.types import OutputSpec
from moot.schema import FallacyType, Standing


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Assessment(_Reply):
    argument_id: str = Field(max_length=16)
    reason: str = Field(min_length=10, max_length=400)
    standing: Standing
    logic: int = Field(ge=1, le=10)
    evidence: int = Field(ge=1, le=10)
    responsiveness: int = Field(ge=1, le=10)
    honesty: int = Field(ge=1, le=10)


class FallacyFlag(_Reply):
    argument_id: str = Field(max_length=16)
    type: FallacyType
    quote: str = Field(min_length=3, max_length=200)


class JudgeReply(_Reply):
    assessments: list[Assessment] = Field(min_length=1, max_length=20)
    fallacies: list[FallacyFlag] = Field(max_length=8)
    key_insight: str = Field(min_length=10, max_length=500)
    unresolved_questions: list[Annotated[str, StringConstraints(min_length=5, max_length=300)]] = (
        Field(min_length=1, max_length=5)
    )
    recommendation: str = Field(min_length=10, max_length=600)


def judge_spec(ids: list[str]) -> OutputSpec:
    """The judge's schema: one assessment per argument id, in order; fallacies may
    name only those ids. Formats register it for the ids they produce."""
    pinned = pin_items(output_spec(JudgeReply), "assessments", "argument_id", ids)
    return enum_item_field(pinned, "fallacies", "argument_id", ids)
