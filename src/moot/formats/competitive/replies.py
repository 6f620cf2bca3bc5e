"""What the models write in a competitive debate, and the schemas they are asked for.

Every string is bounded (at most 1000 characters, what a llama.cpp grammar holds), so a
speech is a list of paragraphs that code joins. A speech's paragraph count is not
scaled down by a compact model profile (its characters are): the time a speech must
fill sets its length, not the model.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from moot.formats.competitive.options import MAX_BRANCHING, MAX_CLAIMS
from moot.llm.schemas import output_spec
from moot.llm.types import OutputSpec
from moot.profiles import ModelProfile
from moot.trees import ACTIONS, Action, Stage

Rating = Annotated[int, Field(ge=1, le=3)]
Score = Annotated[int, Field(ge=1, le=10)]
Claim = Annotated[str, StringConstraints(min_length=5, max_length=240)]
Paragraph = Annotated[str, StringConstraints(min_length=2, max_length=700)]
NO_TARGET = "-"
MAX_MOVES = 6
MAX_PARAGRAPHS = 12
MAX_IDS = 20
"""Flow node ids per side the schema offers as targets (``PRO-1`` ... ``PRO-20``): a
side makes at most ``MAX_MOVES`` nodes per speech, three speeches (18)."""
TARGETS: Final[tuple[str, ...]] = (
    NO_TARGET,
    *(f"{prefix}-{n}" for prefix in ("PRO", "CON") for n in range(1, MAX_IDS + 1)),
)


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CandidateClaim(_Reply):
    claim: Claim
    support: Rating


class RehearsalClaimsReply(_Reply):
    """A side's candidate claims, each rated for how much it supports the side."""

    claims: list[CandidateClaim] = Field(min_length=1, max_length=MAX_CLAIMS)


class Rebuttal(_Reply):
    claim: Claim
    attack: Rating


class RehearsalRebuttalsReply(_Reply):
    """Rebuttals of a claim (level 1), each rated for how hard it hits it."""

    rebuttals: list[Rebuttal] = Field(min_length=1, max_length=MAX_BRANCHING)


class Answer(_Reply):
    claim: Claim
    attack: Rating
    support: Rating


class RehearsalAnswersReply(_Reply):
    """Answers deeper in a line (level 2 and below): the attack on their parent and the
    support for their grandparent, which argues for the same side."""

    rebuttals: list[Answer] = Field(min_length=1, max_length=MAX_BRANCHING)


class MoveItem(_Reply):
    action: Literal["propose", "attack", "rebut", "reinforce"]
    target: Annotated[str, StringConstraints(max_length=8)]
    claim: Claim
    argument: Annotated[str, StringConstraints(max_length=400)]


class SpeechDraftReply(_Reply):
    """The writer's plan (moves) and first draft of a speech."""

    moves: list[MoveItem] = Field(min_length=1, max_length=MAX_MOVES)
    speech: list[Paragraph] = Field(min_length=1, max_length=MAX_PARAGRAPHS)


class SpeechRewriteReply(_Reply):
    """A speech rewritten (after the audience's feedback, or to a new word budget)."""

    speech: list[Paragraph] = Field(min_length=1, max_length=MAX_PARAGRAPHS)


class AudienceReply(_Reply):
    """The simulated audience's ratings of a draft, 1-10, and what would improve it."""

    clarity: Score
    engagement: Score
    evidence: Score
    persuasion: Score
    feedback: list[Annotated[str, StringConstraints(min_length=2, max_length=240)]] = Field(
        min_length=1, max_length=4
    )


class VoteReply(_Reply):
    """An audience member's Oxford-style vote on the motion."""

    vote: Literal["for", "against", "undecided"]
    reason: Annotated[str, StringConstraints(min_length=2, max_length=240)]


def _with_property(spec: OutputSpec, path: tuple[str, ...], **changes: object) -> OutputSpec:
    """``spec`` with the schema node at ``path`` (property names; ``[]`` for array
    items) updated with ``changes``."""

    def update(node: dict[str, Any], rest: tuple[str, ...]) -> dict[str, Any]:
        if not rest:
            return {**node, **changes}
        key, tail = rest[0], rest[1:]
        if key == "[]":
            return {**node, "items": update(dict(node["items"]), tail)}
        properties = dict(node["properties"])
        properties[key] = update(dict(properties[key]), tail)
        return {**node, "properties": properties}

    return OutputSpec(name=spec.name, json_schema=update(dict(spec.json_schema), path))


def exactly(spec: OutputSpec, key: str, count: int) -> OutputSpec:
    """``spec`` with the array ``key`` holding exactly ``count`` items."""
    return _with_property(spec, (key,), minItems=count, maxItems=count)


def claims_spec(profile: ModelProfile, lang: str, count: int) -> OutputSpec:
    return exactly(profile.spec(output_spec(RehearsalClaimsReply), lang), "claims", count)


def rebuttals_spec(profile: ModelProfile, lang: str, level: int, count: int) -> OutputSpec:
    """Level 1 rebuttals carry an attack rating; deeper answers attack and support."""
    reply = RehearsalRebuttalsReply if level == 1 else RehearsalAnswersReply
    return exactly(profile.spec(output_spec(reply), lang), "rebuttals", count)


def _speech_items(spec: OutputSpec) -> OutputSpec:
    return _with_property(spec, ("speech",), maxItems=MAX_PARAGRAPHS)


def actions_for(stage: Stage, empty: bool) -> tuple[Action, ...]:
    """The actions a speech's schema offers: ``propose`` only in the opening, and only
    ``propose`` when nothing has been said yet."""
    if empty:
        return ("propose",)
    return ACTIONS if stage == "opening" else tuple(a for a in ACTIONS if a != "propose")


def draft_spec(profile: ModelProfile, lang: str, stage: Stage, empty: bool) -> OutputSpec:
    """The writer's schema: actions narrowed by stage, targets to the well-formed ids
    (which of them exist and are legal is the flow tree's check, re-asked)."""
    spec = _speech_items(profile.spec(output_spec(SpeechDraftReply), lang))
    actions = actions_for(stage, empty)
    if empty:
        targets: tuple[str, ...] = (NO_TARGET,)
    elif "propose" in actions:
        targets = TARGETS
    else:
        targets = TARGETS[1:]
    spec = _with_property(spec, ("moves", "[]", "action"), enum=list(actions))
    return _with_property(spec, ("moves", "[]", "target"), type="string", enum=list(targets))


def rewrite_spec(profile: ModelProfile, lang: str) -> OutputSpec:
    return _speech_items(profile.spec(output_spec(SpeechRewriteReply), lang))


def audience_spec(profile: ModelProfile, lang: str) -> OutputSpec:
    return profile.spec(output_spec(AudienceReply), lang)


def vote_spec(profile: ModelProfile, lang: str) -> OutputSpec:
    return profile.spec(output_spec(VoteReply), lang)
