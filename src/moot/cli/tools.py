"""The commands around the debates: ``moot version``, ``lint``, ``formats``,
``schema`` and ``doctor``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from moot.cli.app import app
from moot.cli.common import json_text
from moot.errors import ConfigError
from moot.safe_text import one_line, visible
from moot.terminal import print_stdout, text, write_stdout

if TYPE_CHECKING:
    from moot.detectors.transcript import Flag, Transcript


@app.command()
def version() -> None:
    """Print moot's version."""
    from moot import __version__

    write_stdout(__version__ + "\n")


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
    lexical: Annotated[
        bool,
        typer.Option(
            "--lexical", help="Lexical rules only, even when the sentence encoder is installed."
        ),
    ] = False,
    review: Annotated[
        str | None,
        typer.Option(
            "--review",
            metavar="MODEL",
            help="Model-assisted mode: MODEL (e.g. local, openai:URL#NAME) confirms or"
            " rejects each candidate flag and looks for stance drift the rules miss.",
        ),
    ] = None,
    review_calls: Annotated[
        int,
        typer.Option("--review-calls", help="Most model calls the review makes.", min=1),
    ] = 40,
) -> None:
    """Run the debate detectors on a transcript, from moot or any other system."""
    from rich.table import Table

    from moot.detectors.lint import lint_pass, pass_line, payload
    from moot.detectors.messages import message

    read, chosen, flags = lint_pass(transcript, "lexical" if lexical else "auto")
    summary = None
    if review is not None:
        flags, summary = _review(read, flags, review, review_calls)
    if as_json:
        write_stdout(json_text(payload(flags, chosen, summary)))
        return
    write_stdout(pass_line(chosen, read.lang) + "\n")
    if summary is not None:
        write_stdout(
            message(read.lang, "lint.review", **{**summary, "rejected": len(summary["rejected"])})
            + "\n"
        )
    if not flags:
        write_stdout(message(read.lang, "lint.none") + "\n")
        return
    reviewed = summary is not None
    table = Table("turn", "side", "detector", "mode", *(["review"] if reviewed else []), "evidence")
    for flag in flags:
        turn = message(read.lang, "lint.whole") if flag.turn is None else str(flag.turn)
        verdict = [flag.review or "-"] if reviewed else []
        cells = (turn, flag.side or "-", flag.detector, flag.mode, *verdict, flag.evidence)
        table.add_row(*(text(one_line(cell)) for cell in cells))
    print_stdout(table)


def _review(
    read: Transcript, flags: list[Flag], spec: str, max_calls: int
) -> tuple[list[Flag], dict[str, Any]]:
    """``moot lint --review``: the flags after the model's review, and the review's
    summary (``payload``'s ``review``)."""
    import asyncio

    from moot.judging import demo
    from moot.judging.flag_review import review_flags
    from moot.llm.backend import resolve_backend
    from moot.llm.meter import Meter

    demo.register()  # so that scripted:demo can review too
    backend = resolve_backend(spec)
    done = asyncio.run(
        review_flags(read, flags, backend=backend, meter=Meter(), max_calls=max_calls)
    )
    summary = {
        "model": done.model,
        "calls": done.calls,
        "reviewed": done.reviewed,
        "unreviewed": done.unreviewed,
        "found": done.found,
        "rejected": done.rejected,
    }
    return done.flags, summary


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

    write_stdout(json_text(result_json_schema()))


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
        write_stdout(json_text(report.as_json()))
    else:
        write_stdout(visible(report.as_text()))
    if not report.healthy:
        raise typer.Exit(1)
