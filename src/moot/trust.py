"""The trust verdict: how far a finished run can be trusted, computed by code.

:func:`assess` reads a finished :class:`~moot.schema.DebateResult` and returns its
:class:`~moot.schema.Trust`: ``ok``, ``caution`` or ``low`` (the lowest level any
reason sets) and the reasons. The engine stores it in the result as ``trust``; a
result stored before it existed is assessed on read (:func:`trust_of`). The
thresholds below are the published ones (``docs/trust.md``):

- ``rules_broken``: protocol rules still broken after the re-asks (setup notes and
  the signals counted by another reason left out): caution from
  ``RULES_CAUTION``, low from ``RULES_LOW``.
- ``detector_flags``: caution from ``FLAGS_CAUTION`` flags. Never low on its own:
  the detectors' measured precision on real debates is under one half
  (``docs/detectors.md``).
- ``unusable_text``: a judge or debater field that is markup or JSON debris, a copy
  of the prompt's field description (an ``echo`` warning), a loop (a ``loop``
  warning) or a judge's reason copied for most arguments (``copied_reason``);
  :func:`unusable_fields` is the one place that decides. Low when a judge field (key
  insight, recommendation, an unresolved question, a reason) is unusable or
  ``UNUSABLE_LOW`` fields are; caution otherwise.
- ``verdict_conflict``: the judges' totals disagree with the stage wins, the
  audience vote or the judges' majority, and the verdict does not follow the totals
  (``moot.judging.verdict``): caution.
- ``low_agreement``: a panel whose agreement needs attention or whose judges are far
  apart on an argument: caution.
- ``judge_uniform``: a judge gave every unit the same score (it ranked nothing):
  caution.
- ``unverified_evidence``: cited sources that were not found in the source, or whose
  number differs, or that have no source: caution, low when at least half of the
  citations are not verified.
- ``small_model``: a role played by a model known to be weak (the embedded
  SmolLM2-135M, any role on the compact profile): caution; low when the debate is in
  Chinese (the small model is English-only).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from moot import i18n
from moot.errors import ConfigError
from moot.judging.verdict import Verdict, decide
from moot.profiles import COMPACT_SPECS
from moot.schema import DebateResult, Trust, TrustCode, TrustLevel, TrustReason
from moot.usable import COPIED, MARKERS, UNUSABLE, unusable_reason

if TYPE_CHECKING:
    from moot.detectors.transcript import Transcript

Turns = tuple["Transcript", Sequence[str | None]]
"""A result's transcript and each turn's judged unit, as its format reads them
(``Format.transcript``)."""

RULES_CAUTION = 3
RULES_LOW = 10
FLAGS_CAUTION = 4
UNUSABLE_LOW = 3
UNVERIFIED_LOW_SHARE = 0.5
SMALL_MODELS = ("smollm",)
"""Words in a ``local:`` model path that name a model known to be weak."""

NOT_RULES = frozenset(
    {
        "echo",
        "loop",
        "unusable_text",
        COPIED,
        "citation_unverified",
        "judge_zero_variance",
        "detector_reask",
        "format_option",
        "audio_unavailable",
        "similarity_fallback",
        "duration_estimate",
    }
)
"""Warning codes that are not a protocol rule a reply broke: the signals another
reason counts (echo, loop, unusable text, an unverified citation, a judge that ranked
nothing), records of what was done
(a detector's re-ask) and notes on the setup or the machine."""
UNUSABLE_CODES = frozenset({"echo", "loop", UNUSABLE, COPIED})
"""Warning codes that mark a field as unusable text (a judge's reason copied for most
arguments is shown as such)."""
UNUSABLE_MARKERS = tuple(MARKERS.values())
"""What a field reads when its text was replaced as unusable."""
JUDGE_ROUNDS = frozenset({"judgement", "judge"})
_REASON = re.compile(r"assessments\[\d+\]\.reason$")
VERIFIED = "verified"
ORDER: tuple[TrustCode, ...] = (
    "unusable_text",
    "verdict_conflict",
    "rules_broken",
    "unverified_evidence",
    "small_model",
    "low_agreement",
    "judge_uniform",
    "detector_flags",
)
RANK: dict[TrustLevel, int] = {"ok": 0, "caution": 1, "low": 2}
DETAIL: dict[TrustCode, str] = {
    "rules_broken": "trust.rules_broken",
    "detector_flags": "trust.detector_flags",
    "unusable_text": "trust.unusable_text",
    "verdict_conflict": "trust.verdict_conflict",
    "low_agreement": "trust.low_agreement",
    "judge_uniform": "trust.judge_uniform",
    "unverified_evidence": "trust.unverified_evidence",
    "small_model": "trust.small_model",
}
LEVEL_LABEL: dict[str, str] = {
    "ok": "trust.level.ok",
    "caution": "trust.level.caution",
    "low": "trust.level.low",
    "unknown": "trust.level.unknown",
}


def is_debris(text: str, *, composed: bool = False) -> bool:
    """Whether a prose field holds no usable text: empty, an unusable-text marker, or
    not usable by :func:`moot.usable.unusable_reason` (the one rule the structured-call
    layer applies to every reply, so a stored run read back gets the same answer);
    ``composed`` for a transcript turn, which shows its fields' markers."""
    stripped = text.strip()
    if not stripped or stripped in UNUSABLE_MARKERS:
        return True
    return unusable_reason(stripped, composed=composed) is not None


def _judge_fields(result: DebateResult) -> Iterator[tuple[str, str]]:
    judgement = result.judgement
    yield "key_insight", judgement.key_insight
    yield "recommendation", judgement.recommendation
    # numbered from 1, as the reply's own paths are (a warning names the same field)
    for n, question in enumerate(judgement.unresolved_questions, start=1):
        yield f"unresolved_questions[{n}]", question
    for row in judgement.trace:
        yield f"trace[{row.argument_id}].reason", row.reason


def _debater_fields(result: DebateResult, turns: Turns | None) -> Iterator[tuple[str, str, bool]]:
    """``(where, text, composed)``: the claims, then the transcript's turns, which code
    composed from a reply's fields (markers included); ``turns`` when the caller read
    them already (the engine, for the detectors)."""
    for row in result.judgement.trace:
        yield f"trace[{row.argument_id}].claim", row.claim, False
    if turns is None:
        try:
            from moot.formats import get_format

            turns = get_format(result.format).transcript(result)
        except (ConfigError, ValidationError, KeyError, ValueError):
            return
    transcript, units = turns
    # a quote found in its passage is the document's words (code, JSON and markup
    # included), not prose the debater wrote; any other quote is checked as prose
    found = ("verified", "number_mismatch")
    cited = [] if result.sources is None else result.sources.citations
    quotes = [c.quote for c in cited if c.status in found]
    for n, turn in enumerate(transcript.turns):
        unit = units[n] if n < len(units) else None
        text = turn.text
        for quote in quotes:
            text = text.replace(quote, " ") if quote else text
        yield f"turn {n + 1}" + (f" ({unit})" if unit else ""), text, True


def unusable_fields(
    result: DebateResult, turns: Turns | None = None
) -> tuple[list[str], list[str]]:
    """The judge fields and the debater fields that hold no usable text: debris by
    :func:`is_debris`, or named by an echo, loop or unusable-text warning (a warning
    on the judgement is the judge's). The one place that decides what is unusable.
    ``turns``: the result's transcript, when the caller read it already."""
    judge = [where for where, text in _judge_fields(result) if is_debris(text)]
    debater = [
        where
        for where, text, composed in _debater_fields(result, turns)
        if is_debris(text, composed=composed)
    ]
    names = {p.key: p.name for p in result.positions}
    # a judge's reason marked unusable is read in the trace already ("trace[PRO-1].reason");
    # its warning names it again by the reply's path ("assessments[1].reason")
    reasons = [w for w in result.warnings if w.code in UNUSABLE_CODES and _REASON.match(w.where)]
    shown_reasons = sum(1 for where in judge if where.startswith("trace[") and "reason" in where)
    for w in result.warnings:
        if w.code not in UNUSABLE_CODES or (w in reasons and shown_reasons >= len(reasons)):
            continue
        side = names.get(w.side, w.side) if w.side else None
        if w.where:
            # the same path in both sides' replies is two fields, not one
            where = f"{w.where} ({side})" if side else w.where
        else:
            where = f"{w.round}" + (f", {side}" if side else "") + f" ({w.code})"
        target = judge if w.round in JUDGE_ROUNDS else debater
        if where not in target:
            target.append(where)
    return judge, debater


def rules_broken(result: DebateResult) -> int:
    """How many protocol rules stayed broken (see ``NOT_RULES``)."""
    return sum(w.round != "setup" and w.code not in NOT_RULES for w in result.warnings)


def small_roles(result: DebateResult) -> list[str]:
    """The roles played by a model known to be weak."""
    found = []
    for role, spec in result.models.items():
        profile = result.profiles.get(role)
        path = spec.partition(":")[2].lower() if spec.startswith("local:") else ""
        if (
            spec in COMPACT_SPECS
            or any(word in path for word in SMALL_MODELS)
            or (profile is not None and profile.name == "compact")
        ):
            found.append(role)
    return found


def citation_statuses(result: DebateResult) -> list[str]:
    """The status of every citation in the result's ``sources`` section (none without
    ``--sources``)."""
    return [] if result.sources is None else [c.status for c in result.sources.citations]


def verdict_of(result: DebateResult) -> Verdict:
    """The result's verdict by the one rule (``moot.judging.verdict``), with the
    further signals its format holds (none when the format is not installed)."""
    from moot.formats import get_format

    try:
        extra = get_format(result.format).verdict_signals(result)
    except (ConfigError, ValidationError, KeyError):
        extra = []
    return decide(result, extra)


def _reason(
    result: DebateResult, code: TrustCode, level: TrustLevel, **values: object
) -> TrustReason:
    detail = i18n.message(result.lang, DETAIL[code], **values)
    return TrustReason(code=code, detail=detail, level=level)


def assess(result: DebateResult, turns: Turns | None = None) -> Trust:
    """The trust verdict of a finished result (see the module's docstring); ``turns``:
    its transcript, when the caller read it already."""
    reasons: list[TrustReason] = []
    labels = i18n.labels(result.lang)

    judge, debater = unusable_fields(result, turns)
    if judge or debater:
        fields = judge + debater
        level: TrustLevel = "low" if judge or len(fields) >= UNUSABLE_LOW else "caution"
        shown = ", ".join(fields[:4]) + (" …" if len(fields) > 4 else "")
        reasons.append(_reason(result, "unusable_text", level, n=len(fields), fields=shown))

    verdict = verdict_of(result)
    if verdict.conflict:
        names = {p.key: p.name for p in result.positions}
        leader = verdict.gap.leader or ""
        sides = dict.fromkeys(s.leader for s in verdict.conflict if s.leader)
        against = "; ".join(
            labels["trust.against"].format(
                signals=labels["verdict.and"].join(
                    labels[f"verdict.signal.{s.kind}"] for s in verdict.conflict if s.leader == side
                ),
                side=names.get(side, side),
            )
            for side in sides
            if side is not None
        )
        reasons.append(
            _reason(
                result,
                "verdict_conflict",
                "caution",
                leader=names.get(leader, leader),
                against=against,
            )
        )

    broken = rules_broken(result)
    if broken >= RULES_CAUTION:
        level = "low" if broken >= RULES_LOW else "caution"
        reasons.append(_reason(result, "rules_broken", level, n=broken))

    statuses = citation_statuses(result)
    unverified = sum(s != VERIFIED for s in statuses)
    if unverified:
        level = "low" if unverified >= UNVERIFIED_LOW_SHARE * len(statuses) else "caution"
        reasons.append(
            _reason(result, "unverified_evidence", level, n=unverified, total=len(statuses))
        )

    small = small_roles(result)
    if small:
        level = "low" if result.lang == "zh" else "caution"
        names = {p.key: p.name for p in result.positions}
        judge_word = labels["role.judge"]
        roles = ", ".join(
            names.get(role) or (judge_word + role[5:] if role.startswith("judge") else role)
            for role in small
        )
        reason = _reason(result, "small_model", level, roles=roles)
        # the run said so when the embedded English model took a Chinese debate
        if any(w.code == "english_model" for w in result.warnings):
            more = i18n.message(result.lang, "trust.small_model.english_only")
            reason = reason.model_copy(update={"detail": reason.detail + more})
        reasons.append(reason)

    panel = result.panel
    if panel is not None:
        apart = [r for r in panel.divergence.reasons if r in ("low_agreement", "disputed_argument")]
        if apart or panel.agreement.alpha_interval.label == "needs_attention":
            alpha = panel.agreement.alpha_interval.value
            reasons.append(
                _reason(
                    result,
                    "low_agreement",
                    "caution",
                    alpha="-" if alpha is None else f"{alpha:.2f}",
                    disputed=len(panel.divergence.disputed_arguments),
                )
            )

    if any(w.code == "judge_zero_variance" for w in result.warnings):
        reasons.append(_reason(result, "judge_uniform", "caution"))

    if len(result.detectors) >= FLAGS_CAUTION:
        reasons.append(_reason(result, "detector_flags", "caution", n=len(result.detectors)))

    reasons.sort(key=lambda r: (-RANK[r.level], ORDER.index(r.code)))
    worst = max((RANK[r.level] for r in reasons), default=0)
    return Trust(level=next(k for k, v in RANK.items() if v == worst), reasons=reasons)


def with_trust(result: DebateResult, turns: Turns | None = None) -> DebateResult:
    """``result`` with its trust verdict (computed when it has none); ``turns``: its
    transcript as its format reads it, when the caller read it already (the engine
    reads it for the detectors; a result's transcript is a function of the result)."""
    if result.trust is not None:
        return result
    return result.model_copy(update={"trust": assess(result, turns)})


def trust_of(data: DebateResult | Mapping[str, Any] | str | None) -> Trust | None:
    """The trust verdict of a stored result, in any form the store or a file holds:
    a ``DebateResult``, its JSON as a dict or as text. A result that has ``trust``
    keeps it; one stored before it existed is assessed now; one that cannot be read
    as a result gives None (shown as "unknown")."""
    if data is None:
        return None
    try:
        if isinstance(data, DebateResult):
            result = data
        elif isinstance(data, str):
            result = DebateResult.model_validate_json(data)
        else:
            result = DebateResult.model_validate(data)
        return with_trust(result).trust
    except (ValidationError, ValueError, ConfigError, KeyError):
        return None


def top_reasons(trust: Trust | None, count: int = 2) -> list[TrustReason]:
    """The reasons that set the level, at most ``count``."""
    return [] if trust is None else trust.reasons[:count]


def level_label(trust: Trust | None, lang: str) -> str:
    """The trust level as people read it (``unknown`` when there is none)."""
    return i18n.labels(lang)[LEVEL_LABEL[trust.level if trust else "unknown"]]
