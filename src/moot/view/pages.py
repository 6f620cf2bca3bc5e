"""What the viewer's pages show, read from the store: the list of debates (filtered
and searched), the comparison of two debates, and the progress of a run from its
journal. Pure functions of store rows; the web layer (``moot.view.app``) only
validates requests and renders."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote, urlencode

from pydantic import ValidationError

from moot.report.html import build_report, charts, formats
from moot.report.html.common import VerdictView, item_scores
from moot.report.html.labels import label
from moot.report.html.parts import Section, SideView, tone
from moot.schema import DebateResult
from moot.store import STATUSES, CallRow, DebateRow
from moot.store.inflight import FlightRow
from moot.trust import trust_of, verdict_of
from moot.view.inspector import request_key
from moot.view.names import position_names, role_name, round_name
from moot.view.redact import Redactor
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


def trust_level(result: DebateResult | None) -> str | None:
    """The trust level of a stored result (``ok``, ``caution``, ``low``): its ``trust``
    section, or assessed now for a run stored before trust existed
    (:func:`moot.trust.trust_of`); None for a result that cannot be read. The one
    place the list reads it."""
    trust = trust_of(result) if result is not None else None
    return trust.level if trust is not None else None


# ---- the list ----------------------------------------------------------------------

TRUST_TONES = {"ok": "good", "caution": "mixed", "low": "bad"}
PAGE_SIZE = 50
SORTS = ("created", "topic", "status", "format", "tokens", "cost", "trust")
DOWNLOADS = ("json", "md", "html")


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
    cost: float
    trust: str
    trust_label: str
    trust_css: str
    created: str
    created_at: str
    damaged: str
    downloads: tuple[tuple[str, str], ...]
    """(kind, href) of the downloads the run offers."""


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    href: str
    current: str
    """"asc"/"desc" for the column the list is sorted by, else ""."""


@dataclass(frozen=True)
class RunList:
    lines: tuple[RunLine, ...]
    total: int
    matched: int
    query: str
    status: str
    format: str
    statuses: tuple[tuple[str, str], ...]
    formats: tuple[str, ...]
    ids: tuple[tuple[str, str], ...]
    """(id, what the form shows: topic and date) of the runs the comparison form offers."""
    sort: str = "created"
    order: str = "desc"
    page: int = 1
    pages: int = 1
    columns: tuple[Column, ...] = ()
    previous: str = ""
    next: str = ""


def _summary(result: DebateResult, labels: dict[str, str]) -> str:
    """A one-line verdict: each side's total, and who leads (if anyone)."""
    panel = result.panel
    totals = panel.totals if panel else result.judgement.totals
    names = {p.key: p.name for p in result.positions}
    parts = [f"{p.name} {totals[p.key]:.2f}" for p in result.positions]
    leader = verdict_of(result).leader
    if leader:
        parts.append(f"{names.get(leader, leader)} {labels['html.leads']}")
    return " · ".join(parts)


def _matches(row: DebateRow, query: str) -> bool:
    needle = query.casefold()
    haystack = [row.id, row.topic, *(str(v) for v in row.models.values())]
    return any(needle in text.casefold() for text in haystack)


def _downloads(row: DebateRow, readable: bool) -> tuple[tuple[str, str], ...]:
    if not RUN_ID.fullmatch(row.id) or row.result_json is None:
        return ()
    if row.status == "done" and readable:
        return tuple((kind, run_href(row.id, f"download/{kind}")) for kind in DOWNLOADS)
    return (("json", run_href(row.id, "download/json")),)  # as stored


def run_line(row: DebateRow, labels: dict[str, str], redactor: Redactor | None = None) -> RunLine:
    """One row of the list; a row whose stored result cannot be read says so. Its
    topic and model specs are redacted (a key pasted into a topic, a password in a
    server's URL)."""
    clean = redactor or Redactor.from_environment()
    result, error = parse_result(row)
    if result is not None:
        verdict = _summary(result, labels)
    elif error is not None and row.status == "done":
        verdict = labels["view.unreadable"].format(error=error)
    else:
        verdict = ""
    level = trust_level(result)
    linked = RUN_ID.fullmatch(row.id) is not None
    return RunLine(
        id=row.id,
        href=run_href(row.id) if linked else "",
        live_href=run_href(row.id, "live") if linked else "",
        topic=clean.text(row.topic),
        format=row.format,
        lang=str(formats.stored_options(row.config).get("lang", "")),
        status=row.status,
        status_label=label(labels, f"status.{row.status}", row.status),
        status_css=tone(STATUS_TONES, row.status),
        models=clean.text(", ".join(sorted({str(v) for v in row.models.values()}))),
        verdict=verdict,
        tokens=row.prompt_tokens + row.completion_tokens,
        cost=row.cost_usd,
        trust=level or "",
        trust_label=label(labels, f"view.trust.{level}", level)
        if level
        else labels["view.no_trust"],
        trust_css=tone(TRUST_TONES, level) if level else "neutral",
        created=row.created_at[:16].replace("T", " "),
        created_at=row.created_at,
        damaged=labels["view.damaged_row"].format(what=row.damaged) if row.damaged else "",
        downloads=_downloads(row, result is not None),
    )


def damaged_line(row: DebateRow, labels: dict[str, str], problem: str) -> RunLine:
    """A row the list could not show: its id and topic, marked damaged."""
    linked = RUN_ID.fullmatch(str(row.id)) is not None
    return RunLine(
        id=str(row.id),
        href=run_href(row.id) if linked else "",
        live_href=run_href(row.id, "live") if linked else "",
        topic=Redactor.from_environment().text(str(row.topic)),
        format=str(row.format),
        lang="",
        status=str(row.status),
        status_label=labels["view.damaged"],
        status_css="bad",
        models="",
        verdict="",
        tokens=0,
        cost=0.0,
        trust="",
        trust_label=labels["view.no_trust"],
        trust_css="neutral",
        created=str(row.created_at)[:16].replace("T", " "),
        created_at=str(row.created_at),
        damaged=labels["view.damaged_row"].format(what=problem),
        downloads=(),
    )


def _sort_key(sort: str) -> Callable[[RunLine], Any]:
    trust_rank = {"low": 0, "caution": 1, "ok": 2}
    keys: dict[str, Callable[[RunLine], Any]] = {
        "created": lambda line: line.created_at,
        "topic": lambda line: line.topic.casefold(),
        "status": lambda line: line.status_label,
        "format": lambda line: line.format,
        "tokens": lambda line: line.tokens,
        "cost": lambda line: line.cost,
        "trust": lambda line: trust_rank.get(line.trust, -1),
    }
    return keys[sort]


def _list_href(query: str, status: str, format: str, sort: str, order: str, page: int) -> str:
    params = {"q": query, "status": status, "format": format, "sort": sort, "order": order}
    kept = {k: v for k, v in params.items() if v}
    if page > 1:
        kept["page"] = str(page)
    return "/?" + urlencode(kept) if kept else "/"


def run_list(
    rows: Sequence[DebateRow],
    labels: dict[str, str],
    *,
    query: str = "",
    status: str = "",
    format: str = "",
    sort: str = "created",
    order: str = "desc",
    page: int = 1,
    page_size: int = PAGE_SIZE,
) -> RunList:
    """The stored runs that match the search (id, topic or model), status and format,
    sorted by a column and cut into pages. A row that cannot be shown is listed as
    damaged; the others are not affected."""
    sort = sort if sort in SORTS else "created"
    order = order if order in ("asc", "desc") else "desc"
    lines = []
    redactor = Redactor.from_environment()
    for row in rows:
        if (query and not _matches(row, query)) or (status and row.status != status):
            continue
        if format and row.format != format:
            continue
        try:
            lines.append(run_line(row, labels, redactor))
        except Exception as exc:
            lines.append(damaged_line(row, labels, f"{type(exc).__name__}: {exc}"))
    if sort != "created" or order != "desc":  # the store's order is newest first
        lines.reverse()  # oldest first, so that ties keep the order they were made in
        lines.sort(key=_sort_key(sort), reverse=order == "desc")
    pages = max(1, -(-len(lines) // page_size))
    page = min(max(1, page), pages)
    shown = lines[(page - 1) * page_size : page * page_size]

    def href(column: str, direction: str, to: int = 1) -> str:
        return _list_href(query, status, format, column, direction, to)

    columns = tuple(
        Column(
            key=key,
            label=labels[text],
            href=href(key, "asc" if key == sort and order == "desc" else "desc"),
            current=order if key == sort else "",
        )
        for key, text in (
            ("topic", "view.topic"),
            ("status", "view.status"),
            ("trust", "view.trust"),
            ("tokens", "view.tokens"),
            ("cost", "view.cost"),
            ("created", "view.created"),
        )
    )
    done = [r for r in rows if r.status == "done" and RUN_ID.fullmatch(r.id)]
    shown_as = [f"{r.topic[:80]} · {r.created_at[:16].replace('T', ' ')}" for r in done]
    repeated = {text for text in shown_as if shown_as.count(text) > 1}
    return RunList(
        lines=tuple(shown),
        total=len(rows),
        matched=len(lines),
        query=query,
        status=status,
        format=format,
        statuses=tuple((s, label(labels, f"status.{s}", s)) for s in STATUSES),
        formats=tuple(sorted({row.format for row in rows})),
        ids=tuple(
            (r.id, f"{text} · {r.id}" if text in repeated else text)
            for r, text in zip(done, shown_as, strict=True)
        ),
        sort=sort,
        order=order,
        page=page,
        pages=pages,
        columns=columns,
        previous=href(sort, order, page - 1) if page > 1 else "",
        next=href(sort, order, page + 1) if page < pages else "",
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
    href: str
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
class FlightLine:
    round: str
    role: str
    attempt: int
    model: str
    elapsed: str


@dataclass(frozen=True)
class Progress:
    rounds: tuple[RoundStep, ...]
    calls: tuple[CallLine, ...]
    """Newest first."""
    in_flight: tuple[FlightLine, ...]
    """Newest first; only while the run is running."""
    valid: int
    planned: int
    """Validated calls that are calls of the plan (not a second reply to the same turn)."""
    reasks: int
    invalid: int
    failed: int
    expected: int | None
    bar: charts.Chart | None


def _round_steps(
    rounds: Sequence[str],
    calls: Sequence[CallRow],
    running: bool,
    labels: dict[str, str],
    sides: dict[str, str],
) -> tuple[RoundStep, ...]:
    seen = Counter(call.round for call in calls)
    order = [r for r in rounds if r in seen or r != "classification"]
    order += [r for r in seen if r not in order]
    current = calls[-1].round if calls and running else None
    return tuple(
        RoundStep(
            label=round_name(labels, r, sides),
            calls=seen.get(r, 0),
            css="current" if r == current else ("reached" if seen.get(r) else ""),
        )
        for r in order
    )


def planned_calls(calls: Sequence[CallRow]) -> int:
    """How many validated calls are calls of the plan. A second validated reply to the
    same request (a detector's re-ask of a speech, which sends the request again with
    the reply and what to fix) is an extra call, not progress; a validation re-ask
    replaces a reply that never validated, so its valid reply is the plan's. Counted in
    each stretch of the journal that stays in one round: the swap-sides rerun goes
    through the rounds again, as new stretches."""
    planned = 0
    stretch: set[tuple[str, str | None, str]] = set()
    current: str | None = None
    for call in calls:
        if call.round != current:
            planned += len(stretch)
            stretch, current = set(), call.round
        if call.validation == "ok":
            stretch.add(request_key(call))
    return planned + len(stretch)


def _elapsed(started: str, now: datetime) -> float:
    try:
        began = datetime.fromisoformat(started)
    except ValueError:
        return 0.0
    if began.tzinfo is None:
        began = began.replace(tzinfo=UTC)
    return max(0.0, (now - began).total_seconds())


def progress(
    row: DebateRow,
    calls: Sequence[CallRow],
    labels: dict[str, str],
    *,
    in_flight: Sequence[FlightRow] = (),
    now: datetime | None = None,
    redactor: Redactor | None = None,
    lang: str = "en",
) -> Progress:
    """What the journal says of a run so far: calls per round (newest first, each
    opening in the inspector), the calls in flight with how long they have been going,
    validated, re-asked and failed calls, and, when the format says how many calls a
    run makes, how far it is. Default positions are named in ``lang`` (the page's)."""
    clean = redactor or Redactor()
    sides = position_names(row.format, row.config, lang, row.topic)
    rounds = formats.rounds(row.format, row.config)
    expected = formats.expected_calls(row.format, row.config)
    valid = sum(1 for c in calls if c.validation == "ok")
    planned = planned_calls(calls)
    failed = sum(1 for c in calls if c.error is not None)
    bar = None
    if expected:
        done = 1.0 if row.status == "done" else min(planned / expected, 1.0)
        bar = charts.progress_bar(f"{min(planned, expected)} / {expected}", done)
    moment = now or datetime.now(UTC)
    running = row.status == "running"
    return Progress(
        rounds=_round_steps(rounds, calls, running, labels, sides),
        calls=tuple(
            CallLine(
                seq=c.seq,
                href=run_href(row.id, f"calls/{c.seq}") if RUN_ID.fullmatch(row.id) else "",
                round=round_name(labels, c.round, sides),
                role=role_name(labels, c.role, sides),
                attempt=c.attempt,
                validation=c.validation or "-",
                validation_css={"ok": "good", "invalid": "mixed"}.get(c.validation or "", "bad")
                if c.validation or c.error
                else "neutral",
                tokens=f"{c.prompt_tokens} + {c.completion_tokens}",
                latency=f"{c.latency_ms:.0f}",
                source=c.source,
                error=clean.text(c.error or ""),
            )
            for c in reversed(calls)
        ),
        in_flight=tuple(
            FlightLine(
                round=round_name(labels, f.round, sides),
                role=role_name(labels, f.role, sides),
                attempt=f.attempt,
                model=clean.text(f.model),
                elapsed=labels["view.seconds"].format(n=f"{_elapsed(f.started_at, moment):.0f}"),
            )
            for f in (in_flight if running else ())
        ),
        valid=valid,
        planned=planned,
        reasks=valid - planned,
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
class CompareCell:
    standing: str
    """The standing's code (what is compared), ``tie`` for a panel without majority."""
    label: str
    css: str
    score: float | None


@dataclass(frozen=True)
class CompareItem:
    id: str
    cells: tuple[CompareCell | None, ...]
    """Per debate, or None when the debate lacks the item."""
    changed: bool
    difference: str
    """The second debate's score minus the first's ("" unless both have one)."""


@dataclass(frozen=True)
class TotalDifference:
    side: str
    difference: str


@dataclass(frozen=True)
class Comparison:
    sides: tuple[CompareSide, ...]
    same_topic: bool
    items: tuple[CompareItem, ...]
    items_title: str
    legend: tuple[SideView, ...]
    totals: tuple[TotalDifference, ...]


def standing_codes(result: DebateResult) -> dict[str, str]:
    """Each judged unit's final standing code: the panel's majority (``tie`` when it
    has none) or the single judge's. Codes, not labels: runs in two languages compare."""
    if result.panel is not None:
        return {c.argument_id: c.majority_standing or "tie" for c in result.panel.consensus}
    return {row.argument_id: row.standing for row in result.judgement.trace}


def _signed(value: float) -> str:
    return f"{value:+.2f}"


def compare(pair: Sequence[tuple[DebateRow, DebateResult]], labels: dict[str, str]) -> Comparison:
    """Two finished debates side by side: verdicts, gaps, totals and each judged unit's
    standing and score (matched by id), with the score differences and the units whose
    standing code differs."""
    reports = [build_report(result) for _, result in pair]
    sides = []
    for (row, result), report in zip(pair, reports, strict=True):
        by_anchor = {s.anchor: s for s in report.sections}
        verdict = by_anchor["verdict"].data
        assert isinstance(verdict, VerdictView)  # noqa: S101 (the verdict section's data)
        sides.append(
            CompareSide(
                run=run_line(row, labels),
                seed="-" if result.seed is None else str(result.seed),
                verdict=verdict,
                scores=by_anchor["scores"],
                models=Redactor.from_environment().text(
                    ", ".join(f"{k}={v}" for k, v in result.models.items())
                ),
            )
        )
    cells: list[dict[str, CompareCell]] = []
    for report, (_, result) in zip(reports, pair, strict=True):
        scores = item_scores(result)
        codes = standing_codes(result)
        tones = report.context
        cells.append(
            {
                item.id: CompareCell(
                    standing=codes.get(item.id, "-"),
                    label=label(labels, f"standing.{codes[item.id]}", codes[item.id])
                    if codes.get(item.id) not in (None, "tie")
                    else labels["panel.tie"]
                    if codes.get(item.id) == "tie"
                    else "-",
                    css=tones.standing_css(codes[item.id]) if item.id in codes else "neutral",
                    score=scores.get(item.id),
                )
                for item in report.context.items
            }
        )
    ids: list[str] = []
    for report in reports:
        ids += [item.id for item in report.context.items if item.id not in ids]
    items = []
    for item_id in ids:
        found = tuple(c.get(item_id) for c in cells)
        first, second = found[0], found[-1]
        difference = ""
        if first and second and first.score is not None and second.score is not None:
            difference = _signed(second.score - first.score)
        codes_seen = {cell.standing if cell else None for cell in found}
        items.append(
            CompareItem(id=item_id, cells=found, changed=len(codes_seen) > 1, difference=difference)
        )
    totals = []
    (_, one), (_, two) = pair[0], pair[-1]
    first_totals = one.panel.totals if one.panel else one.judgement.totals
    second_totals = two.panel.totals if two.panel else two.judgement.totals
    names = {p.key: p.name for p in one.positions}
    others = {p.key: p.name for p in two.positions}
    for key, value in second_totals.items():
        if key in first_totals:
            name = names.get(key, key)
            if others.get(key, name) != name:
                name = f"{name} / {others[key]}"
            totals.append(TotalDifference(name, _signed(value - first_totals[key])))
    return Comparison(
        sides=tuple(sides),
        same_topic=len({result.topic for _, result in pair}) == 1,
        items=tuple(items),
        items_title=labels["view.units"].format(
            unit=" / ".join(
                dict.fromkeys(
                    label(labels, f"unit.{formats.view_of(r.format).unit}", r.format)
                    for _, r in pair
                )
            )
        ),
        legend=reports[0].context.sides,
        totals=tuple(totals),
    )
