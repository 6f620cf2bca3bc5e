"""What the judge is asked to write, for a rubric's dimensions and a format's
standings. Weighted scores and totals are not here: code computes them from the
integer scores.

The reply types are built per (dimensions, standings) and cached, so each format's
judge gets the fields its rubric needs and only the standings the format knows.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, create_model

from moot.schema import FallacyType


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FallacyFlag(_Reply):
    argument_id: str = Field(max_length=16)
    type: FallacyType
    quote: str = Field(min_length=3, max_length=150)


@cache
def judge_reply_type(dimensions: tuple[str, ...], standings: tuple[str, ...]) -> type[BaseModel]:
    """The judge's reply type: one assessment per unit (id, reason, standing and an
    integer 1-10 per dimension, in that order), then fallacy flags and the synthesis
    (the grammar makes the judge write the fields in this order)."""
    fields: dict[str, Any] = {
        "argument_id": (str, Field(max_length=16)),
        "reason": (str, Field(min_length=10, max_length=300)),
        "standing": (Literal[standings], ...),
    }
    fields.update({d: (int, Field(ge=1, le=10)) for d in dimensions})
    assessment: Any = create_model("Assessment", __base__=_Reply, **fields)
    question = Annotated[str, StringConstraints(min_length=5, max_length=200)]
    reply: type[BaseModel] = create_model(
        "JudgeReply",
        __base__=_Reply,
        assessments=(list[assessment], Field(min_length=1, max_length=60)),
        fallacies=(list[FallacyFlag], Field(max_length=4)),
        key_insight=(str, Field(min_length=10, max_length=400)),
        unresolved_questions=(list[question], Field(min_length=1, max_length=3)),
        recommendation=(str, Field(min_length=10, max_length=500)),
    )
    return reply
