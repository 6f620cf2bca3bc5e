"""The rehearsal tree: its shape rules, JSON form, rendering, growth in waves and the
k of each speech."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence

import pytest
from pydantic import ValidationError

from moot.formats.competitive.trees import (
    Located,
    RehearsalClaim,
    RehearsalNode,
    RehearsalTree,
    grow,
    minimax_strength,
    strength_steps,
)
from moot.formats.competitive.trees.sides import Side


def example_tree(lang: str = "en") -> RehearsalTree:
    """The worked example of docs/competitive.md, plus one con claim."""
    return RehearsalTree.model_validate(
        {
            "motion": "Cities should ban cars from their centres",
            "lang": lang,
            "branching": 2,
            "depth": 2,
            "claims": [
                {
                    "side": "pro",
                    "root": {
                        "claim": "A car-free centre saves lives.",
                        "support": 3,
                        "children": [
                            {
                                "claim": "Traffic deaths just move to the ring roads.",
                                "attack": 3,
                                "children": [
                                    {
                                        "claim": "Fewer trips are made at all.",
                                        "attack": 2,
                                        "support": 3,
                                    },
                                    {"claim": "Ring roads are safer.", "attack": 1, "support": 1},
                                ],
                            },
                            {"claim": "Ambulances get slower.", "attack": 2},
                        ],
                    },
                },
                {
                    "side": "con",
                    "root": {"claim": "Shops lose their customers.", "support": 2},
                },
            ],
        }
    )


def test_a_json_document_becomes_the_tree_it_describes() -> None:
    tree = example_tree()
    pro, con = tree.claims
    assert (pro.side, con.side) == ("pro", "con")
    assert [c.claim for c in pro.root.children] == [
        "Traffic deaths just move to the ring roads.",
        "Ambulances get slower.",
    ]
    assert pro.root.children[0].children[0].support == 3.0
    assert con.root.children == []


def test_json_round_trip_keeps_every_node_and_strength() -> None:
    tree = example_tree()
    again = RehearsalTree.from_json(tree.to_json())
    assert again == tree
    assert json.loads(tree.to_json())["claims"][0]["root"]["children"][0]["attack"] == 3.0
    assert again.claims[0].root.strength(2) == pytest.approx(1.4)


def test_node_strength_is_the_minimax_strength_of_its_mapping() -> None:
    root = example_tree().claims[0].root
    for k in range(4):
        assert root.strength(k) == minimax_strength(root.model_dump(), k)
    assert [round(root.strength(k), 6) for k in range(4)] == [3.0, 0.6, 1.4, 1.4]


def test_walk_gives_each_node_its_level_and_side() -> None:
    found = [(n.claim, n.path, n.owner) for n in example_tree().walk()]
    assert found == [
        (0, (), "pro"),
        (0, (0,), "con"),
        (0, (0, 0), "pro"),
        (0, (0, 1), "pro"),
        (0, (1,), "con"),
        (1, (), "con"),
    ]


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (lambda d: d["claims"][0]["root"].update(attack=2), r"claims\[0\] \(level 0\) must not"),
        (lambda d: d["claims"][0]["root"].update(support=None), r"claims\[0\] \(level 0\) needs"),
        (
            lambda d: d["claims"][0]["root"]["children"][1].update(support=2),
            r"claims\[0\].children\[1\] \(level 1\) must not have a support",
        ),
        (
            lambda d: d["claims"][0]["root"]["children"][0]["children"][0].update(support=None),
            r"children\[0\].children\[0\] \(level 2\) needs a support",
        ),
        (lambda d: d["claims"][1]["root"].update(support=4), "less than or equal to 3"),
        (lambda d: d["claims"][1]["root"].update(support=0.5), "greater than or equal to 1"),
        (lambda d: d["claims"][1]["root"].update(claim=""), "at least 1 character"),
        (lambda d: d["claims"][1].update(side="maybe"), "'pro' or 'con'"),
        (lambda d: d.update(branching=1), r"claims\[0\] has 2 rebuttals; branching allows 1"),
        (lambda d: d.update(depth=1), r"claims\[0\].children\[0\] is at level 1, the tree's depth"),
        (lambda d: d["claims"][1]["root"].update(extra=1), "Extra inputs are not permitted"),
    ],
)
def test_bad_trees_are_refused(change: object, match: str) -> None:
    document = json.loads(example_tree().to_json())
    change(document)  # type: ignore[operator]
    with pytest.raises(ValidationError, match=match):
        RehearsalTree.from_json(json.dumps(document))


def test_render_without_strengths() -> None:
    assert example_tree().render() == "\n".join(
        [
            "Pro 1: A car-free centre saves lives. (support 3)",
            "  - Con: Traffic deaths just move to the ring roads. (attack 3)",
            "    - Pro: Fewer trips are made at all. (attack 2, support 3)",
            "    - Pro: Ring roads are safer. (attack 1, support 1)",
            "  - Con: Ambulances get slower. (attack 2)",
            "Con 1: Shops lose their customers. (support 2)",
        ]
    )


def test_render_with_strengths_counts_down_the_steps() -> None:
    lines = example_tree("zh").render(k=2).splitlines()
    assert lines[0] == "正方 1: A car-free centre saves lives. (支持 3; f2 = 1.40)"
    assert lines[1] == "  - 反方: Traffic deaths just move to the ring roads. (攻击 3; f1 = 1.00)"
    assert lines[2] == "    - 正方: Fewer trips are made at all. (攻击 2, 支持 3; f0 = 2.50)"
    assert lines[5] == "反方 1: Shops lose their customers. (支持 2; f2 = 2.00)"


@pytest.mark.parametrize(
    ("stage", "side", "k"),
    [
        ("opening", "pro", 3),
        ("opening", "con", 2),
        ("rebuttal", "pro", 1),
        ("rebuttal", "con", 0),
        ("closing", "pro", 0),
        ("closing", "con", 0),
    ],
)
def test_strength_steps_follow_the_exchanges_left(stage: str, side: str, k: int) -> None:
    assert strength_steps(stage, side) == k  # type: ignore[arg-type]


def test_strength_steps_of_an_unknown_speech() -> None:
    with pytest.raises(ValueError, match="no speech 'summary' by 'pro'"):
        strength_steps("summary", "pro")  # type: ignore[arg-type]


# -- growth ---------------------------------------------------------------------------


class Writer:
    """A deterministic expand: names each rebuttal after its line and records the
    calls of each wave and how many ran at once."""

    def __init__(self, branching: int) -> None:
        self.branching = branching
        self.calls: list[tuple[str, Side]] = []
        self.in_flight = 0
        self.peak: list[int] = []

    async def __call__(self, line: Sequence[RehearsalNode], side: Side) -> list[RehearsalNode]:
        self.calls.append((line[-1].claim, side))
        self.in_flight += 1
        self.peak.append(self.in_flight)
        await asyncio.sleep(0)  # let the rest of the wave start
        self.in_flight -= 1
        level = len(line)
        return [
            RehearsalNode(
                claim=f"{side} answers {line[-1].claim} #{i}",
                attack=1 + (i % 3),
                support=None if level == 1 else 3 - (i % 3),
            )
            for i in range(self.branching)
        ]


def seeds() -> list[RehearsalClaim]:
    return [
        RehearsalClaim(side="pro", root=RehearsalNode(claim="P", support=3)),
        RehearsalClaim(side="con", root=RehearsalNode(claim="C", support=2)),
    ]


def test_grow_expands_level_by_level_in_concurrent_waves() -> None:
    writer = Writer(branching=2)
    tree = asyncio.run(grow("motion", "en", seeds(), writer, depth=3, branching=2))
    # 2 claims, then 4, then 8 nodes expanded: 14 calls in 3 waves
    assert len(writer.calls) == 2 + 4 + 8
    assert max(writer.peak) == 8
    assert writer.calls[:2] == [("P", "con"), ("C", "pro")]
    levels: dict[int, list[Located]] = {}
    for located in tree.walk():
        levels.setdefault(located.level, []).append(located)
    assert [len(levels[level]) for level in range(4)] == [2, 4, 8, 16]
    # the side that answered is the side that owns the new node
    for located in tree.walk():
        if located.level:
            assert located.node.claim.startswith(f"{located.owner} answers")
    assert (tree.depth, tree.branching) == (3, 2)


def test_grow_leaves_the_seeds_alone() -> None:
    claims = seeds()
    asyncio.run(grow("motion", "en", claims, Writer(1), depth=2, branching=1))
    assert claims[0].root.children == []


def test_grow_to_depth_zero_keeps_the_claims() -> None:
    writer = Writer(3)
    tree = asyncio.run(grow("motion", "en", seeds(), writer, depth=0))
    assert writer.calls == []
    assert [c.root.claim for c in tree.claims] == ["P", "C"]


def test_grow_refuses_too_many_rebuttals() -> None:
    with pytest.raises(ValueError, match=r"claims\[0\]: 3 rebuttals, branching is 2"):
        asyncio.run(grow("motion", "en", seeds(), Writer(3), depth=1, branching=2))


def test_grow_refuses_rebuttals_with_the_wrong_ratings() -> None:
    async def supports_at_level_one(
        line: Sequence[RehearsalNode], side: Side
    ) -> list[RehearsalNode]:
        return [RehearsalNode(claim="x", attack=2, support=2)]

    with pytest.raises(ValueError, match=r"claims\[0\].children\[0\] \(level 1\) must not"):
        asyncio.run(grow("motion", "en", seeds(), supports_at_level_one, depth=1))


def test_grow_refuses_rebuttals_that_bring_children() -> None:
    async def with_children(line: Sequence[RehearsalNode], side: Side) -> list[RehearsalNode]:
        child = RehearsalNode(claim="y", attack=1, support=1)
        return [RehearsalNode(claim="x", attack=2, children=[child])]

    with pytest.raises(ValueError, match="must not have children yet"):
        asyncio.run(grow("motion", "en", seeds(), with_children, depth=2))
