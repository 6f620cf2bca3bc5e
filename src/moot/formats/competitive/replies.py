"""What the models write in a competitive debate, and the schemas they are asked for.

Every string is bounded (at most 1000 characters, what a llama.cpp grammar holds), so a
speech is a list of paragraphs that code joins. A speech's paragraph count is not
scaled down by a compact model profile (its characters are): the time a speech must
fill sets its length, not the model.

Two narrowings make a decoder that honours the schema (llama.cpp's grammar, the
embedded model) keep the rules without being told twice:

- a planned move is one string, ``"<action> <target>"`` (``"attack CON-2"``,
  ``"propose -"``), so the writer's schema lists exactly the moves the flow tree
  allows now, whatever the debater's configuration: the targets are the legal nodes
  for each action, and any sequence of them is a legal speech. A debater without the
  flow tree (``--no-flow-tree``, the baseline) is not shown the tree or its legal
  moves, but the schema still holds it to them, so a grammar-constrained model cannot
  name a node that does not exist or that the action may not target (the ablation
  measures what reading the tree contributes, not whether the rules are kept); the
  flow tree still checks every plan, for the models that do not honour the schema;
- a rewrite for a word budget asks for a fixed number of paragraphs, each within
  character bounds, so that the whole is within 10% of the budget's characters.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

from moot.formats.competitive.options import MAX_BRANCHING, MAX_CLAIMS
from moot.formats.competitive.trees import ACTIONS, Action, Candidate, Stage
from moot.llm.schemas import output_spec
from moot.llm.types import OutputSpec
from moot.profiles import ModelProfile
from moot.sources.citations import MAX_CITATIONS, EvidenceDraft
from moot.text import word_count

Rating = Annotated[int, Field(ge=1, le=3)]
Score = Annotated[int, Field(ge=1, le=10)]
Claim = Annotated[str, StringConstraints(min_length=5, max_length=240)]
MIN_PARAGRAPH = 2
Paragraph = Annotated[str, StringConstraints(min_length=MIN_PARAGRAPH, max_length=700)]
NO_TARGET = "-"
MAX_MOVES = 6
MAX_PARAGRAPHS = 12
MAX_IDS = 20
"""Flow node ids per side a registered schema offers as targets (``PRO-1`` ...
``PRO-20``): a side makes at most ``MAX_MOVES`` nodes per speech, three speeches (18)."""
TARGETS: Final[tuple[str, ...]] = tuple(
    f"{prefix}-{n}" for prefix in ("PRO", "CON") for n in range(1, MAX_IDS + 1)
)
LENGTH_SLACK: Final = 0.1
"""How far a rewrite's characters may fall from its word budget's, either way."""
CHARS_PER_WORD: Final[dict[str, float]] = {"en": 6.0, "zh": 1.7}
"""Characters of speech per word as ``moot.text.word_count`` counts them (spaces and
punctuation included), when no text of the speaker's tells better."""


def move_label(action: Action, target: str | None) -> str:
    """A move as the writer's reply names it: ``"attack CON-2"``, ``"propose -"``."""
    return f"{action} {target or NO_TARGET}"


def parse_move(label: str) -> tuple[Action, str | None]:
    """The action and the target (None for ``-``) of a move label; ValueError when it
    is not an action and one target."""
    parts = label.split()
    action = next((a for a in ACTIONS if parts and a == parts[0]), None)
    if action is None or len(parts) != 2:
        raise ValueError(
            f"a move is an action ({', '.join(ACTIONS)}) and one target, e.g."
            f" 'attack CON-2' or 'propose {NO_TARGET}'; got {label!r}"
        )
    return action, None if parts[1] == NO_TARGET else parts[1]


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
    move: Annotated[str, StringConstraints(max_length=16)]
    claim: Claim
    argument: Annotated[str, StringConstraints(max_length=400)]

    @field_validator("move")
    @classmethod
    def _action_and_target(cls, value: str) -> str:
        parse_move(value)
        return value

    @property
    def action(self) -> Action:
        return parse_move(self.move)[0]

    @property
    def target(self) -> str | None:
        return parse_move(self.move)[1]


class SpeechDraftReply(_Reply):
    """The writer's plan (moves) and first draft of a speech."""

    moves: list[MoveItem] = Field(min_length=1, max_length=MAX_MOVES)
    speech: list[Paragraph] = Field(min_length=1, max_length=MAX_PARAGRAPHS)


class SourcedSpeechDraftReply(SpeechDraftReply):
    """A speech's plan and draft in a debate over documents (``--sources``): it cites
    them (``moot.formats.competitive.citing``)."""

    evidence: list[EvidenceDraft] = Field(min_length=1, max_length=MAX_CITATIONS)


class SpeechRewriteReply(_Reply):
    """A speech rewritten (after the audience's feedback, or to a new word budget)."""

    speech: list[Paragraph] = Field(min_length=1, max_length=MAX_PARAGRAPHS)


class SourcedSpeechRewriteReply(SpeechRewriteReply):
    """A rewrite in a debate over documents: it cites them as the draft does, checked
    the same way (``moot.formats.competitive.citing``)."""

    evidence: list[EvidenceDraft] = Field(min_length=1, max_length=MAX_CITATIONS)


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
    items) updated with ``changes`` (a change to None removes the keyword)."""

    def update(node: dict[str, Any], rest: tuple[str, ...]) -> dict[str, Any]:
        if not rest:
            merged = {**node, **changes}
            return {key: value for key, value in merged.items() if value is not None}
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


def well_formed(stage: Stage, empty: bool) -> tuple[Candidate, ...]:
    """Every move a speech could be offered, legal now or not (``propose`` only in the
    opening, and only it before anything was said; the others on any id): the widest
    writer's schema, which the format registers (every one sent lists a subset)."""
    if empty:
        actions: tuple[Action, ...] = ("propose",)
    else:
        actions = ACTIONS if stage == "opening" else tuple(a for a in ACTIONS if a != "propose")
    return tuple(
        Candidate(action, target)
        for action in actions
        for target in ((None,) if action == "propose" else TARGETS)
    )


def draft_spec(
    profile: ModelProfile,
    lang: str,
    legal: Sequence[Candidate],
    *,
    sourced: bool = False,
) -> OutputSpec:
    """The writer's schema: its moves an enum of ``legal``, the moves the flow tree
    allows now (``FlowTree.candidates``), for every debater, with or without the flow
    tree in its prompt. ``sourced``: the draft also cites documents
    (``moot.formats.competitive.citing``). ValueError when nothing is legal (a
    schema with an empty enum admits no reply)."""
    moves = list(dict.fromkeys(move_label(c.action, c.target) for c in legal))
    if not moves:
        raise ValueError("no legal move to offer: the flow tree allows none now")
    reply = SourcedSpeechDraftReply if sourced else SpeechDraftReply
    spec = _speech_items(profile.spec(output_spec(reply), lang))
    # an enum needs no length bound (a profile's scaled one could cut the labels)
    return _with_property(spec, ("moves", "[]", "move"), enum=moves, maxLength=None)


def chars_per_word(text: str, lang: str) -> float:
    """Characters per word of ``text`` (runs of white space as one character), within
    a factor 1.5 of the language's usual figure; that figure for a text of fewer than
    20 words."""
    usual = CHARS_PER_WORD.get(lang, CHARS_PER_WORD["en"])
    words = word_count(text)
    if words < 20:
        return usual
    measured = len(" ".join(text.split())) / words
    return min(max(measured, usual / 1.5), usual * 1.5)


def rewrite_spec(
    profile: ModelProfile,
    lang: str,
    words: int | None = None,
    per_word: float | None = None,
    *,
    sourced: bool = False,
) -> OutputSpec:
    """The rewrite's schema; for ``words`` words (of ``per_word`` characters each, the
    language's usual figure by default), exactly p paragraphs of lo to hi characters,
    so that the speech has ``words * per_word`` characters within ``LENGTH_SLACK``
    either way: as many paragraphs as that needs at the profile's longest paragraph,
    up to ``MAX_PARAGRAPHS`` (a longer speech is then as long as the schema allows).
    ``sourced``: the rewrite also cites documents, as the draft does."""
    reply = SourcedSpeechRewriteReply if sourced else SpeechRewriteReply
    spec = _speech_items(profile.spec(output_spec(reply), lang))
    if words is None:
        return spec
    longest = int(spec.json_schema["properties"]["speech"]["items"]["maxLength"])
    chars = max(1, words) * (per_word or CHARS_PER_WORD.get(lang, CHARS_PER_WORD["en"]))
    count = min(MAX_PARAGRAPHS, max(1, math.ceil(chars * (1 + LENGTH_SLACK) / longest)))
    high = max(MIN_PARAGRAPH, min(longest, math.floor(chars * (1 + LENGTH_SLACK) / count)))
    least = high * 9 // 10
    if chars * (1 + LENGTH_SLACK) <= MAX_PARAGRAPHS * longest:  # else as long as it can be
        least = min(math.floor(chars * (1 - LENGTH_SLACK) / count), least)
    low = max(MIN_PARAGRAPH, least)
    spec = _with_property(spec, ("speech",), minItems=count, maxItems=count)
    return _with_property(spec, ("speech", "[]"), minLength=low, maxLength=high)


def audience_spec(profile: ModelProfile, lang: str) -> OutputSpec:
    return profile.spec(output_spec(AudienceReply), lang)


def vote_spec(profile: ModelProfile, lang: str) -> OutputSpec:
    return profile.spec(output_spec(VoteReply), lang)
