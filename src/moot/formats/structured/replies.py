"""What debaters are asked to write in each round of the structured format.

These are the *reply* types: what a model produces. Ids, sides and numbering are
not the model's business; code adds them when it turns replies into
``moot.schema`` types. Every string and every list is bounded, so the longest valid
reply is finite (``moot.llm.bounds``) and each call's output limit is set to fit it:
a model that writes every field to the brim still finishes instead of being cut off.
No string exceeds 1000 characters, the most a llama.cpp grammar accepts for one
string (``moot.llm.local.MAX_GRAMMAR_STRING``). The bounds here are the standard
protocol's; a model profile may ask for shorter replies (``moot.profiles``).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from moot.formats.base import MAX_POSITIONS
from moot.formats.structured.payload import ResponseType
from moot.llm.schemas import pin_items
from moot.llm.types import OutputSpec
from moot.sources.citations import MAX_CITATIONS, EvidenceDraft

MIN_ARGUMENTS = 3
MAX_ARGUMENTS = 5
MAX_CONCESSION = 200
MAX_CLAIM = 200


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ArgumentDraft(_Reply):
    claim: str = Field(min_length=8, max_length=MAX_CLAIM)
    reasoning: str = Field(min_length=20, max_length=450)
    evidence: str = Field(min_length=10, max_length=300)


class OpeningReply(_Reply):
    arguments: list[ArgumentDraft] = Field(min_length=MIN_ARGUMENTS, max_length=MAX_ARGUMENTS)


class SourcedArgumentDraft(_Reply):
    claim: str = Field(min_length=8, max_length=MAX_CLAIM)
    reasoning: str = Field(min_length=20, max_length=450)
    evidence: list[EvidenceDraft] = Field(min_length=1, max_length=MAX_CITATIONS)


class SourcedOpeningReply(_Reply):
    """The opening of a debate over documents: every argument's evidence cites them."""

    arguments: list[SourcedArgumentDraft] = Field(
        min_length=MIN_ARGUMENTS, max_length=MAX_ARGUMENTS
    )


class CrossExamItem(_Reply):
    target_id: str = Field(max_length=16)
    response: ResponseType
    reasoning: str = Field(min_length=10, max_length=400)
    follow_up: str = Field(min_length=5, max_length=200)


MAX_TARGETS = (MAX_POSITIONS - 1) * MAX_ARGUMENTS
"""The most arguments one position answers: every argument of five other positions."""


class CrossExamReply(_Reply):
    responses: list[CrossExamItem] = Field(min_length=1, max_length=MAX_TARGETS)


class ClosingReply(_Reply):
    concessions: list[
        Annotated[str, StringConstraints(min_length=3, max_length=MAX_CONCESSION)]
    ] = Field(max_length=3)
    unrefuted: dict[str, bool]
    """One entry per own argument id: whether it stood unrefuted. The schema sent to
    the model has exactly those ids as required boolean properties, so no id can be
    missing, repeated or foreign."""
    # A list of sentences, not one string: 100-200 words can exceed the longest string
    # a llama.cpp grammar accepts (about 1000 characters). Code joins them.
    final_stance: list[Annotated[str, StringConstraints(min_length=2, max_length=160)]] = Field(
        min_length=1, max_length=10
    )
    stance_changed: bool
    stance_change_reason: str = Field(min_length=5, max_length=300)


def cross_exam_spec(base: OutputSpec, target_ids: list[str]) -> OutputSpec:
    """The cross-examination schema with one response slot per opposing argument."""
    return pin_items(base, "responses", "target_id", target_ids)


def closing_spec(base: OutputSpec, own_ids: list[str]) -> OutputSpec:
    """The closing schema with ``unrefuted`` as one required boolean per own id."""
    schema = dict(base.json_schema)
    schema["properties"] = {
        **schema["properties"],
        "unrefuted": {
            "type": "object",
            "properties": {ident: {"type": "boolean"} for ident in own_ids},
            "required": list(own_ids),
            "additionalProperties": False,
        },
    }
    return OutputSpec(name=base.name, json_schema=schema)
