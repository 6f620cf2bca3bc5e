"""``moot run`` and ``moot resume``: run a debate, or continue a stored one, and
print its briefing.

``run`` takes many flags; its body reads them from the click context in groups
(the debate, the models, the judging, the limits), each turned into ``RunOptions``
fields by one small function. The formats' own flags are generated
(:mod:`moot.cli.format_flags`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer

from moot.cli.app import app
from moot.cli.common import (
    ConcurrencyOption,
    QuietOption,
    emit,
    panel_options,
    prices,
    progress,
    resume_hint,
)
from moot.cli.format_flags import (
    FLAGS_KEY,
    FormatFlagsCommand,
    OutputFlagsCommand,
    output_options,
    run_format_options,
)
from moot.errors import ConfigError
from moot.formats import DEFAULT_FORMAT


def split_sides(sides: str | None) -> tuple[str, ...]:
    """``--sides "A;B;C"`` as position names (empty: pro and con)."""
    if sides is None:
        return ()
    names = tuple(name.strip() for name in sides.split(";"))
    if any(not name for name in names):
        raise ConfigError('--sides takes 2-6 names separated by ";", none of them empty')
    return names


def _debate(p: Mapping[str, Any], flags: Mapping[str, Any]) -> dict[str, Any]:
    """The format, its positions and options."""
    from moot.formats import formats, get_format

    fmt = get_format(p["debate_format"])
    extra = run_format_options(fmt, formats(), flags, p["format_option"] or ())
    return {
        "format": fmt.name,
        "sides": split_sides(p["sides"]),
        "format_options": extra,
        "sources": tuple(str(path) for path in p["sources"] or ()),
    }


def _models(p: Mapping[str, Any]) -> dict[str, Any]:
    """Who debates, and how the models are called."""
    names = ("model", "pro_model", "con_model", "lang", "seed", "temperature", "profile")
    return {name: p[name] for name in names} | {
        "max_reasks": p["max_reasks"],
        "strict_rules": p["strict_rules"],
        "concurrency": p["concurrency"],
        "timeout": p["timeout"],
    }


def _judging(p: Mapping[str, Any]) -> dict[str, Any]:
    return {"panel_deliberate": p["panel_deliberate"]} | panel_options(
        p["panel"],
        p["panel_file"],
        p["judge_model"],
        p["judge_runs"],
        p["calibration"],
        p["topic_type"],
        p["swap_sides"],
    )


def _limits(p: Mapping[str, Any]) -> dict[str, Any]:
    """The budgets and the cache policy."""
    cache = p["cache"]
    policy = "auto" if cache is None else ("on" if cache else "off")
    return {"max_tokens": p["max_tokens"], "max_cost": p["max_cost"], "cache": policy}


def _review(p: Mapping[str, Any]) -> dict[str, Any]:
    """The detectors' model-assisted mode (``run`` only)."""
    return {"review_flags": p["review_flags"]}


@app.command(cls=FormatFlagsCommand)
def run(
    ctx: typer.Context,
    topic: Annotated[str, typer.Argument(help="The contested question to debate.")],
    debate_format: Annotated[
        str, typer.Option("--format", help="Debate format (see `moot formats`).")
    ] = DEFAULT_FORMAT,
    sides: Annotated[
        str | None,
        typer.Option(help='2-6 positions separated by ";", e.g. "Hainan;the North-East;Yunnan".'),
    ] = None,
    format_option: Annotated[
        list[str] | None,
        typer.Option(
            help="A format option KEY=VALUE (the value as JSON, else text), e.g. claims=2,"
            " similarity=0.85, voters=7; repeatable."
        ),
    ] = None,
    sources: Annotated[
        list[Path] | None,
        typer.Option(
            "--sources",
            help="A document or folder of documents (.txt, .md, .html, .pdf, .csv) the"
            " debaters argue from and cite; repeatable. See docs/sources.md.",
        ),
    ] = None,
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
    panel_deliberate: Annotated[
        int,
        typer.Option(
            metavar="ROUNDS",
            help="After the independent pass, the panel's judges read each other's"
            " anonymised scores and reasons and may revise, ROUNDS times (1-3); the verdict"
            " stays the independent pass's (default 0: no deliberation).",
        ),
    ] = 0,
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
    review_flags: Annotated[
        bool,
        typer.Option(
            help="Model-assisted detectors: the judge model confirms or rejects each"
            " detector flag and looks for stance drift (journaled, within the budgets)."
        ),
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
    quiet: QuietOption = False,
) -> None:
    """Run a debate on TOPIC and print the decision briefing."""
    from moot.debate import run_debate
    from moot.files import check_output_path
    from moot.options import RunOptions
    from moot.store import Store

    given = ctx.params
    judging = _judging(given)
    for path, what in ((json_path, "--json"), (html_path, "--html")):
        if path is not None:
            check_output_path(path, what)
    options = RunOptions().replace(
        **judging,
        **_debate(given, ctx.meta.get(FLAGS_KEY, {})),
        **_models(given),
        **_limits(given),
        **_review(given),
    )
    store = None if no_store else Store()
    stored: list[str] = []
    display, listener = progress(quiet, stored)
    with resume_hint(stored), display:
        result = run_debate(
            topic,
            options,
            on_event=listener,
            store=store,
            debate_id=debate_id,
            prices=prices(),
        )
    emit(result, json_path, stored[0] if stored else None, html_path)


@app.command(cls=OutputFlagsCommand)
def resume(
    ctx: typer.Context,
    debate_id: Annotated[str, typer.Argument(help="The id of an unfinished run.")],
    json_path: Annotated[
        Path | None, typer.Option("--json", help="Write the full result as JSON to this path.")
    ] = None,
    html_path: Annotated[
        Path | None, typer.Option("--html", help="Also write the HTML report to this path.")
    ] = None,
    max_tokens: Annotated[int | None, typer.Option(help="A new token budget.")] = None,
    max_cost: Annotated[float | None, typer.Option(help="A new cost budget in USD.")] = None,
    timeout: Annotated[
        float | None, typer.Option(help="A new timeout in seconds for each request to a model.")
    ] = None,
    force: Annotated[
        bool, typer.Option(help="Resume even if the run looks alive in another process.")
    ] = False,
    quiet: QuietOption = False,
) -> None:
    """Continue an interrupted, failed or stopped run; completed calls are not resent
    (a reply that never validated is asked for again). Output locations may change."""
    from moot.debate import resume_debate
    from moot.files import check_output_path
    from moot.store import Store

    for path, what in ((json_path, "--json"), (html_path, "--html")):
        if path is not None:
            check_output_path(path, what)
    outputs = output_options(ctx.meta.get(FLAGS_KEY, {}))
    store = Store()
    stored = [debate_id]
    display, listener = progress(quiet, [])
    with resume_hint(stored), display:
        result = resume_debate(
            debate_id,
            store=store,
            max_tokens=max_tokens,
            max_cost=max_cost,
            timeout=timeout,
            on_event=listener,
            prices=prices(),
            force=force,
            format_options=outputs,
        )
    emit(result, json_path, debate_id, html_path)
