"""The market format's sections of the briefing, as data (``moot.briefing``):
the data and the analysts, the argument trace with the code's evidence check and
both evidence scores, every unsupported number, the cross-examination, the closings,
the judge's market synthesis and the single-agent baseline."""

from __future__ import annotations

from collections.abc import Mapping

from moot.briefing import Block, Bullets, Paragraph, Section, Table
from moot.formats.market.payload import (
    FLAGGED_STATUSES,
    MarketEvidenceCheck,
    MarketNumberRecord,
    MarketPayload,
)
from moot.formats.market.rounds import checks_of
from moot.schema import DebateResult


def lead_judge(result: DebateResult) -> str:
    """The judge role whose run is ``result.judgement`` (the single judge, or the
    panel's lead judge's first run)."""
    if result.panel is None:
        return "judge"
    names = [j.name for j in result.panel.judges]
    return f"judge:{'general' if 'general' in names else names[0]}#1"


def _data_section(body: MarketPayload, L: Mapping[str, str]) -> Section:
    kb = body.kb
    lines = [
        L["market.as_of"].format(date=kb.as_of, source=kb.source),
        L["market.modules"].format(modules=", ".join(kb.modules)),
    ]
    blocks: list[Block] = [Paragraph(" ".join(lines))]
    if kb.synthetic or kb.warnings:
        blocks.append(Bullets(items=list(kb.warnings) or [L["market.synthetic"]]))
    blocks.append(
        Table(
            headers=[
                L["col.agent"],
                L["col.side"],
                L["col.lens"],
                L["col.modules"],
                L["col.horizon"],
                L["col.opponents"],
            ],
            rows=[
                [
                    a.id,
                    L[f"side.{a.side}"],
                    a.lens_label,
                    ", ".join(a.modules),
                    a.horizon,
                    ", ".join(a.opponents),
                ]
                for a in body.analysts
            ],
            anchors=[a.id for a in body.analysts],
        )
    )
    return Section(L["market.data"], blocks)


def _trace_section(result: DebateResult, body: MarketPayload, L: Mapping[str, str]) -> Section:
    lead = lead_judge(result)
    evidence = {s.argument_id: s for s in body.evidence_scores if s.judge == lead}
    scores = {s.argument_id: s.weighted for s in result.judgement.scores}
    trace = {row.argument_id: row for row in result.judgement.trace}
    rows = []
    for a in body.arguments:
        row = trace[a.id]
        answered = "; ".join(
            f"{by}: {L.get('response.' + kind, kind)}" for by, kind in row.responses.items()
        )
        score = evidence.get(a.id)
        shown = "-" if score is None else (
            str(score.raw) if score.raw == score.penalised else f"{score.raw} -> {score.penalised}"
        )  # fmt: skip
        rows.append(
            [
                a.id,
                L[f"side.{a.side}"],
                a.claim,
                f"{round(a.confidence * 100)}%",
                answered or "-",
                L.get("standing." + row.standing, row.standing),
                shown,
                f"{scores[a.id]:.2f}",
                str(a.check.unsupported),
                row.reason,
            ]
        )
    table = Table(
        headers=[
            L["col.id"],
            L["col.side"],
            L["col.claim"],
            L["col.confidence"],
            L["col.cross"],
            L["col.standing"],
            L["col.evidence_score"],
            L["col.score"],
            L["col.unsupported"],
            L["col.reason"],
        ],
        rows=rows,
        anchors=[a.id for a in body.arguments],
    )
    return Section(L["arguments"], [table])


def _flag_row(where: str, n: MarketNumberRecord, L: Mapping[str, str]) -> list[str]:
    note = n.note
    if n.elsewhere:
        note = f"{note}; {L['market.elsewhere'].format(field=n.elsewhere)}"
    return [where, n.where, n.text, n.field or "-", n.kb_value or "-", note]


def _evidence_section(body: MarketPayload, L: Mapping[str, str]) -> Section:
    checks: list[tuple[str, MarketEvidenceCheck]] = checks_of(body)
    counts = dict.fromkeys(
        ("matched", "derived", "quoted", "unsupported", "wrong_entity", "wrong_period"), 0
    )
    for _, check in checks:
        for n in check.numbers:
            counts[n.status] += 1
    rule = body.evidence_rule
    blocks: list[Block] = [
        Paragraph(L["market.evidence.summary"].format(checked=sum(counts.values()), **counts)),
        Paragraph(
            L["market.evidence.rule"].format(
                per=rule.per_unsupported, cap=rule.cap_when_all_unsupported, floor=rule.floor
            )
        ),
    ]
    rows = [
        _flag_row(label, n, L)
        for label, check in checks
        for n in check.numbers
        if n.status in FLAGGED_STATUSES
    ]
    if rows:
        blocks.append(
            Table(
                headers=[
                    L["col.id"],
                    L["col.where"],
                    L["col.cited"],
                    L["col.closest"],
                    L["col.kb_value"],
                    L["col.note"],
                ],
                rows=rows,
            )
        )
    else:
        blocks.append(Paragraph(L["market.evidence.none"]))
    return Section(L["market.evidence"], blocks)


def _cross_section(body: MarketPayload, L: Mapping[str, str]) -> Section:
    rows = [
        [
            c.by,
            c.target_id,
            L.get("response." + c.challenge_type, c.challenge_type),
            c.reasoning,
            c.new_evidence or "-",
            str(c.check.unsupported),
        ]
        for c in body.challenges
    ]
    table = Table(
        headers=[
            L["col.agent"],
            L["col.target"],
            L["col.challenge"],
            L["col.reason"],
            L["col.new_evidence"],
            L["col.unsupported"],
        ],
        rows=rows,
    )
    return Section(L["round.cross_examination"], [table])


def _closing_section(body: MarketPayload, L: Mapping[str, str]) -> Section:
    items = []
    for c in body.closings:
        text = f"({L['conviction.' + c.conviction_change]}) {c.final_stance}"
        if c.concessions:
            text += f" {L['market.concedes']}: {'; '.join(c.concessions)}"
        items.append(text)
    labels = [f"{c.agent} ({L[f'side.{c.side}']})" for c in body.closings]
    return Section(L["closings"], [Bullets(items=items, labels=labels)])


def _synthesis_section(result: DebateResult, body: MarketPayload, L: Mapping[str, str]) -> Section:
    s = body.synthesis
    blocks: list[Block] = [
        Bullets(
            labels=[L["market.bull_case"], L["market.bear_case"], L["market.judge_note"]],
            items=[s.bull_case, s.bear_case, s.judge_note],
        ),
        Paragraph(L["market.not_forecast"]),
    ]
    if result.panel is not None:
        blocks.append(Paragraph(L["market.panel_weights"]))
    return Section(L["market.synthesis"], blocks)


def market_sections(result: DebateResult, L: Mapping[str, str]) -> list[Section]:
    body = MarketPayload.model_validate(result.body)
    sections = [
        _data_section(body, L),
        _synthesis_section(result, body, L),
        _trace_section(result, body, L),
        _evidence_section(body, L),
        _cross_section(body, L),
        _closing_section(body, L),
    ]
    if body.baseline is not None:
        b = body.baseline
        line = L["market.baseline.line"].format(
            direction=L[f"direction.{b.direction}"], p=round(b.probability_up * 100)
        )
        if b.contradicts:
            line += " " + L["market.baseline.contradicts"].format(n=b.reasks_allowed)
        sections.append(Section(L["market.baseline"], [Paragraph(f"{line} {b.reasoning}")]))
    return sections
