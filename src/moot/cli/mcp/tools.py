"""The work of ``moot mcp``'s tools, apart from the protocol: run, show, list, lint
and resume debates under the server's :class:`~moot.cli.mcp.policy.Policy`.

Every argument goes through the code that checks ``moot run``'s options (the
positions as ``--sides``, the panel as ``--panel``, the format options as
``--format-option``, the numbers and the language by ``RunOptions``), so a client
gets the command line's messages. A tool returns plain JSON-ready data; the server
module turns it into structured content, and an exception into an MCP error.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from moot.cli.mcp.policy import Policy
from moot.errors import ConfigError
from moot.validation import check_number, check_text

if TYPE_CHECKING:
    from moot.events import Event
    from moot.schema import DebateResult
    from moot.store import DebateRow, Store

Listener = Callable[["Event"], None]
MAX_TRANSCRIPT_BYTES = 16 * 1024 * 1024
"""Largest transcript ``lint_transcript`` reads, as JSON text, in bytes."""


def run_options(
    policy: Policy,
    *,
    format: str | None,
    positions: Sequence[str] | None,
    format_options: Mapping[str, Any] | None,
    sources: Sequence[str] | None,
    model: str | None,
    panel: Sequence[str] | None,
    lang: str,
    budget: int | None,
    max_cost: float | None,
) -> Any:
    """The ``RunOptions`` of a ``run_debate`` call, checked as ``moot run``'s flags."""
    from moot.cli.common import panel_options
    from moot.cli.format_flags import run_format_options
    from moot.cli.running import split_sides
    from moot.formats import DEFAULT_FORMAT, formats, get_format
    from moot.formats.fields import output_fields
    from moot.options import RunOptions

    # named as the command line names them, as every message here does
    given = {"--sides": positions, "--format-option": format_options, "--panel": panel}
    for name, value in given.items():
        check_text(value, name)
    fmt = get_format(format or DEFAULT_FORMAT)
    sides = tuple(name.strip() for name in positions or ())
    if not all(sides):
        split_sides(";".join(sides))  # refuses the empty name with --sides's message
    pairs = [
        f"{key}={json.dumps(value, ensure_ascii=False)}"
        for key, value in (format_options or {}).items()
    ]
    extra = run_format_options(fmt, formats(), {}, pairs)
    policy.format_options(extra, [f.key for f in output_fields(fmt.fields) if f.key])
    judging = panel_options(",".join(panel or ()), None, None, 1, None, None, False)
    options = RunOptions().replace(
        **judging,
        format=fmt.name,
        sides=sides,
        format_options=extra,
        sources=policy.sources(sources or ()),
        model=policy.model(model),
        lang=lang,
        **policy.budget(budget, max_cost),
    )
    options.validate()
    return options


def _prices() -> Any:
    from moot.cli.common import prices

    return prices()


async def run_debate(
    policy: Policy, topic: str, options: Any, store: Store, on_event: Listener
) -> dict[str, Any]:
    """Run a debate and summarise it (the run is stored; a client's cancel stops it
    as Ctrl-C does: stored as interrupted, resumable)."""
    from moot.debate import arun_debate

    check_text(topic, "TOPIC")
    stored: list[str] = []

    def listener(event: Event) -> None:
        from moot.events import RunStored

        if isinstance(event, RunStored):
            stored.append(event.debate_id)
        on_event(event)

    try:
        result = await arun_debate(topic, options, on_event=listener, store=store, prices=_prices())
    except BaseException as exc:
        if stored and not isinstance(exc, ConfigError):  # as moot run's hint
            exc.add_note(f"the run is saved: continue it with resume_run {stored[0]}")
        raise
    return summary(result, stored[0] if stored else None)


async def resume_run(
    policy: Policy, run_id: str, budget: int | None, store: Store, on_event: Listener
) -> dict[str, Any]:
    """Continue an unfinished run within the server's caps."""
    from moot.debate import aresume_debate

    row = visible_run(policy, store, run_id)
    options = row.config.get("options") if isinstance(row.config, dict) else None
    limits = policy.resumed_budget(options if isinstance(options, dict) else {}, budget)
    models = row.models.values() if isinstance(row.models, dict) else ()
    for spec in models:
        policy.model(str(spec))
    try:
        result = await aresume_debate(
            run_id, store=store, on_event=on_event, prices=_prices(), **limits
        )
    except BaseException as exc:
        if not isinstance(exc, ConfigError):
            exc.add_note(f"the run is saved: continue it with resume_run {run_id}")
        raise
    return summary(result, run_id)


def summary(result: DebateResult, run_id: str | None) -> dict[str, Any]:
    """What ``run_debate`` and ``resume_run`` return: the run id, the trust verdict,
    the verdict and a short briefing in the run's language."""
    from moot.cli.runs import _trust_line
    from moot.formats import format_labels
    from moot.i18n import labels
    from moot.report.verdict import verdict_text
    from moot.safe_text import one_line

    words = labels(result.lang, format_labels(result.lang, result.format))
    said = verdict_text(result, words)
    ranking = [
        {"position": r.name, "key": r.key, "rank": r.rank, "total": r.total} for r in said.ranking
    ]
    lines = [said.headline, _trust_line(said.trust, result.lang)]
    lines += [f"{r.rank}. {r.name}: {r.total:.2f}" for r in said.ranking]
    lines = [one_line(line) for line in lines]  # names are the client's text: escaped
    return {
        "run_id": run_id,
        "status": "done",
        "trust": said.trust.model_dump(mode="json"),
        "verdict": {
            "leader": said.verdict.leader,
            "sentence": said.sentence,
            "ranking": ranking,
        },
        "briefing": "\n".join(lines) + "\n",
    }


def _stored_paths(row: DebateRow) -> list[str]:
    """The documents a stored run argued from."""
    config = row.config if isinstance(row.config, dict) else {}
    kept = config.get("sources") or []
    paths = [e.get("path") for e in kept if isinstance(e, dict)]
    options = config.get("options")
    if isinstance(options, dict):
        paths += list(options.get("sources") or [])
    return [p for p in paths if isinstance(p, str)]


def shown(policy: Policy, row: DebateRow) -> bool:
    """Whether a client may see a stored run: one that argued from no document
    outside the server's roots (its result names them)."""
    from pathlib import Path

    return all(policy.inside(Path(p).resolve()) for p in _stored_paths(row))


def visible_run(policy: Policy, store: Store, run_id: str) -> DebateRow:
    """The stored run ``run_id`` a client may see (else the ``moot show`` error)."""
    from moot.cli.runs import stored_run

    check_text(run_id, "run id")
    row = stored_run(store, run_id)  # an id is only ever a query parameter
    if not shown(policy, row):
        raise ConfigError(f"no run with id {run_id!r}")
    return row


def get_run(policy: Policy, store: Store, run_id: str, as_json: bool) -> dict[str, Any]:
    """A stored run: its status and, when finished, its briefing or its result JSON."""
    from moot.cli.runs import _row_summary, stored_result
    from moot.report import to_json, to_markdown
    from moot.report.verdict import RunInfo

    row = visible_run(policy, store, run_id)
    about = _row_summary(row)
    answer: dict[str, Any] = {
        "run_id": row.id,
        "status": row.status,
        "topic": row.topic,
        "format": row.format,
        "error": row.error,
        "trust": about["trust"],
        "briefing": None,
        "result": None,
    }
    if row.status == "done" and row.result_json:
        result = stored_result(row)
        if as_json:
            answer["result"] = json.loads(to_json(result))
        else:
            answer["briefing"] = to_markdown(result, RunInfo(id=row.id, date=row.created_at))
    return answer


def list_runs(policy: Policy, store: Store, limit: int) -> list[dict[str, Any]]:
    """The recent runs a client may see, as ``moot list --json`` shows them."""
    from moot.cli.runs import _row_summary

    check_number(limit, "--limit", minimum=0, integer=True)
    rows = [r for r in store.list_debates(limit) if shown(policy, r)]
    return [_row_summary(r) for r in rows]


def lint_transcript(transcript: Any, messages: Any) -> dict[str, Any]:
    """The detectors' flags on a transcript (``moot lint``'s input as JSON) or on an
    OpenAI-style chat list, read by ``moot lint``'s reader."""
    from moot.detectors.core import run_detectors
    from moot.detectors.lint import payload
    from moot.detectors.transcript import read_transcript

    if (transcript is None) == (messages is None):
        raise ConfigError("give either transcript or messages")
    data = transcript if transcript is not None else messages
    raw = json.dumps(data, ensure_ascii=False).encode("utf-8", "surrogatepass")
    if len(raw) > MAX_TRANSCRIPT_BYTES:
        raise ConfigError(
            f"the transcript is {len(raw):,} bytes, over the limit of {MAX_TRANSCRIPT_BYTES:,}"
        )
    read = read_transcript(raw, source="transcript" if transcript is not None else "messages")
    flags = run_detectors(read)
    return {"lang": read.lang, "turns": len(read.turns), **payload(flags)}
