"""The competitive format's command, ``moot tournament``: N debates between two
debater configurations, each one's win rate with a 95% Wilson interval. Part of the
command line's layer: the command line imports this module
(``CompetitiveFormat.command_modules``), never the format."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from moot.cli.common import (
    AddressOption,
    ExecutorOption,
    ParallelOption,
    QuietOption,
    json_text,
    prices,
    progress,
)
from moot.terminal import console, print_stdout, say, text

if TYPE_CHECKING:
    from moot.formats.competitive.analysis import ConfigMoves


def tournament(
    topics: Annotated[list[str], typer.Argument(help="One or more topics, debated in turn.")],
    configs: Annotated[
        str,
        typer.Option(help="The two competitive debaters: full, no-rehearsal, no-flow or baseline."),
    ] = "full,baseline",
    debates: Annotated[int, typer.Option(help="How many debates (sides alternate).")] = 10,
    model: Annotated[
        str | None, typer.Option(help="Model spec of both debaters (default: local).")
    ] = None,
    judge_model: Annotated[str | None, typer.Option(help="Model spec of the judge.")] = None,
    panel: Annotated[str | None, typer.Option(help="Judge panel, e.g. technical,risk.")] = None,
    lang: Annotated[str, typer.Option(help="en or zh.")] = "en",
    seed: Annotated[
        int | None, typer.Option(help="Base seed (debate i uses seed + i; default 0).")
    ] = None,
    stage_seconds: Annotated[
        str | None, typer.Option(help="Seconds of the three stages, e.g. 240,240,120.")
    ] = None,
    branching: Annotated[int | None, typer.Option(help="Rehearsal tree branching.")] = None,
    depth: Annotated[int | None, typer.Option(help="Rehearsal tree depth.")] = None,
    format_option: Annotated[
        list[str] | None, typer.Option(help="A competitive option KEY=VALUE; repeatable.")
    ] = None,
    json_path: Annotated[
        Path | None, typer.Option("--json", help="Write the tournament's result as JSON.")
    ] = None,
    no_store: Annotated[
        bool, typer.Option("--no-store", help="Write nothing to the run store.")
    ] = False,
    tournament_id: Annotated[
        str | None,
        typer.Option(
            "--id", help="Name this tournament; rerun with the same id to resume (default: new)."
        ),
    ] = None,
    executor: ExecutorOption = "local",
    address: AddressOption = None,
    parallel: ParallelOption = 1,
    quiet: QuietOption = False,
) -> None:
    """Run N competitive debates between two debater configurations and report each
    one's win rate with a 95% Wilson interval (by the verdict, the audience vote and
    the stages)."""
    from rich.table import Table

    from moot.cli.batch import BatchProgress
    from moot.debate import new_debate_id
    from moot.files import check_output_path, write_output
    from moot.formats.competitive.options import FIELDS
    from moot.formats.competitive.tournament import check_plan, run_tournament
    from moot.formats.fields import flag_options
    from moot.options import RunOptions
    from moot.safe_text import one_line
    from moot.store import Store

    plan = check_plan(topics, [c.strip() for c in configs.split(",")], debates)
    if json_path is not None:
        check_output_path(json_path, "--json")
    judging: dict[str, Any] = {"judge_model": judge_model} if judge_model else {}
    if panel:
        judging = {"panel": [n.strip() for n in panel.split(",") if n.strip()]}
        judging["judge_models"] = [judge_model] if judge_model else []
    flags = {"stage_seconds": stage_seconds, "branching": branching, "depth": depth}
    options = RunOptions().replace(
        **judging,
        format="competitive",
        model=model,
        lang=lang,
        seed=seed,
        format_options=flag_options(FIELDS, flags, format_option or ()),
    )
    ident = tournament_id or "tn-" + new_debate_id()
    if not quiet:
        say(f"tournament {one_line(ident)}: rerun with --id {one_line(ident)} to resume")
    stored: list[str] = []
    # one debate at a time in this process: its rounds and calls; else a bar over them
    one_by_one = parallel == 1 and executor == "local"
    display, listener = progress(quiet or not one_by_one, stored)
    bar = BatchProgress(
        console(stderr=True), plan.debates, "tournament", enabled=not quiet, bar=not one_by_one
    )
    with display, bar:
        result = run_tournament(
            plan.topics,
            plan.configs,
            plan.debates,
            options,
            store=None if no_store else Store(),
            on_event=listener,
            prices=prices(),
            tournament_id=ident,
            executor=executor,
            parallel=parallel,
            address=address,
            on_outcome=bar.outcome,
        )
    if json_path is not None:
        write_output(json_path, json_text(result.model_dump(mode="json")))
        say(f"tournament written to {json_path}")
    table = Table("debater", "measure", "wins", "losses", "no winner", "win rate", "95% interval")
    for standing in result.standings:
        for measure in ("verdict", "vote", "stages"):
            t = getattr(standing, measure)
            rate = "-" if t.rate is None else f"{t.rate:.2f}"
            table.add_row(
                text(standing.config),
                text(measure),
                text(str(t.wins)),
                text(str(t.losses)),
                text(str(t.undecided)),
                text(rate),
                text(f"[{t.interval[0]:.2f}, {t.interval[1]:.2f}]"),
            )
    print_stdout(table)
    print_stdout(moves_table(result.moves, lang))


def moves_table(moves: Sequence[ConfigMoves], lang: str) -> Any:
    """The configurations' moves side by side: each action's share overall and by
    stage, the attack-to-rebut ratio and the share of moves drawn from the rehearsal."""
    from rich.table import Table

    from moot.formats.competitive.analysis import ACTIONS, STAGES
    from moot.formats.competitive.words import word

    table = Table(
        word(lang, "col.config"),
        word(lang, "col.stage"),
        *(word(lang, f"action.{a}") for a in ACTIONS),
        word(lang, "col.total"),
        word(lang, "col.ratio"),
        word(lang, "col.from_rehearsal"),
        title=word(lang, "compare.title"),
    )
    for m in moves:
        rows = [("", m.moves), *((word(lang, f"stage.{s}"), m.by_stage[s]) for s in STAGES)]
        for stage, count in rows:
            whole = stage == ""
            table.add_row(
                text(m.config if whole else ""),
                text(stage or word(lang, "compare.all", sides=m.sides)),
                *(text(f"{count.shares[a]:.0%}") for a in ACTIONS),
                text(str(count.total)),
                text(_ratio(m.attack_to_rebut) if whole else ""),
                text(_share(m.rehearsal_share) if whole else ""),
            )
    return table


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def register(app: typer.Typer) -> None:
    """Add ``moot tournament`` to the command line's app."""
    app.command()(tournament)
