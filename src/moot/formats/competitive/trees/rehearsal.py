"""The rehearsal tree: each side's candidate claims, grown top-down before the debate
into trees of rebuttals, with the ratings that give every claim its strength.

A claim (level 0) is rated for ``support`` of its side's stance. Its children
(level 1) are the other side's rebuttals, rated for ``attack`` on it. Deeper nodes
answer their parent and so carry both: ``attack`` on the parent and ``support`` for
the grandparent, which argues for the same side. Ratings are on the 1-3 scale.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

from moot.formats.competitive.trees.messages import message
from moot.formats.competitive.trees.sides import Side, other_side
from moot.formats.competitive.trees.strength import DEFAULT_GAMMA, minimax_strength
from moot.schema import Lang

RATING_MIN = 1.0
RATING_MAX = 3.0
Rating = Annotated[float, Field(ge=RATING_MIN, le=RATING_MAX)]
DEFAULT_BRANCHING = 3
DEFAULT_DEPTH = 3
"""Levels of rebuttal below each claim: enough for the opening-pro speech's k = 3."""


class RehearsalNode(BaseModel):
    """One claim or rebuttal, its ratings and the rebuttals of it."""

    model_config = ConfigDict(extra="forbid")

    claim: str = Field(min_length=1)
    support: Rating | None = None
    attack: Rating | None = None
    children: list[RehearsalNode] = Field(default_factory=list)

    def strength(self, k: int, gamma: float = DEFAULT_GAMMA) -> float:
        """This node's k-step minimax strength (see
        ``moot.formats.competitive.trees.minimax_strength``)."""
        return minimax_strength(self.model_dump(), k, gamma)


def check_level(node: RehearsalNode, level: int, where: str) -> None:
    """Raise ValueError unless ``node`` has the ratings of its level: support only at
    level 0, attack only at level 1, both deeper."""
    wants_support = level != 1
    wants_attack = level >= 1
    for key, wanted in (("support", wants_support), ("attack", wants_attack)):
        present = getattr(node, key) is not None
        if present != wanted:
            need = "needs" if wanted else "must not have"
            raise ValueError(f"{where} (level {level}) {need} a {key} rating")


class RehearsalClaim(BaseModel):
    """A candidate claim of one side, with its tree of rebuttals."""

    model_config = ConfigDict(extra="forbid")

    side: Side
    root: RehearsalNode


@dataclass(frozen=True)
class Located:
    """A node of the rehearsal tree and where it is: the claim it belongs to, its path
    of child indices from that claim, its level and the side that argues it."""

    claim: int
    path: tuple[int, ...]
    node: RehearsalNode
    owner: Side

    @property
    def level(self) -> int:
        return len(self.path)


class RehearsalTree(BaseModel):
    """Every candidate claim of both sides, grown to ``depth`` levels of rebuttal with
    at most ``branching`` rebuttals per node. Serialises to and from JSON."""

    model_config = ConfigDict(extra="forbid")

    motion: str = Field(min_length=1)
    lang: Lang
    branching: int = Field(default=DEFAULT_BRANCHING, ge=1)
    depth: int = Field(default=DEFAULT_DEPTH, ge=0)
    claims: list[RehearsalClaim]

    @model_validator(mode="after")
    def _shape(self) -> RehearsalTree:
        for located in self.walk():
            where = f"claims[{located.claim}]" + "".join(f".children[{i}]" for i in located.path)
            check_level(located.node, located.level, where)
            if len(located.node.children) > self.branching:
                raise ValueError(
                    f"{where} has {len(located.node.children)} rebuttals;"
                    f" branching allows {self.branching}"
                )
            if located.node.children and located.level >= self.depth:
                raise ValueError(f"{where} is at level {located.level}, the tree's depth")
        return self

    def walk(self) -> Iterator[Located]:
        """Every node, depth first, each claim's tree in order."""
        for index, claim in enumerate(self.claims):
            stack: list[tuple[tuple[int, ...], RehearsalNode]] = [((), claim.root)]
            while stack:
                path, node = stack.pop()
                owner = claim.side if len(path) % 2 == 0 else other_side(claim.side)
                yield Located(claim=index, path=path, node=node, owner=owner)
                stack.extend(
                    ((*path, i), child) for i, child in reversed(list(enumerate(node.children)))
                )

    def to_json(self) -> str:
        """The tree as JSON (what the cache and the result store)."""
        return self.model_dump_json(indent=2)

    @classmethod
    def from_json(cls, text: str | bytes) -> RehearsalTree:
        """A tree from JSON; pydantic's ValidationError (a ValueError) names what is wrong."""
        return cls.model_validate_json(text)

    def rows(self, k: int | None = None, gamma: float = DEFAULT_GAMMA) -> list[tuple[int, str]]:
        """The tree as (level, text) rows in reading order, for the briefing: each
        node's side, claim and ratings and, when ``k`` is given, its strength with the
        steps left at its level (``f_k`` for a claim, ``f_{k-1}`` for its rebuttals,
        down to ``f_0``)."""
        rows: list[tuple[int, str]] = []
        numbers: dict[Side, int] = {}
        for located in self.walk():
            node = located.node
            label = message(self.lang, f"side.{located.owner}")
            if located.level == 0:
                numbers[located.owner] = numbers.get(located.owner, 0) + 1
                label = f"{label} {numbers[located.owner]}"
            details = [
                f"{message(self.lang, key)} {value:g}"
                for key in ("attack", "support")
                if (value := getattr(node, key)) is not None
            ]
            text = f"{label}: {node.claim} ({', '.join(details)}"
            if k is not None:
                steps = max(k - located.level, 0)
                name = message(self.lang, "strength", k=steps)
                text += f"; {name} = {node.strength(steps, gamma):.2f}"
            rows.append((located.level, text + ")"))
        return rows

    def render(self, k: int | None = None, gamma: float = DEFAULT_GAMMA) -> str:
        """The tree as indented text (see :meth:`rows`)."""
        return "\n".join(
            "  " * level + ("- " if level else "") + text for level, text in self.rows(k, gamma)
        )


Expand = Callable[[Sequence[RehearsalNode], Side], Awaitable[list[RehearsalNode]]]
"""Writes and rates the rebuttals of the last node of a line of argument (root first),
for the given side: at most ``branching`` new nodes, with no children of their own."""


Wave = Callable[[int, list[Awaitable[list[RehearsalNode]]]], Awaitable[list[list[RehearsalNode]]]]
"""Runs one level's expansions concurrently and returns their results in order
(``wave(level, calls)``); by default ``asyncio.gather``."""


async def _gather(
    level: int, calls: list[Awaitable[list[RehearsalNode]]]
) -> list[list[RehearsalNode]]:
    return list(await asyncio.gather(*calls))


async def grow(
    motion: str,
    lang: Lang,
    claims: Sequence[RehearsalClaim],
    expand: Expand,
    *,
    depth: int = DEFAULT_DEPTH,
    branching: int = DEFAULT_BRANCHING,
    wave: Wave | None = None,
) -> RehearsalTree:
    """Grow the rehearsal tree top-down from the rated candidate ``claims``: level by
    level, every node of a level is expanded concurrently (one wave of calls per
    level, run by ``wave``: a debate passes its own, which announces the round and
    cancels the rest when one call fails for good). ``expand`` gets the line of
    argument from the claim down to the node and the side that answers it. Raises
    ValueError when ``expand`` returns a node with the wrong ratings, with children,
    or more than ``branching`` nodes."""
    run_wave = wave or _gather
    grown = [claim.model_copy(deep=True) for claim in claims]
    frontier: list[tuple[str, list[RehearsalNode], Side]] = [
        (f"claims[{i}]", [claim.root], other_side(claim.side)) for i, claim in enumerate(grown)
    ]
    for level in range(1, depth + 1):
        if not frontier:
            break
        replies = await run_wave(level, [expand(list(line), side) for _, line, side in frontier])
        next_frontier: list[tuple[str, list[RehearsalNode], Side]] = []
        for (where, line, side), children in zip(frontier, replies, strict=True):
            if len(children) > branching:
                raise ValueError(f"{where}: {len(children)} rebuttals, branching is {branching}")
            for index, child in enumerate(children):
                here = f"{where}.children[{index}]"
                check_level(child, level, here)
                if child.children:
                    raise ValueError(f"{here}: a new rebuttal must not have children yet")
                next_frontier.append((here, [*line, child], other_side(side)))
            line[-1].children = list(children)
        frontier = next_frontier
    return RehearsalTree(
        motion=motion, lang=lang, branching=branching, depth=depth, claims=list(grown)
    )
