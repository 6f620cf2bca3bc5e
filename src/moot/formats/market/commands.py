"""The market format's command, ``moot backtest``, and what it shows: a progress bar
over the snapshots (plain lines when standard error is not a terminal) and the
report's figures as tables. Every value printed is computed by code
(``moot.formats.market.backtest``). Part of the command line's layer: the command line imports this
module (``MarketFormat.command_modules``), never the format."""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Annotated

import typer

from moot.cli.common import ConcurrencyOption, QuietOption, json_text, prices
from moot.safe_text import one_line
from moot.terminal import console, print_stdout, say, text

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID

    from moot.formats.market.backtest import BacktestReport, SnapshotDebate


class BacktestProgress:
    """A bar over the snapshots, with the id to rerun with."""

    def __init__(self, console: Console, *, enabled: bool = True) -> None:
        self.console = console
        self.enabled = enabled
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    def __enter__(self) -> BacktestProgress:
        if self.enabled and self.console.is_terminal:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

            self._bar = Progress(
                TextColumn("backtest"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.description}"),
                console=self.console,
                transient=True,
            )
            self._bar.__enter__()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.__exit__(exc_type, exc, traceback)

    def _line(self, message: str) -> None:
        if self.enabled:
            self.console.print(text(message))

    def started(self, backtest_id: str, total: int) -> None:
        self._line(
            f"backtest {one_line(backtest_id)}: {total} snapshots"
            f" (rerun with --id {one_line(backtest_id)} to resume)"
        )
        if self._bar is not None:
            self._task = self._bar.add_task("", total=total)

    def snapshot(self, done: int, total: int, debate: SnapshotDebate) -> None:
        row = debate.row
        how = "stored" if debate.reused else f"p(up) {row.confidence_up:.2f}"
        message = (
            f"{one_line(row.id)}: moot {row.predicted}, baseline {row.baseline_predicted},"
            f" actual {row.actual} ({how})"
        )
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, completed=done, description=message)
        else:
            self._line(f"[{done}/{total}] {message}")


def _interval(pair: tuple[float, float]) -> str:
    return f"[{pair[0]:.3f}, {pair[1]:.3f}]"


def print_report(report: BacktestReport) -> None:
    """The figures of a backtest as tables on standard output."""
    from rich.table import Table

    s = report.summary
    label = " (synthetic data)" if report.synthetic else ""
    table = Table(title=f"backtest {report.id}: {s.n} snapshots{label}")
    for column in ("", "accuracy", f"{s.confidence:.0%} Wilson interval", "Brier"):
        table.add_column(column)
    table.add_row("moot", f"{s.accuracy:.3f}", _interval(s.accuracy_interval), f"{s.brier:.4f}")
    table.add_row(
        "baseline",
        f"{s.baseline_accuracy:.3f}",
        _interval(s.baseline_accuracy_interval),
        f"{s.baseline_brier:.4f}",
    )
    print_stdout(table)
    print_stdout(
        text(
            f"McNemar exact p = {s.mcnemar_p:.4f} (moot right and baseline wrong:"
            f" {s.moot_only_correct}; the reverse: {s.baseline_only_correct})"
        )
    )
    reliability = Table(title="reliability of moot's P(up)")
    for column in ("bin", "n", "mean P(up)", "observed up"):
        reliability.add_column(column)
    for b in s.reliability:
        if b.count and b.mean_predicted is not None and b.observed_frequency is not None:
            reliability.add_row(
                f"[{b.lower:.1f}, {b.upper:.1f})",
                str(b.count),
                f"{b.mean_predicted:.3f}",
                f"{b.observed_frequency:.3f}",
            )
    print_stdout(reliability)
    w = report.weights
    if w is None:
        print_stdout(text(f"weights: {report.weights_note}"))
        return
    chosen = ", ".join(f"{d} {v:.1f}" for d, v in w.weights.items())
    print_stdout(
        text(
            f"weights chosen on {w.train_n} snapshots up to {w.split_date}: {chosen};"
            f" out of sample ({w.test_n} snapshots): accuracy {w.test_accuracy:.3f}"
            f" {_interval(w.test_accuracy_interval)}, Brier {w.test_brier:.4f}"
            f" (default 30/30/20/20: accuracy {w.default_test_accuracy:.3f},"
            f" Brier {w.default_test_brier:.4f})"
        )
    )


def backtest(
    source: Annotated[
        str, typer.Argument(help="Snapshot directory (DIR/<id>/kb.json, outcome.json) or demo.")
    ],
    model: Annotated[
        str | None, typer.Option(help="Model spec for every role (default: local).")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of every debate.")] = None,
    json_path: Annotated[
        Path | None,
        typer.Option("--json", help="Write the per-snapshot rows and the summary as JSON."),
    ] = None,
    debate_id: Annotated[
        str | None,
        typer.Option(
            "--id", help="Name this backtest; rerun with the same id to resume (default: new)."
        ),
    ] = None,
    analysts: Annotated[
        Path | None, typer.Option(help="TOML file of analysts (default: the eight).")
    ] = None,
    lang: Annotated[str, typer.Option(help="Language of the debates: en or zh.")] = "en",
    concurrency: ConcurrencyOption = None,
    timeout: Annotated[
        float | None, typer.Option(help="Seconds one request to a model may take.")
    ] = None,
    quiet: QuietOption = False,
) -> None:
    """Run the market debate on every dated snapshot and score its direction against a
    single agent given the same data: accuracy, McNemar, Brier, reliability, weights."""
    from moot.files import check_output_path, write_output
    from moot.formats.fields import flag_options
    from moot.formats.market.backtest import run_backtest
    from moot.formats.market.inputs import FIELDS
    from moot.options import RunOptions
    from moot.store import Store

    if json_path is not None:
        check_output_path(json_path, "--json")
    options = RunOptions().replace(
        model=model,
        seed=seed,
        lang=lang,
        concurrency=concurrency,
        timeout=timeout,
        format="market",
        format_options=flag_options(FIELDS, {"analysts": analysts}),
    )
    options.validate()
    with BacktestProgress(console(stderr=True), enabled=not quiet) as progress:
        report = run_backtest(
            source,
            options,
            store=Store(),
            backtest_id=debate_id,
            on_snapshot=progress.snapshot,
            on_started=progress.started,
            prices=prices(),
        )
    if json_path is not None:
        write_output(json_path, json_text(report.to_json()))
        say(f"backtest written to {json_path}")
    print_report(report)


def register(app: typer.Typer) -> None:
    """Add ``moot backtest`` to the command line's app."""
    app.command()(backtest)
