"""k-step minimax strength of a claim in a rehearsal tree.

A rehearsal tree alternates sides: a node's children are rebuttals of it, so a node
and its grandparent argue for the same side. Each node carries up to two ratings:
``attack`` (how hard it hits its parent) and ``support`` (how much it helps its
grandparent, or the side's stance for a root). Its strength is

- ``f_0(x)`` = the mean of the ratings present (0 when neither is present);
- ``f_k(x)`` = ``f_0(x) - gamma * max(f_{k-1}(c) for c in children(x))``;
- ``f_k(x)`` = ``f_0(x)`` when ``k == 0`` or ``x`` has no children.

The opponent is assumed to answer with its strongest reply, and so on for ``k``
exchanges; ``gamma`` discounts each later exchange (a side may not answer at all).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from numbers import Real
from typing import Any

DEFAULT_GAMMA = 0.8
RATING_KEYS = ("support", "attack")


@dataclass(frozen=True)
class _Node:
    """A validated node: its own score f_0 and its children."""

    f0: float
    children: tuple[_Node, ...]


def _rating(value: object, where: str, key: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ValueError(f"{where}: {key!r} must be a number or None, got {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{where}: {key!r} must be finite, got {value!r}")
    return number


def _own_score(node: Mapping[str, Any], where: str) -> float:
    ratings = [r for key in RATING_KEYS if (r := _rating(node.get(key), where, key)) is not None]
    return sum(ratings) / len(ratings) if ratings else 0.0


def _children_of(node: Mapping[str, Any], where: str) -> Sequence[Any]:
    children = node.get("children", ())
    if children is None:
        return ()
    if isinstance(children, str | bytes) or not isinstance(children, Sequence):
        raise ValueError(f"{where}: 'children' must be a list of nodes, got {children!r}")
    return children


def _validate(root: object) -> _Node:
    """Check every node of the tree and build its validated form, without recursion
    (a deep tree must not hit Python's recursion limit). A node may be shared by two
    parents; a node that is its own descendant is refused."""
    built: dict[int, _Node] = {}
    on_path: set[int] = set()
    # (node, where, expanded): each node is visited twice, before and after its children
    stack: list[tuple[object, str, bool]] = [(root, "root", False)]
    while stack:
        node, where, expanded = stack.pop()
        if not isinstance(node, Mapping):
            raise ValueError(f"{where}: a node must be a mapping, got {type(node).__name__}")
        key = id(node)
        children = _children_of(node, where)
        if expanded:
            on_path.discard(key)
            built[key] = _Node(
                f0=_own_score(node, where),
                children=tuple(built[id(child)] for child in children),
            )
            continue
        if key in on_path:
            raise ValueError(f"{where}: the tree has a cycle (a node is its own descendant)")
        if key in built:
            continue
        _own_score(node, where)  # fail on a bad rating before descending
        on_path.add(key)
        stack.append((node, where, True))
        for index, child in reversed(list(enumerate(children))):
            if isinstance(child, Mapping) and id(child) in on_path:
                raise ValueError(
                    f"{where}.children[{index}]: the tree has a cycle"
                    " (a node is its own descendant)"
                )
            stack.append((child, f"{where}.children[{index}]", False))
    return built[id(root)]


def _strength(root: _Node, k: int, gamma: float) -> float:
    """f_k of the root, computed bottom-up over the nodes within k levels."""
    memo: dict[tuple[int, int], float] = {}
    stack: list[tuple[_Node, int, bool]] = [(root, k, False)]
    while stack:
        node, steps, expanded = stack.pop()
        key = (id(node), steps)
        if key in memo:
            continue
        if steps == 0 or not node.children:
            memo[key] = node.f0
        elif expanded:
            best = max(memo[(id(child), steps - 1)] for child in node.children)
            memo[key] = node.f0 - gamma * best
        else:
            stack.append((node, steps, True))
            stack.extend((child, steps - 1, False) for child in node.children)
    return memo[(id(root), k)]


def validate_steps(k: object, gamma: object) -> tuple[int, float]:
    """``k`` as a count of exchanges and ``gamma`` as a discount, or a ValueError."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise ValueError(f"k must be an integer >= 0 (exchanges left), got {k!r}")
    if isinstance(gamma, bool) or not isinstance(gamma, Real):
        raise ValueError(f"gamma must be a number in [0, 1], got {gamma!r}")
    discount = float(gamma)
    if not 0.0 <= discount <= 1.0:
        raise ValueError(f"gamma must be in [0, 1] (a discount), got {gamma!r}")
    return k, discount


def minimax_strength(node: Mapping[str, Any], k: int, gamma: float = DEFAULT_GAMMA) -> float:
    """The k-step minimax strength ``f_k`` of ``node``.

    ``node`` is a mapping ``{"support": float | None, "attack": float | None,
    "children": [node, ...]}``. A missing rating counts as None and missing children
    as none; other keys (a claim's text, say) are ignored, so a serialised rehearsal
    node can be passed as it is. Ratings are any finite real numbers.

    Raises ValueError, naming the node (``root.children[1]...``), for a node that is
    not a mapping, children that are not a list, a rating that is not a finite
    number, a cycle, ``k`` that is not an integer >= 0, or ``gamma`` outside [0, 1]
    (a discount: above 1 a reply would weigh more than the claim it answers). The
    whole tree is validated, not only the ``k`` levels the result depends on.
    """
    steps, discount = validate_steps(k, gamma)
    return _strength(_validate(node), steps, discount)
