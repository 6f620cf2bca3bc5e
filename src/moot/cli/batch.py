"""``moot batch PLAN``: run a grid of debates into the store, then print the summary
table (one row per configuration) and, with ``--csv``, write it as CSV. Running the
same plan again skips the debates that are done and resumes those that are not."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Annotated

import typer

from moot.cli.app import app
from moot.cli.common import QuietOption, prices
from moot.safe_text import one_line
from moot.terminal import console, say, text, write_stdout

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID

    from moot.batch import Outcome


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
    from moot.batch import load_plan, run_batch
    from moot.batch.summary import COLUMNS, summarize, to_csv
    from moot.files import check_output_path, write_output
    from moot.store import Store

    if csv_path is not None:
        check_output_path(csv_path, "--csv")
    plan = load_plan(plan_path)
    total = len(plan.items)
    if not quiet:
        say(f"batch {plan.name}: {total} debates on the {executor} executor")
    with BatchProgress(console(stderr=True), total, "batch", enabled=not quiet) as bar:
        outcomes = run_batch(
            plan,
            executor=executor,
            concurrency=concurrency,
            model_concurrency=model_concurrency,
            address=address,
            prices=prices(),
            on_outcome=bar.outcome,
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


class BatchProgress:
    """The progress of a batch of debates on standard error: on a terminal a bar (done
    of total, the outcomes so far, elapsed time and an estimate of what is left), with a
    line for each debate that did not finish; otherwise (a log, a pipe) a line per
    debate with the count, its outcome, and the elapsed time. Ids and errors are printed
    as plain text on one line."""

    def __init__(
        self, console: Console, total: int, label: str, *, enabled: bool = True, bar: bool = True
    ) -> None:
        self.console = console
        self.total = total
        self.label = label
        self.enabled = enabled
        self.use_bar = bar
        self.finished = 0
        self.counts: Counter[str] = Counter()
        self._started = time.perf_counter()
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    def __enter__(self) -> BatchProgress:
        self._started = time.perf_counter()
        if self.enabled and self.use_bar and self.console.is_terminal:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._bar = Progress(
                TextColumn(self.label),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                TextColumn("{task.description}", markup=False),
                console=self.console,
                transient=True,
            )
            self._bar.__enter__()
            self._task = self._bar.add_task("", total=self.total)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.__exit__(exc_type, exc, traceback)
            self._bar = None

    def outcome(self, outcome: Outcome) -> None:
        """One debate of the batch finished (or stopped)."""
        from moot.batch.one import FINISHED

        self.finished += 1
        self.counts[outcome.outcome] += 1
        if not self.enabled:
            return
        why = f" ({outcome.error})" if outcome.error else ""
        if outcome.attempts > 1:
            why += f" (in task {outcome.attempts}: a worker running it was lost)"
        line = one_line(f"[{self.finished}/{self.total}] {outcome.id} {outcome.outcome}{why}")
        if self._bar is not None and self._task is not None:
            tally = ", ".join(f"{n} {name}" for name, n in sorted(self.counts.items()))
            self._bar.update(self._task, completed=self.finished, description=tally)
            if outcome.outcome not in FINISHED:
                self._bar.console.print(text(line))
            return
        elapsed = time.perf_counter() - self._started
        self.console.print(text(f"{line} {elapsed:.0f}s"))


def tsv_line(cells: Sequence[str]) -> str:
    """One row of the summary on the terminal: each cell on one line, control characters
    shown as escapes (a position or configuration name comes from the user's plan), so a
    tab or newline in a name cannot break the table."""
    return "\t".join(one_line(cell) for cell in cells) + "\n"
