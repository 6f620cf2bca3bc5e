"""The ``moot`` command: a thin Typer layer over the public API and the store.

Every command is registered on a :class:`~moot.cli_support.GuardedTyper`, so it ends
with a clean message and a documented exit code whatever goes wrong (see
:mod:`moot.cli_support`); everything it prints goes through :mod:`moot.terminal`,
which never interprets markup and shows control characters as escapes.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, cast

import typer
from pydantic import ValidationError
from rich.markdown import Markdown
from rich.table import Table

from moot import __version__
from moot.calibrate import calibrate_panel, read_cases
from moot.cli_formats import format_options
from moot.cli_support import GuardedTyper, debugging, describe, set_debug
from moot.debate import resume_debate, run_debate
from moot.errors import ConfigError, MootError, OutputError, StoreError
from moot.events import Event, RunStored
from moot.files import check_output_path, write_output
from moot.judging.profiles import TOPIC_TYPES, load_profiles
from moot.llm.budget import PriceTable
from moot.llm.cache import CachePolicy
from moot.options import RunOptions
from moot.progress import Progress
from moot.report import to_json, to_markdown
from moot.report.html import to_html
from moot.safe_text import one_line, safe_json, visible
from moot.schema import CalibrationMethod, DebateResult, TopicType
from moot.store import DebateRow, Store, default_path
from moot.terminal import console, print_stdout, say, text, write_stdout
from moot.validation import check_number

ConcurrencyOption = Annotated[
    int | None,
    typer.Option(
        help="Most calls in flight per endpoint (default: the format's widest round,"
        " at least 4, so each round is one wave)."
    ),
]

app = GuardedTyper(
    add_completion=False,
    no_args_is_help=True,
    # a traceback with local variables could show a key: tracebacks only with --debug
    pretty_exceptions_enable=False,
    help="moot: structured multi-agent LLM debate with an auditable decision briefing.",
)
cache_app = GuardedTyper(no_args_is_help=True, help="Inspect or clear the response cache.")
app.add_typer(cache_app, name="cache")

PRICES_FILE = "prices.toml"


@app.callback()
def _main(
    debug: Annotated[
        bool,
        typer.Option("--debug", help="Show the traceback of an error (also: MOOT_DEBUG=1)."),
    ] = False,
) -> None:
    """moot runs a structured debate between LLM agents and writes a decision briefing.

    Exit codes: 0 done, 1 backend or other error, 2 bad usage or configuration, 3 a
    model reply never validated, 4 budget reached, 130 interrupted.
    """
    set_debug(debug)


def main() -> None:
    """The ``moot`` console script: the app, with the same clean end for anything that
    escapes a command (a failure while parsing, say)."""
    try:
        app(prog_name="moot")
    except SystemExit:
        raise
    except BaseException as exc:  # every exit path gets its message and code
        if debugging():
            raise
        code, label, message = describe(exc)
        say(message, label=label, style="red")
        sys.exit(int(code))


def _prices() -> PriceTable:
    return PriceTable.load(default_path().parent / PRICES_FILE)


def _json_text(data: object) -> str:
    return safe_json(json.dumps(data, ensure_ascii=False, indent=2)) + "\n"


def _emit(
    result: DebateResult,
    json_path: Path | None,
    run_id: str | None,
    html_path: Path | None = None,
) -> None:
    """Write the JSON and the HTML report (if asked) and print the briefing. A file
    that cannot be written is reported after the briefing, which is printed anyway
    (exit 1)."""
    failure: OutputError | None = None
    render: dict[str, Callable[[DebateResult], str]] = {"result": to_json, "HTML report": to_html}
    outputs = (
        (json_path, "result", "moot export {id} --format json > FILE"),
        (html_path, "HTML report", "moot report {id} --html FILE"),
    )
    for path, what, again in outputs:
        if path is None:
            continue
        try:
            write_output(path, render[what](result))
            say(f"{what} written to {path}")
        except OutputError as exc:
            failure = failure or exc
            if run_id is not None:
                exc.add_note("the run is stored: " + again.format(id=run_id))
    briefing = to_markdown(result)
    if sys.stdout.isatty():
        print_stdout(Markdown(briefing))
    else:
        write_stdout(briefing)
    if failure is not None:
        raise failure


@contextmanager
def _resume_hint(stored: list[str]) -> Iterator[None]:
    """Say how to continue a run that stopped after it was stored."""
    try:
        yield
    except (MootError, KeyboardInterrupt) as exc:
        if stored and not isinstance(exc, ConfigError):
            exc.add_note(f"the run is saved: continue it with  moot resume {stored[0]}")
        raise


def _progress(quiet: bool, stored: list[str]) -> tuple[Progress, Callable[[Event], None]]:
    """The progress display and the listener that also notes the stored run's id."""
    progress = Progress(console(stderr=True), enabled=not quiet)

    def listener(event: Event) -> None:
        if isinstance(event, RunStored):
            stored.append(event.debate_id)
        progress.handle(event)

    return progress, listener


@app.command()
def version() -> None:
    """Print moot's version."""
    write_stdout(__version__ + "\n")


@app.command()
def run(
    topic: Annotated[str, typer.Argument(help="The contested question to debate.")],
    debate_format: Annotated[
        str, typer.Option("--format", help="Debate format (see `moot formats`).")
    ] = "structured",
    sides: Annotated[
        str | None,
        typer.Option(help='2-6 positions separated by ";", e.g. "Hainan;the North-East;Yunnan".'),
    ] = None,
    rounds: Annotated[
        int | None, typer.Option(help="Rounds of the free-form format (default 3).")
    ] = None,
    kb: Annotated[
        str | None,
        typer.Option(
            help="Knowledge base of the market format: a KB JSON file, or demo (synthetic)."
        ),
    ] = None,
    analysts: Annotated[
        Path | None,
        typer.Option(help="TOML file of the market format's analysts (default: the eight)."),
    ] = None,
    stage_seconds: Annotated[
        str | None,
        typer.Option(
            help="Competitive: seconds of the opening, rebuttal and closing speeches"
            " (default 240,240,120; or e.g. closing=90)."
        ),
    ] = None,
    branching: Annotated[
        int | None,
        typer.Option(help="Competitive: rebuttals per node of the rehearsal tree (default 3)."),
    ] = None,
    depth: Annotated[
        int | None,
        typer.Option(help="Competitive: levels of rebuttal in the rehearsal tree (default 3)."),
    ] = None,
    no_rehearsal_tree: Annotated[
        bool,
        typer.Option(
            "--no-rehearsal-tree", help="Competitive: no debater prepares a rehearsal tree."
        ),
    ] = False,
    no_flow_tree: Annotated[
        bool,
        typer.Option(
            "--no-flow-tree",
            help="Competitive: no debater sees the flow tree and its legal moves (only the"
            " speeches and the claims' ids).",
        ),
    ] = False,
    baseline: Annotated[
        str | None,
        typer.Option(
            help="Competitive: this side (pro or con) debates without either tree, for a"
            " head-to-head against the other."
        ),
    ] = None,
    audio: Annotated[
        Path | None,
        typer.Option(help="Competitive: write each speech as a WAV file into this directory."),
    ] = None,
    format_option: Annotated[
        list[str] | None,
        typer.Option(
            help="A format option KEY=VALUE (the value as JSON, else text), e.g. claims=2,"
            " similarity=0.85, voters=7; repeatable."
        ),
    ] = None,
    model: Annotated[
        str | None, typer.Option(help="Model spec for every role (default: local).")
    ] = None,
    pro_model: Annotated[
        str | None, typer.Option(help="Model spec for the pro side (market: the bull side).")
    ] = None,
    con_model: Annotated[
        str | None, typer.Option(help="Model spec for the con side (market: the bear side).")
    ] = None,
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
    calibration: Annotated[
        str | None, typer.Option(help="Judge calibration: zscore (default) or minmax.")
    ] = None,
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
    concurrency: ConcurrencyOption = None,
    timeout: Annotated[
        float | None,
        typer.Option(
            help="Seconds one request to a model may take before it fails as a timeout"
            " (a timed-out request is retried like a dropped connection)."
        ),
    ] = None,
    profile: Annotated[
        str | None,
        typer.Option(
            help="Model profile for every role: standard or compact (default: compact for"
            " the embedded model, standard for the others)."
        ),
    ] = None,
    html_path: Annotated[
        Path | None, typer.Option("--html", help="Also write the HTML report to this path.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress display.")] = False,
) -> None:
    """Run a debate on TOPIC and print the decision briefing."""
    policy: CachePolicy = "auto" if cache is None else ("on" if cache else "off")
    judging = _panel_options(
        panel, panel_file, judge_model, judge_runs, calibration, topic_type, swap_sides
    )
    for path in (json_path, html_path):
        if path is not None:
            check_output_path(path)
    options = RunOptions().replace(
        **judging,
        format=debate_format,
        sides=_split_sides(sides),
        format_options=format_options(
            rounds=rounds,
            seconds=stage_seconds,
            branching=branching,
            depth=depth,
            no_rehearsal_tree=no_rehearsal_tree,
            no_flow_tree=no_flow_tree,
            baseline=baseline,
            audio=audio,
            kb=kb,
            analysts=analysts,
            extra=format_option or (),
        ),
        model=model,
        pro_model=pro_model,
        con_model=con_model,
        lang=lang,
        seed=seed,
        temperature=temperature,
        max_reasks=max_reasks,
        strict_rules=strict_rules,
        max_tokens=max_tokens,
        max_cost=max_cost,
        cache=policy,
        concurrency=concurrency,
        timeout=timeout,
        profile=profile,
    )
    store = None if no_store else Store()
    stored: list[str] = []
    progress, listener = _progress(quiet, stored)
    with _resume_hint(stored), progress:
        result = run_debate(
            topic,
            options,
            on_event=listener,
            store=store,
            debate_id=debate_id,
            prices=_prices(),
        )
    _emit(result, json_path, stored[0] if stored else None, html_path)


def _split_sides(sides: str | None) -> tuple[str, ...]:
    """``--sides "A;B;C"`` as position names (empty: pro and con)."""
    if sides is None:
        return ()
    names = tuple(name.strip() for name in sides.split(";"))
    if any(not name for name in names):
        raise ConfigError('--sides takes 2-6 names separated by ";", none of them empty')
    return names


def _panel_options(
    panel: str | None,
    panel_file: Path | None,
    judge_model: list[str] | None,
    judge_runs: int,
    calibration: str | None,
    topic_type: str | None,
    swap_sides: bool,
) -> dict[str, Any]:
    """The judging options of ``run`` and ``calibrate`` as API keyword options. Options
    that only mean something for a panel are refused without one."""
    names = [n.strip() for n in (panel or "").split(",") if n.strip()]
    if calibration not in (None, "zscore", "minmax"):
        raise ConfigError("--calibration must be zscore or minmax")
    if topic_type is not None and topic_type not in TOPIC_TYPES:
        raise ConfigError(f"--topic-type must be one of {', '.join(TOPIC_TYPES)}")
    if not names:
        for given, option in (
            (panel_file is not None, "--panel-file"),
            (calibration is not None, "--calibration"),
            (topic_type is not None, "--topic-type"),
        ):
            if given:
                raise ConfigError(f"{option} needs a --panel (a panel of one judge is fine)")
    models = judge_model or []
    options: dict[str, Any] = {
        "judge_runs": judge_runs,
        "calibration": cast(CalibrationMethod, calibration or "zscore"),
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
    known = read_cases(cases)
    judging = _panel_options(panel, panel_file, judge_model, judge_runs, None, None, False)
    options = RunOptions().replace(**judging, model=model, seed=seed)
    stored: list[str] = []
    progress, listener = _progress(quiet, stored)
    with progress:
        accuracy = calibrate_panel(
            known, options, store=Store(), on_event=listener, prices=_prices()
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


@app.command()
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
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress display.")] = False,
) -> None:
    """Run the market debate on every dated snapshot and score its direction against a
    single agent given the same data: accuracy, McNemar, Brier, reliability, weights."""
    from moot.cli_backtest import BacktestProgress, print_report
    from moot.formats.market.backtest import run_backtest

    if json_path is not None:
        check_output_path(json_path)
    options = RunOptions().replace(
        model=model,
        seed=seed,
        lang=lang,
        concurrency=concurrency,
        timeout=timeout,
        format="market",
        format_options={} if analysts is None else {"analysts": str(analysts)},
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
            prices=_prices(),
        )
    if json_path is not None:
        write_output(json_path, _json_text(report.to_json()))
        say(f"backtest written to {json_path}")
    print_report(report)


@app.command()
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
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress display.")] = False,
) -> None:
    """Run N competitive debates between two debater configurations and report each
    one's win rate with a 95% Wilson interval (by the verdict, the audience vote and
    the stages)."""
    from moot.formats.competitive.tournament import check_plan, run_tournament

    plan = check_plan(topics, [c.strip() for c in configs.split(",")], debates)
    if json_path is not None:
        check_output_path(json_path)
    judging: dict[str, Any] = {"judge_model": judge_model} if judge_model else {}
    if panel:
        judging = {"panel": [n.strip() for n in panel.split(",") if n.strip()]}
        judging["judge_models"] = [judge_model] if judge_model else []
    options = RunOptions().replace(
        **judging,
        format="competitive",
        model=model,
        lang=lang,
        seed=seed,
        format_options=format_options(
            seconds=stage_seconds, branching=branching, depth=depth, extra=format_option or ()
        ),
    )
    stored: list[str] = []
    progress, listener = _progress(quiet, stored)
    with progress:
        result = run_tournament(
            plan.topics,
            plan.configs,
            plan.debates,
            options,
            store=None if no_store else Store(),
            on_event=listener,
            prices=_prices(),
        )
    if json_path is not None:
        write_output(json_path, _json_text(result.model_dump(mode="json")))
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


@app.command()
def resume(
    debate_id: Annotated[str, typer.Argument(help="The id of an unfinished run.")],
    json_path: Annotated[
        Path | None, typer.Option("--json", help="Write the full result as JSON to this path.")
    ] = None,
    max_tokens: Annotated[int | None, typer.Option(help="A new token budget.")] = None,
    max_cost: Annotated[float | None, typer.Option(help="A new cost budget in USD.")] = None,
    timeout: Annotated[
        float | None, typer.Option(help="A new timeout in seconds for each request to a model.")
    ] = None,
    force: Annotated[
        bool, typer.Option(help="Resume even if the run looks alive in another process.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress display.")] = False,
) -> None:
    """Continue an interrupted, failed or stopped run; completed calls are not resent
    (a reply that never validated is asked for again)."""
    if json_path is not None:
        check_output_path(json_path)
    store = Store()
    stored = [debate_id]
    progress, listener = _progress(quiet, [])
    with _resume_hint(stored), progress:
        result = resume_debate(
            debate_id,
            store=store,
            max_tokens=max_tokens,
            max_cost=max_cost,
            timeout=timeout,
            on_event=listener,
            prices=_prices(),
            force=force,
        )
    _emit(result, json_path, debate_id)


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


def _result(row: DebateRow) -> DebateResult:
    """A finished run's stored result, validated (a damaged one is a clean error)."""
    try:
        return DebateResult.model_validate_json(row.result_json or "")
    except ValidationError as exc:
        problem = exc.errors(include_url=False)[0]
        where = ".".join(str(part) for part in problem["loc"]) or "(root)"
        raise StoreError(
            f"the stored result of run {row.id!r} does not read back ({where}: {problem['msg']});"
            f" it was written by another version of moot or damaged; moot show {row.id} --json"
            " prints it as stored"
        ) from exc


@app.command("list")
def list_runs(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    limit: Annotated[int, typer.Option(help="How many recent runs.")] = 20,
) -> None:
    """List recent runs: id, topic, format, status, models, tokens, cost."""
    check_number(limit, "--limit", minimum=0, integer=True)
    rows = Store().list_debates(limit)
    if as_json:
        write_stdout(_json_text([_row_summary(r) for r in rows]))
        return
    table = Table("id", "status", "format", "topic", "models", "tokens", "cost $")
    for r in rows:
        models = ", ".join(sorted({str(m) for m in r.models.values()}))
        cells = (r.id, r.status, r.format, one_line(r.topic)[:50], models)
        table.add_row(
            *(text(one_line(cell)) for cell in cells),
            text(str(r.prompt_tokens + r.completion_tokens)),
            text(f"{r.cost_usd:.4f}"),
        )
    print_stdout(table)


@app.command()
def show(
    debate_id: Annotated[str, typer.Argument(help="Run id.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Show a run: its status and, when finished, its briefing."""
    row = _get(Store(), debate_id)
    if as_json:
        summary = _row_summary(row)
        summary["config"] = row.config
        try:
            summary["result"] = json.loads(row.result_json) if row.result_json else None
        except ValueError:
            summary["result"] = row.result_json  # not JSON: shown as the text it is
        write_stdout(_json_text(summary))
        return
    lines = [f"{one_line(row.id)}  {row.status}  {one_line(row.topic)}\n"]
    if row.error:
        lines.append(f"error: {visible(row.error)}\n")
    write_stdout("".join(lines))
    if row.status == "done" and row.result_json:
        write_stdout(to_markdown(_result(row)))


@app.command()
def export(
    debate_id: Annotated[str, typer.Argument(help="Run id.")],
    fmt: Annotated[str, typer.Option("--format", help="json or md.")] = "json",
) -> None:
    """Print a finished run's result as JSON or as the Markdown briefing."""
    if fmt not in ("json", "md"):
        raise ConfigError("--format must be json or md")
    row = _get(Store(), debate_id)
    if row.status != "done" or not row.result_json:
        raise ConfigError(f"run {debate_id!r} is {row.status}; only finished runs export")
    result = _result(row)
    write_stdout(to_json(result) if fmt == "json" else to_markdown(result))


@app.command("report")
def report_html(
    debate_id: Annotated[str, typer.Argument(help="Run id.")],
    html_path: Annotated[Path, typer.Option("--html", help="Write the HTML report here.")],
) -> None:
    """Write a finished run's report as one self-contained HTML file."""
    check_output_path(html_path)
    row = _get(Store(), debate_id)
    if row.status != "done" or not row.result_json:
        raise ConfigError(f"run {debate_id!r} is {row.status}; only finished runs report")
    write_output(html_path, to_html(_result(row)))
    say(f"HTML report written to {html_path}")


@app.command()
def view(
    port: Annotated[int, typer.Option(help="Port (0: any free port).")] = 8765,
    host: Annotated[str, typer.Option(help="Address to listen on (loopback by default).")] = (
        "127.0.0.1"
    ),
    lang: Annotated[str, typer.Option(help="Language of the viewer's pages: en or zh.")] = "en",
) -> None:
    """Browse the run store read-only in a web browser (localhost only by default)."""
    from moot.cli_html import serve_store

    serve_store(host=host, port=port, lang=lang, say=lambda message: say(message))


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
    from moot.detectors.lint import lint_file, payload
    from moot.detectors.messages import message

    read, flags = lint_file(transcript)
    if as_json:
        write_stdout(_json_text(payload(flags)))
        return
    if not flags:
        write_stdout(message(read.lang, "lint.none") + "\n")
        return
    table = Table("turn", "side", "detector", "evidence")
    for flag in flags:
        turn = message(read.lang, "lint.whole") if flag.turn is None else str(flag.turn)
        cells = (turn, flag.side or "-", flag.detector, flag.evidence)
        table.add_row(*(text(one_line(cell)) for cell in cells))
    print_stdout(table)


@app.command("formats")
def list_formats(lang: Annotated[str, typer.Option(help="en or zh.")] = "en") -> None:
    """List the debate formats (``--format NAME``)."""
    from moot.formats import formats

    if lang not in ("en", "zh"):
        raise ConfigError("--lang must be en or zh")
    for fmt in formats():
        write_stdout(f"{fmt.name:12} {fmt.summary[lang]}\n")


@app.command("schema")
def print_schema() -> None:
    """Print the JSON Schema of a debate result, with every format's payload."""
    from moot.result_schema import result_json_schema

    write_stdout(_json_text(result_json_schema()))


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
        write_stdout(_json_text(report.as_json()))
    else:
        write_stdout(visible(report.as_text()))
    if not report.healthy:
        raise typer.Exit(1)


@app.command()
def delete(debate_id: Annotated[str, typer.Argument(help="Run id.")]) -> None:
    """Delete a run and its journal."""
    if not Store().delete_debate(debate_id):
        raise ConfigError(f"no run with id {debate_id!r}")
    write_stdout(f"deleted {one_line(debate_id)}\n")


@cache_app.command("stats")
def cache_stats() -> None:
    """Entries, hits and size of the response cache."""
    write_stdout(json.dumps(Store().cache_stats()) + "\n")


@cache_app.command("clear")
def cache_clear() -> None:
    """Remove every cached reply."""
    removed = Store().cache_clear()
    write_stdout(f"removed {removed} cached replies\n")
