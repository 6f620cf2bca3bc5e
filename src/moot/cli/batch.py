"""``moot batch PLAN``: run a grid of debates into the store, then print the summary
table (one row per configuration) and, with ``--csv``, write it as CSV. Running the
same plan again skips the debates that are done and resumes those that are not."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from moot.cli.app import app
from moot.cli.common import QuietOption, prices
from moot.safe_text import one_line
from moot.terminal import say, write_stdout


@app.command()
def batch(
    plan_path: Annotated[
        Path, typer.Argument(metavar="PLAN", help="The plan: a .toml or .jsonl grid.")
    ],
    executor: Annotated[
        str, typer.Option(help="local (asyncio in this process) or ray (the ray extra).")
    ] = "local",
    address: Annotated[
        str | None,
        typer.Option(help="The Ray cluster to join (default: start one on this machine)."),
    ] = None,
    concurrency: Annotated[int, typer.Option(help="Most debates running at once.")] = 8,
    model_concurrency: Annotated[
        int | None,
        typer.Option(help="Most calls one debate sends at once to a model endpoint."),
    ] = None,
    csv_path: Annotated[
        Path | None, typer.Option("--csv", help="Also write the summary table as CSV here.")
    ] = None,
    quiet: QuietOption = False,
) -> None:
    """Run every debate of PLAN into the store (see docs/batch.md); a second run
    resumes the batch."""
    from moot.batch import Outcome, load_plan, run_batch
    from moot.batch.summary import COLUMNS, summarize, to_csv
    from moot.files import check_output_path, write_output
    from moot.store import Store

    if csv_path is not None:
        check_output_path(csv_path, "--csv")
    plan = load_plan(plan_path)
    total = len(plan.items)
    finished = 0

    def progress(outcome: Outcome) -> None:
        nonlocal finished
        finished += 1
        if not quiet:
            why = f" ({outcome.error})" if outcome.error else ""
            if outcome.attempts > 1:
                why += f" (in task {outcome.attempts}: a worker running it was lost)"
            say(f"[{finished}/{total}] {outcome.id} {outcome.outcome}{why}")

    if not quiet:
        say(f"batch {plan.name}: {total} debates on the {executor} executor")
    outcomes = run_batch(
        plan,
        executor=executor,
        concurrency=concurrency,
        model_concurrency=model_concurrency,
        address=address,
        prices=prices(),
        on_outcome=progress,
    )
    with Store() as store:
        rows = summarize(plan.items, store)
    write_stdout(tsv_line(COLUMNS))
    for row in rows:
        write_stdout(tsv_line(row.cells()))
    if csv_path is not None:
        write_output(csv_path, to_csv(rows))
        say(f"summary written to {csv_path}")
    counts: dict[str, int] = {}
    for outcome in outcomes:
        counts[outcome.outcome] = counts.get(outcome.outcome, 0) + 1
    say(", ".join(f"{n} {name}" for name, n in sorted(counts.items())))
    if any(o.outcome in ("failed", "busy", "lost") for o in outcomes):
        raise typer.Exit(1)


def tsv_line(cells: Sequence[str]) -> str:
    """One row of the summary on the terminal: each cell on one line, control characters
    shown as escapes (a position or configuration name comes from the user's plan), so a
    tab or newline in a name cannot break the table."""
    return "\t".join(one_line(cell) for cell in cells) + "\n"
