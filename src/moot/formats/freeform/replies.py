"""What a speaker writes in a free-form round. The speech is a list of sentences
(each bounded, so no string exceeds a llama.cpp grammar's limit) that code joins."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from moot.llm.schemas import enum_items
from moot.llm.types import OutputSpec
from moot.sources.citations import MAX_CITATIONS, EvidenceDraft

Sentence = Annotated[str, StringConstraints(min_length=2, max_length=220)]


class SpeechReply(BaseModel):
    model_config = ConfigDict(extra="forbid")

    responds_to: list[Annotated[str, StringConstraints(max_length=16)]] = Field(max_length=6)
    speech: list[Sentence] = Field(min_length=2, max_length=8)


class SourcedSpeechReply(SpeechReply):
    """A speech in a debate over documents (``--sources``): it cites them."""

    evidence: list[EvidenceDraft] = Field(min_length=1, max_length=MAX_CITATIONS)


def speech_spec(base: OutputSpec, previous_ids: list[str]) -> OutputSpec:
    """The speech schema with ``responds_to`` limited to the previous round's speeches
    (none in the first round)."""
    if not previous_ids:
        schema = dict(base.json_schema)
        array = dict(schema["properties"]["responds_to"])
        array["maxItems"] = 0
        array["items"] = {"type": "string", "enum": ["-"]}
        schema["properties"] = {**schema["properties"], "responds_to": array}
        return OutputSpec(name=base.name, json_schema=schema)
    return enum_items(base, "responds_to", previous_ids)
