"""What any registered format shows without an HTML view of its own: its judged
items (the rows of the judge's trace), its transcript as the detectors read it
(``Format.transcript``) and its briefing sections (``Format.briefing``: tables,
lists and paragraphs of plain text) as HTML. A format's own view
(``moot.report.html.formats``) replaces whichever of these it shows better."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from moot.briefing import Bullets, Outline, Paragraph, Table
from moot.briefing import Section as BriefingSection
from moot.errors import ConfigError
from moot.formats import get_format
from moot.formats.base import Format
from moot.report.html.common import item_ref
from moot.report.html.parts import (
    STANDING_TONES,
    Context,
    FieldView,
    ItemRef,
    Section,
    SideView,
    TurnView,
)
from moot.schema import DebateResult


def standing_tones(format_name: str) -> dict[str, str]:
    """How the format's standings are coloured: its standings in order (best, partial,
    worst, uncertain) are good, mixed, bad and neutral."""
    fmt = _format(format_name)
    standings = fmt.standings if fmt is not None else ()
    return dict(zip(standings, STANDING_TONES, strict=False))


def _format(name: str) -> Format | None:
    try:
        return get_format(name)
    except ConfigError:
        return None


def items(result: DebateResult, sides: tuple[SideView, ...]) -> list[ItemRef]:
    """The judged items in the order the judge's trace lists them, each with its claim."""
    by_key = {s.key: s for s in sides}
    return [
        item_ref(
            row.argument_id,
            by_key.get(row.side) or SideView(row.side, row.side, "side-x"),
            index,
            row.claim,
        )
        for index, row in enumerate(result.judgement.trace)
    ]


def turn_count(result: DebateResult) -> int | None:
    """How many turns the format's transcript has (None for a format not registered)."""
    fmt = _format(result.format)
    return None if fmt is None else len(fmt.transcript(result)[0].turns)


def transcript(ctx: Context) -> list[TurnView]:
    """Every turn of the format's transcript, in its order, headed by its judged unit."""
    fmt = _format(ctx.result.format)
    if fmt is None:
        return []
    found, units = fmt.transcript(ctx.result)
    turns = []
    for number, turn in enumerate(found.turns):
        side = ctx.side(turn.side)
        assert side is not None  # noqa: S101 (a turn always has a side)
        unit = units[number] if number < len(units) else None
        turns.append(
            TurnView(
                number=number,
                anchor=f"turn-{number}",
                round="",
                side=side,
                heading=unit or "",
                fields=(FieldView("", turn.text),),
            )
        )
    return turns


# ---- the briefing's sections --------------------------------------------------------


@dataclass(frozen=True)
class RowView:
    cells: tuple[str, ...]
    anchor: str | None
    """The row's item anchor (``item-N``), on the first row that names that item."""
    css: str


@dataclass(frozen=True)
class BlockView:
    kind: Literal["table", "bullets", "outline", "paragraph"]
    headers: tuple[str, ...] = ()
    rows: tuple[RowView, ...] = ()
    items: tuple[tuple[str, str], ...] = ()
    """(label, text) of each bullet; the label may be empty."""
    outline: tuple[tuple[int, str], ...] = ()
    """(depth, text) of each item of an outline (an indented tree), in reading order."""
    text: str = ""


def _table(ctx: Context, table: Table, anchored: set[str]) -> BlockView:
    rows = []
    for index, cells in enumerate(table.rows):
        unit = table.anchors[index] if index < len(table.anchors) else None
        item = ctx.item(unit) if unit is not None else None
        anchor = None
        if item is not None and item.anchor not in anchored:
            anchored.add(item.anchor)
            anchor = item.anchor
        rows.append(RowView(tuple(cells), anchor, item.side.css if item else ""))
    return BlockView("table", headers=tuple(table.headers), rows=tuple(rows))


def _bullets(bullets: Bullets) -> BlockView:
    labels = list(bullets.labels) + [""] * (len(bullets.items) - len(bullets.labels))
    return BlockView("bullets", items=tuple(zip(labels, bullets.items, strict=False)))


def briefing_section(ctx: Context, part: BriefingSection, anchor: str) -> Section:
    """One briefing section as a card of tables, lists and paragraphs (a table row
    that names a judged item carries the item's anchor once)."""
    return _card(ctx, part, anchor, set())


def _card(ctx: Context, part: BriefingSection, anchor: str, anchored: set[str]) -> Section:
    blocks = []
    for block in part.blocks:
        if isinstance(block, Table):
            blocks.append(_table(ctx, block, anchored))
        elif isinstance(block, Bullets):
            blocks.append(_bullets(block))
        elif isinstance(block, Outline):
            pairs = tuple(zip(block.depths, block.items, strict=True))
            blocks.append(BlockView("outline", outline=pairs))
        elif isinstance(block, Paragraph):
            blocks.append(BlockView("paragraph", text=block.text))
    return Section(anchor, part.title, "sections/briefing.html.j2", tuple(blocks))


def sections(ctx: Context) -> list[Section]:
    """The format's briefing sections, each a card of tables, lists and paragraphs; a
    table row that names a judged item carries the item's anchor."""
    fmt = _format(ctx.result.format)
    if fmt is None:
        return []
    labels: Mapping[str, str] = ctx.labels
    anchored: set[str] = set()
    return [
        _card(ctx, part, f"format-{number}", anchored)
        for number, part in enumerate(fmt.briefing(ctx.result, labels))
    ]
