"""Illegal moves are re-asked with the flow tree's reason and never accepted; the
options are checked before a run; the rehearsal tree is cached per topic and model
and the audience is primed with the most similar earlier debate."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from competitive_checks import SMALL, check_competitive, demo_except
from moot.debate import run_debate
from moot.errors import ConfigError, ModelOutputError
from moot.formats.competitive.options import FIELDS, stage_seconds
from moot.formats.competitive.speeches import WriteCall
from moot.formats.fields import flag_options
from moot.llm.scripted import ScriptedBackend, ScriptReply
from moot.llm.types import CallContext
from moot.store import Store

TOPIC = "Should cities ban cars from their centres?"
ILLEGAL = {
    "moves": [
        {
            "move": "propose -",
            "claim": "A brand new claim made in the rebuttal.",
            "argument": "",
        }
    ],
    "speech": ["A brand new claim made in the rebuttal, which the rules forbid."],
}


def illegal_for(stage: str, side: str, times: int) -> tuple[ScriptedBackend, list[CallContext]]:
    """The demo, except that the writer of one speech proposes a new claim (illegal
    outside the opening) on its first ``times`` attempts."""
    seen: list[CallContext] = []

    def answer(context: CallContext) -> ScriptReply | None:
        data = context.data
        if isinstance(data, WriteCall) and (data.stage, data.side) == (stage, side):
            seen.append(context)
            if len(seen) <= times:
                return ILLEGAL
        return None

    return demo_except(6, "scripted:illegal", answer), seen


def test_an_illegal_plan_is_asked_again_with_the_reason() -> None:
    backend, seen = illegal_for("rebuttal", "con", times=1)
    result = run_debate(TOPIC, model=backend, seed=6, format="competitive", format_options=SMALL)
    body = check_competitive(result)  # replays every accepted move through the flow tree
    speech = next(s for s in body["speeches"] if s["id"] == "CON-REBUTTAL")
    assert [p["codes"] for p in speech["refused_plans"]] == [["illegal.propose_stage"]]
    assert "only in the opening" in speech["refused_plans"][0]["problems"][0]
    assert all(m["action"] != "propose" for m in speech["actions"])
    assert len(seen) == 2
    assert result.usage.reasks == 1


def test_an_illegal_plan_is_never_accepted() -> None:
    backend, seen = illegal_for("closing", "pro", times=99)
    with pytest.raises(ModelOutputError) as caught:
        run_debate(
            TOPIC, model=backend, seed=6, format="competitive", format_options=SMALL, max_reasks=2
        )
    assert len(seen) == 3
    assert any("illegal" not in e and "opening" in e for e in caught.value.errors)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"stage_seconds": {"opening": 20}}, "opening seconds must be at least 30"),
        ({"stage_seconds": {"debate": 60}}, "no stage 'debate'"),
        ({"branching": 0}, "--branching must be a whole number from 1 to 5, not 0"),
        ({"depth": 9}, "depth must be a whole number from 0 to 4"),
        ({"claims": 2.5}, "claims must be a whole number"),
        ({"rehearsal_tree": ["pro", "judge"]}, "sides pro and con only"),
        ({"flow_tree": "pro"}, "must be a list of sides"),
        ({"similarity": 0}, r"more than 0, not 0 \(the competitive format's option similarity\)"),
        ({"similarity": float("nan")}, "similarity must be a finite number"),
        ({"embedder": "bert"}, "embedder must be auto or lexical"),
        ({"voters": 0}, r"voters must be a whole number from 1 to 15, not 0 \(the competitive"),
        ({"tempo": 3}, "has no option tempo"),
    ],
)
def test_bad_options_are_refused_before_the_run(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        run_debate(TOPIC, model="scripted:demo", format="competitive", format_options=options)


def test_audio_into_a_file_and_named_sides_are_refused(tmp_path: Path) -> None:
    blocker = tmp_path / "file.wav"
    blocker.write_bytes(b"x")
    with pytest.raises(ConfigError, match="not a directory"):
        run_debate(
            TOPIC,
            model="scripted:demo",
            format="competitive",
            format_options={"audio_dir": str(blocker)},
        )
    with pytest.raises(ConfigError, match="takes 2 to 2 positions"):
        run_debate(TOPIC, model="scripted:demo", format="competitive", sides=["A", "B", "C"])
    with pytest.raises(ConfigError, match="pro/con debate"):
        run_debate(TOPIC, model="scripted:demo", format="competitive", sides=["A", "B"])


def test_the_cli_flags_map_to_format_options(tmp_path: Path) -> None:
    assert stage_seconds("200,180,90") == {"opening": 200.0, "rebuttal": 180.0, "closing": 90.0}
    assert stage_seconds("closing=90") == {"closing": 90.0}
    with pytest.raises(ConfigError, match="--stage-seconds"):
        stage_seconds("200,90")
    assert flag_options(FIELDS, {}) == {}
    assert flag_options(FIELDS, {"baseline": "pro"}) == {
        "rehearsal_tree": ["con"],
        "flow_tree": ["con"],
    }
    assert flag_options(FIELDS, {"no_flow_tree": True, "baseline": "con"}) == {
        "rehearsal_tree": ["pro"],
        "flow_tree": [],
    }
    assert flag_options(FIELDS, {"audio": tmp_path}, ["claims=2", "embedder=lexical"]) == {
        "audio_dir": str(tmp_path),
        "claims": 2,
        "embedder": "lexical",
    }
    with pytest.raises(ConfigError, match="--baseline"):
        flag_options(FIELDS, {"baseline": "judge"})
    with pytest.raises(ConfigError, match="KEY=VALUE"):
        flag_options(FIELDS, {}, ["claims"])
    # another format refuses the competitive options by name
    with pytest.raises(ConfigError, match="structured format has no option flow_tree"):
        run_debate(
            TOPIC,
            model="scripted:demo",
            format_options=flag_options(FIELDS, {"no_flow_tree": True}),
        )


def rehearsal_calls(store: Store, run_id: str) -> list[str]:
    """The source (live or cache) of each rehearsal call a stored run journaled."""
    return [c.source for c in store.calls(run_id) if c.round.startswith("rehearsal")]


def test_the_rehearsal_tree_is_cached_per_topic_and_model() -> None:
    store = Store()

    def run(run_id: str, seed: int, cache: str = "auto", **options: Any) -> dict[str, Any]:
        result = run_debate(
            TOPIC,
            model="scripted:demo",
            seed=seed,
            format="competitive",
            format_options={**SMALL, **options},
            store=store,
            debate_id=run_id,
            cache=cache,
        )
        (record,) = result.payload["competitive"]["rehearsal"]
        tree: dict[str, Any] = record
        return tree

    first = run("first", 1)
    assert rehearsal_calls(store, "first") == ["live"] * (2 + 4)
    assert (first["from_cache"], first["calls"], first["waves"]) == (False, 6, 2)
    again = run("again", 2)  # another seed: the same topic and model
    assert rehearsal_calls(store, "again") == []
    assert (again["from_cache"], again["calls"], again["waves"]) == (True, 0, 0)
    assert again["tree"] == first["tree"]
    # another size is another tree; its claims come from the response cache, which
    # keeps only temperature-0 requests by default: the ratings are asked at 0.
    # --no-cache neither reads nor keeps anything
    run("bigger", 1, branching=3)
    assert rehearsal_calls(store, "bigger") == ["cache"] * 2 + ["live"] * 4
    run("uncached", 1, cache="off")
    assert rehearsal_calls(store, "uncached") == ["live"] * 6


def test_the_audience_is_primed_with_the_most_similar_earlier_debate() -> None:
    store = Store()
    unrelated = run_debate(
        "Should schools abolish homework?",
        model="scripted:demo",
        seed=1,
        format="competitive",
        format_options=SMALL,
        store=store,
        debate_id="homework",
    )
    assert unrelated.payload["competitive"]["priming"] is None
    run_debate(
        TOPIC,
        model="scripted:demo",
        seed=1,
        format="competitive",
        format_options=SMALL,
        store=store,
        debate_id="cars",
    )
    result = run_debate(
        TOPIC,
        model="scripted:demo",
        seed=3,
        format="competitive",
        format_options=SMALL,
        store=store,
        debate_id="cars-again",
    )
    priming = result.payload["competitive"]["priming"]
    assert priming == {"run_id": "cars", "topic": TOPIC, "similarity": 1.0}
    audience = [c for c in store.calls("cars-again") if c.schema_name == "AudienceReply"]
    assert len(audience) == 6
    assert all(
        "an earlier debate on a similar motion" in c.messages[-1]["content"] for c in audience
    )
    assert all("PRO-1 [Pro, attacked" in c.messages[-1]["content"] for c in audience)
    # without a store there is nothing to prime with
    alone = run_debate(TOPIC, model="scripted:demo", format="competitive", format_options=SMALL)
    assert alone.payload["competitive"]["priming"] is None
