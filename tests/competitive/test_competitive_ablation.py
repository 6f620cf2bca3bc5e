"""The ablation switches change what they claim: without the rehearsal tree a debater
prepares nothing (no calls) and sees no prepared material; without the flow tree its
prompt has the speeches and the claims' ids instead of the tree and its legal moves,
and its schema offers every well-formed move instead of the legal ones;
the baseline side has neither, the other side both; and in the swap rerun the
configurations follow the debaters."""

from __future__ import annotations

from typing import Any

from competitive_checks import SMALL, Recorder, check_competitive
from moot.debate import run_debate
from moot.formats.competitive.options import FIELDS
from moot.formats.competitive.rehearsal import ClaimsCall, ExpandCall
from moot.formats.competitive.replies import move_label, well_formed_moves
from moot.formats.competitive.speeches import WriteCall
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
            if data.flow.nodes:  # before the first speech, proposing is all there is
                assert len(moves) < len(well_formed_moves(data.stage, False))
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
        for data, moves in offered_moves(recorder, side):
            assert moves == list(well_formed_moves(data.stage, not data.flow.nodes))


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
    assert all(len(moves) < 20 for _, moves in offered_moves(recorder, "pro"))
    assert all(len(moves) >= 120 for _, moves in offered_moves(recorder, "con"))
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
