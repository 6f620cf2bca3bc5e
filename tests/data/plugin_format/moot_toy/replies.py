"""What the toy format's calls reply: an opening speech, and the audience's vote."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

Sentence = Annotated[str, StringConstraints(min_length=2, max_length=220)]


class OpeningReply(BaseModel):
    """One side's only speech."""

    model_config = ConfigDict(extra="forbid")

    speech: list[Sentence] = Field(min_length=2, max_length=5)


class VoteReply(BaseModel):
    """The audience's reading of the room: how many in a hundred back the motion."""

    model_config = ConfigDict(extra="forbid")

    for_motion: int = Field(ge=0, le=100)
    reason: Sentence
