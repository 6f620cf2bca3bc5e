"""The competitive format in the HTML report: the stage and audience results at the
top (the head-to-head by stage and the Oxford vote, each with its chart), one row per
speech with its moves on the flow tree as badges (its text, the audience's ratings
and the timing tries collapsed), a chart of each speech's speaking time against its
window, and both trees as nested lists, collapsed. Every word is in the debate's
language (``labels.py``, ``words.py`` and the trees' own words)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from moot.formats.competitive.payload import (
    CompetitivePayload,
    CompetitiveSpeech,
    RehearsalRecord,
    StageResult,
)
from moot.formats.competitive.sections import (
    actions_section,
    clock_line,
    priming_line,
    rehearsal_note,
    similarity_lines,
)
from moot.formats.competitive.trees import FlowTree, RehearsalNode, RehearsalTree, strength_steps
from moot.formats.competitive.trees.messages import message
from moot.formats.competitive.words import word
from moot.report.html import charts, generic
from moot.report.html.common import (
    ItemVerdict,
    add_turn,
    item_ref,
    item_verdicts,
)
from moot.report.html.formats import FormatView
from moot.report.html.page import number
from moot.report.html.parts import (
    Context,
    FieldView,
    ItemRef,
    Section,
    SideView,
    TurnView,
)
from moot.schema import DebateResult

NAME = "competitive"
MOVE_TONES: Mapping[str, str] = {
    "propose": "claimed",
    "attack": "bad",
    "rebut": "mixed",
    "reinforce": "good",
}
"""How a move is coloured: a new claim, an attack, an answer to an attack, support."""
STATUS_TONES: Mapping[str, str] = {"attacked": "bad", "proposed": "neutral"}
"""How a flow tree node's status is coloured: answered by the other side, or not yet."""
RATINGS = ("clarity", "engagement", "evidence", "persuasion")
PERCENT = 100.0


def _body(result: DebateResult) -> CompetitivePayload:
    """The competitive format's part of a result."""
    return CompetitivePayload.model_validate(result.body)


def _side(ctx: Context, key: str) -> SideView:
    side = ctx.side(key)
    assert side is not None  # noqa: S101 (a key always gives a side)
    return side


# ---- the stages and the audience ---------------------------------------------------


@dataclass(frozen=True)
class StageRow:
    stage: str
    scores: tuple[tuple[SideView, float, str], ...]
    """Each side's score of the stage and the debater configuration it ran with."""
    winner: SideView | None
    tie: str


@dataclass(frozen=True)
class Tally:
    side: SideView | None
    count: int
    text: str


@dataclass(frozen=True)
class ResultsView:
    wins: tuple[Tally, ...]
    """Stages won by each side, then the ties."""
    audience: SideView | None
    audience_text: str
    vote_line: str
    stages: tuple[StageRow, ...]
    headers: tuple[str, str]
    """The stage table's first and last column."""
    sides: tuple[SideView, ...]
    stage_chart: charts.Chart
    vote_chart: charts.Chart
    priming: str


def _stage_rows(ctx: Context, body: CompetitivePayload) -> tuple[StageRow, ...]:
    lang = ctx.result.lang
    return tuple(
        StageRow(
            stage=word(lang, f"stage.{r.stage}"),
            scores=tuple(
                (side, r.scores[side.key], word(lang, f"config.{r.configs[side.key]}"))
                for side in ctx.sides
                if side.key in r.scores
            ),
            winner=ctx.side(r.winner),
            tie=word(lang, "h2h.none"),
        )
        for r in body.head_to_head
    )


def _wins(ctx: Context, stages: list[StageResult]) -> tuple[Tally, ...]:
    labels = ctx.labels
    tallies = [
        Tally(side, sum(1 for r in stages if r.winner == side.key), side.label)
        for side in ctx.sides
    ]
    ties = sum(1 for r in stages if r.winner is None)
    if ties:
        tallies.append(Tally(None, ties, labels["cmp.ties"]))
    return tuple(tallies)


def _stage_chart(ctx: Context, body: CompetitivePayload) -> charts.Chart:
    lang = ctx.result.lang
    groups = [
        charts.Group(
            label=word(lang, f"stage.{r.stage}"),
            bars=tuple(
                (
                    r.scores[side.key],
                    f"bar {side.css}",
                    f"{side.label}: {number(r.scores[side.key])}",
                )
                for side in ctx.sides
                if side.key in r.scores
            ),
        )
        for r in body.head_to_head
    ]
    return charts.grouped_chart(ctx.labels["cmp.chart.stages"], groups, (0.0, 10.0))


def _vote_chart(ctx: Context, body: CompetitivePayload) -> charts.Chart:
    lang, vote = ctx.result.lang, body.vote
    colour = {"for": "side-0", "against": "side-1", "undecided": "side-x"}
    rows = []
    for when, tally in (("before", vote.before), ("after", vote.after)):
        for choice in ("for", "against", "undecided"):
            share = tally.share.get(choice, 0.0)
            name = f"{word(lang, f'vote.{when}')} · {word(lang, f'col.{choice}')}"
            rows.append(
                charts.BarRow(
                    label=name,
                    label_css="label",
                    value=share * PERCENT,
                    css=f"bar {colour[choice]}",
                    title=f"{name}: {share:.0%}",
                    text=f"{share:.0%}",
                )
            )
    return charts.bar_chart(ctx.labels["cmp.chart.vote"], rows, (0.0, PERCENT), step=25.0)


def results_section(ctx: Context) -> Section:
    """The head-to-head by stage and the audience's vote, with a chart of each: what a
    reader weighs beside the judge's totals."""
    lang, labels = ctx.result.lang, ctx.labels
    body = _body(ctx.result)
    vote = body.vote
    names = {s.key: s.label for s in ctx.sides}
    verdict = (
        word(lang, "vote.winner", side=names.get(vote.winner, vote.winner))
        if vote.winner
        else word(lang, "vote.tie")
    )
    data = ResultsView(
        wins=_wins(ctx, body.head_to_head),
        audience=ctx.side(vote.winner),
        audience_text=labels["cmp.no_audience_winner"] if vote.winner is None else "",
        vote_line=word(
            lang,
            "vote.line",
            voters=vote.voters,
            pro=vote.shift.get("pro", 0.0),
            con=vote.shift.get("con", 0.0),
            verdict=verdict,
        ),
        stages=_stage_rows(ctx, body),
        headers=(word(lang, "col.stage"), word(lang, "col.winner")),
        sides=ctx.sides,
        stage_chart=_stage_chart(ctx, body),
        vote_chart=_vote_chart(ctx, body),
        priming=priming_line(body, lang),
    )
    return Section("results", labels["cmp.results"], "formats/competitive/results.html.j2", data)


# ---- the speeches ------------------------------------------------------------------


@dataclass(frozen=True)
class MoveView:
    action: str
    css: str
    node: str
    node_anchor: str | None
    target: str | None
    target_anchor: str | None
    claim: str


@dataclass(frozen=True)
class SpeechLine:
    item: ItemRef
    stage: str
    config: str
    moves: tuple[MoveView, ...]
    seconds: str
    within: bool
    window: str
    ratings: tuple[tuple[str, int], ...]
    feedback: tuple[str, ...]
    tries: tuple[str, ...]
    notes: tuple[str, ...]
    """The cut, the refused plans, the audio file: what else happened to it."""
    verdict: ItemVerdict
    turn_anchor: str


@dataclass(frozen=True)
class SpeechesView:
    note: str
    lines: tuple[SpeechLine, ...]


def _node_anchors(body: CompetitivePayload) -> dict[str, str]:
    """Each flow tree node's anchor on the page (``node-N``, from its place, never its id)."""
    flow = FlowTree.model_validate(body.flow_tree)
    return {node.id: f"node-{index}" for index, node in enumerate(flow.nodes)}


def _moves(lang: str, speech: CompetitiveSpeech, anchors: dict[str, str]) -> tuple[MoveView, ...]:
    return tuple(
        MoveView(
            action=message(lang, f"action.{m.action}"),
            css=MOVE_TONES.get(m.action, "neutral"),
            node=m.node,
            node_anchor=anchors.get(m.node),
            target=m.target if m.action != "reinforce" else None,
            target_anchor=anchors.get(m.target or ""),
            claim=m.claim,
        )
        for m in speech.actions
    )


def _window(lang: str, speech: CompetitiveSpeech) -> str:
    low, high = speech.window
    return word(lang, "timing.within" if speech.within else "timing.outside", low=low, high=high)


def _notes(lang: str, speech: CompetitiveSpeech) -> tuple[str, ...]:
    notes = []
    if speech.cut:
        notes.append(word(lang, "timing.cut"))
    if speech.refused_plans:
        notes.append(word(lang, "refused", count=len(speech.refused_plans)))
    if speech.audio:
        notes.append(word(lang, "audio", name=speech.audio))
    return tuple(notes)


def speeches_section(ctx: Context, turns: list[TurnView]) -> Section:
    """One row per speech in speaking order: its stage and debater, its moves as badges
    (each linked to its node of the flow tree), its time against its window, where it
    stood and its score; its text, the audience's ratings and the timing tries behind
    links."""
    lang, labels = ctx.result.lang, ctx.labels
    body = _body(ctx.result)
    verdicts = item_verdicts(ctx)
    anchors = _node_anchors(body)
    lines = tuple(
        SpeechLine(
            item=item,
            stage=word(lang, f"stage.{speech.stage}"),
            config=word(lang, f"config.{body.sides[speech.side].config}")
            if speech.side in body.sides
            else "-",
            moves=_moves(lang, speech, anchors),
            seconds=f"{speech.measured_seconds:.1f} / {speech.target_seconds:g}",
            within=speech.within,
            window=_window(lang, speech),
            ratings=tuple(
                (labels[f"cmp.rating.{name}"], getattr(speech.audience, name)) for name in RATINGS
            ),
            feedback=tuple(speech.audience.feedback),
            tries=tuple(
                word(lang, "timing.step", budget=s.budget, words=s.words, seconds=s.seconds)
                for s in speech.budget_steps
            ),
            notes=_notes(lang, speech),
            verdict=verdicts[item.id],
            turn_anchor=turns[index].anchor,
        )
        for index, (item, speech) in enumerate(zip(ctx.items, body.speeches, strict=True))
    )
    data = SpeechesView(note=labels["cmp.speeches_note"], lines=lines)
    return Section(
        "speeches", word(lang, "section.speeches"), "formats/competitive/speeches.html.j2", data
    )


# ---- speaking time -----------------------------------------------------------------


@dataclass(frozen=True)
class TimingView:
    chart: charts.Chart
    note: str
    clock: str


def timing_section(ctx: Context) -> Section:
    """Each speech's measured time against its target and its window, as a chart."""
    lang, labels = ctx.result.lang, ctx.labels
    body = _body(ctx.result)
    rows = []
    for item, speech in zip(ctx.items, body.speeches, strict=True):
        low, high = speech.window
        mark = labels["cmp.within" if speech.within else "cmp.outside"]
        rows.append(
            charts.WindowRow(
                label=item.id,
                label_css=f"label {item.side.css}",
                seconds=speech.measured_seconds,
                target=speech.target_seconds,
                window=speech.window,
                css=f"bar {item.side.css}",
                text=labels["cmp.timing_value"].format(
                    seconds=speech.measured_seconds, low=low, high=high, mark=mark
                ),
            )
        )
    data = TimingView(
        chart=charts.window_chart(labels["cmp.chart.timing"], rows),
        note=labels["cmp.timing_note"],
        clock=clock_line(body, lang),
    )
    title = word(lang, "section.timing")
    return Section("timing", title, "formats/competitive/timing.html.j2", data)


# ---- the trees ---------------------------------------------------------------------


@dataclass(frozen=True)
class TreeNode:
    """One node of a tree as the page nests it."""

    anchor: str | None
    ident: str
    side: SideView
    badges: tuple[tuple[str, str], ...]
    """(text, tone) of each mark: status, visits, ratings, strength."""
    text: str
    notes: tuple[str, ...]
    children: tuple[TreeNode, ...]


@dataclass(frozen=True)
class TreeView:
    title: str
    note: str
    summary: str
    nodes: tuple[TreeNode, ...]
    on_request: bool
    """Printed only when the transcript is (a rehearsal tree runs to pages)."""


@dataclass(frozen=True)
class TreesView:
    trees: tuple[TreeView, ...]
    similarity: tuple[str, ...]


def _flow_tree(ctx: Context, body: CompetitivePayload) -> TreeView:
    lang, labels = ctx.result.lang, ctx.labels
    flow = FlowTree.model_validate(body.flow_tree)
    anchors = _node_anchors(body)

    def node(n_id: str | None) -> tuple[TreeNode, ...]:
        return tuple(
            TreeNode(
                anchor=anchors.get(n.id),
                ident=n.id,
                side=_side(ctx, n.side),
                badges=(
                    (message(lang, f"flow.{n.status}"), STATUS_TONES.get(n.status, "neutral")),
                    (f"{message(lang, 'flow.visits')} {n.visits}", "neutral"),
                ),
                text=n.claim,
                notes=tuple(n.arguments),
                children=node(n.id),
            )
            for n in flow.children(n_id)
        )

    return TreeView(
        title=word(lang, "section.flow"),
        note=word(lang, "flow.note"),
        summary=labels["cmp.tree_summary"].format(n=len(flow.nodes)),
        nodes=node(None),
        on_request=False,
    )


def _rehearsal_tree(ctx: Context, record: RehearsalRecord) -> TreeView:
    lang, labels = ctx.result.lang, ctx.labels
    tree = RehearsalTree.model_validate(record.tree)
    k = strength_steps("opening", "pro")
    names = {s.key: s.label for s in ctx.sides}
    count = 0

    def node(item: RehearsalNode, owner: str, level: int, ident: str) -> TreeNode:
        nonlocal count
        count += 1
        steps = max(k - level, 0)
        badges = [
            (f"{message(lang, key)} {value:g}", "neutral")
            for key in ("attack", "support")
            if (value := getattr(item, key)) is not None
        ]
        strength = f"{message(lang, 'strength', k=steps)} = {item.strength(steps):.2f}"
        badges.append((strength, "claimed"))
        other = "con" if owner == "pro" else "pro"
        return TreeNode(
            anchor=None,
            ident=ident,
            side=_side(ctx, owner),
            badges=tuple(badges),
            text=item.claim,
            notes=(),
            children=tuple(
                node(child, other, level + 1, f"{ident}.{number}")
                for number, child in enumerate(item.children, 1)
            ),
        )

    numbers: dict[str, int] = {}
    roots = []
    for claim in tree.claims:
        numbers[claim.side] = numbers.get(claim.side, 0) + 1
        ident = f"{message(lang, f'side.{claim.side}')} {numbers[claim.side]}"
        roots.append(node(claim.root, claim.side, 0, ident))
    note = rehearsal_note(record, names, lang)
    sides = ", ".join(names.get(s, s) for s in record.sides)
    return TreeView(
        title=f"{word(lang, 'section.rehearsal')} ({sides})",
        note=note,
        summary=labels["cmp.tree_summary"].format(n=count),
        nodes=tuple(roots),
        on_request=True,
    )


def trees_section(ctx: Context) -> Section:
    """The debate flow tree and each rehearsal tree, nested and collapsed."""
    lang, labels = ctx.result.lang, ctx.labels
    body = _body(ctx.result)
    data = TreesView(
        trees=(_flow_tree(ctx, body), *(_rehearsal_tree(ctx, r) for r in body.rehearsal)),
        similarity=tuple(similarity_lines(body, lang)),
    )
    return Section("trees", labels["cmp.trees"], "formats/competitive/trees.html.j2", data)


# ---- the view ----------------------------------------------------------------------


class CompetitiveView(FormatView):
    """The competitive format: the speeches are the judged items."""

    name = NAME
    unit = "speech"

    def items(self, result: DebateResult, sides: tuple[SideView, ...]) -> list[ItemRef]:
        """The speeches, in speaking order."""
        by_key = {s.key: s for s in sides}
        return [
            item_ref(s.id, by_key.get(s.side) or SideView(s.side, s.side, "side-x"), i, s.text)
            for i, s in enumerate(_body(result).speeches)
        ]

    def transcript(self, ctx: Context) -> list[TurnView]:
        """Every speech in speaking order, as the detectors number the turns."""
        turns: list[TurnView] = []
        for speech in _body(ctx.result).speeches:
            text = (FieldView("", speech.text),)
            add_turn(ctx, turns, speech.stage, speech.side, speech.id, text)
        return turns

    def leading_sections(self, ctx: Context) -> list[Section]:
        return [results_section(ctx)]

    def sections(self, ctx: Context, turns: list[TurnView]) -> list[Section]:
        analysis = _body(ctx.result).action_analysis
        moves = []
        if analysis is not None:
            names = {side.key: side.label for side in ctx.sides}
            part = actions_section(analysis, names, ctx.labels, ctx.result.lang)
            moves.append(generic.briefing_section(ctx, part, "moves"))
        return [speeches_section(ctx, turns), *moves, timing_section(ctx), trees_section(ctx)]

    def debater_calls(self, options: Mapping[str, Any], positions: int) -> int | None:
        """Unknown for every run (None): the options do not fix the number of calls.

        The audience's votes (``voters`` before and after) and each speech's writer and
        simulated audience are fixed, but the rest is not:

        - the duration controller asks for a speech again until it lasts inside its
          window, 1 to 10 tries per speech, as the speech measures;
        - a rehearsal tree read from the store's cache costs no call, while the same
          options grow it otherwise (one call per side and per node expanded).

        Two runs of the same stored configuration make different numbers of calls, so
        any total would be wrong for one of them; the live page shows the count alone.
        """
        return None
