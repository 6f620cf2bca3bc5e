"""What the viewer's pages show, read from the store: the list of debates (filtered
and searched), the comparison of two debates, and the progress of a run from its
journal. Pure functions of store rows; the web layer (``moot.view.app``) only
validates requests and renders."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import quote

from pydantic import ValidationError

from moot.report.html import build_report, charts, formats
from moot.report.html.common import VerdictView, item_scores, item_standings
from moot.report.html.labels import label, round_label
from moot.report.html.parts import Section, SideView, tone
from moot.schema import DebateResult
from moot.store import STATUSES, CallRow, DebateRow
from moot.view.security import RUN_ID

LIVE_REFRESH_S = 2
STATUS_TONES = {"done": "good", "running": "running", "failed": "bad", "budget_exceeded": "mixed"}


def run_href(run_id: str, page: str = "") -> str:
    """The viewer's address of a run's page (the id is validated before it gets here,
    and quoted all the same)."""
    return f"/runs/{quote(run_id, safe='')}{'/' + page if page else ''}"


def parse_result(row: DebateRow) -> tuple[DebateResult | None, str | None]:
    """The stored result of a finished run, or the reason it cannot be read."""
    if row.result_json is None:
        return None, None
    try:
        return DebateResult.model_validate_json(row.result_json), None
    except ValidationError as exc:
        return None, f"{exc.error_count()} validation errors"


# ---- the list ----------------------------------------------------------------------


@dataclass(frozen=True)
class RunLine:
    id: str
    href: str
    live_href: str
    topic: str
    format: str
    lang: str
    status: str
    status_label: str
    status_css: str
    models: str
    verdict: str
    tokens: int
    created: str


@dataclass(frozen=True)
class RunList:
    lines: tuple[RunLine, ...]
    total: int
    query: str
    status: str
    format: str
    statuses: tuple[tuple[str, str], ...]
    formats: tuple[str, ...]
    ids: tuple[str, ...]
    """The finished runs, which the comparison form offers."""


def _summary(result: DebateResult, labels: dict[str, str]) -> str:
    """A one-line verdict: each side's total, and who leads (if anyone)."""
    panel = result.panel
    totals = panel.totals if panel else result.judgement.totals
    names = {p.key: p.name for p in result.positions}
    parts = [f"{p.name} {totals[p.key]:.2f}" for p in result.positions]
    leader = panel.winner if panel else result.judgement.gap.leader
    reading = (panel.gap if panel else result.judgement.gap).reading
    if leader and not (panel is None and reading == "evenly_matched"):
        parts.append(f"{names.get(leader, leader)} {labels['html.leads']}")
    return " · ".join(parts)


def _matches(row: DebateRow, query: str) -> bool:
    needle = query.casefold()
    haystack = [row.id, row.topic, *(str(v) for v in row.models.values())]
    return any(needle in text.casefold() for text in haystack)


def run_list(
    rows: Sequence[DebateRow],
    labels: dict[str, str],
    *,
    query: str = "",
    status: str = "",
    format: str = "",
) -> RunList:
    """The stored runs that match the search (id, topic or model), status and format."""
    lines = []
    for row in rows:
        if (query and not _matches(row, query)) or (status and row.status != status):
            continue
        if format and row.format != format:
            continue
        result, error = parse_result(row)
        if result is not None:
            verdict = _summary(result, labels)
        elif error is not None:
            verdict = labels["view.unreadable"].format(error=error)
        else:
            verdict = ""
        lines.append(
            RunLine(
                id=row.id,
                href=run_href(row.id) if RUN_ID.fullmatch(row.id) else "",
                live_href=run_href(row.id, "live") if RUN_ID.fullmatch(row.id) else "",
                topic=row.topic,
                format=row.format,
                lang=str(formats.stored_options(row.config).get("lang", "")),
                status=row.status,
                status_label=label(labels, f"status.{row.status}", row.status),
                status_css=tone(STATUS_TONES, row.status),
                models=", ".join(sorted({str(v) for v in row.models.values()})),
                verdict=verdict,
                tokens=row.prompt_tokens + row.completion_tokens,
                created=row.created_at[:16].replace("T", " "),
            )
        )
    return RunList(
        lines=tuple(lines),
        total=len(rows),
        query=query,
        status=status,
        format=format,
        statuses=tuple((s, label(labels, f"status.{s}", s)) for s in STATUSES),
        formats=tuple(sorted({row.format for row in rows})),
        ids=tuple(row.id for row in rows if row.status == "done" and RUN_ID.fullmatch(row.id)),
    )


# ---- one run's progress --------------------------------------------------------------


@dataclass(frozen=True)
class RoundStep:
    label: str
    calls: int
    css: str


@dataclass(frozen=True)
class CallLine:
    seq: int
    round: str
    role: str
    attempt: int
    validation: str
    validation_css: str
    tokens: str
    latency: str
    source: str
    error: str


@dataclass(frozen=True)
class Progress:
    rounds: tuple[RoundStep, ...]
    calls: tuple[CallLine, ...]
    valid: int
    invalid: int
    failed: int
    expected: int | None
    bar: charts.Chart | None


def _round_steps(
    rounds: Sequence[str], calls: Sequence[CallRow], running: bool, labels: dict[str, str]
) -> tuple[RoundStep, ...]:
    seen = Counter(call.round for call in calls)
    order = [r for r in rounds if r in seen or r != "classification"]
    order += [r for r in seen if r not in order]
    current = calls[-1].round if calls and running else None
    return tuple(
        RoundStep(
            label=round_label(labels, r),
            calls=seen.get(r, 0),
            css="current" if r == current else ("reached" if seen.get(r) else ""),
        )
        for r in order
    )


def progress(row: DebateRow, calls: Sequence[CallRow], labels: dict[str, str]) -> Progress:
    """What the journal says of a run so far: calls per round, validated and rejected
    calls, and, when the format says how many calls a run makes, how far it is."""
    rounds = formats.rounds(row.format, row.config)
    expected = formats.expected_calls(row.format, row.config)
    valid = sum(1 for c in calls if c.validation == "ok")
    failed = sum(1 for c in calls if c.error is not None)
    bar = None
    if expected:
        done = 1.0 if row.status == "done" else min(valid / expected, 1.0)
        bar = charts.progress_bar(f"{valid} / {expected}", done)
    return Progress(
        rounds=_round_steps(rounds, calls, row.status == "running", labels),
        calls=tuple(
            CallLine(
                seq=c.seq,
                round=round_label(labels, c.round),
                role=c.role,
                attempt=c.attempt,
                validation=c.validation or "-",
                validation_css={"ok": "good", "invalid": "mixed"}.get(c.validation or "", "bad")
                if c.validation or c.error
                else "neutral",
                tokens=f"{c.prompt_tokens} + {c.completion_tokens}",
                latency=f"{c.latency_ms:.0f}",
                source=c.source,
                error=c.error or "",
            )
            for c in calls
        ),
        valid=valid,
        invalid=sum(1 for c in calls if c.validation == "invalid"),
        failed=failed,
        expected=expected,
        bar=bar,
    )


# ---- comparison ------------------------------------------------------------------


@dataclass(frozen=True)
class CompareSide:
    run: RunLine
    seed: str
    verdict: VerdictView
    scores: Section
    models: str


@dataclass(frozen=True)
class CompareItem:
    id: str
    cells: tuple[tuple[str, str, str] | None, ...]
    """Per debate: (standing label, tone, score) or None when the debate lacks the item."""
    changed: bool


@dataclass(frozen=True)
class Comparison:
    sides: tuple[CompareSide, ...]
    same_topic: bool
    items: tuple[CompareItem, ...]
    items_title: str
    legend: tuple[SideView, ...]


def compare(pair: Sequence[tuple[DebateRow, DebateResult]], labels: dict[str, str]) -> Comparison:
    """Two finished debates side by side: verdicts, gaps, totals and each judged unit's
    standing and score (matched by id), with the units whose standing differs."""
    reports = [build_report(result) for _, result in pair]
    listing = run_list([row for row, _ in pair], labels)
    sides = []
    for line, report, (_, result) in zip(listing.lines, reports, pair, strict=True):
        by_anchor = {s.anchor: s for s in report.sections}
        verdict = by_anchor["verdict"].data
        assert isinstance(verdict, VerdictView)  # noqa: S101 (the verdict section's data)
        sides.append(
            CompareSide(
                run=line,
                seed="-" if result.seed is None else str(result.seed),
                verdict=verdict,
                scores=by_anchor["scores"],
                models=", ".join(f"{k}={v}" for k, v in result.models.items()),
            )
        )
    cells: list[dict[str, tuple[str, str, str]]] = []
    for report, (_, result) in zip(reports, pair, strict=True):
        scores = item_scores(result)
        standings = item_standings(report.context)
        cells.append(
            {
                item.id: (
                    standings[item.id].label if item.id in standings else "-",
                    standings[item.id].css if item.id in standings else "neutral",
                    f"{scores[item.id]:.2f}" if item.id in scores else "-",
                )
                for item in report.context.items
            }
        )
    ids: list[str] = []
    for report in reports:
        ids += [item.id for item in report.context.items if item.id not in ids]
    items = []
    for item_id in ids:
        row = tuple(c.get(item_id) for c in cells)
        standings_seen = {cell[0] if cell else None for cell in row}
        items.append(CompareItem(id=item_id, cells=row, changed=len(standings_seen) > 1))
    return Comparison(
        sides=tuple(sides),
        same_topic=len({result.topic for _, result in pair}) == 1,
        items=tuple(items),
        items_title=labels["view.units"].format(
            unit=" / ".join(dict.fromkeys(r.context.unit for r in reports))
        ),
        legend=reports[0].context.sides,
    )
