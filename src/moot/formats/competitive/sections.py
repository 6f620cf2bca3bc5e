"""The competitive format's sections of the briefing: the speeches with their moves
and timing, the head-to-head by stage, the Oxford vote, and both trees as outlines."""

from __future__ import annotations

from collections.abc import Mapping

from moot.briefing import Bullets, Outline, Paragraph, Section, Table
from moot.formats.competitive.analysis import ActionAnalysis
from moot.formats.competitive.payload import CompetitivePayload, CompetitiveSpeech, RehearsalRecord
from moot.formats.competitive.trees import ACTIONS, FlowTree, RehearsalTree, strength_steps
from moot.formats.competitive.words import word
from moot.schema import DebateResult


def _moves(speech: CompetitiveSpeech) -> str:
    return "; ".join(
        f"{m.action} {m.target or '-'} -> {m.node}"
        if m.action != "reinforce"
        else f"reinforce {m.node}"
        for m in speech.actions
    )


def _timing(speech: CompetitiveSpeech, lang: str) -> str:
    low, high = speech.window
    steps = [
        word(lang, "timing.step", budget=s.budget, words=s.words, seconds=s.seconds)
        for s in speech.budget_steps
    ]
    place = word(lang, "timing.within" if speech.within else "timing.outside", low=low, high=high)
    parts = [
        "; ".join(steps),
        f"{speech.measured_seconds:.1f} s ({speech.duration_source}, {place})",
    ]
    if speech.cut:
        parts.append(word(lang, "timing.cut"))
    if speech.audio:
        parts.append(word(lang, "audio", name=speech.audio))
    if speech.refused_plans:
        parts.append(word(lang, "refused", count=len(speech.refused_plans)))
    return " | ".join(parts)


def clock_line(body: CompetitivePayload, lang: str) -> str:
    """How speaking time was measured: by espeak-ng, or estimated (and why)."""
    if body.clock.source == "espeak-ng":
        return word(lang, "timing.clock", clock=body.clock.detail)
    return word(lang, "timing.estimate", reason=body.clock.detail)


def similarity_lines(body: CompetitivePayload, lang: str) -> list[str]:
    """How claims were matched, and the fallback's reason when it was used."""
    lines = [
        word(lang, "similarity", method=body.similarity.method, threshold=body.similarity.threshold)
    ]
    if body.similarity.fallback_reason:
        lines.append(word(lang, "similarity.fallback", reason=body.similarity.fallback_reason))
    return lines


def priming_line(body: CompetitivePayload, lang: str) -> str:
    """Which earlier debate primed the simulated audience, if any."""
    if body.priming is None:
        return word(lang, "priming.none")
    return word(
        lang,
        "priming",
        run=body.priming.run_id,
        topic=body.priming.topic,
        similarity=body.priming.similarity,
    )


def rehearsal_note(record: RehearsalRecord, names: Mapping[str, str], lang: str) -> str:
    """The line under a rehearsal tree: its model, sides, origin (grown or cached),
    calls and waves (the briefing's and the HTML view's)."""
    return word(
        lang,
        "rehearsal.note",
        model=record.model,
        sides=", ".join(names.get(s, s) for s in record.sides),
        origin=word(lang, "rehearsal.cached" if record.from_cache else "rehearsal.grown"),
        calls=record.calls,
        waves=record.waves,
    )


def _outline(rows: list[tuple[int, str]]) -> Outline:
    return Outline(items=[text for _, text in rows], depths=[depth for depth, _ in rows])


def sections(
    result: DebateResult, body: CompetitivePayload, labels: Mapping[str, str]
) -> list[Section]:
    lang = result.lang
    names = {p.key: p.name for p in result.positions}
    scores = {s.argument_id: s.weighted for s in result.judgement.scores}
    standing = {row.argument_id: row.standing for row in result.judgement.trace}
    speeches = Table(
        headers=[
            labels["col.id"],
            word(lang, "col.stage"),
            labels["col.side"],
            word(lang, "col.config"),
            word(lang, "col.time"),
            word(lang, "col.tries"),
            word(lang, "col.moves"),
            labels["col.standing"],
            labels["col.score"],
        ],
        rows=[
            [
                s.id,
                word(lang, f"stage.{s.stage}"),
                names.get(s.side, s.side),
                word(lang, f"config.{body.sides[s.side].config}"),
                f"{s.measured_seconds:.1f} / {s.target_seconds:g} ({s.duration_source})",
                str(len(s.budget_steps)),
                _moves(s),
                labels.get("standing." + standing.get(s.id, ""), standing.get(s.id, "-")),
                f"{scores[s.id]:.2f}" if s.id in scores else "-",
            ]
            for s in body.speeches
        ],
        anchors=[s.id for s in body.speeches],
    )
    timing_notes = clock_line(body, lang)
    h2h = Table(
        headers=[word(lang, "col.stage"), names["pro"], names["con"], word(lang, "col.winner")],
        rows=[
            [
                word(lang, f"stage.{r.stage}"),
                f"{r.scores['pro']:.2f} ({word(lang, 'config.' + r.configs['pro'])})",
                f"{r.scores['con']:.2f} ({word(lang, 'config.' + r.configs['con'])})",
                names[r.winner] if r.winner else word(lang, "h2h.none"),
            ]
            for r in body.head_to_head
        ],
    )
    vote = body.vote
    shares = Table(
        headers=["", word(lang, "col.for"), word(lang, "col.against"), word(lang, "col.undecided")],
        rows=[
            [
                word(lang, f"vote.{when}"),
                *(f"{tally.share[v]:.0%}" for v in ("for", "against", "undecided")),
            ]
            for when, tally in (("before", vote.before), ("after", vote.after))
        ],
    )
    verdict = (
        word(lang, "vote.winner", side=names[vote.winner])
        if vote.winner
        else word(lang, "vote.tie")
    )
    vote_line = word(
        lang,
        "vote.line",
        voters=vote.voters,
        pro=vote.shift["pro"],
        con=vote.shift["con"],
        verdict=verdict,
    )
    similarity = similarity_lines(body, lang)
    priming = priming_line(body, lang)
    flow = FlowTree.model_validate(body.flow_tree)
    result_sections = [
        Section(
            word(lang, "section.speeches"),
            [speeches, Paragraph(priming), *(Paragraph(s) for s in similarity)],
        ),
        Section(
            word(lang, "section.texts"),
            [Bullets(labels=[s.id for s in body.speeches], items=[s.text for s in body.speeches])],
        ),
        Section(word(lang, "section.h2h"), [h2h]),
        Section(word(lang, "section.vote"), [shares, Paragraph(vote_line)]),
        Section(
            word(lang, "section.timing"),
            [
                Paragraph(timing_notes),
                Bullets(
                    labels=[s.id for s in body.speeches],
                    items=[_timing(s, lang) for s in body.speeches],
                ),
            ],
        ),
        Section(
            word(lang, "section.flow"),
            [Paragraph(word(lang, "flow.note")), _outline(flow.rows(arguments=True))],
        ),
    ]
    if body.action_analysis is not None:
        result_sections.insert(3, actions_section(body.action_analysis, names, labels, lang))
    k = strength_steps("opening", "pro")
    for record in body.rehearsal:
        tree = RehearsalTree.model_validate(record.tree)
        note = rehearsal_note(record, names, lang)
        result_sections.append(
            Section(
                word(lang, "section.rehearsal"),
                [Paragraph(note), _outline(tree.rows(k))],
            )
        )
    return result_sections


def move_cell(count: int, share: float) -> str:
    """A count of moves with its share."""
    return f"{count} ({share:.0%})"


def actions_section(
    analysis: ActionAnalysis, names: Mapping[str, str], labels: Mapping[str, str], lang: str
) -> Section:
    """The action analysis: moves per stage and side (count and share of each action),
    and per side its total, attack-to-rebut ratio and the rehearsal claims it used."""
    by_stage = Table(
        headers=[
            word(lang, "col.stage"),
            labels["col.side"],
            *(word(lang, f"action.{a}") for a in ACTIONS),
            word(lang, "col.total"),
        ],
        rows=[
            [
                word(lang, f"stage.{r.stage}"),
                names.get(r.side, r.side),
                *(move_cell(r.moves.counts[a], r.moves.shares[a]) for a in ACTIONS),
                str(r.moves.total),
            ]
            for r in analysis.stages
        ],
    )
    by_side = Table(
        headers=[
            labels["col.side"],
            word(lang, "col.config"),
            *(word(lang, f"action.{a}") for a in ACTIONS),
            word(lang, "col.ratio"),
            word(lang, "col.prepared"),
            word(lang, "col.from_rehearsal"),
        ],
        rows=[
            [
                names.get(r.side, r.side),
                word(lang, f"config.{r.config}"),
                *(move_cell(r.moves.counts[a], r.moves.shares[a]) for a in ACTIONS),
                "-" if r.attack_to_rebut is None else f"{r.attack_to_rebut:.2f}",
                f"{len(r.rehearsal.used)} / {r.rehearsal.offered}",
                f"{r.rehearsal.moves} / {r.moves.total}",
            ]
            for r in analysis.sides
        ],
    )
    used = [
        Bullets(
            labels=[word(lang, "actions.used", side=names.get(r.side, r.side))],
            items=["; ".join(r.rehearsal.used) or word(lang, "actions.none_used")],
        )
        for r in analysis.sides
    ]
    note = Paragraph(word(lang, "actions.note", threshold=analysis.reuse_threshold))
    return Section(word(lang, "section.actions"), [by_stage, by_side, note, *used])
