"""``moot calibrate``: debate topics whose right side is known and record each
judge's hits."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from moot.cli.app import app
from moot.cli.common import QuietOption, panel_options, prices, progress
from moot.safe_text import one_line
from moot.terminal import print_stdout, text


@app.command()
def calibrate(
    cases: Annotated[Path, typer.Argument(help='JSONL: {"topic": ..., "correct": "pro"|"con"}')],
    panel: Annotated[str, typer.Option(help="Judge panel to calibrate.")] = (
        "technical,business,risk,general"
    ),
    panel_file: Annotated[Path | None, typer.Option(help="TOML of custom profiles.")] = None,
    model: Annotated[str | None, typer.Option(help="Model spec for the debaters.")] = None,
    judge_model: Annotated[list[str] | None, typer.Option(help="Judge model spec(s).")] = None,
    judge_runs: Annotated[int, typer.Option(help="Runs per judge.")] = 1,
    seed: Annotated[int | None, typer.Option(help="Seed.")] = None,
    quiet: QuietOption = False,
) -> None:
    """Debate topics whose right side is known and record each judge's hits; the
    judges' historical accuracy then weighs their votes in later panels."""
    from rich.table import Table

    from moot.calibrate import calibrate_panel, read_cases
    from moot.options import RunOptions
    from moot.store import Store

    known = read_cases(cases)
    judging = panel_options(panel, panel_file, judge_model, judge_runs, None, None, False)
    options = RunOptions().replace(**judging, model=model, seed=seed)
    stored: list[str] = []
    display, listener = progress(quiet, stored)
    with display:
        accuracy = calibrate_panel(
            known, options, store=Store(), on_event=listener, prices=prices()
        )
    table = Table("judge", "hits", "debates", "accuracy")
    for identity, (hits, debates) in accuracy.items():
        table.add_row(
            text(one_line(identity)),
            text(str(hits)),
            text(str(debates)),
            text(f"{hits / debates:.2f}"),
        )
    print_stdout(table)
