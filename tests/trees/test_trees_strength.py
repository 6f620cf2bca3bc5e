"""moot.formats.competitive.trees.minimax_strength: hand-computed trees, properties
over generated trees, and the errors for bad input."""

from __future__ import annotations

import copy
import math
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from moot.formats.competitive.trees import minimax_strength

# Reproducible (the same examples every run, no example database written). The
# autouse MOOT_HOME fixture is function-scoped; these tests never touch the store.
PROPERTIES = settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)

Node = dict[str, Any]


def node(support: float | None = None, attack: float | None = None, *children: Node) -> Node:
    return {"support": support, "attack": attack, "children": list(children)}


# The worked example of docs/competitive.md: a pro claim, two con rebuttals, and two
# prepared pro answers to the first rebuttal.
A1 = node(3, 2)  # f0 = 2.5
A2 = node(1, 1)  # f0 = 1
A = node(None, 3, A1, A2)  # f0 = 3
B = node(None, 2)  # f0 = 2, unanswered
EXAMPLE = node(3, None, A, B)  # f0 = 3


@pytest.mark.parametrize(
    ("k", "expected"),
    [
        (0, 3.0),
        (1, 3 - 0.8 * 3),  # the opponent's best reply is A (f0 3)
        (2, 3 - 0.8 * 2),  # A is answered (f1(A) = 3 - 0.8 * 2.5 = 1), so B (2) is best
        (3, 3 - 0.8 * 2),  # f2(A) = 3 - 0.8 * max(f1(A1), f1(A2)) = 1; B is a leaf
        (10, 3 - 0.8 * 2),  # nothing below level 2: more steps change nothing
    ],
)
def test_worked_example(k: int, expected: float) -> None:
    assert minimax_strength(EXAMPLE, k) == pytest.approx(expected)


def test_the_rebuttal_strengths_of_the_worked_example() -> None:
    assert minimax_strength(A, 1) == pytest.approx(1.0)
    assert minimax_strength(A, 0) == pytest.approx(3.0)
    assert minimax_strength(B, 5) == pytest.approx(2.0)


def test_gamma_scales_the_reply() -> None:
    tree = node(3, None, node(None, 2))
    assert minimax_strength(tree, 1, gamma=0.5) == pytest.approx(2.0)
    assert minimax_strength(tree, 1, gamma=1.0) == pytest.approx(1.0)
    assert minimax_strength(tree, 1, gamma=0.0) == pytest.approx(3.0)


def test_a_node_without_ratings_scores_zero_and_keys_may_be_missing() -> None:
    assert minimax_strength({}, 0) == 0.0
    assert minimax_strength({"children": [{"attack": 2}]}, 1) == pytest.approx(-1.6)
    assert minimax_strength({"support": 2, "children": None}, 3) == 2.0


def test_other_keys_are_ignored() -> None:
    tree = {"claim": "Cars out", "support": 3, "attack": None, "children": [], "id": 7}
    assert minimax_strength(tree, 2) == 3.0


def test_integers_floats_and_shared_nodes_are_accepted() -> None:
    shared = node(2, 2)
    tree = node(3, None, node(None, 1, shared), node(None, 2, shared))
    # f1 of the rebuttals: 1 - 0.8*2 = -0.6 and 2 - 0.8*2 = 0.4
    assert minimax_strength(tree, 2) == pytest.approx(3 - 0.8 * 0.4)


def test_a_deep_chain_needs_no_recursion() -> None:
    depth = sys.getrecursionlimit() * 3
    tree: Node = node(2, 2)
    for _ in range(depth):
        tree = node(2, 2, tree)
    # f = 2 * (1 - g + g^2 - ...) for as many levels as there are
    expected = 2 * sum((-0.8) ** i for i in range(depth + 1))
    assert minimax_strength(tree, depth + 5) == pytest.approx(expected)


# -- bad input ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tree", "match"),
    [
        ([], r"root: a node must be a mapping, got list"),
        ({"support": "3"}, r"root: 'support' must be a number or None, got '3'"),
        ({"attack": True}, r"root: 'attack' must be a number or None, got True"),
        ({"support": math.nan}, r"root: 'support' must be finite, got nan"),
        (node(1, None, node(None, math.inf)), r"root.children\[0\]: 'attack' must be finite"),
        ({"children": "abc"}, r"root: 'children' must be a list of nodes"),
        ({"children": [1]}, r"root.children\[0\]: a node must be a mapping, got int"),
        # a bad node below the levels k reaches is refused too
        (node(1, None, node(None, 2, node(2, math.nan))), r"root.children\[0\].children\[0\]"),
    ],
)
def test_bad_trees_are_refused_with_the_node_named(tree: Any, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        minimax_strength(tree, 0)


def test_a_cycle_is_refused() -> None:
    loop = node(2, 2)
    loop["children"].append(loop)
    with pytest.raises(ValueError, match=r"root.children\[0\]: the tree has a cycle"):
        minimax_strength(loop, 1)
    inner = node(1, 1)
    outer = node(2, None, node(None, 2, inner))
    inner["children"].append(outer)
    with pytest.raises(ValueError, match="cycle"):
        minimax_strength(outer, 2)


@pytest.mark.parametrize("k", [-1, 1.0, True, "2", None])
def test_k_must_be_a_count(k: Any) -> None:
    with pytest.raises(ValueError, match="k must be an integer >= 0"):
        minimax_strength(EXAMPLE, k)


@pytest.mark.parametrize("gamma", [-0.1, 1.01, math.nan, math.inf, "0.8", False])
def test_gamma_must_be_a_discount(gamma: Any) -> None:
    with pytest.raises(ValueError, match="gamma must be"):
        minimax_strength(EXAMPLE, 1, gamma)


# -- properties ---------------------------------------------------------------------

RATINGS = st.one_of(st.none(), st.integers(1, 3), st.floats(1, 3))
STEPS = st.integers(0, 6)
GAMMAS = st.floats(0, 1)


def _grow(children: st.SearchStrategy[list[Node]]) -> st.SearchStrategy[Node]:
    return st.builds(lambda s, a, c: node(s, a, *c), RATINGS, RATINGS, children)


TREES = st.recursive(
    _grow(st.just([])), lambda kids: _grow(st.lists(kids, max_size=3)), max_leaves=15
)


def own_score(tree: Node) -> float:
    present = [tree[key] for key in ("support", "attack") if tree[key] is not None]
    return sum(present) / len(present) if present else 0.0


def reference(tree: Node, k: int, gamma: float) -> float:
    """The definition, written as plainly as it reads."""
    if k == 0 or not tree["children"]:
        return own_score(tree)
    return own_score(tree) - gamma * max(reference(c, k - 1, gamma) for c in tree["children"])


def nodes_at(tree: Node, depth: int) -> list[Node]:
    level = [tree]
    for _ in range(depth):
        level = [child for n in level for child in n["children"]]
    return level


def max_abs_rating(tree: Node) -> float:
    found = [abs(tree[key]) for key in ("support", "attack") if tree[key] is not None]
    return max([*found, *(max_abs_rating(child) for child in tree["children"])], default=0.0)


@PROPERTIES
@given(TREES, STEPS, GAMMAS)
def test_matches_the_definition(tree: Node, k: int, gamma: float) -> None:
    assert minimax_strength(tree, k, gamma) == pytest.approx(reference(tree, k, gamma))


@PROPERTIES
@given(TREES, GAMMAS)
def test_zero_steps_is_the_own_score(tree: Node, gamma: float) -> None:
    assert minimax_strength(tree, 0, gamma) == pytest.approx(own_score(tree))


@PROPERTIES
@given(TREES, STEPS)
def test_no_discount_is_the_own_score(tree: Node, k: int) -> None:
    assert minimax_strength(tree, k, 0.0) == pytest.approx(own_score(tree))


@PROPERTIES
@given(RATINGS, RATINGS, STEPS, GAMMAS)
def test_a_leaf_keeps_its_own_score(
    support: float | None, attack: float | None, k: int, gamma: float
) -> None:
    leaf = node(support, attack)
    assert minimax_strength(leaf, k, gamma) == pytest.approx(own_score(leaf))


@PROPERTIES
@given(TREES, STEPS, GAMMAS)
def test_bounded_by_the_ratings(tree: Node, k: int, gamma: float) -> None:
    """|f_k| <= R (1 + g + ... + g^k), R the largest rating: each step adds one term."""
    bound = max_abs_rating(tree) * sum(gamma**i for i in range(k + 1))
    assert abs(minimax_strength(tree, k, gamma)) <= bound + 1e-9


@PROPERTIES
@given(TREES, GAMMAS)
def test_one_step_never_exceeds_the_own_score_with_positive_ratings(
    tree: Node, gamma: float
) -> None:
    assert minimax_strength(tree, 1, gamma) <= own_score(tree) + 1e-9


@PROPERTIES
@given(TREES, st.integers(1, 6), GAMMAS, st.floats(0.01, 2), st.randoms(use_true_random=False))
def test_raising_the_best_rebuttal_lowers_its_parent_by_gamma_times_the_rise(
    tree: Node, k: int, gamma: float, rise: float, rng: Any
) -> None:
    assume(tree["children"])
    strengths = [minimax_strength(c, k - 1, gamma) for c in tree["children"]]
    best = max(range(len(strengths)), key=strengths.__getitem__)
    assume(all(s < strengths[best] for i, s in enumerate(strengths) if i != best))
    child = tree["children"][best]
    present = [key for key in ("support", "attack") if child[key] is not None]
    assume(present)
    before = minimax_strength(tree, k, gamma)
    child[rng.choice(present)] += rise
    after = minimax_strength(tree, k, gamma)
    assert after <= before + 1e-9
    assert after == pytest.approx(before - gamma * rise / len(present), abs=1e-9)


@PROPERTIES
@given(
    TREES, STEPS, GAMMAS, st.integers(0, 6), st.floats(0.01, 2), st.randoms(use_true_random=False)
)
def test_raising_a_rating_moves_the_root_with_the_parity_of_its_level(
    tree: Node, k: int, gamma: float, depth: int, rise: float, rng: Any
) -> None:
    """Raising a rating at an even level (the root's side) never lowers the root's
    strength; at an odd level (the other side) it never raises it; below level k it
    changes nothing."""
    ratings = [(n, key) for n in nodes_at(tree, depth) for key in ("support", "attack") if n[key]]
    assume(ratings)
    before = minimax_strength(tree, k, gamma)
    target, key = rng.choice(ratings)
    target[key] += rise
    after = minimax_strength(tree, k, gamma)
    if depth > k:
        assert after == pytest.approx(before)
    elif depth % 2 == 0:
        assert after >= before - 1e-9
    else:
        assert after <= before + 1e-9


@PROPERTIES
@given(TREES, STEPS, GAMMAS, st.randoms(use_true_random=False))
def test_the_order_of_rebuttals_does_not_matter(tree: Node, k: int, gamma: float, rng: Any) -> None:
    shuffled = copy.deepcopy(tree)
    pending = [shuffled]
    while pending:
        current = pending.pop()
        rng.shuffle(current["children"])
        pending.extend(current["children"])
    assert minimax_strength(shuffled, k, gamma) == pytest.approx(minimax_strength(tree, k, gamma))


@PROPERTIES
@given(TREES, STEPS, GAMMAS)
def test_levels_below_k_do_not_count(tree: Node, k: int, gamma: float) -> None:
    pruned = copy.deepcopy(tree)
    for leaf in nodes_at(pruned, k):
        leaf["children"] = []
    assert minimax_strength(pruned, k, gamma) == pytest.approx(minimax_strength(tree, k, gamma))


@PROPERTIES
@given(st.floats(-3, 3), GAMMAS, st.integers(0, 30), st.integers(0, 40))
def test_a_chain_of_equal_scores_has_an_alternating_sum(
    score: float, gamma: float, length: int, k: int
) -> None:
    chain = node(score, score)
    for _ in range(length):
        chain = node(score, score, chain)
    expected = score * sum((-gamma) ** i for i in range(min(k, length) + 1))
    assert minimax_strength(chain, k, gamma) == pytest.approx(expected, abs=1e-9)
