"""The action analysis of competitive debates (TreeDebater's move distribution), by
code from the recorded moves: how many moves of each action (propose, attack,
rebut, reinforce) each side made in each stage and their shares, each side's
attack-to-rebut ratio, and the rehearsal claims its moves drew on.

A move *draws on the rehearsal* when its claim is, by the lexical measure of
``moot.formats.competitive.trees.retrieval`` (character n-gram TF-IDF cosine over
the texts the speech was shown), at least :data:`REUSE_THRESHOLD` similar to a claim
the rehearsal tree prepared for that speech (a candidate claim, a prepared attack or
rebuttal); the lexical measure is used whatever matched the claims during the
debate, so the figure can be recomputed from the result alone.

:func:`config_moves` sums the analysis of one configuration's sides over several
debates, for ``moot tournament`` and the ablation benchmark.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import BaseModel, ConfigDict

from moot.formats.competitive.payload import (
    ActionAnalysis,
    CompetitivePayload,
    CompetitiveSpeech,
    MoveCount,
    RehearsalUse,
    SideMoves,
    StageMoves,
)
from moot.formats.competitive.trees.flow import ACTIONS
from moot.formats.competitive.trees.retrieval import LexicalSimilarity
from moot.formats.competitive.trees.sides import SIDES, Side
from moot.formats.competitive.trees.stages import STAGES

REUSE_THRESHOLD = 0.6
"""Lexical similarity at or above which a move's claim counts as a prepared claim."""

__all__ = ["ACTIONS", "STAGES", "ActionAnalysis", "ConfigMoves", "analyse", "config_moves", "count"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ConfigMoves(_Frozen):
    """One configuration's moves summed over its debates (a tournament, a benchmark)."""

    config: str
    sides: int
    """How many debate sides the configuration played."""
    by_stage: dict[str, MoveCount]
    moves: MoveCount
    attack_to_rebut: float | None
    offered: int
    used: int
    moves_from_rehearsal: int
    rehearsal_share: float | None
    """The share of its moves that drew on a prepared claim (None without moves)."""


def count(actions: Iterable[str]) -> MoveCount:
    """The moves of ``actions`` by action, with shares rounded to 4 places."""
    counts: dict[str, int] = dict.fromkeys(ACTIONS, 0)
    for action in actions:
        counts[action] += 1
    total = sum(counts.values())
    shares = {a: round(n / total, 4) if total else 0.0 for a, n in counts.items()}
    return MoveCount(counts=counts, total=total, shares=shares)


def ratio(moves: MoveCount) -> float | None:
    """Attacks over rebuttals (None without a rebuttal)."""
    rebuts = moves.counts["rebut"]
    return round(moves.counts["attack"] / rebuts, 4) if rebuts else None


def _prepared(speech: CompetitiveSpeech) -> list[str]:
    """The claims the rehearsal prepared for ``speech``: each matched node's claim (a
    candidate claim in the opening) and its replies, once each."""
    texts = [t for r in speech.prepared for t in (r.matched, *(p.claim for p in r.replies))]
    return list(dict.fromkeys(t for t in texts if t.strip()))


def _rehearsal(speeches: Sequence[CompetitiveSpeech]) -> RehearsalUse:
    offered: list[str] = []
    used: list[str] = []
    moves = 0
    for speech in speeches:
        prepared = _prepared(speech)
        offered += [t for t in prepared if t not in offered]
        if not prepared:
            continue
        measure = LexicalSimilarity(prepared)
        for move in speech.actions:
            scores = measure.scores(move.claim)
            best = max(range(len(prepared)), key=lambda n: scores[n])
            if scores[best] >= REUSE_THRESHOLD:
                moves += 1
                if prepared[best] not in used:
                    used.append(prepared[best])
    return RehearsalUse(offered=len(offered), used=used, moves=moves)


def analyse(body: CompetitivePayload) -> ActionAnalysis:
    """The action analysis of one debate, from its recorded moves."""
    stages = [
        StageMoves(
            stage=stage,
            side=side,
            moves=count(
                m.action
                for s in body.speeches
                if (s.stage, s.side) == (stage, side)
                for m in s.actions
            ),
        )
        for stage in STAGES
        for side in SIDES
    ]
    sides = []
    for side in SIDES:
        mine = [s for s in body.speeches if s.side == side]
        moves = count(m.action for s in mine for m in s.actions)
        sides.append(
            SideMoves(
                side=side,
                config=body.sides[side].config,
                moves=moves,
                attack_to_rebut=ratio(moves),
                rehearsal=_rehearsal(mine),
            )
        )
    return ActionAnalysis(stages=stages, sides=sides, reuse_threshold=REUSE_THRESHOLD)


def config_moves(config: str, played: Sequence[tuple[ActionAnalysis, Side]]) -> ConfigMoves:
    """``config``'s moves summed over the debate sides it played (each an analysis
    and the side it argued there)."""
    stage_rows = [r for a, side in played for r in a.stages if r.side == side]
    side_rows = [r for a, side in played for r in a.sides if r.side == side]

    def summed(rows: Iterable[MoveCount]) -> MoveCount:
        return count(action for row in rows for action, n in row.counts.items() for _ in range(n))

    moves = summed(r.moves for r in side_rows)
    made = sum(r.rehearsal.moves for r in side_rows)
    return ConfigMoves(
        config=config,
        sides=len(played),
        by_stage={
            stage: summed(r.moves for r in stage_rows if r.stage == stage) for stage in STAGES
        },
        moves=moves,
        attack_to_rebut=ratio(moves),
        offered=sum(r.rehearsal.offered for r in side_rows),
        used=sum(len(r.rehearsal.used) for r in side_rows),
        moves_from_rehearsal=made,
        rehearsal_share=round(made / moves.total, 4) if moves.total else None,
    )
