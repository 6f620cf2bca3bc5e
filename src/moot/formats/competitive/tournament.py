"""Tournaments between competitive debaters (``moot tournament``).

Two debater configurations (``full``, ``no-rehearsal``, ``no-flow``, ``baseline``: which
of the rehearsal and flow trees a debater uses) meet in N competitive debates with
the same models. They alternate sides (the first configuration argues pro in the
odd-numbered debates, con in the even ones), so a side's advantage cancels out, and
each debate has its own seed (the base seed plus its number). Topics are taken in
turn.

A debate's winner is the configuration whose side the verdict favours (the judge's
leader unless evenly matched, or the panel's winner); a debate without one counts
for neither. Each configuration's win rate is its wins over the debates with a
winner, with a Wilson score interval (``moot.stats.wilson_interval``). The Oxford
vote and the head-to-head by stage are tallied the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from tempfile import TemporaryDirectory

from pydantic import BaseModel, ConfigDict, Field

from moot.batch import Item
from moot.batch.one import Listener as OutcomeListener
from moot.batch.one import check_finished, finished_result
from moot.batch.plan import NAME as BATCH_NAME
from moot.batch.plan import item_id
from moot.batch.run import run_items
from moot.debate import new_debate_id, verdict_leader
from moot.errors import ConfigError
from moot.events import Listener
from moot.formats.competitive.analysis import ActionAnalysis, ConfigMoves, analyse, config_moves
from moot.formats.competitive.options import CONFIGS
from moot.formats.competitive.payload import CompetitivePayload
from moot.formats.competitive.trees.sides import SIDES, Side
from moot.llm.budget import PriceTable
from moot.options import RunOptions
from moot.schema import DebateResult
from moot.stats import wilson_interval
from moot.store import Store
from moot.validation import check_name

FORMAT = "competitive"
CONFIDENCE = 0.95


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Game(_Frozen):
    """One debate of the tournament: who argued which side, and who won what."""

    number: int
    topic: str
    seed: int
    run_id: str | None
    configs: dict[Side, str]
    verdict: str | None
    """The configuration the verdict favours (None: no winner)."""
    vote: str | None
    """The configuration whose side gained more in the Oxford vote."""
    stages: dict[str, str | None]
    """Stage -> the configuration whose speech the judge scored higher."""


class Tally(_Frozen):
    """Wins and losses of one configuration by one measure, and the win rate over the
    decided debates (or stages) with its Wilson interval."""

    wins: int
    losses: int
    undecided: int
    rate: float | None
    interval: tuple[float, float]


class Standing(_Frozen):
    config: str
    verdict: Tally
    vote: Tally
    stages: Tally


class TournamentResult(_Frozen):
    configs: tuple[str, str]
    debates: int
    confidence: float
    games: list[Game]
    standings: list[Standing]
    moves: list[ConfigMoves] = Field(default_factory=list)
    """Each configuration's moves over its debates (the action analysis summed)."""


def tally(outcomes: Sequence[str | None], config: str) -> Tally:
    """``config``'s record over ``outcomes`` (each the winning configuration or None)."""
    wins = sum(1 for o in outcomes if o == config)
    losses = sum(1 for o in outcomes if o is not None and o != config)
    decided = wins + losses
    low, high = wilson_interval(wins, decided, CONFIDENCE)
    return Tally(
        wins=wins,
        losses=losses,
        undecided=len(outcomes) - decided,
        rate=round(wins / decided, 4) if decided else None,
        interval=(round(low, 4), round(high, 4)),
    )


@dataclass(frozen=True)
class Plan:
    topics: tuple[str, ...]
    configs: tuple[str, str]
    debates: int


def check_plan(topics: Sequence[str], configs: Sequence[str], debates: int) -> Plan:
    """The tournament's plan, or ``ConfigError``."""
    cleaned = tuple(t.strip() for t in topics)
    if not cleaned or any(not t for t in cleaned):
        raise ConfigError("a tournament needs at least one topic, none of them empty")
    if len(configs) != 2:
        raise ConfigError(f"a tournament is between two configurations, not {len(configs)}")
    unknown = [c for c in configs if c not in CONFIGS]
    if unknown:
        raise ConfigError(f"unknown configuration {unknown[0]!r}; known: {', '.join(CONFIGS)}")
    if configs[0] == configs[1]:
        raise ConfigError("a tournament needs two different configurations")
    if isinstance(debates, bool) or not isinstance(debates, int) or not 1 <= debates <= 1000:
        raise ConfigError("--debates must be a whole number from 1 to 1000")
    return Plan(cleaned, (configs[0], configs[1]), debates)


def _sides(config: str, other: str, first: Side) -> dict[Side, str]:
    second: Side = "con" if first == "pro" else "pro"
    return {first: config, second: other}


def game_options(options: RunOptions, sides: Mapping[Side, str], seed: int) -> RunOptions:
    """The options of one competitive debate between configurations ``sides`` (each
    side -> its configuration): which sides use the rehearsal and flow trees."""
    format_options = {
        **dict(options.format_options),
        "rehearsal_tree": [s for s in SIDES if CONFIGS[sides[s]][0]],
        "flow_tree": [s for s in SIDES if CONFIGS[sides[s]][1]],
    }
    return options.replace(format=FORMAT, seed=seed, format_options=format_options)


def score_game(
    number: int,
    topic: str,
    seed: int,
    run_id: str | None,
    sides: Mapping[Side, str],
    result: DebateResult,
) -> Game:
    """Who won what in one finished debate, by configuration."""
    body = CompetitivePayload.model_validate(result.body)
    leader = verdict_leader(result.judgement, result.panel)
    return Game(
        number=number,
        topic=topic,
        seed=seed,
        run_id=run_id,
        configs=dict(sides),
        verdict=next((c for side, c in sides.items() if side == leader), None),
        vote=sides[body.vote.winner] if body.vote.winner else None,
        stages={r.stage: sides[r.winner] if r.winner else None for r in body.head_to_head},
    )


def game_sides(configs: tuple[str, str], number: int) -> dict[Side, str]:
    """Who argues which side in debate ``number``: the first configuration pro in the
    odd-numbered debates, con in the even ones."""
    return _sides(configs[0], configs[1], "pro" if number % 2 else "con")


def standings_of(configs: Sequence[str], games: Sequence[Game]) -> list[Standing]:
    """Each configuration's tallies over ``games``."""
    return [
        Standing(
            config=config,
            verdict=tally([g.verdict for g in games], config),
            vote=tally([g.vote for g in games], config),
            stages=tally([w for g in games for w in g.stages.values()], config),
        )
        for config in configs
    ]


@dataclass(frozen=True)
class Scheduled:
    """One debate of the tournament as the batch engine runs it."""

    number: int
    sides: dict[Side, str]
    item: Item


def schedule(ident: str, plan: Plan, options: RunOptions) -> list[Scheduled]:
    """The tournament's debates: each one's sides, seed and topic (see the module), as
    batch items whose ids are the tournament's id and a hash of what each runs."""
    base_seed = options.seed or 0
    games = []
    for number in range(1, plan.debates + 1):
        sides = game_sides(plan.configs, number)
        topic = plan.topics[(number - 1) % len(plan.topics)]
        game = game_options(options, sides, base_seed + number)
        item = Item.of(item_id(ident, [number, topic, game.as_json()]), topic, game)
        games.append(Scheduled(number, sides, item))
    return games


def run_tournament(
    topics: Sequence[str],
    configs: Sequence[str],
    debates: int,
    options: RunOptions,
    *,
    store: Store | None = None,
    on_event: Listener | None = None,
    prices: PriceTable | None = None,
    tournament_id: str | None = None,
    executor: str = "local",
    parallel: int = 1,
    address: str | None = None,
    on_outcome: OutcomeListener | None = None,
) -> TournamentResult:
    """Run the debates on the batch engine (``moot.batch``: ``parallel`` at once, on the
    ``local`` or ``ray`` executor) and tally them (see the module). The debates are
    stored under ``tournament_id`` (default: a new one), so running the tournament
    again with that id skips the finished debates and resumes the others. Without a
    ``store`` they go into a temporary one, removed afterwards."""
    plan = check_plan(topics, configs, debates)
    ident = check_name(
        tournament_id or "tn-" + new_debate_id(),
        BATCH_NAME,
        "tournament id",
        "use letters, digits, '.', '_' or '-' (at most 40), starting with a letter or digit",
    )
    games = schedule(ident, plan, options)
    kept = store is not None  # else the runs are gone afterwards: no run id to show
    with ExitStack() as stack:
        if store is None:
            if address is not None:
                raise ConfigError(
                    "--no-store keeps the debates in a temporary file on this machine:"
                    " a Ray cluster (--address) needs a shared store"
                )
            folder = stack.enter_context(TemporaryDirectory(prefix="moot-tournament-"))
            store = stack.enter_context(Store(Path(folder) / "moot.db"))
        outcomes = run_items(
            [g.item for g in games],
            store,
            executor=executor,
            concurrency=parallel,
            address=address,
            prices=prices,
            on_outcome=on_outcome,
            on_event=on_event,
        )
        check_finished(outcomes, f"tournament {ident}", f"--id {ident}")
        results = [finished_result(store, g.item.id) for g in games]
    scored: list[Game] = []
    played: dict[str, list[tuple[ActionAnalysis, Side]]] = {c: [] for c in plan.configs}
    for game, result in zip(games, results, strict=True):
        item = game.item
        seed = item.seed if item.seed is not None else 0
        run_id = item.id if kept else None
        scored.append(score_game(game.number, item.topic, seed, run_id, game.sides, result))
        analysis = analyse(CompetitivePayload.model_validate(result.body))
        for side, config in game.sides.items():
            played[config].append((analysis, side))
    return TournamentResult(
        configs=plan.configs,
        debates=plan.debates,
        confidence=CONFIDENCE,
        games=scored,
        standings=standings_of(plan.configs, scored),
        moves=[config_moves(c, played[c]) for c in plan.configs],
    )
