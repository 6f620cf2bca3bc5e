"""A base for the HTML views of formats whose judged items are arguments, each with
an id, a side and a claim (in the report layer, like every format's ``html``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from moot.report.html.common import argument_items
from moot.report.html.formats import FormatView
from moot.report.html.parts import ItemRef, SideView
from moot.schema import DebateResult


class Argument(Protocol):
    """What the view reads of an argument."""

    @property
    def id(self) -> str: ...

    @property
    def side(self) -> str: ...

    @property
    def claim(self) -> str: ...


class ArgumentView(FormatView):
    """A view whose judged items are a result's arguments, in the order they were
    made: a subclass says which they are (:meth:`arguments`)."""

    unit = "argument"

    def arguments(self, result: DebateResult) -> Sequence[Argument]:
        """The result's arguments, in the order they were made."""
        raise NotImplementedError

    def items(self, result: DebateResult, sides: tuple[SideView, ...]) -> list[ItemRef]:
        """The arguments, in the order they were made."""
        return argument_items([(a.id, a.side, a.claim) for a in self.arguments(result)], sides)
