"""The market format's commands: ``moot snapshots`` (a snapshot set from price and
macro CSVs) and ``moot backtest``, and what it shows: a progress bar over the
snapshots (plain lines when standard error is not a terminal) and the report's
figures as tables (the modules filled, the strategies, the calibration). Every
value printed is computed by code (``moot.formats.market.backtest``). Part of the
command line's layer: the command line imports this module
(``MarketFormat.command_modules``), never the format."""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Annotated, Any

import typer

from moot.cli.common import (
    AddressOption,
    ConcurrencyOption,
    ExecutorOption,
    ParallelOption,
    QuietOption,
    json_text,
    prices,
)
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
                # a snapshot id comes from the user's file; the line is text, not markup
                TextColumn("{task.description}", markup=False),
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
        flag = " [baseline contradicts its P(up): not scored]" if row.baseline_contradicts else ""
        message = (
            f"{one_line(row.id)}: moot {row.predicted}, baseline {row.baseline_predicted},"
            f" actual {row.actual} ({how}){flag}"
        )
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, completed=done, description=message)
        else:
            self._line(f"[{done}/{total}] {message}")


def _interval(pair: tuple[float, float]) -> str:
    return f"[{pair[0]:.3f}, {pair[1]:.3f}]"


def _num(value: object, form: str) -> str:
    return "-" if not isinstance(value, int | float) else format(value, form)


def print_modules(report: BacktestReport, lang: str) -> None:
    """Which KB modules the snapshots filled, and the analysts left without data."""
    from rich.table import Table

    from moot.formats.market.command_words import word

    modules = report.modules()
    table = Table(title=word(lang, "modules.title", n=modules["snapshots"]))
    table.add_column(word(lang, "modules.module"))
    table.add_column(word(lang, "modules.snapshots"))
    for module, n in modules["filled"].items():
        table.add_row(module, str(n))
    print_stdout(table)
    if modules["empty"]:
        print_stdout(text(word(lang, "modules.empty", modules=", ".join(modules["empty"]))))
    if modules["index_only"]:
        who = ", ".join(f"{a} ({n})" for a, n in modules["index_only"].items())
        print_stdout(text(word(lang, "modules.index_only", analysts=one_line(who))))


def print_trader(trader: dict[str, Any], lang: str) -> None:
    """The strategies' figures per target and the calibration of stated probabilities."""
    from rich.table import Table

    from moot.formats.market.command_words import word

    keys = (
        ("total_return_pct", "strategies.total", ".2f"),
        ("annualised_return_pct", "strategies.annual", ".2f"),
        ("volatility_pct", "strategies.volatility", ".2f"),
        ("sharpe", "strategies.sharpe", ".2f"),
        ("max_drawdown_pct", "strategies.drawdown", ".2f"),
        ("hit_rate", "strategies.hit", ".3f"),
    )
    for target, figures in trader["strategies"].items():
        title = word(
            lang,
            "strategies.title",
            target=one_line(target),
            per_year=figures["periods_per_year"],
            cost=trader["cost"],
            rf=trader["risk_free"],
        )
        if "note" in figures:
            print_stdout(text(f"{title}: {figures['note']}"))
            continue
        table = Table(title=title)
        table.add_column(word(lang, "strategies.name"), no_wrap=True)
        for _, label, _ in keys:
            table.add_column(word(lang, label))
        for name, row in figures.items():
            if isinstance(row, dict):
                table.add_row(name, *(_num(row[k], form) for k, _, form in keys))
        print_stdout(table)
    table = Table(title=word(lang, "calibration.title"))
    for column in ("calibration.which",):
        table.add_column(word(lang, column))
    for column in ("n", "Brier", "ECE", "reliability", "resolution", "uncertainty"):
        table.add_column(column)
    for name, cal in trader["calibration"].items():
        if cal is not None and "brier" in cal:
            table.add_row(
                word(lang, f"calibration.{name}"),
                str(cal["n"]),
                *(
                    _num(cal[k], ".4f")
                    for k in ("brier", "ece", "reliability", "resolution", "uncertainty")
                ),
            )
    print_stdout(table)
    print_analysts(trader["calibration"], lang)
    fit = trader["calibration"]["moot_platt"]
    if "note" in fit:
        print_stdout(text(word(lang, "platt.none", note=fit["note"])))
    else:
        print_stdout(text(word(lang, "platt", **fit)))


def print_analysts(calibration: dict[str, Any], lang: str) -> None:
    """Each analyst's stated confidence against the outcome and against the judge's
    standing of its arguments."""
    from rich.table import Table

    from moot.formats.market.command_words import word

    agents = calibration.get("per_analyst") or {}
    if not agents:
        return
    standing = calibration.get("analysts_standing") or {}
    table = Table(title=word(lang, "analysts.title", uncertain=standing.get("uncertain", 0)))
    table.add_column(word(lang, "analysts.agent"), no_wrap=True)
    for key in ("side", "confidence", "right", "upheld"):
        table.add_column(word(lang, f"analysts.{key}"))
    table.add_column("n")
    for key in ("brier_outcome", "brier_standing"):
        table.add_column(word(lang, f"analysts.{key}"))
    for agent, row in agents.items():
        table.add_row(
            one_line(agent),
            row["side"],
            _num(row["mean_confidence"], ".3f"),
            _num(row["right_rate"], ".3f"),
            _num(row["upheld_rate"], ".3f"),
            str(row["n"]),
            _num(row["outcome"]["brier"], ".4f"),
            _num(row["standing"]["brier"], ".4f"),
        )
    print_stdout(table)


def print_report(report: BacktestReport, lang: str = "en") -> None:
    """The figures of a backtest as tables on standard output."""
    from rich.table import Table

    from moot.formats.market.command_words import word

    s = report.summary
    label = " (synthetic data)" if report.synthetic else ""
    table = Table(title=f"backtest {report.id}: {s.n} snapshots{label}")
    for column in ("", "accuracy", f"{s.confidence:.0%} Wilson interval", "Brier"):
        table.add_column(column)
    table.add_row("moot", f"{s.accuracy:.3f}", _interval(s.accuracy_interval), f"{s.brier:.4f}")
    table.add_row(
        "baseline",
        _num(s.baseline_accuracy, ".3f"),
        _interval(s.baseline_accuracy_interval),
        _num(s.baseline_brier, ".4f"),
    )
    print_stdout(table)
    if s.baseline_excluded:
        print_stdout(text(word(lang, "excluded", n=len(s.baseline_excluded), total=s.n)))
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
    print_modules(report, lang)
    print_trader(report.trader(), lang)
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
    html_path: Annotated[
        Path | None,
        typer.Option(
            "--html",
            help="Write a self-contained HTML report: equity curves, reliability diagram,"
            " figures, the snapshots linking to their debates.",
        ),
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
    cost: Annotated[
        float,
        typer.Option(
            help="Trading cost of the strategies, a fraction per unit of position changed"
            " (0.001 = 0.1%); default 0.",
        ),
    ] = 0.0,
    risk_free: Annotated[
        float, typer.Option(help="Yearly risk-free rate of the Sharpe ratios (0.02); default 0.")
    ] = 0.0,
    executor: ExecutorOption = "local",
    address: AddressOption = None,
    parallel: ParallelOption = 1,
) -> None:
    """Run the market debate on every dated snapshot and score its direction against a
    single agent given the same data: accuracy, McNemar, Brier, reliability, weights,
    the KB modules filled, the strategies' returns and the calibration."""
    from moot.files import check_output_path, write_output
    from moot.formats.fields import flag_options
    from moot.formats.market.backtest import run_backtest
    from moot.formats.market.inputs import FIELDS
    from moot.options import RunOptions
    from moot.store import Store

    if json_path is not None:
        check_output_path(json_path, "--json")
    if html_path is not None:
        check_output_path(html_path, "--html")
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
            cost=cost,
            risk_free=risk_free,
            executor=executor,
            parallel=parallel,
            address=address,
        )
    if json_path is not None:
        write_output(json_path, json_text(report.to_json()))
        say(f"backtest written to {json_path}")
    if html_path is not None:
        from moot.formats.market.backtest_html import backtest_html

        write_output(html_path, backtest_html(report, lang), "the backtest report")
        say(f"backtest report written to {html_path}")
    print_report(report, lang)


def snapshots(
    prices: Annotated[
        list[Path],
        typer.Argument(
            help="Price CSV(s): OHLCV or closes of one instrument (named by --ticker or the"
            " file's name), symbol,date,price (long) or date,TICKER1,TICKER2 (wide)."
        ),
    ],
    out: Annotated[Path, typer.Option("--out", help="Folder to write the snapshots into.")],
    ticker: Annotated[
        list[str] | None,
        typer.Option(
            help="A ticker to keep, TICKER or TICKER=Display name (repeat; default: all)."
        ),
    ] = None,
    macro: Annotated[
        list[Path] | None, typer.Option(help="Macro CSV (repeat): long, wide, FRED, year,quarter.")
    ] = None,
    sentiment: Annotated[
        list[Path] | None,
        typer.Option(help="Sentiment series CSV (repeat): read as a macro file, into sentiment."),
    ] = None,
    fundamentals: Annotated[
        list[Path] | None,
        typer.Option(
            help="Fundamentals CSV (repeat): date[,symbol],pe_trailing,pb,...; or JSON"
            " (*.json): {TICKER: [{date, pe_trailing, ...}]}."
        ),
    ] = None,
    sectors: Annotated[
        list[Path] | None,
        typer.Option(
            help="Sector price CSV (repeat), any price shape: every target's KB holds the"
            " sectors, measured against it; breadth goes into sentiment."
        ),
    ] = None,
    global_markets: Annotated[
        list[Path] | None,
        typer.Option("--global", help="Global market price CSV (repeat), any price shape."),
    ] = None,
    volatility: Annotated[
        Path | None,
        typer.Option(help="Volatility index CSV (a VIX-like close): sentiment's volatility index."),
    ] = None,
    display_names: Annotated[
        list[str] | None,
        typer.Option(
            "--name", help="A sector's or global market's display name, TICKER=Name (repeat)."
        ),
    ] = None,
    series: Annotated[
        Path | None,
        typer.Option(help="TOML of macro series: \\[series.NAME] unit, lag_days, bar, stamp."),
    ] = None,
    macro_lag: Annotated[
        int, typer.Option(help="Publication lag in days of every macro series not in --series.")
    ] = 0,
    bar: Annotated[
        str | None, typer.Option(help="daily, weekly, monthly or quarterly (default: detected).")
    ] = None,
    stamp: Annotated[
        str,
        typer.Option(help="Where a period's price is dated: auto, start (moved to the end), end."),
    ] = "auto",
    every: Annotated[int, typer.Option(help="Bars between snapshots.", min=1)] = 1,
    horizon: Annotated[int, typer.Option(help="Bars to the outcome.", min=1)] = 1,
    warmup: Annotated[
        int | None, typer.Option(help="Bars of history before the first (default: a year).", min=1)
    ] = None,
    source: Annotated[str | None, typer.Option(help="Where the data comes from.")] = None,
    synthetic: Annotated[bool, typer.Option(help="Label the data synthetic.")] = False,
    lang: Annotated[str, typer.Option(help="Language of the messages: en or zh.")] = "en",
) -> None:
    """Build a backtest snapshot set from price and macro CSVs: one snapshot per ticker
    every --every bars, the KB as known that day and the return over --horizon bars.
    Refuses (exit 2, nothing written) a snapshot folder that exists already."""
    from moot.errors import ConfigError
    from moot.formats.market.command_words import word
    from moot.formats.market.data.demo import SYNTHETIC_WARNING
    from moot.formats.market.data.snapshotset import build_snapshot_set, load_series_spec

    names: dict[str, str] = {}
    for item in ticker or []:
        key, _, name = item.partition("=")
        if not key.strip():
            raise ConfigError(f"--ticker {item!r}: give TICKER or TICKER=Display name")
        names[key.strip()] = name.strip()
    display: dict[str, str] = {}
    for item in display_names or []:
        key, sep, shown = item.partition("=")
        if not sep or not key.strip() or not shown.strip():
            raise ConfigError(f"--name {item!r}: give TICKER=Display name")
        display[key.strip()] = shown.strip()
    report = build_snapshot_set(
        prices,
        out,
        tickers=names,
        macro=macro or [],
        sentiment=sentiment or [],
        fundamentals=fundamentals or [],
        sectors=sectors or [],
        global_markets=global_markets or [],
        names=display,
        volatility=volatility,
        spec=load_series_spec(series) if series is not None else {},
        macro_lag=macro_lag,
        bar=bar,
        stamp=stamp,
        every=every,
        horizon=horizon,
        warmup=warmup,
        source=source
        or ", ".join(
            p.name for p in [*prices, *(macro or []), *(sectors or []), *(global_markets or [])]
        ),
        warnings=[SYNTHETIC_WARNING] if synthetic else [],
        synthetic=synthetic,
    )
    for note in report.notes:
        say(one_line(note))
    for key, n in report.written.items():
        first, last = report.first_last[key]
        ups = report.ups[key]
        print_stdout(
            text(
                word(
                    lang,
                    "snapshots.wrote",
                    n=n,
                    ticker=one_line(key),
                    first=first,
                    last=last,
                    ups=ups,
                    downs=n - ups,
                )
            )
        )
    total = word(
        lang,
        "snapshots.total",
        n=sum(report.written.values()),
        tickers=len(report.written),
        bar=report.bar,
        out=out,
    )
    print_stdout(text(total + (" " + word(lang, "snapshots.synthetic") if synthetic else "")))


def register(app: typer.Typer) -> None:
    """Add ``moot backtest`` and ``moot snapshots`` to the command line's app."""
    app.command()(backtest)
    app.command()(snapshots)
