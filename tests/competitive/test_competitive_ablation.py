"""The ablation switches change what they claim: without the rehearsal tree a debater
prepares nothing (no calls) and sees no prepared material; without the flow tree its
prompt has the speeches and the claims' ids instead of the tree and its legal moves,
while its schema still offers exactly the legal moves (a grammar-constrained model
cannot make another, and a reply naming another is refused); the baseline side has
neither, the other side both; and in the swap rerun the
configurations follow the debaters."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from competitive_checks import SMALL, Recorder, check_competitive
from moot.debate import run_debate
from moot.formats.competitive.options import FIELDS
from moot.formats.competitive.rehearsal import ClaimsCall, ExpandCall
from moot.formats.competitive.replies import move_label
from moot.formats.competitive.speeches import WriteCall
from moot.formats.competitive.trees import ACTIONS, Move
from moot.formats.fields import flag_options
from moot.llm.scripted import DemoBackend

TOPIC = "Should cities ban cars from their centres?"
FLOW_HEADER = "The debate flow tree so far"
LEGAL_MOVES = "Moves you may make now:"
FLAT_IDS = "Claims made so far, by id:"
PREPARED = "Prepared in your rehearsal"


def offered_moves(recorder: Recorder, side: str) -> list[tuple[WriteCall, list[str]]]:
    """Each writer call of ``side`` and the moves its schema offers."""
    offered = []
    for call in recorder.calls:
        data = call.context.data
        if isinstance(data, WriteCall) and data.side == side:
            assert call.schema is not None
            move = call.schema.json_schema["properties"]["moves"]["items"]["properties"]["move"]
            offered.append((data, list(move["enum"])))
    return offered


def legal_labels(data: WriteCall) -> list[str]:
    """Every move label the flow tree accepts from this writer now, found by trying
    each action on every node (and on none) as a one-move speech, sorted."""
    targets = [None, *(n.id for n in data.flow.nodes)]
    return sorted(
        move_label(action, target)
        for action in ACTIONS
        for target in targets
        if not data.flow.check(
            data.side, data.stage, [Move(action=action, claim="A claim.", target=target)]
        )
    )


def writer_prompts(recorder: Recorder, side: str) -> list[str]:
    return [
        call.prompt
        for call in recorder.calls
        if isinstance(call.context.data, WriteCall) and call.context.data.side == side
    ]


def rehearsal_calls(recorder: Recorder) -> int:
    return sum(isinstance(call.context.data, ClaimsCall | ExpandCall) for call in recorder.calls)


def debate(**options: object) -> tuple[Recorder, dict[str, Any]]:
    recorder = Recorder(DemoBackend(seed=4))
    result = run_debate(
        TOPIC, model=recorder, seed=4, format="competitive", format_options={**SMALL, **options}
    )
    body = check_competitive(result)
    return recorder, body


def test_full_debaters_see_the_flow_tree_and_prepared_material() -> None:
    recorder, body = debate()
    assert rehearsal_calls(recorder) == 2 + 4  # claims for each side, one level of 2 each
    for side in ("pro", "con"):
        prompts = writer_prompts(recorder, side)
        assert len(prompts) == 3
        assert all(FLOW_HEADER in p and LEGAL_MOVES in p for p in prompts)
        assert not any(FLAT_IDS in p for p in prompts)
        assert all(PREPARED in p for p in prompts)
        # the schema offers exactly the moves the flow tree allows
        for data, moves in offered_moves(recorder, side):
            assert moves == [move_label(c.action, c.target) for c in data.candidates]
            assert sorted(moves) == legal_labels(data)
    assert body["sides"] == {
        side: {"config": "full", "rehearsal_tree": True, "flow_tree": True}
        for side in ("pro", "con")
    }


def test_no_rehearsal_tree_means_no_preparation_at_all() -> None:
    recorder, body = debate(**flag_options(FIELDS, {"no_rehearsal_tree": True}))
    assert rehearsal_calls(recorder) == 0
    assert body["rehearsal"] == []
    assert all(s["prepared"] == [] for s in body["speeches"])
    for side in ("pro", "con"):
        assert not any(PREPARED in p for p in writer_prompts(recorder, side))
        assert all(FLOW_HEADER in p for p in writer_prompts(recorder, side))


def test_no_flow_tree_shows_the_speeches_and_ids_instead() -> None:
    recorder, _ = debate(**flag_options(FIELDS, {"no_flow_tree": True}))
    for side in ("pro", "con"):
        prompts = writer_prompts(recorder, side)
        assert not any(FLOW_HEADER in p or LEGAL_MOVES in p for p in prompts)
        later = prompts[1:] if side == "pro" else prompts
        assert all(FLAT_IDS in p for p in later)
        assert all("The speeches so far:" in p for p in later)
        assert all(PREPARED in p for p in prompts)
        # not shown the legal moves, but held to them: the schema lists exactly them
        for data, moves in offered_moves(recorder, side):
            assert moves == [move_label(c.action, c.target) for c in data.candidates]
            assert sorted(moves) == legal_labels(data)


def test_the_baseline_side_has_neither_tree_and_the_other_both() -> None:
    recorder, body = debate(**flag_options(FIELDS, {"baseline": "con"}))
    assert body["sides"] == {
        "pro": {"config": "full", "rehearsal_tree": True, "flow_tree": True},
        "con": {"config": "baseline", "rehearsal_tree": False, "flow_tree": False},
    }
    (record,) = body["rehearsal"]
    assert record["sides"] == ["pro"]
    pro, con = writer_prompts(recorder, "pro"), writer_prompts(recorder, "con")
    assert all(FLOW_HEADER in p and PREPARED in p for p in pro)
    assert not any(FLOW_HEADER in p or PREPARED in p for p in con)
    for side in ("pro", "con"):
        for data, moves in offered_moves(recorder, side):
            assert sorted(moves) == legal_labels(data)
    assert [r["configs"] for r in body["head_to_head"]] == [{"pro": "full", "con": "baseline"}] * 3


def test_in_the_swap_rerun_the_configurations_follow_the_debaters() -> None:
    recorder = Recorder(DemoBackend(seed=4))
    result = run_debate(
        TOPIC,
        model=recorder,
        seed=4,
        format="competitive",
        format_options={**SMALL, **flag_options(FIELDS, {"baseline": "con"})},
        swap_sides=True,
    )
    assert result.swap is not None
    first_half = [c for c in recorder.calls if isinstance(c.context.data, WriteCall)]
    # six speeches in the debate, six in the rerun; in the rerun pro is the baseline
    assert len(first_half) == 12
    rerun = writer_prompts(recorder, "pro")[3:]
    assert rerun
    assert not any(FLOW_HEADER in p or PREPARED in p for p in rerun)


@pytest.mark.parametrize("config", [{"no_flow_tree": True}, {"baseline": "con"}])
def test_a_reply_naming_an_illegal_target_is_refused_without_the_flow_tree(
    config: dict[str, Any],
) -> None:
    """Con's rebuttal, written without the flow tree: a plan that targets a node that
    does not exist, or its own node with an attack, does not match the schema (a
    grammar-constrained decoder cannot write it) and the flow tree refuses it; the
    same plan with a legal move matches."""
    recorder, _ = debate(**flag_options(FIELDS, config))
    data, moves = next((d, m) for d, m in offered_moves(recorder, "con") if d.stage == "rebuttal")
    (call,) = [
        c
        for c in recorder.calls
        if isinstance(c.context.data, WriteCall) and c.context.data is data
    ]
    assert call.schema is not None
    schema = call.schema.json_schema
    own = next(n.id for n in data.flow.nodes if n.side == "con")
    missing = f"PRO-{len(data.flow.nodes) + 1}"

    def reply(label: str) -> dict[str, Any]:
        move = {"move": label, "claim": "Cars are not the problem.", "argument": "Buses."}
        return {"moves": [move], "speech": ["Cars are not the problem here at all."]}

    jsonschema.validate(reply(moves[0]), schema)
    for illegal in (f"attack {missing}", f"attack {own}"):
        assert illegal not in moves
        with pytest.raises(jsonschema.ValidationError, match="is not one of"):
            jsonschema.validate(reply(illegal), schema)
        action, target = illegal.split()
        move = Move(action=action, claim="Cars are not the problem.", target=target)  # type: ignore[arg-type]
        assert [p.code for p in data.flow.check("con", "rebuttal", [move])] == [
            "illegal.unknown_target" if target == missing else "illegal.attack_own"
        ]
