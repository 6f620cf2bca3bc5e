"""The parts of a briefing a debate format contributes, as data.

A format describes its own section of the briefing (the structured format's
argument trace and closing stances, the free-form format's speeches) as titled
sections of tables, bullet lists, outlines (indented trees) and paragraphs of plain
text. The renderers turn
them into Markdown or HTML and neutralise every piece of text on the way, so no
format can put structure into a briefing by accident, and none renders anything
itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Table:
    """A table of plain-text cells (``anchors`` optionally names each row's unit id)."""

    headers: list[str]
    rows: list[list[str]]
    anchors: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Bullets:
    """A list of plain-text items; ``labels`` optionally bold-face a lead-in per item."""

    items: list[str]
    labels: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Paragraph:
    """One paragraph of plain text."""

    text: str


@dataclass(frozen=True)
class Outline:
    """An indented tree of plain-text items, in reading order: ``depths[i]`` is the
    level of ``items[i]`` (0 at the top, at most one deeper than the item before)."""

    items: list[str]
    depths: list[int]

    def __post_init__(self) -> None:
        if len(self.items) != len(self.depths):
            raise ValueError("an outline needs one depth per item")
        previous = -1
        for depth in self.depths:
            if not 0 <= depth <= previous + 1:
                raise ValueError(f"outline depth {depth} after {previous}: one level at a time")
            previous = depth


Block = Table | Bullets | Outline | Paragraph


@dataclass(frozen=True)
class Section:
    """A titled part of the briefing."""

    title: str
    blocks: list[Block]
