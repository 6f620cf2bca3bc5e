"""The domain types of a debate and its result (the versioned JSON format).

Everything here is computed or validated by code: model replies are parsed into the
reply types of ``moot.formats.replies`` and ``moot.judging.replies`` first, checked,
and only then turned into these types. ``DebateResult`` is what ``moot run --json``
writes; ``SCHEMA_VERSION`` changes whenever a field changes meaning or disappears.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = "1.0"

Side = Literal["pro", "con"]
SIDES: tuple[Side, Side] = ("pro", "con")
Lang = Literal["en", "zh"]
ResponseType = Literal["refute", "challenge", "concede", "partial"]
Standing = Literal["UPHELD", "PARTIALLY_UPHELD", "REFUTED", "UNCERTAIN"]
FallacyType = Literal[
    "straw_man",
    "appeal_to_authority",
    "slippery_slope",
    "false_dilemma",
    "anecdotal_evidence",
    "circular_reasoning",
    "ad_hominem",
]
GapReading = Literal["evenly_matched", "moderate_difference", "clear_difference"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def other_side(side: Side) -> Side:
    """The opposing side."""
    return "con" if side == "pro" else "pro"


class Argument(_Frozen):
    """One numbered opening argument; the id (``PRO-1``...) is assigned by code."""

    id: str
    side: Side
    claim: str
    reasoning: str
    evidence: str


class CrossExamination(_Frozen):
    """One side's answer to one opposing argument in round 2."""

    by: Side
    target_id: str
    response: ResponseType
    reasoning: str
    follow_up: str


class StanceChange(_Frozen):
    """Whether a side's final stance moved during the debate, and why."""

    changed: bool
    reason: str


class Closing(_Frozen):
    """A side's closing statement (round 3)."""

    side: Side
    concessions: list[str]
    unrefuted: list[str]
    final_stance: str
    stance_change: StanceChange


class ArgumentScore(_Frozen):
    """A judge's integer scores for one argument and the weighted score code computed."""

    argument_id: str
    logic: int = Field(ge=1, le=10)
    evidence: int = Field(ge=1, le=10)
    responsiveness: int = Field(ge=1, le=10)
    honesty: int = Field(ge=1, le=10)
    weighted: float


class Totals(_Frozen):
    """Each side's total: the mean of its arguments' weighted scores."""

    pro: float
    con: float


class Gap(_Frozen):
    """How far apart the totals are and what that means (SPEC: <1 even, >3 clear)."""

    value: float
    leader: Side | None
    reading: GapReading
    text: str


class TraceRow(_Frozen):
    """The fate of one opening argument through the debate."""

    argument_id: str
    side: Side
    claim: str
    cross_examination: ResponseType | None
    standing: Standing
    reason: str


class Fallacy(_Frozen):
    """A possible fallacy: a hint for the reader, not a verdict.

    ``verified`` is true when the quoted words were found in the debate text.
    """

    argument_id: str
    type: FallacyType
    quote: str
    verified: bool


class Judgement(_Frozen):
    """The judge's verdict on the debate's quality (not on which stance is right)."""

    judge_model: str
    weights: dict[str, float]
    scores: list[ArgumentScore]
    totals: Totals
    gap: Gap
    trace: list[TraceRow]
    fallacies: list[Fallacy]
    key_insight: str
    unresolved_questions: list[str]
    recommendation: str


class QualityWarning(_Frozen):
    """A protocol rule a statement still broke after every allowed rewrite, or a trace
    signal such as a judge that did not discriminate. ``code`` names the rule, ``where``
    the field, and ``message`` is what the model was told (in English)."""

    round: str
    side: Side | None
    code: str
    where: str = ""
    message: str


StructuredMode = Literal["json_schema", "json_object", "prompt"]


class StructuredFallback(_Frozen):
    """A schema a server refused in its usual structured-output mode, and how the calls
    that needed it were sent instead (their replies were validated as every reply is)."""

    model: str
    schema_name: str
    mode: StructuredMode
    """The mode used instead: ``json_object`` (schema also in the prompt) or ``prompt``."""
    rejected: list[StructuredMode]
    """The modes the server refused this schema in."""
    reason: str
    """The server's own words for the refusal."""
    calls: int
    """How many calls were sent this way."""


class UsageReport(_Frozen):
    """What the debate cost: calls made, re-asks among them, tokens, wall time; and
    the schemas a server refused in its usual structured-output mode."""

    calls: int
    reasks: int
    prompt_tokens: int
    completion_tokens: int
    wall_seconds: float
    structured_fallbacks: list[StructuredFallback] = Field(default_factory=list)


class DebateResult(_Frozen):
    """The full, versioned result of a structured debate."""

    schema_version: str = SCHEMA_VERSION
    format: Literal["structured"] = "structured"
    topic: str
    lang: Lang
    seed: int | None
    models: dict[str, str]
    arguments: list[Argument]
    cross_examinations: list[CrossExamination]
    closings: list[Closing]
    judgement: Judgement
    warnings: list[QualityWarning]
    usage: UsageReport
    panel: Panel | None = None
    swap: SwapCheck | None = None

    def argument(self, argument_id: str) -> Argument:
        """The opening argument with this id (``KeyError`` if there is none)."""
        for arg in self.arguments:
            if arg.id == argument_id:
                return arg
        raise KeyError(argument_id)


# ---- judge panel (multi-judge verdicts with measured agreement) -----------------------

CalibrationMethod = Literal["zscore", "minmax"]
TopicType = Literal["technical", "business", "risk", "general"]
AgreementLabel = Literal["high", "moderate", "needs_attention", "not_computable"]


class PanelScore(_Frozen):
    """One judge's score for one argument: dimension means over the judge's runs, the
    weighted score under the judge's own weights, its spread over runs, the
    calibrated value (z-score or min-max over this judge's own weighted scores) and
    ``adjusted``: the calibrated value on the panel's common scale
    (``common_scale.center + common_scale.scale * calibrated``), on which the panel
    decides."""

    argument_id: str
    logic: float
    evidence: float
    responsiveness: float
    honesty: float
    weighted: float
    run_spread: float
    calibrated: float
    adjusted: float
    standing: Standing


class Calibration(_Frozen):
    """How a judge's scores were calibrated, with the statistics used."""

    method: CalibrationMethod
    center: float
    scale: float
    note: str | None = None


class PanelJudge(_Frozen):
    """One judge of the panel: its profile, model, weight and verdict."""

    name: str
    model: str
    weights: dict[str, float]
    relevance: float
    accuracy: float
    accuracy_debates: int
    weight: float
    runs: list[Judgement]
    scores: list[PanelScore]
    totals: Totals
    """Raw: the mean weighted score of each side's arguments, as this judge gave them."""
    adjusted_totals: Totals
    """The same on the panel's common calibrated scale."""
    calibration: Calibration


class CommonScale(_Frozen):
    """The scale calibrated scores are put back on: the judges' mean centre and mean
    scale (z-scores: mean and standard deviation; min-max: minimum and range)."""

    center: float
    scale: float


class Interval(_Frozen):
    """A 95% bootstrap confidence interval."""

    low: float
    high: float


class AgreementStat(_Frozen):
    """One agreement statistic with its reading (``value`` is None when not computable)."""

    value: float | None
    label: AgreementLabel
    note: str | None = None


class Agreement(_Frozen):
    """Chance-corrected agreement of the panel."""

    alpha_interval: AgreementStat
    alpha_nominal: AgreementStat
    kappa: AgreementStat
    indicative_only: bool
    note: str | None = None


class ArgumentConsensus(_Frozen):
    """The panel on one argument: each judge's weighted score and standing, the
    majority standing (None on a tie) and the cross-judge spread."""

    argument_id: str
    scores: dict[str, float]
    """Each judge's score on the common calibrated scale (the spread is of these)."""
    raw_scores: dict[str, float]
    standings: dict[str, Standing]
    majority_standing: Standing | None
    std: float
    disputed: bool


class Divergence(_Frozen):
    """Whether the panel could not agree, why, and what would settle it."""

    diverged: bool
    reasons: list[str]
    disputed_arguments: list[str]
    settle: list[str]


class SwapCheck(_Frozen):
    """The verdict of the same debate with the stances exchanged between the models
    (and their sampling seeds), the judges reading the con side's arguments first."""

    original_leader: Side | None
    swapped_leader: Side | None
    survives: bool
    swapped_totals: Totals
    swapped_diverged: bool | None
    """Whether the swapped run's panel could not agree (None without a panel)."""
    same_model: bool
    """Both sides use one model: the swap exchanges sampling seeds and reading order."""
    models: dict[str, str]


class Panel(_Frozen):
    """The panel's verdict. When present it, not ``judgement``, is the verdict."""

    topic_type: TopicType
    topic_type_source: Literal["model", "keywords", "user"]
    calibration_method: CalibrationMethod
    common_scale: CommonScale
    judge_runs: int
    judges: list[PanelJudge]
    totals: Totals
    intervals: dict[str, Interval]
    gap: Gap
    agreement: Agreement
    consensus: list[ArgumentConsensus]
    divergence: Divergence
    winner: Side | None
