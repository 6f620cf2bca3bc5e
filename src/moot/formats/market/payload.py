"""The market format's part of a result (``payload["market"]``): the data the
analysts argued from, the analysts, every argument, challenge and closing with the
code's check of every number it cites, the judge's evidence scores before and after
the unsupported-number rule, the judge's market synthesis and, when asked for, the
single-agent baseline. Ids, sides and every check are assigned by code.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from moot.sources.citations import Cited

Stance = Literal["bull", "bear"]
ChallengeType = Literal["refute", "question_evidence", "concede", "partial"]
CHALLENGE_TYPES: tuple[ChallengeType, ...] = ("refute", "question_evidence", "concede", "partial")
ATTACKS: frozenset[str] = frozenset({"refute", "question_evidence"})
"""Challenge types that count as challenging or refuting (the anti-handshake rule)."""
Conviction = Literal["strengthened", "weakened", "unchanged"]
Direction = Literal["up", "down"]
STANDINGS = ("UPHELD", "WEAKENED", "REFUTED", "UNCERTAIN")
"""How an opening argument stood after cross-examination (best, partial, worst,
uncertain)."""
CheckStatus = Literal["matched", "derived", "unsupported", "wrong_entity", "wrong_period", "quoted"]
FLAGGED_STATUSES: frozenset[str] = frozenset({"unsupported", "wrong_entity", "wrong_period"})
"""The statuses the unsupported-number rule penalises (each one counts as flagged)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


class MarketNumberRecord(_Frozen):
    """One number or date a text cites, as the code checked it
    (``moot.formats.market.data.evidence``).

    ``status``: ``matched`` (a field of the data holds it, within rounding),
    ``derived`` (computed from two cited fields: ``field`` is the formula),
    ``unsupported`` (no field of the speaker's data holds it: ``field`` is the closest
    candidate), ``wrong_entity`` (the text names an index, sector or ticker, and only
    another entry's field holds the number: ``field`` is that field, ``note`` names
    the named entry's), ``wrong_period`` (the text names a period or horizon, and only
    a field of another period holds it: ``field`` is that field, ``note`` names the
    named period's), or ``quoted`` (a number of the opponent's that a challenge or a
    closing repeats, or a number the KB does not hold that a document passage the
    argument cites, and that checks out, holds; not the speaker's own claim). ``where``
    is the field of the reply (``evidence``, ``counterpoints[2]``). For an unsupported
    number, ``elsewhere`` names a field of the whole knowledge base that holds it,
    outside the speaker's slice."""

    where: str
    text: str
    kind: str
    value: str
    status: CheckStatus
    field: str | None
    kb_value: str | None
    note: str
    elsewhere: str | None = None


class MarketEvidenceCheck(_Frozen):
    """Every number one text cites, checked; ``unsupported`` counts those flagged
    (``unsupported``, ``wrong_entity`` or ``wrong_period``)."""

    checked: int
    unsupported: int
    numbers: list[MarketNumberRecord]


class MarketKBInfo(_Frozen):
    """The knowledge base the debate argued from (its ``meta`` and modules)."""

    as_of: str
    source: str
    synthetic: bool
    warnings: list[str]
    modules: list[str]


class MarketAnalyst(_Frozen):
    """One analyst: its lens and stance, the position it argues for, the role its
    calls run as (``bull:tech_bull``), its slice of the data and its horizon."""

    id: str
    role: str
    side: Stance
    lens: str
    lens_label: str
    modules: list[str]
    horizon: str
    opponents: list[str]


class MarketArgument(_Frozen):
    """An opening argument. ``id`` is ``AGENT-n`` (``TECH_BULL-2``), assigned by code;
    ``confidence`` is the analyst's own, 0-1."""

    id: str
    agent: str
    side: Stance
    lens: str
    claim: str
    evidence: str
    confidence: float
    counterpoints: list[str]
    check: MarketEvidenceCheck
    citations: list[Cited] = Field(default_factory=list)
    """In a debate over documents (``--sources``): the passages the argument cites
    (their checks are in the result's ``sources`` section)."""


class MarketChallenge(_Frozen):
    """One analyst's answer to one argument of its cross-examination opponent."""

    by: str
    side: Stance
    target_id: str
    target_agent: str
    challenge_type: ChallengeType
    reasoning: str
    new_evidence: str
    check: MarketEvidenceCheck
    unit: str | None = None
    """In a debate over documents: the unit its citations are checked under
    (``TECH_BULL-X2``; the result's ``sources`` section)."""
    citations: list[Cited] = Field(default_factory=list)
    """In a debate over documents: the passages the challenge cites."""


class MarketClosing(_Frozen):
    """An analyst's closing statement."""

    agent: str
    side: Stance
    refined_claims: list[str]
    concessions: list[str]
    final_stance: str
    conviction_change: Conviction
    check: MarketEvidenceCheck
    unit: str | None = None
    """In a debate over documents: the unit its citations are checked under
    (``TECH_BULL-CLOSING``; the result's ``sources`` section)."""
    citations: list[Cited] = Field(default_factory=list)
    """In a debate over documents: the passages the closing cites."""


class MarketEvidenceScore(_Frozen):
    """One judge run's evidence score of one argument: its own (``raw``) and after the
    unsupported-number rule (``penalised``, the score every figure uses)."""

    judge: str
    argument_id: str
    raw: int
    penalised: int
    unsupported: int


class MarketEvidenceRule(_Frozen):
    """The unsupported-number rule applied
    (``moot.formats.market.data.evidence.penalised_evidence``):
    each unsupported number takes ``per_unsupported`` points off the evidence score,
    an argument whose every number is unsupported scores at most
    ``cap_when_all_unsupported``, never below ``floor``."""

    per_unsupported: float
    cap_when_all_unsupported: float
    floor: float


class MarketSynthesis(_Frozen):
    """The judge's market synthesis (key insight and unresolved questions are the
    judgement's own); ``check`` verifies its numbers against the whole knowledge base."""

    bull_case: str
    bear_case: str
    judge_note: str
    check: MarketEvidenceCheck


class MarketBaseline(_Frozen):
    """A single agent's call on the same data (the whole knowledge base, one call):
    the direction and its probability of up, 0-1."""

    direction: Direction
    probability_up: float
    reasoning: str
    check: MarketEvidenceCheck
    contradicts: bool = False
    """The direction contradicts ``probability_up`` (``up`` below 0.5, ``down`` above)
    in the reply kept after the re-asks the profile allows: a backtest leaves this
    row out of the baseline's scoring."""
    reasks_allowed: int = 0
    """How many re-asks a protocol-rule problem (this contradiction among them) was
    allowed on this call: 0 under a profile that re-asks no rule (``compact``)."""


class MarketPayload(_Frozen):
    """``payload["market"]`` of a result."""

    kb: MarketKBInfo
    analysts: list[MarketAnalyst]
    arguments: list[MarketArgument]
    challenges: list[MarketChallenge]
    closings: list[MarketClosing]
    evidence_rule: MarketEvidenceRule
    evidence_scores: list[MarketEvidenceScore]
    synthesis: MarketSynthesis
    baseline: MarketBaseline | None = None

    def argument(self, argument_id: str) -> MarketArgument:
        """The opening argument with this id (``KeyError`` if there is none)."""
        for arg in self.arguments:
            if arg.id == argument_id:
                return arg
        raise KeyError(argument_id)

    def analyst(self, agent_id: str) -> MarketAnalyst:
        """The analyst with this id (``KeyError`` if there is none)."""
        for analyst in self.analysts:
            if analyst.id == agent_id:
                return analyst
        raise KeyError(agent_id)
