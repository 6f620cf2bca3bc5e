"""The pieces an HTML page is assembled from: what a template is given.

Every value a template renders is text or a number; the templates escape all text
(autoescaping is on everywhere), so model output is never markup. Anchors
(``arg-0``, ``turn-3``) and CSS classes come from code, never from a result's text
or ids, so nothing a model wrote ends up in an attribute that a browser acts on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from moot.schema import DebateResult

SIDE_CLASSES = 6
"""Distinct side colours the stylesheet defines (``side-0`` ... ``side-5``)."""

STANDING_TONES = ("good", "mixed", "bad", "neutral")
"""How a format's standings are coloured, in the order the format lists them (best,
partial, worst, uncertain); a standing the format does not list is neutral."""

RESPONSE_CLASSES: Mapping[str, str] = {
    "refute": "bad",
    "challenge": "mixed",
    "partial": "mixed",
    "concede": "good",
    "answered": "mixed",
}
"""How an answer in cross-examination is coloured, seen from the argument it answers:
a concession leaves the argument standing."""

AGREEMENT_CLASSES: Mapping[str, str] = {
    "high": "good",
    "moderate": "mixed",
    "needs_attention": "bad",
    "not_computable": "neutral",
}


def tone(classes: Mapping[str, str], code: str | None) -> str:
    """The CSS tone of a code (``neutral`` for one this version does not know)."""
    return classes.get(code or "", "neutral")


@dataclass(frozen=True)
class SideView:
    """A side (position) as pages show it: its key in the result, its label and its
    colour class."""

    key: str
    label: str
    css: str


@dataclass(frozen=True)
class ItemRef:
    """A judged item of the debate (an opening argument in the structured format):
    its id as the result names it, its side and the page anchor code gave it."""

    id: str
    side: SideView
    anchor: str
    text: str


@dataclass(frozen=True)
class Section:
    """One section of a page: a code-chosen anchor, its heading, the template partial
    that renders it and that partial's data."""

    anchor: str
    title: str
    template: str
    data: Any


@dataclass(frozen=True)
class FieldView:
    """A labelled piece of a statement: one text, or a list of texts."""

    label: str
    text: str | None = None
    items: tuple[str, ...] = ()


@dataclass(frozen=True)
class TurnView:
    """One statement of the transcript, in speaking order: ``number`` is its index in
    the format's transcript (``Format.transcript``), the turn the detectors name."""

    number: int
    anchor: str
    round: str
    side: SideView
    heading: str
    fields: tuple[FieldView, ...]


@dataclass(frozen=True)
class Located:
    """Where a flag points: a label and, when the page has it, the anchor to jump to."""

    label: str
    anchor: str | None


@dataclass(frozen=True)
class FlagView:
    """A flag on the debate (a possible fallacy or a detector firing): what kind, where,
    for which side, the evidence, and whether the quoted words were found."""

    kind: str
    where: Located
    side: SideView | None
    evidence: str
    verified: bool | None = None


@dataclass(frozen=True)
class Context:
    """What every section builder reads: the result, the labels in its language, its
    sides and judged items, what the format calls a judged item (``unit``: argument,
    speech...) and how its standings are coloured."""

    result: DebateResult
    labels: dict[str, str]
    sides: tuple[SideView, ...]
    items: tuple[ItemRef, ...]
    unit: str = "item"
    standing_tones: Mapping[str, str] = field(default_factory=dict)
    _items_by_id: dict[str, ItemRef] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_items_by_id", {item.id: item for item in self.items})

    def side(self, key: str | None) -> SideView | None:
        """The side with this key (a key the result does not declare is shown as is)."""
        if key is None:
            return None
        for side in self.sides:
            if side.key == key:
                return side
        return SideView(key=key, label=key, css="side-x")

    def standing_css(self, code: str | None) -> str:
        """The tone of a standing of this result's format (``neutral`` if unknown)."""
        return tone(self.standing_tones, code)

    def item(self, item_id: str) -> ItemRef | None:
        """The judged item with this id, if the result has it."""
        return self._items_by_id.get(item_id)

    def locate(self, item_id: str) -> Located:
        """A flag's place for an item id (no anchor when the result lacks the item)."""
        item = self.item(item_id)
        return Located(label=item_id, anchor=item.anchor if item else None)
