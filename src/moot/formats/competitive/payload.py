"""The competitive format's part of a result: every speech with its moves and timing,
both trees, the audience's votes and the head-to-head by stage. Every number here is
computed by code (ratings and votes are the models' choices, tallied by code)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from moot.formats.competitive.trees import Action, Stage
from moot.formats.competitive.trees.sides import Side
from moot.sources.citations import Cited

STANDINGS = ("STRONG", "MIXED", "WEAK", "UNCERTAIN")
"""How a speech held up by the end of the debate (best, partial, worst, uncertain)."""
Vote = Literal["for", "against", "undecided"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SideSetup(_Frozen):
    """What a side's debater used (``config``: full, no-rehearsal, no-flow, baseline)."""

    config: str
    rehearsal_tree: bool
    flow_tree: bool


class SpeechMove(_Frozen):
    """One (action, claim, argument, target) tuple of a speech; ``node`` is the flow
    tree node it made or reinforced."""

    action: Action
    claim: str
    argument: str
    target: str | None
    node: str


class BudgetTry(_Frozen):
    """One try of the duration controller: the word budget asked for, the words
    written and the seconds measured."""

    budget: int
    words: int
    seconds: float


class RefusedPlan(_Frozen):
    """A plan of moves the flow tree refused (the writer was asked again)."""

    attempt: int
    problems: list[str]
    codes: list[str]


class PreparedReply(_Frozen):
    claim: str
    strength: float


class Retrieval(_Frozen):
    """Prepared material found in the rehearsal tree for a claim of the debate (or,
    with ``target`` null, a candidate claim of the opening): the matched node, its
    strength ``f_k`` and its replies with ``f_(k-1)``, strongest first."""

    target: str | None
    claim: str
    owner: Side
    matched: str
    similarity: float
    k: int
    strength: float
    replies: list[PreparedReply]


class AudienceRating(_Frozen):
    """The simulated audience's ratings (1-10) of the draft and its feedback."""

    clarity: int
    engagement: int
    evidence: int
    persuasion: int
    feedback: list[str]


class CompetitiveSpeech(_Frozen):
    """One speech: ``id`` is ``PRO-OPENING`` ... ``CON-CLOSING``."""

    id: str
    stage: Stage
    side: Side
    text: str
    actions: list[SpeechMove]
    target_seconds: float
    window: tuple[float, float]
    measured_seconds: float
    duration_source: Literal["espeak-ng", "estimate"]
    budget_steps: list[BudgetTry]
    cut: bool
    """The text is a try cut at a sentence (or word) boundary to fit."""
    within: bool
    draft: str
    audience: AudienceRating
    refused_plans: list[RefusedPlan]
    prepared: list[Retrieval]
    audio: str | None
    """The WAV file's name in the ``--audio`` directory."""
    citations: list[Cited] = Field(default_factory=list)
    """In a debate over documents (``--sources``): the passages the speech's draft
    cites (their checks are in the result's ``sources`` section)."""


class RehearsalRecord(_Frozen):
    """One rehearsal tree: the sides that use it, the model that grew it, whether it
    came from the store's cache, and the tree
    (``moot.formats.competitive.trees.RehearsalTree`` JSON)."""

    sides: list[Side]
    model: str
    from_cache: bool
    calls: int
    waves: int
    tree: dict[str, Any]


class Priming(_Frozen):
    """The earlier debate whose flow tree primed the simulated audience."""

    run_id: str
    topic: str
    similarity: float


class VoteTally(_Frozen):
    votes: list[Vote]
    share: dict[Vote, float]
    """The share of the votes for, against and undecided (0-1)."""


class OxfordVote(_Frozen):
    """The audience's votes before and after the debate. ``shift`` is each side's gain
    in share (after - before: pro counts ``for``, con ``against``); the side that
    gained more wins (``None`` on a tie)."""

    voters: int
    before: VoteTally
    after: VoteTally
    shift: dict[Side, float]
    winner: Side | None


class StageResult(_Frozen):
    """Head-to-head in one stage: each side's speech score by the judge and the side
    that scored higher (``None`` on a tie), with each side's configuration."""

    stage: Stage
    scores: dict[Side, float]
    winner: Side | None
    configs: dict[Side, str]


class Clock(_Frozen):
    """How speaking time was measured: ``espeak-ng`` (its version), or ``estimate``
    with the reason synthesis was unavailable."""

    source: Literal["espeak-ng", "estimate"]
    detail: str


class Similarity(_Frozen):
    """How claims were matched: the method (an embedding model, or the labelled
    lexical fallback, with the reason) and the threshold."""

    method: str
    threshold: float
    fallback_reason: str | None


class MoveCount(_Frozen):
    """Moves by action (every action present, 0 when none) and their shares of the
    total (all 0 when there is no move)."""

    counts: dict[str, int]
    total: int
    shares: dict[str, float]


class StageMoves(_Frozen):
    """One side's moves in one stage."""

    stage: Stage
    side: Side
    moves: MoveCount


class RehearsalUse(_Frozen):
    """The rehearsal claims a side was shown and those its moves drew on."""

    offered: int
    """Distinct prepared claims shown to the side's speeches."""
    used: list[str]
    """The distinct prepared claims some move of the side drew on, in first use order."""
    moves: int
    """The side's moves that drew on a prepared claim."""


class SideMoves(_Frozen):
    """One side's moves over the debate."""

    side: Side
    config: str
    moves: MoveCount
    attack_to_rebut: float | None
    """Attacks over rebuttals (None when the side made no rebuttal)."""
    rehearsal: RehearsalUse


class ActionAnalysis(_Frozen):
    """``payload["competitive"]["action_analysis"]``: the moves per stage and side, per side,
    and the threshold at which a move counts as drawing on the rehearsal
    (``moot.formats.competitive.analysis`` computes it)."""

    stages: list[StageMoves]
    sides: list[SideMoves]
    reuse_threshold: float


class CompetitivePayload(_Frozen):
    """``payload["competitive"]`` of a result."""

    stage_seconds: dict[Stage, float]
    sides: dict[Side, SideSetup]
    speeches: list[CompetitiveSpeech]
    flow_tree: dict[str, Any]
    """The final debate flow tree (``moot.formats.competitive.trees.FlowTree`` JSON)."""
    rehearsal: list[RehearsalRecord]
    similarity: Similarity
    clock: Clock
    priming: Priming | None
    vote: OxfordVote
    head_to_head: list[StageResult]
    action_analysis: ActionAnalysis | None = None
    """The moves per stage and side, the attack-to-rebut ratios and the rehearsal
    claims used (``moot.formats.competitive.analysis``), computed by code from the
    speeches' moves; None in results stored before it existed."""
