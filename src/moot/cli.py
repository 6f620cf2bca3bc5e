"""The ``moot`` command: a thin Typer layer over the public API and the store."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, cast

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from moot import __version__
from moot.calibrate import calibrate_panel, read_cases
from moot.cli_html import check_html_path, serve_store, write_html
from moot.debate import DebateOptions, new_debate_id, resume_debate, run_debate
from moot.detectors import TranscriptError
from moot.detectors.lint import lint_file, payload, printable
from moot.detectors.messages import message
from moot.errors import BudgetExceeded, ConfigError, ModelOutputError, MootError
from moot.judging.profiles import TOPIC_TYPES, load_profiles
from moot.llm.budget import PriceTable
from moot.llm.cache import CachePolicy
from moot.progress import Progress
from moot.report import to_json, to_markdown
from moot.schema import CalibrationMethod, DebateResult, TopicType
from moot.store import DebateRow, Store, default_path

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="moot: structured multi-agent LLM debate with an auditable decision briefing.",
)
cache_app = typer.Typer(no_args_is_help=True, help="Inspect or clear the response cache.")
app.add_typer(cache_app, name="cache")

PRICES_FILE = "prices.toml"


@app.callback()
def _main() -> None:
    """moot runs a structured debate between LLM agents and writes a decision briefing."""


def _err() -> Console:
    return Console(stderr=True)


def _prices() -> PriceTable:
    return PriceTable.load(default_path().parent / PRICES_FILE)


@contextmanager
def _errors() -> Iterator[None]:
    """Map moot's errors to a message and an exit code (2 usage, 3 model, 4 budget, 1 other)."""
    err = _err()
    try:
        yield
    except ConfigError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from exc
    except ModelOutputError as exc:
        err.print(f"[red]the model's reply never validated:[/red] {exc}")
        raise typer.Exit(3) from exc
    except BudgetExceeded as exc:
        err.print(f"[yellow]budget reached, run stopped before the call:[/yellow] {exc}")
        raise typer.Exit(4) from exc
    except MootError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(1) from exc
    except KeyboardInterrupt as exc:
        err.print("[yellow]interrupted[/yellow]")
        raise typer.Exit(130) from exc


def _emit(result: DebateResult, json_path: Path | None) -> None:
    if json_path is not None:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(to_json(result), encoding="utf-8")
        _err().print(f"result written to {json_path}")
    briefing = to_markdown(result)
    if sys.stdout.isatty():
        Console().print(Markdown(briefing))
    else:
        sys.stdout.write(briefing)


def _with_progress(quiet: bool, work: Callable[[Progress], DebateResult]) -> DebateResult:
    progress = Progress(_err(), enabled=not quiet)
    with progress:
        return work(progress)


@app.command()
def version() -> None:
    """Print moot's version."""
    typer.echo(__version__)


@app.command()
def run(
    topic: Annotated[str, typer.Argument(help="The contested question to debate.")],
    model: Annotated[
        str | None, typer.Option(help="Model spec for every role (default: local).")
    ] = None,
    pro_model: Annotated[str | None, typer.Option(help="Model spec for the pro side.")] = None,
    con_model: Annotated[str | None, typer.Option(help="Model spec for the con side.")] = None,
    judge_model: Annotated[
        list[str] | None,
        typer.Option(
            help="Model spec for the judge; with a panel repeat it (one per judge, in order)"
            " or give NAME=SPEC."
        ),
    ] = None,
    lang: Annotated[str, typer.Option(help="Language of prompts and briefing: en or zh.")] = "en",
    seed: Annotated[
        int | None, typer.Option(help="Seed: makes local and scripted models deterministic.")
    ] = None,
    temperature: Annotated[float, typer.Option(help="Sampling temperature.")] = 0.3,
    panel: Annotated[
        str | None,
        typer.Option(help="Judge panel, e.g. technical,business,risk,general."),
    ] = None,
    panel_file: Annotated[
        Path | None, typer.Option(help="TOML file of custom judge profiles.")
    ] = None,
    judge_runs: Annotated[int, typer.Option(help="Runs per judge (scores averaged).")] = 1,
    calibration: Annotated[str, typer.Option(help="Judge calibration: zscore or minmax.")] = (
        "zscore"
    ),
    topic_type: Annotated[
        str | None,
        typer.Option(help="Override the topic type: technical, business, risk or general."),
    ] = None,
    swap_sides: Annotated[
        bool, typer.Option(help="Rerun with stances exchanged and report if the verdict holds.")
    ] = False,
    max_reasks: Annotated[
        int, typer.Option(help="Re-asks allowed per call when a reply fails validation.")
    ] = 2,
    strict_rules: Annotated[
        bool,
        typer.Option(
            "--strict-rules/--lenient-rules",
            help="Stop when a protocol rule is still broken after the re-asks"
            " (default: record it as a warning).",
        ),
    ] = False,
    json_path: Annotated[
        Path | None, typer.Option("--json", help="Write the full result as JSON to this path.")
    ] = None,
    html_path: Annotated[
        Path | None, typer.Option("--html", help="Write the HTML report to this path.")
    ] = None,
    debate_id: Annotated[
        str | None, typer.Option("--id", help="Name this run (default: a generated id).")
    ] = None,
    no_store: Annotated[
        bool, typer.Option("--no-store", help="Write nothing to the run store.")
    ] = False,
    max_tokens: Annotated[
        int | None, typer.Option(help="Stop before a call could take the run past N tokens.")
    ] = None,
    max_cost: Annotated[
        float | None,
        typer.Option(help="Stop before a call could take the run past USD (needs prices)."),
    ] = None,
    cache: Annotated[
        bool | None,
        typer.Option(
            "--cache/--no-cache",
            help="Cache every reply / none (default: cache temperature-0 requests only).",
        ),
    ] = None,
    concurrency: Annotated[int, typer.Option(help="Most calls in flight per endpoint.")] = 4,
    profile: Annotated[
        str | None,
        typer.Option(
            help="Model profile for every role: standard or compact (default: compact for"
            " the embedded model, standard for the others)."
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress display.")] = False,
) -> None:
    """Run a structured debate on TOPIC and print the decision briefing."""
    policy: CachePolicy = "auto" if cache is None else ("on" if cache else "off")
    with _errors():
        judging = _panel_options(
            panel, panel_file, judge_model, judge_runs, calibration, topic_type, swap_sides
        )
        if html_path is not None:
            check_html_path(html_path)
        store = None if no_store else Store()
        run_id = None if no_store else (debate_id or new_debate_id())
        if run_id is not None and not quiet:
            _err().print(f"run id: {run_id}  (resume with: moot resume {run_id})")
        progress = Progress(_err(), enabled=not quiet)
        options: DebateOptions = {
            **judging,
            "model": model,
            "pro_model": pro_model,
            "con_model": con_model,
            "lang": lang,
            "seed": seed,
            "temperature": temperature,
            "max_reasks": max_reasks,
            "strict_rules": strict_rules,
            "on_event": progress.handle,
            "store": store,
            "debate_id": run_id,
            "max_tokens": max_tokens,
            "max_cost": max_cost,
            "cache": policy,
            "concurrency": concurrency,
            "prices": _prices(),
            "profile": profile,
        }
        with progress:
            result = run_debate(topic, **options)
    _emit(result, json_path)
    if html_path is not None:
        with _errors():
            write_html(result, html_path)
        _err().print(f"HTML report written to {html_path}")


def _panel_options(
    panel: str | None,
    panel_file: Path | None,
    judge_model: list[str] | None,
    judge_runs: int,
    calibration: str,
    topic_type: str | None,
    swap_sides: bool,
) -> DebateOptions:
    """The judging options of ``run`` and ``calibrate`` as API keyword options."""
    names = [n.strip() for n in (panel or "").split(",") if n.strip()]
    if calibration not in ("zscore", "minmax"):
        raise ConfigError("--calibration must be zscore or minmax")
    if topic_type is not None and topic_type not in TOPIC_TYPES:
        raise ConfigError(f"--topic-type must be one of {', '.join(TOPIC_TYPES)}")
    models = judge_model or []
    options: DebateOptions = {
        "judge_runs": judge_runs,
        "calibration": cast(CalibrationMethod, calibration),
        "topic_type": cast(TopicType | None, topic_type),
        "swap_sides": swap_sides,
    }
    if names:
        options["panel"] = names
        options["judge_models"] = models
        if panel_file is not None:
            options["panel_profiles"] = load_profiles(panel_file)
    elif models:
        if len(models) > 1:
            raise ConfigError("several --judge-model values need a --panel")
        options["judge_model"] = models[0]
    return options


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
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress display.")] = False,
) -> None:
    """Debate topics whose right side is known and record each judge's hits; the
    judges' historical accuracy then weighs their votes in later panels."""
    with _errors():
        known = read_cases(cases)
        options = _panel_options(panel, panel_file, judge_model, judge_runs, "zscore", None, False)
        progress = Progress(_err(), enabled=not quiet)
        with progress:
            full: DebateOptions = {
                **options,
                "model": model,
                "seed": seed,
                "store": Store(),
                "on_event": progress.handle,
                "prices": _prices(),
            }
            accuracy = calibrate_panel(known, **full)
    table = Table("judge", "hits", "debates", "accuracy")
    for identity, (hits, debates) in accuracy.items():
        table.add_row(identity, str(hits), str(debates), f"{hits / debates:.2f}")
    Console().print(table)


@app.command()
def resume(
    debate_id: Annotated[str, typer.Argument(help="The id of an unfinished run.")],
    json_path: Annotated[
        Path | None, typer.Option("--json", help="Write the full result as JSON to this path.")
    ] = None,
    max_tokens: Annotated[int | None, typer.Option(help="A new token budget.")] = None,
    max_cost: Annotated[float | None, typer.Option(help="A new cost budget in USD.")] = None,
    force: Annotated[
        bool, typer.Option(help="Resume even if the run looks alive in another process.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress display.")] = False,
) -> None:
    """Continue an interrupted, failed or stopped run; completed calls are not resent."""
    with _errors():
        store = Store()
        result = _with_progress(
            quiet,
            lambda progress: resume_debate(
                debate_id,
                store=store,
                max_tokens=max_tokens,
                max_cost=max_cost,
                on_event=progress.handle,
                prices=_prices(),
                force=force,
            ),
        )
    _emit(result, json_path)


@app.command()
def lint(
    transcript: Annotated[
        Path,
        typer.Argument(
            help='Transcript JSON: {"topic", "lang": "en"|"zh", "sides": {NAME: stance},'
            ' "turns": [{"side", "text"}], "judge_scores": [{"turn", "score"}] (optional)}.'
        ),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the flags as JSON.")] = False,
) -> None:
    """Run the debate detectors on a transcript, from moot or any other system."""
    try:
        read, flags = lint_file(transcript)
    except TranscriptError as exc:
        _err().print(Text(printable(f"error: {exc}"), style="red"))
        raise typer.Exit(2) from exc
    if as_json:
        typer.echo(json.dumps(payload(flags), ensure_ascii=False, indent=2))
        return
    if not flags:
        typer.echo(message(read.lang, "lint.none"))
        return
    table = Table("turn", "side", "detector", "evidence")
    for flag in flags:
        turn = message(read.lang, "lint.whole") if flag.turn is None else str(flag.turn)
        cells = (turn, flag.side or "-", flag.detector, flag.evidence)
        table.add_row(*(Text(printable(cell)) for cell in cells))
    Console().print(table)


def _row_summary(row: DebateRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "topic": row.topic,
        "format": row.format,
        "status": row.status,
        "models": row.models,
        "calls": row.calls,
        "prompt_tokens": row.prompt_tokens,
        "completion_tokens": row.completion_tokens,
        "cost_usd": round(row.cost_usd, 6),
        "created_at": row.created_at,
        "updated_at": row.updated_at,
        "error": row.error,
    }


def _get(store: Store, debate_id: str) -> DebateRow:
    row = store.get_debate(debate_id)
    if row is None:
        raise ConfigError(f"no run with id {debate_id!r}")
    return row


@app.command("list")
def list_runs(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    limit: Annotated[int, typer.Option(help="How many recent runs.")] = 20,
) -> None:
    """List recent runs: id, topic, format, status, models, tokens, cost."""
    with _errors():
        rows = Store().list_debates(limit)
    if as_json:
        typer.echo(json.dumps([_row_summary(r) for r in rows], ensure_ascii=False, indent=2))
        return
    table = Table("id", "status", "format", "topic", "models", "tokens", "cost $")
    for r in rows:
        models = ", ".join(sorted(set(r.models.values())))
        tokens = str(r.prompt_tokens + r.completion_tokens)
        table.add_row(r.id, r.status, r.format, r.topic[:50], models, tokens, f"{r.cost_usd:.4f}")
    Console().print(table)


@app.command()
def show(
    debate_id: Annotated[str, typer.Argument(help="Run id.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Show a run: its status and, when finished, its briefing."""
    with _errors():
        row = _get(Store(), debate_id)
    if as_json:
        summary = _row_summary(row)
        summary["config"] = row.config
        summary["result"] = json.loads(row.result_json) if row.result_json else None
        typer.echo(json.dumps(summary, ensure_ascii=False, indent=2))
        return
    typer.echo(f"{row.id}  {row.status}  {row.topic}")
    if row.error:
        typer.echo(f"error: {row.error}")
    if row.status == "done" and row.result_json:
        sys.stdout.write(to_markdown(DebateResult.model_validate_json(row.result_json)))


@app.command()
def export(
    debate_id: Annotated[str, typer.Argument(help="Run id.")],
    fmt: Annotated[str, typer.Option("--format", help="json or md.")] = "json",
) -> None:
    """Print a finished run's result as JSON or as the Markdown briefing."""
    with _errors():
        row = _get(Store(), debate_id)
        if fmt not in ("json", "md"):
            raise ConfigError("--format must be json or md")
        if row.status != "done" or not row.result_json:
            raise ConfigError(f"run {debate_id!r} is {row.status}; only finished runs export")
    result = DebateResult.model_validate_json(row.result_json)
    sys.stdout.write(to_json(result) if fmt == "json" else to_markdown(result))


@app.command("report")
def report_html(
    debate_id: Annotated[str, typer.Argument(help="Run id.")],
    html_path: Annotated[Path, typer.Option("--html", help="Write the HTML report here.")],
) -> None:
    """Write a finished run's report as one self-contained HTML file."""
    with _errors():
        row = _get(Store(), debate_id)
        if row.status != "done" or not row.result_json:
            raise ConfigError(f"run {debate_id!r} is {row.status}; only finished runs report")
        write_html(DebateResult.model_validate_json(row.result_json), html_path)
    _err().print(f"HTML report written to {html_path}")


@app.command()
def view(
    port: Annotated[int, typer.Option(help="Port (0: any free port).")] = 8765,
    host: Annotated[str, typer.Option(help="Address to listen on (loopback by default).")] = (
        "127.0.0.1"
    ),
    lang: Annotated[str, typer.Option(help="Language of the viewer's pages: en or zh.")] = "en",
) -> None:
    """Browse the run store read-only in a web browser (localhost only by default)."""
    with _errors():
        serve_store(host=host, port=port, lang=lang, say=lambda text: typer.echo(text, err=True))


@app.command()
def delete(debate_id: Annotated[str, typer.Argument(help="Run id.")]) -> None:
    """Delete a run and its journal."""
    with _errors():
        if not Store().delete_debate(debate_id):
            raise ConfigError(f"no run with id {debate_id!r}")
    typer.echo(f"deleted {debate_id}")


@app.command()
def doctor(
    model: Annotated[
        list[str] | None,
        typer.Option("--model", help="A model spec to check (repeatable; default: local)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Check that this machine can run moot: versions, llama.cpp's CPU features, the
    embedded model, a tiny generation, the run store and the model specs in use."""
    from moot.doctor import diagnose

    report = diagnose(model or ["local"])
    if as_json:
        typer.echo(json.dumps(report.as_json(), ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(report.as_text())
    if not report.healthy:
        raise typer.Exit(1)


@cache_app.command("stats")
def cache_stats() -> None:
    """Entries, hits and size of the response cache."""
    with _errors():
        stats = Store().cache_stats()
    typer.echo(json.dumps(stats))


@cache_app.command("clear")
def cache_clear() -> None:
    """Remove every cached reply."""
    with _errors():
        removed = Store().cache_clear()
    typer.echo(f"removed {removed} cached replies")
