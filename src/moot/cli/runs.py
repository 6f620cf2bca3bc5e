"""The run store's commands: ``moot list``, ``show``, ``export`` and ``delete``."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer

from moot.cli.app import app
from moot.cli.common import json_text
from moot.errors import ConfigError, StoreError
from moot.safe_text import one_line, visible
from moot.terminal import print_stdout, text, write_stdout

if TYPE_CHECKING:
    from moot.report.verdict import RunInfo
    from moot.schema import DebateResult, Trust
    from moot.store import DebateRow, Store


def _trust(row: DebateRow) -> Trust | None:
    """A finished run's trust verdict (computed when it was stored before trust
    existed); None when the run is not finished or its result does not read back."""
    from moot.trust import trust_of

    return trust_of(row.result_json) if row.status == "done" and row.result_json else None


def _trust_summary(trust: Trust | None) -> dict[str, Any] | None:
    return None if trust is None else trust.model_dump(mode="json")


def _trust_line(trust: Trust | None, lang: str) -> str:
    """``trust: LOW (reason; reason)`` for one run."""
    from moot.i18n import labels
    from moot.trust import level_label, top_reasons

    words = labels(lang)
    reasons = "; ".join(r.detail for r in top_reasons(trust, 3))
    return f"{words['trust']}: {level_label(trust, lang)}" + (f" ({reasons})" if reasons else "")


def _trust_cell(row: DebateRow) -> str:
    """``LOW (unusable_text, rules_broken)``: the level and its top reasons' codes;
    ``-`` for a run that is not finished."""
    from moot.trust import level_label, top_reasons

    if row.status != "done":
        return "-"
    trust = _trust(row)
    codes = ", ".join(r.code for r in top_reasons(trust, 2))
    return level_label(trust, "en") + (f" ({codes})" if codes else "")


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
        "trust": _trust_summary(_trust(row)),
    }


def stored_run(store: Store, debate_id: str) -> DebateRow:
    """The stored run ``debate_id``; a ``ConfigError`` when there is none."""
    row = store.get_debate(debate_id)
    if row is None:
        raise ConfigError(f"no run with id {debate_id!r}")
    return row


def stored_result(row: DebateRow) -> DebateResult:
    """A finished run's stored result, validated (a damaged one is a clean error), with
    its trust verdict (assessed now when it was stored before trust existed)."""
    from pydantic import ValidationError

    from moot.schema import DebateResult
    from moot.trust import with_trust

    try:
        return with_trust(DebateResult.model_validate_json(row.result_json or ""))
    except ValidationError as exc:
        problem = exc.errors(include_url=False)[0]
        where = ".".join(str(part) for part in problem["loc"]) or "(root)"
        raise StoreError(
            f"the stored result of run {row.id!r} does not read back ({where}: {problem['msg']});"
            f" it was written by another version of moot or damaged; moot show {row.id} --json"
            " prints it as stored"
        ) from exc


def finished_run(debate_id: str, what: str) -> tuple[DebateResult, RunInfo]:
    """The result of the finished run ``debate_id`` and its id and date, for a command
    that ``what``s (``export``, ``report``) only finished runs."""
    from moot.report.verdict import RunInfo
    from moot.store import Store

    row = stored_run(Store(), debate_id)
    if row.status != "done" or not row.result_json:
        raise ConfigError(f"run {debate_id!r} is {row.status}; only finished runs {what}")
    return stored_result(row), RunInfo(id=row.id, date=row.created_at)


@app.command("list")
def list_runs(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    limit: Annotated[int, typer.Option(help="How many recent runs.")] = 20,
) -> None:
    """List recent runs: id, topic, format, status, trust, models, tokens, cost."""
    from rich.table import Table

    from moot.store import Store
    from moot.validation import check_number

    check_number(limit, "--limit", minimum=0, integer=True)
    rows = Store().list_debates(limit)
    if as_json:
        write_stdout(json_text([_row_summary(r) for r in rows]))
        return
    table = Table("id", "status", "format", "trust", "topic", "models", "tokens", "cost $")
    for r in rows:
        models = ", ".join(sorted({str(m) for m in r.models.values()}))
        cells = (r.id, r.status, r.format, _trust_cell(r), one_line(r.topic)[:50], models)
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
    from moot.report import to_markdown
    from moot.store import Store

    row = stored_run(Store(), debate_id)
    if as_json:
        summary = _row_summary(row)
        summary["config"] = row.config
        try:
            summary["result"] = json.loads(row.result_json) if row.result_json else None
        except ValueError:
            summary["result"] = row.result_json  # not JSON: shown as the text it is
        write_stdout(json_text(summary))
        return
    from moot.report.verdict import RunInfo

    lines = [f"{one_line(row.id)}  {row.status}  {one_line(row.topic)}\n"]
    if row.error:
        lines.append(f"error: {visible(row.error)}\n")
    if row.status == "done" and row.result_json:
        result = stored_result(row)
        lines.append(one_line(_trust_line(_trust(row), result.lang)) + "\n")
        write_stdout("".join(lines))
        write_stdout(to_markdown(result, RunInfo(id=row.id, date=row.created_at)))
        return
    write_stdout("".join(lines))


@app.command()
def export(
    debate_id: Annotated[str, typer.Argument(help="Run id.")],
    fmt: Annotated[str, typer.Option("--format", help="json or md.")] = "json",
) -> None:
    """Print a finished run's result as JSON or as the Markdown briefing."""
    from moot.report import to_json, to_markdown

    if fmt not in ("json", "md"):
        raise ConfigError("--format must be json or md")
    result, run = finished_run(debate_id, "export")
    write_stdout(to_json(result) if fmt == "json" else to_markdown(result, run))


@app.command()
def delete(debate_id: Annotated[str, typer.Argument(help="Run id.")]) -> None:
    """Delete a run and its journal."""
    from moot.store import Store

    if not Store().delete_debate(debate_id):
        raise ConfigError(f"no run with id {debate_id!r}")
    write_stdout(f"deleted {one_line(debate_id)}\n")
