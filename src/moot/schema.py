"""The domain types of a debate's result: the versioned JSON format, for every format.

A result is an *envelope* that every debate format shares (topic, language, seed,
models, positions, the judgement or the panel's verdict, detector flags, warnings,
usage) and a *payload* keyed by the format's name with what only that format has
(the structured format's arguments, cross-examinations and closings; the free-form
format's speeches; ...). ``moot schema`` prints the JSON Schema of the envelope with
every registered format's payload.

Everything here is computed or validated by code: model replies are parsed into
reply types first, checked, and only then turned into these types.
``SCHEMA_VERSION`` changes whenever a field changes meaning or disappears:

- 2.0: formats as plug-ins. ``format`` names any registered format; ``positions``
  lists the 2-6 positions debated (``pro``/``con`` for two); totals, gaps and
  verdicts are keyed by position; scores are a mapping of the format's rubric
  dimensions; each judged unit's trace lists every other position's response;
  ``arguments``, ``cross_examinations`` and ``closings`` moved into
  ``payload["structured"]``; ``detectors`` holds the pathology detectors' flags.
- 1.0: the structured format with two sides.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from moot.detectors.transcript import DetectorName, ReviewVerdict
from moot.detectors.transcript import Mode as DetectorMode

SCHEMA_VERSION = "2.0"

Lang = Literal["en", "zh"]
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
    # a number that is not finite is a bug upstream: refused, never stored as null
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


class Position(_Frozen):
    """One position debated: ``key`` names it everywhere in the result (``pro`` and
    ``con`` in a two-sided debate, ``A``..``F`` otherwise), ``name`` is how people
    read it, and ``prefix`` begins the ids of its arguments (``PRO-1``, ``B-2``)."""

    key: str
    name: str
    prefix: str


class ArgumentScore(_Frozen):
    """A judge's integer scores (1-10) for one judged unit, per dimension of the
    format's rubric, and the weighted score code computed. A unit is an opening
    argument in the structured format, a speech in the free-form format."""

    argument_id: str
    side: str
    scores: dict[str, int]
    weighted: float


class Gap(_Frozen):
    """How far the leading position is ahead of the runner-up, and what that means:
    under 1 point evenly matched, over 3 a clear difference."""

    value: float
    leader: str | None
    runner_up: str | None
    reading: GapReading
    text: str


class TraceRow(_Frozen):
    """The fate of one judged unit through the debate: what every other position
    answered to it (``responses``: position key -> response) and its final standing."""

    argument_id: str
    side: str
    claim: str
    responses: dict[str, str]
    standing: str
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
    """The judge's verdict on the debate's quality (not on which position is right).
    ``totals`` holds each position's mean weighted score."""

    judge_model: str
    rubric: str
    weights: dict[str, float]
    scores: list[ArgumentScore]
    totals: dict[str, float]
    gap: Gap
    trace: list[TraceRow]
    fallacies: list[Fallacy]
    key_insight: str
    unresolved_questions: list[str]
    recommendation: str


class QualityWarning(_Frozen):
    """A protocol rule a statement still broke after every allowed rewrite, or a trace
    signal such as a judge that did not discriminate. ``code`` names the rule, ``where``
    the field, and ``message`` is what the model was told."""

    round: str
    side: str | None
    code: str
    where: str = ""
    message: str


class DetectorFlag(_Frozen):
    """A way the debate went wrong, found by a detector after the debate (see
    ``moot.detectors``): ``turn`` indexes the debate's turns in speaking order (None for
    the whole debate), ``unit`` is the judged unit when the turn is one."""

    detector: DetectorName
    """One of the seven detectors' names."""
    turn: int | None
    unit: str | None = None
    side: str | None
    evidence: str
    mode: DetectorMode = "lexical"
    """The pass that produced the flag: ``lexical`` rules, the sentence ``encoder``, or
    the reviewing ``model`` (stance drift only it found)."""
    review: ReviewVerdict | None = None
    """``confirmed`` or ``rejected`` by the reviewing model (``--review-flags``); None
    when no model reviewed the flag."""
    review_reason: str | None = None
    """The reviewing model's reason, with ``review``."""


class DetectorReview(_Frozen):
    """The model-assisted mode of the detectors (``--review-flags``): which model
    reviewed the candidate flags, how many calls it took, and the flags it rejected
    (kept here, out of ``detectors``, so that a reader can check them)."""

    model: str
    calls: int
    """Structured calls made (each journaled and counted in the debate's usage)."""
    reviewed: int
    """Candidate flags the model confirmed or rejected."""
    unreviewed: int
    """Candidate flags left as the detectors gave them: the call budget ran out, or the
    model gave no usable answer."""
    found: int
    """Stance-drift flags the model found that the detectors did not."""
    rejected: list[DetectorFlag] = Field(default_factory=list)


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


class ProfileReport(_Frozen):
    """The model profile a role ran under (see ``moot.profiles``): scales of the reply
    bounds, re-asks for protocol-rule problems, the final stance's length rule."""

    name: str
    chars: float
    items: float
    rule_reasks: int | None
    stance_words: tuple[int, int]
    examples: bool = False
    claim_prefix: bool = False
    """Whether opening claims began with words that commit them to their side ("No,
    because"), derived from the topic by a fixed rule."""
    quote_choices: bool = False
    """Whether, in a debate over documents, each citation's quote was chosen among the
    sentences of the passages given (and its data point among their figures)."""
    argument_calls: bool = False
    """Whether each opening argument was asked for in its own call, from its own angle."""
    lang_chars: tuple[tuple[str, float], ...] = ()
    """Character bounds per debate language where the profile differs from the default
    scales (English 1.0, Chinese 0.5), as (language, scale) pairs."""


TrustLevel = Literal["ok", "caution", "low"]
TrustCode = Literal[
    "rules_broken",
    "detector_flags",
    "unusable_text",
    "verdict_conflict",
    "low_agreement",
    "judge_uniform",
    "unverified_evidence",
    "small_model",
]


class TrustReason(_Frozen):
    """One reason a run deserves less trust: ``code`` names the published reason
    (``docs/trust.md``), ``detail`` says what was found, in the debate's language."""

    code: TrustCode
    detail: str
    level: TrustLevel
    """The level this reason alone sets (``caution`` or ``low``)."""


class Trust(_Frozen):
    """How far the run can be trusted, computed by code from the finished result
    (``moot.trust``): ``ok``, ``caution`` or ``low``, the lowest level any reason sets,
    and the reasons, the ones that set the level first."""

    level: TrustLevel
    reasons: list[TrustReason]


CitationStatus = Literal["verified", "not_in_source", "number_mismatch", "no_source"]


class SourceDocument(_Frozen):
    """A document the debate argued from (``--sources``): its id (``S1``), where it
    was read, its title, the SHA-256 of its bytes and how many passages it holds."""

    id: str
    path: str
    title: str
    sha256: str
    passages: int


class SourceCitation(_Frozen):
    """One evidence item of a judged unit, as code checked it before the judge read
    the debate: the passage it names (``S1:p14``; empty for reasoning with no
    source), the quoted words, and the verifier's status and note."""

    unit: str
    source: str
    passage: str
    quote: str
    status: CitationStatus
    note: str
    support: float | None = None
    """For a verified quote: the share of content terms it shares with what it is
    cited for (the overlap coefficient, 0-1; ``moot.sources.support``); under the
    published threshold it is reported as weakly supported. ``null`` when the quote
    is not verified or nothing was given to compare it with."""


class SourcePassage(_Frozen):
    """The text of a cited passage, kept so a report shows a quote in its context."""

    id: str
    where: str
    text: str


class SourcesSection(_Frozen):
    """The documents a debate argued from and every citation's check (``--sources``);
    ``rule`` is the published penalty an unverified citation costs on the evidence
    dimension, ``reranker`` the sentence encoder that ranked passages (None: FTS5
    alone)."""

    documents: list[SourceDocument]
    citations: list[SourceCitation]
    passages: list[SourcePassage] = Field(default_factory=list)
    rule: str = ""
    reranker: str | None = None


class DebateResult(_Frozen):
    """The full, versioned result of a debate of any format."""

    schema_version: str = SCHEMA_VERSION
    format: str
    topic: str
    lang: Lang
    seed: int | None
    models: dict[str, str]
    positions: list[Position]
    judgement: Judgement
    panel: Panel | None = None
    detectors: list[DetectorFlag] = Field(default_factory=list)
    detector_review: DetectorReview | None = None
    """The model-assisted review of the detectors' flags; None when it was off (the
    default)."""
    warnings: list[QualityWarning]
    usage: UsageReport
    profiles: dict[str, ProfileReport] = Field(default_factory=dict)
    swap: SwapCheck | None = None
    trust: Trust | None = None
    """The trust verdict (``moot.trust``); None in results stored before it existed,
    whose readers compute it on read."""
    sources: SourcesSection | None = None
    """The documents argued from and the citations' checks; None without ``--sources``."""
    payload: dict[str, Any]
    """``{format name: the format's payload}`` (e.g. the structured format's
    arguments, cross-examinations and closings)."""

    def position(self, key: str) -> Position:
        """The position with this key (``KeyError`` if there is none)."""
        for position in self.positions:
            if position.key == key:
                return position
        raise KeyError(key)

    @property
    def body(self) -> dict[str, Any]:
        """This result's own format's payload."""
        body: dict[str, Any] = self.payload[self.format]
        return body


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
    scores: dict[str, float]
    """Each rubric dimension's mean over the judge's runs."""
    weighted: float
    run_spread: float
    calibrated: float
    adjusted: float
    standing: str


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
    totals: dict[str, float]
    """Raw: the mean weighted score of each position's units, as this judge gave them."""
    adjusted_totals: dict[str, float]
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
    standings: dict[str, str]
    majority_standing: str | None
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

    original_leader: str | None
    swapped_leader: str | None
    survives: bool
    swapped_totals: dict[str, float]
    swapped_diverged: bool | None
    """Whether the swapped run's panel could not agree (None without a panel)."""
    same_model: bool
    """Each position uses the same model as the position it exchanges with (both sides
    use one model): the swap exchanges sampling seeds and reading order only."""
    models: dict[str, str]


class Revision(_Frozen):
    """A unit whose weighted score a judge changed in a deliberation round: before and
    after, the mean of every judge's weighted score of the unit in the pass the judge
    was shown, whether the change moved toward it, and the new reason the judge gave
    (None: none)."""

    round: int
    judge: str
    argument_id: str
    before: float
    after: float
    panel_mean: float
    toward_mean: bool
    new_reason: str | None


class DeliberationRound(_Frozen):
    """The panel after one deliberation round: each judge's revised scores (as in the
    independent pass: raw, calibrated, on the common scale), the totals, the
    agreement and the revisions."""

    round: int
    judges: list[PanelJudge]
    common_scale: CommonScale
    totals: dict[str, float]
    agreement: Agreement
    revisions: list[Revision]


class Deliberation(_Frozen):
    """``--panel-deliberate``: the judges read each other's anonymised scores and
    reasons and revised. The independent pass is the panel itself (and its verdict);
    ``rounds[-1]`` is the deliberated pass. ``conformity`` is the share of revisions
    that moved toward the panel mean without a stated new reason (None without one)."""

    rounds: list[DeliberationRound]
    agreement_before: Agreement
    agreement_after: Agreement
    revisions: int
    toward_mean: int
    """Revisions that moved toward the panel mean."""
    silent: int
    """Revisions that moved toward the panel mean without a stated new reason."""
    conformity: float | None


class Panel(_Frozen):
    """The panel's verdict. When present it, not ``judgement``, is the verdict."""

    topic_type: TopicType
    topic_type_source: Literal["model", "keywords", "user"]
    calibration_method: CalibrationMethod
    common_scale: CommonScale
    judge_runs: int
    judges: list[PanelJudge]
    totals: dict[str, float]
    intervals: dict[str, Interval]
    gap: Gap
    agreement: Agreement
    consensus: list[ArgumentConsensus]
    divergence: Divergence
    winner: str | None
    deliberation: Deliberation | None = None
    """With ``--panel-deliberate``: the judges' revisions after reading each other
    (``moot.judging.deliberation``); the fields above stay the independent pass's."""
