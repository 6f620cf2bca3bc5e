"""The one rule that names a debate's winner, and the evidence it weighs.

Every place that says who won (the Markdown headline, the HTML verdict card and its
gap chip, the ranking of the positions, the trust verdict's ``verdict_conflict``)
asks :func:`decide`. The rule (published in ``docs/trust.md``):

- **One judge**: the leader of the totals, unless the top two are evenly matched
  (under 1 point apart).
- **A panel**: the panel's winner (none when it diverged or the top is evenly
  matched), unless a majority of the judges (more than half of them) scored another
  position highest; then no winner is named. The judges' vote count is a signal of
  its own, shown beside the totals.
- **Further signals of a format** (the competitive format's stage wins and audience
  vote, :meth:`moot.formats.base.Format.verdict_signals`): the judges' totals count as
  one signal (the position with the higher total, however small the gap), and the
  winner is the position that more than half of the signals favour; none otherwise.

``conflict`` lists the signals that favour another position than the totals when
the verdict does not follow the totals: that is the trust verdict's
``verdict_conflict``. A signal that is outvoted while the totals carry the verdict
is shown beside it but is no conflict.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from moot.schema import DebateResult, Gap, Judgement, Panel

SignalKind = Literal["totals", "judges", "stages", "vote"]
VerdictRule = Literal["one_judge", "panel", "combined"]
NoWinner = Literal["even", "diverged", "judges_disagree", "split"]


@dataclass(frozen=True)
class Signal:
    """One piece of evidence about who won: the position it favours (None: none) and
    its count per position (totals: the score; judges: votes; stages: stages won;
    vote: the audience's shift towards it), out of ``out_of`` (judges, stages)."""

    kind: SignalKind
    leader: str | None
    counts: Mapping[str, float] = field(default_factory=dict)
    out_of: int | None = None


@dataclass(frozen=True)
class Verdict:
    """What the evidence says: the winner named (None: no winner, ``why_none`` says
    why), the positions ranked (the winner first, then by total; equal totals share a
    rank), the rule applied, every signal weighed (the totals first) and the signals in
    conflict with the totals."""

    leader: str | None
    ranking: tuple[tuple[str, int], ...]
    rule: VerdictRule
    signals: tuple[Signal, ...]
    why_none: NoWinner | None
    conflict: tuple[Signal, ...]
    gap: Gap

    @property
    def totals(self) -> Signal:
        return self.signals[0]

    def signal(self, kind: SignalKind) -> Signal | None:
        return next((s for s in self.signals if s.kind == kind), None)


def base_leader(judgement: Judgement, panel: Panel | None) -> str | None:
    """The totals' verdict alone: the panel's winner, or the single judge's leader
    unless the top is evenly matched."""
    if panel is not None:
        return panel.winner
    gap = judgement.gap
    return None if gap.reading == "evenly_matched" else gap.leader


def judges_vote(panel: Panel, keys: Sequence[str]) -> Signal:
    """Each judge votes for the position it scored highest (no vote on a tie at its
    top); the signal favours a position more than half of the judges voted for."""
    votes: Counter[str] = Counter()
    for judge in panel.judges:
        scored = [(judge.totals[k], k) for k in keys if k in judge.totals]
        if not scored:
            continue
        best = max(value for value, _ in scored)
        top = [k for value, k in scored if value == best]
        if len(top) == 1:
            votes[top[0]] += 1
    count = len(panel.judges)
    leader = next((k for k in keys if votes[k] * 2 > count), None)
    return Signal("judges", leader, {k: float(votes[k]) for k in keys}, count)


def majority(signals: Sequence[Signal]) -> str | None:
    """The position more than half of the signals favour (None if none)."""
    tally = Counter(s.leader for s in signals if s.leader is not None)
    return next((k for k, n in tally.items() if n * 2 > len(signals)), None)


def decide(result: DebateResult, extra: Sequence[Signal] = ()) -> Verdict:
    """The verdict of ``result`` by the published rule, with a format's further
    signals ``extra`` (see the module's docstring)."""
    keys = [p.key for p in result.positions]
    panel = result.panel
    gap = panel.gap if panel else result.judgement.gap
    totals = panel.totals if panel else result.judgement.totals
    totals_signal = Signal("totals", gap.leader, dict(totals))
    signals: list[Signal] = [totals_signal]
    if panel is not None:
        signals.append(judges_vote(panel, keys))
    signals.extend(extra)
    leader: str | None
    why: NoWinner | None = None
    rule: VerdictRule
    if extra:
        rule = "combined"
        decisive = [totals_signal, *extra]
        leader = majority(decisive)
        why = None if leader else "split"
    else:
        rule = "panel" if panel is not None else "one_judge"
        leader = base_leader(result.judgement, panel)
        if leader is None:
            why = "diverged" if panel is not None and panel.divergence.diverged else "even"
        vote = signals[1] if panel is not None else None
        if vote is not None and vote.leader is not None and vote.leader != gap.leader:
            leader, why = None, "judges_disagree"
    conflict = (
        ()
        if leader == gap.leader or gap.leader is None
        else tuple(s for s in signals[1:] if s.leader is not None and s.leader != gap.leader)
    )
    if leader is None and why == "split" and not conflict:
        why = "even" if all(s.leader is None for s in signals) else why
    return Verdict(
        leader=leader,
        ranking=rank(keys, totals, leader),
        rule=rule,
        signals=tuple(signals),
        why_none=why if leader is None else None,
        conflict=conflict,
        gap=gap,
    )


def rank(
    keys: Sequence[str], totals: Mapping[str, float], leader: str | None
) -> tuple[tuple[str, int], ...]:
    """The positions in order, each with its rank (1 = first): the named winner
    first, the others by total, highest first; equal totals share a rank."""
    ordered = sorted(keys, key=lambda k: (k != leader, -totals.get(k, 0.0)))
    ranked: list[tuple[str, int]] = []
    for index, key in enumerate(ordered):
        previous = ranked[-1] if ranked else None
        same = (
            previous is not None
            and previous[0] != leader
            and totals.get(previous[0]) == totals.get(key)
        )
        ranked.append((key, previous[1] if same and previous else index + 1))
    return tuple(ranked)
