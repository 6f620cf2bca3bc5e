"""The debate flow tree: how moves update it, which moves are legal, and the reasons
given for the illegal ones."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moot.formats.competitive.trees import (
    SPEAKING_ORDER,
    Candidate,
    FlowTree,
    IllegalMovesError,
    Move,
)
from moot.formats.competitive.trees.messages import CATALOG


def propose(claim: str, argument: str = "") -> Move:
    return Move(action="propose", claim=claim, argument=argument)


def attack(target: str, claim: str = "That is wrong.", argument: str = "") -> Move:
    return Move(action="attack", claim=claim, argument=argument, target=target)


def rebut(target: str, claim: str = "No, it holds.") -> Move:
    return Move(action="rebut", claim=claim, target=target)


def reinforce(target: str, argument: str = "More evidence.") -> Move:
    return Move(action="reinforce", claim="restated", argument=argument, target=target)


def after_openings(rule: str = "leaf") -> FlowTree:
    """Pro proposes two claims; con proposes one and attacks both of pro's."""
    tree = FlowTree(lang="en", rebut_rule=rule)  # type: ignore[arg-type]
    tree.apply("pro", "opening", [propose("Cars kill.", "Road deaths."), propose("Air is foul.")])
    tree.apply(
        "con",
        "opening",
        [propose("Shops die."), attack("PRO-1", "Deaths move."), attack("PRO-2", "Filters work.")],
    )
    return tree


def test_moves_build_the_tree() -> None:
    tree = after_openings()
    assert [(n.id, n.side, n.parent, n.status, n.visits, n.speech) for n in tree.nodes] == [
        ("PRO-1", "pro", None, "attacked", 2, 0),
        ("PRO-2", "pro", None, "attacked", 2, 0),
        ("CON-1", "con", None, "proposed", 1, 1),
        ("CON-2", "con", "PRO-1", "proposed", 1, 1),
        ("CON-3", "con", "PRO-2", "proposed", 1, 1),
    ]
    assert tree.node("PRO-1").arguments == ["Road deaths."]
    assert tree.node("PRO-2").arguments == []
    assert tree.speeches == 2


def test_a_rebuttal_speech() -> None:
    tree = after_openings()
    touched = tree.apply(
        "pro",
        "rebuttal",
        [rebut("CON-2", "Trips vanish."), attack("CON-1"), reinforce("PRO-2", "Asthma fell.")],
    )
    assert touched == ["PRO-3", "PRO-4", "PRO-2"]
    assert tree.node("PRO-3").parent == "CON-2"
    assert tree.node("CON-2").status == "attacked"
    assert tree.node("CON-1").status == "attacked"
    assert tree.node("PRO-2").arguments == ["Asthma fell."]
    assert tree.node("PRO-2").visits == 3  # made, attacked, reinforced
    assert tree.node("PRO-4").speech == 2


def test_a_reinforcement_without_argument_keeps_its_claim() -> None:
    tree = after_openings()
    tree.apply("pro", "closing", [Move(action="reinforce", claim="Cars kill.", target="PRO-1")])
    assert tree.node("PRO-1").arguments == ["Road deaths.", "Cars kill."]


def test_a_speech_may_reinforce_what_it_just_proposed() -> None:
    tree = FlowTree(lang="en")
    assert tree.apply("pro", "opening", [propose("A."), reinforce("PRO-1")]) == ["PRO-1", "PRO-1"]


def test_candidates_are_the_legal_moves() -> None:
    tree = after_openings()
    assert tree.candidates("pro", "rebuttal") == [
        Candidate("attack", "CON-1"),
        Candidate("rebut", "CON-2"),
        Candidate("rebut", "CON-3"),
        Candidate("reinforce", "PRO-1"),
        Candidate("reinforce", "PRO-2"),
    ]
    assert tree.candidates("con", "opening")[:2] == [
        Candidate("propose", None),
        Candidate("attack", "PRO-1"),
    ]
    # every candidate is accepted, one at a time
    for side, stage in (("pro", "rebuttal"), ("con", "opening"), ("con", "closing")):
        for candidate in tree.candidates(side, stage):  # type: ignore[arg-type]
            move = Move(action=candidate.action, claim="x", target=candidate.target)
            assert tree.check(side, stage, [move]) == [], candidate  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("side", "stage", "move", "code", "reason"),
    [
        (
            "pro",
            "rebuttal",
            propose("New."),
            "illegal.propose_stage",
            "`propose` is allowed only in the opening, not in the rebuttal",
        ),
        (
            "pro",
            "opening",
            Move(action="propose", claim="A", target="CON-1"),
            "illegal.propose_target",
            "remove the target CON-1",
        ),
        (
            "pro",
            "rebuttal",
            Move(action="attack", claim="A"),
            "illegal.no_target",
            "`attack` needs a target",
        ),
        (
            "pro",
            "rebuttal",
            attack("CON-9"),
            "illegal.unknown_target",
            "CON-9, which is not in the flow tree;"
            " use one of its ids: PRO-1, PRO-2, CON-1, CON-2, CON-3",
        ),
        ("pro", "rebuttal", attack("PRO-1"), "illegal.attack_own", "PRO-1 is yours"),
        (
            "pro",
            "rebuttal",
            attack("CON-2"),
            "illegal.attack_on_you",
            "CON-2 is the other side's attack on your claim",
        ),
        ("pro", "rebuttal", rebut("PRO-2"), "illegal.rebut_own", "PRO-2 is yours"),
        ("pro", "rebuttal", rebut("CON-1"), "illegal.rebut_not_attack", "use `attack` instead"),
        ("con", "rebuttal", rebut("CON-2"), "illegal.rebut_own", "CON-2 is yours"),
        ("con", "rebuttal", rebut("PRO-1"), "illegal.rebut_not_attack", "use `attack` instead"),
        (
            "con",
            "rebuttal",
            reinforce("PRO-1"),
            "illegal.reinforce_other",
            "PRO-1 is the other side's",
        ),
        (
            "con",
            "rebuttal",
            Move(action="reinforce", claim=" ", target="CON-1"),
            "illegal.empty_claim",
            "`reinforce` needs a claim",
        ),
    ],
)
def test_illegal_moves_get_a_reason(
    side: str, stage: str, move: Move, code: str, reason: str
) -> None:
    tree = after_openings()
    (problem,) = tree.check(side, stage, [move])  # type: ignore[arg-type]
    assert problem.code == code
    assert reason in problem.reason
    assert problem.index == 0


def test_only_the_newest_attack_in_a_line_can_be_rebutted() -> None:
    tree = after_openings()
    tree.apply("pro", "rebuttal", [rebut("CON-2")])
    # PRO-3 is in pro's line: con answers it with an attack, CON-4
    tree.apply("con", "rebuttal", [attack("PRO-3", "Still moves.")])
    (problem,) = tree.check("pro", "closing", [rebut("CON-2")])
    assert problem.code == "illegal.rebut_not_newest"
    assert problem.reason.startswith(
        "`rebut` may answer only the other side's newest attack on you (CON-3, CON-4); CON-2"
    )
    assert tree.check("pro", "closing", [rebut("CON-4"), rebut("CON-3")]) == []


def test_a_speech_may_answer_one_attack_twice_but_a_later_speech_may_not() -> None:
    tree = after_openings()
    twice = [rebut("CON-2", "Trips vanish."), rebut("CON-2", "Deaths fall too.")]
    assert tree.apply("pro", "rebuttal", twice) == ["PRO-3", "PRO-4"]
    assert tree.node("PRO-4").parent == "CON-2"
    (problem,) = tree.check("pro", "closing", [rebut("CON-2")])
    assert problem.code == "illegal.rebut_not_newest"


@settings(max_examples=150, deadline=None)
@given(data=st.data(), rule=st.sampled_from(["leaf", "latest"]))
def test_every_sequence_of_offered_moves_is_legal(data: st.DataObject, rule: str) -> None:
    """What ``candidates`` offers at the start of a speech stays legal for the whole
    speech, in any order and any number of times: the writer's schema enumerates the
    candidates, so a constrained decoder must not be able to write an illegal speech."""
    tree = FlowTree(lang="en", rebut_rule=rule)  # type: ignore[arg-type]
    for stage, side in SPEAKING_ORDER:
        offered = tree.candidates(side, stage)
        picks = data.draw(st.lists(st.sampled_from(offered), max_size=6)) if offered else []
        moves = [
            Move(action=c.action, claim=f"claim {n}", target=c.target) for n, c in enumerate(picks)
        ]
        assert tree.check(side, stage, moves) == []
        tree.apply(side, stage, moves)


def test_the_latest_rule_allows_only_the_single_newest_attack() -> None:
    tree = after_openings("latest")
    assert [c.target for c in tree.candidates("pro", "rebuttal") if c.action == "rebut"] == [
        "CON-3"
    ]
    (problem,) = tree.check("pro", "rebuttal", [rebut("CON-2")])
    assert "(CON-3)" in problem.reason
    assert tree.check("pro", "rebuttal", [rebut("CON-3")]) == []


def test_an_illegal_speech_changes_nothing() -> None:
    tree = after_openings()
    before = tree.model_dump()
    with pytest.raises(IllegalMovesError) as caught:
        tree.apply("pro", "rebuttal", [reinforce("PRO-1"), propose("Late."), attack("PRO-2")])
    assert [p.index for p in caught.value.problems] == [1, 2]
    assert str(caught.value).startswith("move 2: `propose` is allowed only in the opening")
    assert tree.model_dump() == before


def test_check_changes_nothing() -> None:
    tree = after_openings()
    before = tree.model_dump()
    assert tree.check("pro", "rebuttal", [reinforce("PRO-1"), attack("CON-1")]) == []
    assert tree.model_dump() == before


def test_reasons_in_chinese() -> None:
    tree = FlowTree(lang="zh")
    (problem,) = tree.check("pro", "closing", [propose("新主张")])
    assert problem.reason.startswith("`propose`（提出新主张）只能在开篇阶段使用，现在是结辩阶段")
    (problem,) = tree.check("pro", "closing", [attack("CON-1")])
    assert (
        problem.reason == "`attack` 的目标 CON-1 不在辩论流程树中；请使用其中的编号：（尚无主张）。"
    )


def test_both_languages_have_every_message() -> None:
    assert CATALOG["en"].keys() == CATALOG["zh"].keys()


def test_an_unknown_side_is_an_error() -> None:
    with pytest.raises(ValueError, match="side must be one of pro, con"):
        FlowTree(lang="en").check("judge", "opening", [propose("A")])  # type: ignore[arg-type]


def test_render() -> None:
    tree = after_openings()
    assert tree.render() == "\n".join(
        [
            "PRO-1 [Pro, attacked, visits 2] Cars kill.",
            "  CON-2 [Con, proposed, visits 1] Deaths move.",
            "PRO-2 [Pro, attacked, visits 2] Air is foul.",
            "  CON-3 [Con, proposed, visits 1] Filters work.",
            "CON-1 [Con, proposed, visits 1] Shops die.",
        ]
    )
    assert tree.render(arguments=True).splitlines()[1] == "    · Road deaths."
    assert FlowTree(lang="zh").render() == "（尚无主张）"


def test_the_tree_survives_json() -> None:
    tree = after_openings()
    again = FlowTree.model_validate_json(tree.model_dump_json())
    assert again.candidates("pro", "rebuttal") == tree.candidates("pro", "rebuttal")
    again.apply("pro", "rebuttal", [rebut("CON-2")])
    assert again.node("PRO-3").parent == "CON-2"
