"""The verdict and the trust verdict in words, for every report: the Markdown
briefing's first lines, the HTML verdict card and header, ``moot show``.

Everything here reads one :class:`~moot.judging.verdict.Verdict` (the one rule that
names a winner) and the result's :class:`~moot.schema.Trust`, so the headline, the
gap chip and the ranking cannot disagree, and a run of low trust never names a
winner without saying first why it should not be relied on.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from moot.judging.verdict import Signal, Verdict
from moot.schema import DebateResult, Panel, Trust
from moot.trust import LEVEL_LABEL, verdict_of, with_trust
from moot.version import VERSION

TOP_REASONS = 3
"""How many reasons the first lines show."""


@dataclass(frozen=True)
class RunInfo:
    """What the store knows of a run and the result does not hold: its id and when it
    was made (an ISO 8601 time, as the store records it)."""

    id: str | None = None
    date: str | None = None


@dataclass(frozen=True)
class Ranked:
    key: str
    name: str
    rank: int
    total: float
    leads: bool


@dataclass(frozen=True)
class Evidence:
    """One signal in words: its label, the counts per position and what it favours."""

    kind: str
    label: str
    counts: str
    favours: str
    agrees: bool
    """It favours the verdict's winner (or there is no winner to agree with)."""


@dataclass(frozen=True)
class VerdictText:
    """The verdict as the reports say it."""

    verdict: Verdict
    trust: Trust
    level: str
    """The trust level in words."""
    reasons: tuple[str, ...]
    """The details of the top reasons."""
    warning: str | None
    """The sentence that precedes the verdict when trust is not ok (the reasons are
    shown beside it)."""
    sentence: str
    """The verdict by the rule, naming the winner or why there is none."""
    chip: str
    """What the gap chip says beside the gap: who is ahead of whom, or no winner."""
    rule: str
    evidence: tuple[Evidence, ...]
    ranking: tuple[Ranked, ...]

    @property
    def headline(self) -> str:
        """The trust warning, then the verdict: the first thing a reader sees."""
        return f"{self.warning} {self.sentence}" if self.warning else self.sentence


def _panel_sentence(panel: Panel, labels: Mapping[str, str], names: Mapping[str, str]) -> str:
    reasons = panel.divergence.reasons
    if reasons == ["close_totals"]:
        return labels["panel.too_close"]
    if panel.divergence.diverged:
        why = "; ".join(labels.get(f"divergence.{r}", r) for r in reasons)
        return f"{labels['panel.no_winner']} ({why})"
    if panel.winner:
        return labels["panel.winner"].format(side=names[panel.winner], gap="").strip()
    return labels["panel.even"]


def _sentence(
    result: DebateResult, verdict: Verdict, labels: Mapping[str, str], names: Mapping[str, str]
) -> str:
    gap = verdict.gap
    if verdict.why_none == "judges_disagree":
        vote = verdict.signal("judges")
        assert vote is not None  # noqa: S101 (the reason there is none)
        assert vote.leader is not None  # noqa: S101 (the reason there is none)
        return labels["verdict.judges_disagree"].format(
            leader=names.get(gap.leader or "", ""),
            votes=int(vote.counts[vote.leader]),
            judges=vote.out_of,
            other=names[vote.leader],
        )
    if verdict.rule == "combined":
        if verdict.leader is None:
            return labels["verdict.split"] if verdict.why_none == "split" else gap.text
        decisive = [s for s in verdict.signals if s.kind != "judges"]
        return labels["verdict.combined"].format(
            side=names[verdict.leader],
            n=sum(s.leader == verdict.leader for s in decisive),
            of=len(decisive),
        )
    if result.panel is not None:
        return _panel_sentence(result.panel, labels, names)
    return gap.text


def _counts(signal: Signal, names: Mapping[str, str], labels: Mapping[str, str]) -> str:
    def value(key: str) -> str:
        number = signal.counts[key]
        if signal.kind == "totals":
            return f"{number:.2f}"
        if signal.kind == "vote":
            return f"{number:+.2f}"
        return f"{number:g}"

    text = " · ".join(f"{names.get(k, k)} {value(k)}" for k in signal.counts)
    if signal.kind == "vote":
        text = f"{labels['verdict.shift']}: {text}"
    if signal.out_of is not None:
        text += f" ({labels['verdict.of'].format(n=signal.out_of)})"
    return text


def verdict_text(result: DebateResult, labels: Mapping[str, str]) -> VerdictText:
    """The verdict of ``result`` in its language's words (``labels``: the merged
    labels of the result's language and format)."""
    names = {p.key: p.name for p in result.positions}
    verdict = verdict_of(result)
    trust = with_trust(result).trust
    assert trust is not None  # noqa: S101 (with_trust sets it)
    reasons = tuple(r.detail for r in trust.reasons[:TOP_REASONS])
    warning = labels[f"trust.headline.{trust.level}"] if trust.level != "ok" else None
    gap = verdict.gap
    if verdict.leader is None:
        chip = labels["verdict.no_winner"]
    elif gap.leader == verdict.leader and gap.runner_up:
        chip = f"{names[verdict.leader]} {labels['verdict.ahead_of']} {names[gap.runner_up]}"
    else:
        chip = labels["verdict.outvoted"].format(leader=names.get(gap.leader or "", ""))
    totals = verdict.totals.counts
    evidence = tuple(
        Evidence(
            kind=s.kind,
            label=labels[f"verdict.signal.{s.kind}"],
            counts=_counts(s, names, labels),
            favours=(
                labels["verdict.favours"].format(side=names.get(s.leader, s.leader))
                if s.leader
                else labels["verdict.favours_none"]
            ),
            agrees=verdict.leader is None or s.leader == verdict.leader,
        )
        for s in verdict.signals
    )
    return VerdictText(
        verdict=verdict,
        trust=trust,
        level=labels[LEVEL_LABEL[trust.level]],
        reasons=reasons,
        warning=warning,
        sentence=_sentence(result, verdict, labels, names),
        chip=chip,
        rule=labels[f"verdict.rule.{verdict.rule}"],
        evidence=evidence if len(evidence) > 1 else (),
        ranking=tuple(
            Ranked(
                key=key,
                name=names.get(key, key),
                rank=rank,
                total=totals.get(key, 0.0),
                leads=key == verdict.leader,
            )
            for key, rank in verdict.ranking
        ),
    )


def header_items(
    result: DebateResult, labels: Mapping[str, str], run: RunInfo | None
) -> list[tuple[str, str]]:
    """The report header's provenance, as (label, value): run id, date, moot version,
    seed and format (the models have a line of their own); no date when the run's is
    not known."""
    run = run or RunInfo()
    date = run.date
    if date:
        with contextlib.suppress(ValueError):
            date = datetime.fromisoformat(date).astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    seed = labels["header.no_seed"] if result.seed is None else str(result.seed)
    items = [
        (labels["header.run"], run.id or labels["header.not_stored"]),
        (labels["header.date"], date),
        (labels["header.version"], VERSION),
        (labels["header.seed"], seed),
        (labels["format"], labels.get(f"format.{result.format}", result.format)),
    ]
    return [(name, value) for name, value in items if value]
