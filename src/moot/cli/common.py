"""What several commands share: the price table, JSON on standard output, the
progress display, writing a finished run's outputs, and the judging options of
``run`` and ``calibrate`` (a format's own commands use these too).

Heavy modules (the result schema, the report renderers, the engine) are imported in
the functions that need them, so that loading the command line stays cheap.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, cast

import typer

from moot.errors import ConfigError, MootError, OutputError
from moot.safe_text import safe_json
from moot.terminal import console, print_stdout, say, write_stdout

if TYPE_CHECKING:
    from moot.events import Event
    from moot.llm.budget import PriceTable
    from moot.progress import Progress
    from moot.schema import DebateResult

PRICES_FILE = "prices.toml"

ConcurrencyOption = Annotated[
    int | None,
    typer.Option(
        help="Most calls in flight per endpoint (default: the format's widest round,"
        " at least 4, so each round is one wave)."
    ),
]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="No progress display.")]
ExecutorOption = Annotated[
    str, typer.Option(help="Run the debates on local (this process) or ray (the ray extra).")
]
AddressOption = Annotated[
    str | None,
    typer.Option(help="The Ray cluster to join (default: start one on this machine)."),
]
ParallelOption = Annotated[int, typer.Option(help="Most debates running at once.")]


def prices() -> PriceTable:
    """The price table of the run store's directory (``prices.toml``)."""
    from moot.llm.budget import PriceTable
    from moot.store import default_path

    return PriceTable.load(default_path().parent / PRICES_FILE)


def json_text(data: object) -> str:
    return safe_json(json.dumps(data, ensure_ascii=False, indent=2)) + "\n"


def _made_at(run_id: str | None) -> str | None:
    """When the stored run ``run_id`` was made (as ``moot report`` names it)."""
    from moot.store import Store

    if run_id is None:
        return None
    store = Store()
    try:
        row = store.get_debate(run_id)
    finally:
        store.close()
    return row.created_at if row is not None else None


def emit(
    result: DebateResult,
    json_path: Path | None,
    run_id: str | None,
    html_path: Path | None = None,
) -> None:
    """Write the JSON and the HTML report (if asked) and print the briefing. A file
    that cannot be written is reported after the briefing, which is printed anyway
    (exit 1)."""
    from rich.markdown import Markdown

    from moot.files import write_output
    from moot.report import to_json, to_markdown
    from moot.report.html import to_html
    from moot.report.verdict import RunInfo

    run = RunInfo(id=run_id, date=_made_at(run_id) or datetime.now(UTC).isoformat())
    failure: OutputError | None = None
    render: dict[str, Callable[[DebateResult], str]] = {
        "result": to_json,
        "HTML report": lambda r: to_html(r, run),
    }
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
    briefing = to_markdown(result, run)
    if sys.stdout.isatty():
        print_stdout(Markdown(briefing))
    else:
        write_stdout(briefing)
    if failure is not None:
        raise failure


@contextmanager
def resume_hint(stored: list[str]) -> Iterator[None]:
    """Say how to continue a run that stopped after it was stored."""
    try:
        yield
    except (MootError, KeyboardInterrupt) as exc:
        if stored and not isinstance(exc, ConfigError):
            exc.add_note(f"the run is saved: continue it with  moot resume {stored[0]}")
        raise


def progress(quiet: bool, stored: list[str]) -> tuple[Progress, Callable[[Event], None]]:
    """The progress display and the listener that also notes the stored run's id."""
    from moot.events import RunStored
    from moot.progress import Progress

    display = Progress(console(stderr=True), enabled=not quiet)

    def listener(event: Event) -> None:
        if isinstance(event, RunStored):
            stored.append(event.debate_id)
        display.handle(event)

    return display, listener


def panel_options(
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
    from moot.judging.profiles import TOPIC_TYPES, load_profiles
    from moot.schema import CalibrationMethod, TopicType

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
