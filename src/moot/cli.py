"""The ``moot`` command: a thin Typer layer over the public API."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markdown import Markdown

from moot import __version__
from moot.debate import run_debate
from moot.errors import ConfigError, ModelOutputError, MootError
from moot.progress import Progress
from moot.report import to_json, to_markdown

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="moot: structured multi-agent LLM debate with an auditable decision briefing.",
)


@app.callback()
def _main() -> None:
    """moot runs a structured debate between LLM agents and writes a decision briefing."""


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
    judge_model: Annotated[str | None, typer.Option(help="Model spec for the judge.")] = None,
    lang: Annotated[str, typer.Option(help="Language of prompts and briefing: en or zh.")] = "en",
    seed: Annotated[
        int | None, typer.Option(help="Seed: makes local and scripted models deterministic.")
    ] = None,
    temperature: Annotated[float, typer.Option(help="Sampling temperature.")] = 0.3,
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
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress display.")] = False,
) -> None:
    """Run a structured debate on TOPIC and print the decision briefing."""
    err = Console(stderr=True)
    progress = Progress(err, enabled=not quiet)
    try:
        with progress:
            result = run_debate(
                topic,
                model=model,
                pro_model=pro_model,
                con_model=con_model,
                judge_model=judge_model,
                lang=lang,
                seed=seed,
                temperature=temperature,
                max_reasks=max_reasks,
                strict_rules=strict_rules,
                on_event=progress.handle,
            )
    except ConfigError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from exc
    except ModelOutputError as exc:
        err.print(f"[red]the model's reply never validated:[/red] {exc}")
        raise typer.Exit(3) from exc
    except MootError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(1) from exc
    if json_path is not None:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(to_json(result), encoding="utf-8")
        err.print(f"result written to {json_path}")
    briefing = to_markdown(result)
    if sys.stdout.isatty():
        Console().print(Markdown(briefing))
    else:
        sys.stdout.write(briefing)
