"""The detectors' model-assisted mode (``moot.judging.flag_review``): a model confirms
or rejects each candidate flag and finds stance drift; the result records what it
said; calls are capped; a failed call leaves the flag unreviewed; off by default."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from moot.cli import app
from moot.debate import run_debate
from moot.detectors import parse_transcript, run_detectors
from moot.detectors.transcript import Flag, Transcript
from moot.errors import BudgetExceeded
from moot.judging.flag_review import ROUND_REVIEW, ROUND_SCAN, Review, review_flags
from moot.llm.meter import Meter
from moot.llm.scripted import ScriptedBackend
from moot.llm.types import CallContext, GenerationSettings, Message, OutputSpec
from moot.options import RunOptions
from moot.prompts import render
from moot.store import Store

TRANSCRIPT: dict[str, Any] = {
    "topic": "Should cities ban cars downtown?",
    "lang": "en",
    "sides": {
        "pro": "Cities should ban cars downtown",
        "con": "Cities should not ban cars downtown",
    },
    "turns": [
        {
            "side": "pro",
            "text": "Cars pollute the centre and make streets dangerous for children and"
            " the elderly; banning them cuts asthma rates.",
        },
        {"side": "con", "text": "You are an ignorant hypocrite. Shops depend on drivers."},
        {
            "side": "pro",
            "text": "Cars pollute the centre and make streets dangerous for children and"
            " the elderly; banning them cuts asthma rates.",
        },
        {"side": "con", "text": "Frankly, delivery vans could still come at night, so fine."},
    ],
}


def transcript() -> Transcript:
    return parse_transcript(TRANSCRIPT)


def lexical_flags(read: Transcript) -> list[Flag]:
    flags = run_detectors(read, "lexical")
    assert [(f.detector, f.turn) for f in flags] == [("ad_hominem", 1), ("repetition", 2)]
    return flags


def reviewer(
    verdicts: dict[str, str], drifting: dict[str, list[int]] | None = None
) -> ScriptedBackend:
    """A scripted reviewer: ``verdicts`` by detector named in the prompt, and the
    turns each side's stance scan names."""
    return ScriptedBackend(replies(verdicts, drifting), name="scripted:reviewer")


def replies(verdicts: dict[str, str], drifting: dict[str, list[int]] | None = None) -> Any:
    """The reviewer's reply function (see ``reviewer``)."""

    def reply(
        messages: Sequence[Message],
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None,
    ) -> dict[str, Any]:
        assert context is not None
        if context.round == ROUND_SCAN:
            turns = (drifting or {}).get(context.side or "", [])
            return {"drifting": [{"turn": t, "reason": "it grants the con case"} for t in turns]}
        assert context.round == ROUND_REVIEW
        prompt = messages[0].content
        for detector, verdict in verdicts.items():
            if f"shows {detector.replace('_', ' ')}:" in prompt:
                return {"verdict": verdict, "reason": f"the reviewer {verdict}s {detector}"}
        raise AssertionError(prompt)

    return reply


def run(read: Transcript, flags: list[Flag], backend: ScriptedBackend, **kw: Any) -> Review:
    return asyncio.run(review_flags(read, flags, backend=backend, meter=Meter(), **kw))


def test_the_model_confirms_rejects_and_finds_and_each_flag_says_so() -> None:
    read = transcript()
    backend = reviewer({"ad_hominem": "reject", "repetition": "confirm"}, {"con": [3]})
    done = run(read, lexical_flags(read), backend)
    assert [(f.detector, f.turn, f.mode, f.review) for f in done.flags] == [
        ("repetition", 2, "lexical", "confirmed"),
        ("stance_drift", 3, "model", "confirmed"),
    ]
    assert done.flags[0].review_reason == "the reviewer confirms repetition"
    assert [(f.detector, f.turn, f.review) for f in done.rejected] == [
        ("ad_hominem", 1, "rejected")
    ]
    assert done.rejected[0].review_reason == "the reviewer rejects ad_hominem"
    assert "it grants the con case" in done.flags[1].evidence
    assert (done.calls, done.reviewed, done.unreviewed, done.found) == (4, 2, 0, 1)
    assert len(backend.calls) == 4
    # each call is structured, with the reviewer's role and the flag's side
    first = backend.calls[0]
    assert first.schema is not None
    assert first.schema.name == "FlagVerdict"
    assert first.context is not None
    assert first.context.role == "reviewer"
    assert first.context.side == "con"
    # the repetition review shows the earlier turn it repeats
    assert "[turn 0, pro]" in backend.calls[1].messages[0].content


def test_the_call_budget_leaves_the_rest_unreviewed() -> None:
    read = transcript()
    backend = reviewer({"ad_hominem": "reject", "repetition": "reject"}, {"con": [3]})
    done = run(read, lexical_flags(read), backend, max_calls=1)
    assert len(backend.calls) == 1
    assert [(f.detector, f.review) for f in done.flags] == [("repetition", None)]
    assert [f.detector for f in done.rejected] == ["ad_hominem"]
    assert (done.calls, done.reviewed, done.unreviewed, done.found) == (1, 1, 1, 0)


def test_a_run_budget_that_refuses_a_call_ends_the_review_without_failing() -> None:
    read = transcript()
    inner = replies({"ad_hominem": "reject", "repetition": "reject"}, {"con": [3]})

    def refuse_after_one(
        messages: Sequence[Message],
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None,
    ) -> Any:
        if len(backend.calls) > 1:
            raise BudgetExceeded("over budget", used=10.0, limit=10.0, unit="tokens")
        return inner(messages, schema, settings, context)

    backend = ScriptedBackend(refuse_after_one, name="scripted:budget")
    done = run(read, lexical_flags(read), backend)
    # the second call was refused: no further call, that flag and the rest unreviewed
    assert len(backend.calls) == 2
    assert [f.detector for f in done.rejected] == ["ad_hominem"]
    assert [(f.detector, f.review) for f in done.flags] == [("repetition", None)]
    assert (done.reviewed, done.unreviewed, done.found) == (1, 1, 0)


def test_a_model_with_no_usable_answer_leaves_the_flag_as_it_was() -> None:
    read = transcript()
    backend = ScriptedBackend(["not json"] * 4, name="scripted:broken")
    flags = lexical_flags(read)
    done = run(read, flags, backend, max_reasks=1, scan=False)
    assert done.flags == flags
    assert done.rejected == []
    assert (done.calls, done.reviewed, done.unreviewed) == (2, 0, 2)


def test_a_scan_naming_a_turn_it_was_not_shown_finds_nothing() -> None:
    read = transcript()
    # turn 2 is pro's and 0 is not con's: a backend without the enum could say so
    backend = reviewer({}, {"con": [2, 0]})
    done = run(read, [], backend)
    assert done.flags == []
    assert done.found == 0
    scans = [c for c in backend.calls if c.context is not None and c.context.side == "con"]
    turn_schema = scans[0].schema.json_schema["properties"]["drifting"]["items"]  # type: ignore[union-attr]
    assert turn_schema["properties"]["turn"]["enum"] == [1, 3]


def test_the_prompts_exist_in_both_languages() -> None:
    for lang in ("en", "zh"):
        for detector in ("repetition", "ad_hominem", "topic_drift", "stance_drift"):
            text = render(
                "review_flag",
                lang,
                detector=detector,
                topic="T",
                sides=[{"key": "pro", "name": "Pro", "stance": "S"}],
                earlier=[],
                index=0,
                side="pro",
                text="X",
                evidence="E",
            )
            assert "<debate>" in text
            assert "verdict" in text
        scan = render("scan_stance", lang, topic="T", name="Pro", stance="S", others=[], turns=[])
        assert "drifting" in scan


def test_debates_do_not_review_unless_asked() -> None:
    assert RunOptions().review_flags is False
    result = run_debate("Should cities ban cars downtown?", model="scripted:demo", seed=3)
    assert result.detector_review is None


def test_a_debate_review_is_recorded_and_journaled() -> None:
    store = Store(":memory:")
    result = run_debate(
        "Should cities ban cars downtown?",
        model="scripted:demo",
        seed=3,
        review_flags=True,
        store=store,
        debate_id="reviewed",
    )
    review = result.detector_review
    assert review is not None
    assert review.model == "scripted:demo"
    # the demo debate raises no flag: the review is the two sides' stance scans
    assert (review.calls, review.reviewed, review.found) == (2, 0, 0)
    rows = [c for c in store.calls("reviewed") if c.role == "reviewer"]
    assert [r.round for r in rows] == [ROUND_SCAN, ROUND_SCAN]
    assert result.usage.calls == len(store.calls("reviewed"))


def test_lint_review_prints_and_records_the_review(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(TRANSCRIPT), encoding="utf-8")
    args = ["lint", str(path), "--lexical", "--review", "scripted:demo", "--json"]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0, done.output
    doc = json.loads(done.output)
    assert doc["review"]["model"] == "scripted:demo"
    assert doc["review"]["reviewed"] == 2
    assert {f["review"] for f in doc["flags"]} == {"confirmed"}
    text = CliRunner().invoke(app, args[:-1], env={"COLUMNS": "200"})
    assert text.exit_code == 0, text.output
    assert "Model-assisted: scripted:demo reviewed 2 candidate flags" in text.output
    assert "confirmed" in text.output


def test_lint_review_of_an_unknown_model_is_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(TRANSCRIPT), encoding="utf-8")
    done = CliRunner().invoke(app, ["lint", str(path), "--review", "nosuch:model"])
    assert done.exit_code == 2
    assert "nosuch" in done.output


@pytest.mark.process
@pytest.mark.slow(minutes=4)
def test_review_on_the_embedded_model() -> None:
    """One real review on the embedded model (SmolLM2-135M): the calls go through, each
    reviewable flag gets a verdict or is counted unreviewed, nothing is lost."""
    from moot.llm.backend import resolve_backend

    read = transcript()
    flags = lexical_flags(read)
    done = asyncio.run(
        review_flags(read, flags, backend=resolve_backend("local"), meter=Meter(), max_calls=4)
    )
    assert done.model == "local"
    assert done.reviewed + done.unreviewed == 2
    assert len(done.flags) + len(done.rejected) == 2 + done.found
    for flag in [*done.flags, *done.rejected]:
        assert (flag.review is None) == (flag.review_reason is None)
    assert done.calls <= 4
