"""What debaters are asked to write in each round of the structured format.

These are the *reply* types: what a model produces. Ids, sides and numbering are
not the model's business; code adds them when it turns replies into
``moot.schema`` types. String lengths are bounded so constrained decoding cannot
run away (a small model loops until the token limit without ``maxLength``), and
kept at or under 1000 characters, the most a llama.cpp grammar accepts for one
string (see ``moot.llm.local.MAX_GRAMMAR_STRING``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from moot.judging.replies import judge_spec
from moot.llm.schemas import enum_items, output_spec, pin_items, register_schemas
from moot.llm.types import OutputSpec
from moot.schema import ResponseType

MIN_ARGUMENTS = 3
MAX_ARGUMENTS = 5


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ArgumentDraft(_Reply):
    claim: str = Field(min_length=8, max_length=240)
    reasoning: str = Field(min_length=20, max_length=700)
    evidence: str = Field(min_length=10, max_length=500)


class OpeningReply(_Reply):
    arguments: list[ArgumentDraft] = Field(min_length=MIN_ARGUMENTS, max_length=MAX_ARGUMENTS)


class CrossExamItem(_Reply):
    target_id: str = Field(max_length=16)
    response: ResponseType
    reasoning: str = Field(min_length=10, max_length=600)
    follow_up: str = Field(min_length=5, max_length=300)


class CrossExamReply(_Reply):
    responses: list[CrossExamItem] = Field(min_length=1, max_length=2 * MAX_ARGUMENTS)


class ClosingReply(_Reply):
    concessions: list[Annotated[str, StringConstraints(min_length=3, max_length=300)]] = Field(
        max_length=MAX_ARGUMENTS
    )
    unrefuted: list[Annotated[str, StringConstraints(max_length=16)]] = Field(
        max_length=MAX_ARGUMENTS
    )
    # A list of sentences, not one string: 100-200 words can exceed the longest string
    # a llama.cpp grammar accepts (about 1000 characters). Code joins them.
    final_stance: list[Annotated[str, StringConstraints(min_length=2, max_length=400)]] = Field(
        min_length=1, max_length=14
    )
    stance_changed: bool
    stance_change_reason: str = Field(min_length=5, max_length=400)


def cross_exam_spec(base: OutputSpec, target_ids: list[str]) -> OutputSpec:
    """The cross-examination schema with one response slot per opposing argument."""
    return pin_items(base, "responses", "target_id", target_ids)


def closing_spec(base: OutputSpec, own_ids: list[str]) -> OutputSpec:
    """The closing schema with ``unrefuted`` limited to the side's own argument ids."""
    return enum_items(base, "unrefuted", own_ids)


def example_ids(side: str, count: int) -> list[str]:
    """Argument ids as code numbers them: ``PRO-1`` ... for ``count`` arguments."""
    return [f"{side.upper()}-{n}" for n in range(1, count + 1)]


@register_schemas("structured format")
def structured_schemas() -> Iterator[OutputSpec]:
    """Every schema a structured debate can send its debaters and judges: for each
    side, each number of arguments a side can have and each reading order."""
    counts = range(MIN_ARGUMENTS, MAX_ARGUMENTS + 1)
    yield output_spec(OpeningReply)
    for side, other in (("pro", "con"), ("con", "pro")):
        for count in counts:
            yield cross_exam_spec(output_spec(CrossExamReply), example_ids(other, count))
            yield closing_spec(output_spec(ClosingReply), example_ids(side, count))
    for pro in counts:
        for con in counts:
            yield judge_spec(example_ids("pro", pro) + example_ids("con", con))
            # the swap-sides rerun has the judges read the con side first
            yield judge_spec(example_ids("con", con) + example_ids("pro", pro))
