"""The free-form format (``--format freeform``) on ``scripted:demo``, through the
Python API and the command line: every position speaks once in every round and
answers the previous round by id, the judge scores every speech; a round is one wave
of concurrent calls and the rounds follow each other; ``--rounds`` (default, advice,
refusals); the panel, Chinese, resume; and the detector re-ask of a speech that
repeats its side or leaves the motion."""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

import moot
from invariants import check_result_json, has_cjk
from moot.cli import app
from moot.debate import resume_debate
from moot.errors import BudgetExceeded, ConfigError
from moot.events import Event, Reasked
from moot.formats import get_format
from moot.formats.freeform import ADVISED_ROUNDS, DEFAULT_ROUNDS, MAX_ROUNDS
from moot.formats.freeform.payload import FreeformPayload
from moot.formats.freeform.replies import SpeechReply
from moot.formats.freeform.rounds import SpeechCall
from moot.llm.scripted import DemoBackend, DemoCall, ScriptedBackend
from moot.llm.types import CallContext, Completion, GenerationSettings, Message, OutputSpec
from moot.store import Store
from moot.text import sentences
from panel_checks import check_panel

TOPIC = "Where should a family of four spend the winter?"
THREE = ("Hainan", "the North-East", "Yunnan")
ZH_TOPIC = "一家四口冬天去哪里过冬？"
ZH_THREE = ("海南", "东北", "云南")
ROOT = Path(__file__).resolve().parents[2]
FREEFORM = ("--format", "freeform")


def _moot(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def _flat(text: str) -> str:
    return " ".join(text.split())


def _run(*extra: str, topic: str = TOPIC, seed: int = 3) -> Result:
    return _moot("run", topic, "--model", "scripted:demo", "--seed", str(seed), *FREEFORM, *extra)


def _speeches(doc: dict[str, Any]) -> list[dict[str, Any]]:
    speeches: list[dict[str, Any]] = doc["payload"]["freeform"]["speeches"]
    return speeches


def _declared_waves(rounds: int) -> int:
    """The waves of a free-form debate as the format states them (``moot formats``, in
    both languages) and as the README states them: N + k for N rounds."""
    summary = get_format("freeform").summary
    en = re.search(r"N \+ (\d+) waves", summary["en"])
    zh = re.search(r"N \+ (\d+) 轮调用", summary["zh"])
    readme = re.search(r"\(N \+ (\d+) waves with the judge\)", _flat(_readme()))
    assert en is not None, summary["en"]
    assert zh is not None, summary["zh"]
    assert readme is not None, "the README states no free-form wave count"
    assert en.group(1) == zh.group(1) == readme.group(1)
    return rounds + int(en.group(1))


def _readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


# ---- a three-sided debate on the command line ---------------------------------------------


@pytest.fixture(scope="module")
def three_sided(tmp_path_factory: pytest.TempPathFactory) -> tuple[Result, dict[str, Any]]:
    path = tmp_path_factory.mktemp("freeform") / "three.json"
    ran = _run("--sides", ";".join(THREE), "--rounds", "3", "--id", "ff3", "--json", str(path))
    assert ran.exit_code == 0, ran.output
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return ran, doc


def test_every_side_speaks_once_in_every_round(three_sided: tuple[Result, dict[str, Any]]) -> None:
    _, doc = three_sided
    check_result_json(json.dumps(doc))
    assert doc["format"] == "freeform"
    assert [(p["key"], p["name"]) for p in doc["positions"]] == list(zip("ABC", THREE, strict=True))
    assert doc["payload"]["freeform"]["rounds"] == 3
    spoken = Counter((s["round"], s["side"]) for s in _speeches(doc))
    assert spoken == Counter({(n, side): 1 for n in (1, 2, 3) for side in "ABC"})
    assert [s["id"] for s in _speeches(doc)] == [f"{k}-R{n}" for n in (1, 2, 3) for k in "ABC"]


def test_each_speech_answers_the_previous_round_by_id(
    three_sided: tuple[Result, dict[str, Any]],
) -> None:
    _, doc = three_sided
    speeches = _speeches(doc)
    for speech in speeches:
        if speech["round"] == 1:
            assert speech["responds_to"] == []
            continue
        others = [
            s["id"]
            for s in speeches
            if s["round"] == speech["round"] - 1 and s["side"] != speech["side"]
        ]
        # the demo answers every other position's last speech, naming it in the text
        assert speech["responds_to"] == others, speech
        assert all(ident in speech["text"] for ident in others), speech


def test_the_judge_scores_every_speech_and_gives_a_verdict(
    three_sided: tuple[Result, dict[str, Any]],
) -> None:
    ran, doc = three_sided
    ids = [s["id"] for s in _speeches(doc)]
    judgement = doc["judgement"]
    assert sorted(s["argument_id"] for s in judgement["scores"]) == sorted(ids)
    assert [row["argument_id"] for row in judgement["trace"]] == ids
    assert list(judgement["totals"]) == ["A", "B", "C"]
    gap = judgement["gap"]
    ranked = sorted(judgement["totals"], key=judgement["totals"].get, reverse=True)
    if gap["leader"] is not None:
        assert [gap["leader"], gap["runner_up"]] == ranked[:2]
    assert judgement["key_insight"].strip()
    assert judgement["recommendation"].strip()
    # the verdict and every speech are in the briefing
    briefing = ran.stdout
    assert gap["text"] in briefing
    assert judgement["recommendation"] in briefing
    for ident in ids:
        assert re.search(rf"^\| {ident} \| \d \| ", briefing, re.MULTILINE), ident
    for name in THREE:
        assert re.search(
            rf"^\| [123] \| {re.escape(name)}( \(leads\))? \| \d+\.\d\d \|", briefing, re.MULTILINE
        )


def test_detectors_are_in_the_json_and_the_briefing(
    three_sided: tuple[Result, dict[str, Any]],
) -> None:
    ran, doc = three_sided
    assert isinstance(doc["detectors"], list)
    ids = {s["id"] for s in _speeches(doc)}
    for flag in doc["detectors"]:
        assert flag["unit"] in ids | {None}
        assert flag["evidence"][:40] in ran.stdout


def test_the_api_runs_the_same_debate_and_the_run_is_stored(
    three_sided: tuple[Result, dict[str, Any]],
) -> None:
    _, doc = three_sided
    result = moot.run_debate(
        TOPIC,
        model="scripted:demo",
        seed=3,
        format="freeform",
        sides=THREE,
        format_options={"rounds": 3},
    )
    parsed = moot.DebateResult.model_validate(doc)
    assert parsed.model_dump(exclude={"usage"}) == result.model_dump(exclude={"usage"})
    assert parsed.usage.calls == result.usage.calls
    body = FreeformPayload.model_validate(result.body)
    assert [s.id for s in body.speeches] == [s["id"] for s in _speeches(doc)]


@pytest.mark.parametrize(("lang", "cross"), [("en", "cross-examination"), ("zh", "质询")])
def test_the_demo_judge_speaks_of_speeches_not_of_cross_examination(lang: str, cross: str) -> None:
    """Free-form has no cross-examination: its demo judge says what happened to speeches
    (the structured format's words said "upheld after cross-examination")."""
    topic = TOPIC if lang == "en" else "城市应该禁止汽车进入市中心吗？"
    result = moot.run_debate(topic, model="scripted:demo", seed=3, format="freeform", lang=lang)
    judgement = result.judgement
    words = [judgement.key_insight, judgement.recommendation]
    words += [row.reason for row in judgement.trace]
    assert not [w for w in words if cross in w]
    speeches = "speeches" if lang == "en" else "发言"
    assert speeches in judgement.key_insight
    # a speech the next round answered gets the reason that says so
    answered = get_format("freeform").payload(result).model_dump()["speeches"]
    targets = {t for s in answered for t in s["responds_to"]}
    reasons = {row.argument_id: row.reason for row in judgement.trace}
    said = "next round answered it" if lang == "en" else "下一轮的发言回应了它"
    assert targets
    assert all(said in reasons[t] for t in targets)


# ---- waves ----------------------------------------------------------------------------------


@pytest.mark.timing
@pytest.mark.parametrize("rounds", [1, 3])
def test_a_round_is_one_wave_and_the_rounds_follow_each_other(rounds: int) -> None:
    """Within a round every position's speech is in flight at once (every call's
    start precedes every call's end); a round starts only when the one before has
    ended; the judge is one more wave: as many waves as the format states."""
    backend = DemoBackend(seed=4, latency_ms=100)
    result = moot.run_debate(
        TOPIC, model=backend, sides=THREE, format="freeform", format_options={"rounds": rounds}
    )
    waves: dict[str, list[DemoCall]] = {}
    for call in sorted(backend.calls, key=lambda c: c.started):
        waves.setdefault(call.context.round, []).append(call)
    assert list(waves) == [f"round_{n}" for n in range(1, rounds + 1)] + ["judgement"]
    assert len(waves) == _declared_waves(rounds)
    reasked = Counter(int(r["speech_id"].rsplit("R", 1)[1]) for r in result.body["detector_reasks"])
    for n in range(1, rounds + 1):
        calls = waves[f"round_{n}"]
        assert len(calls) == len(THREE) + reasked[n]
        first = {side: next(c for c in calls if c.context.side == side) for side in "ABC"}
        assert max(c.started for c in first.values()) < min(c.finished for c in first.values())
    ordered = list(waves.values())
    for before, after in itertools.pairwise(ordered):
        assert max(c.finished for c in before) <= min(c.started for c in after)


# ---- --rounds ---------------------------------------------------------------------------------


def test_three_rounds_by_default(tmp_path: Path) -> None:
    path = tmp_path / "default.json"
    ran = _run("--json", str(path), "-q")
    assert ran.exit_code == 0, ran.output
    doc = check_result_json(path.read_text(encoding="utf-8"))
    assert DEFAULT_ROUNDS == 3
    assert doc["payload"]["freeform"]["rounds"] == DEFAULT_ROUNDS
    assert {s["round"] for s in _speeches(doc)} == {1, 2, 3}
    assert not [w for w in doc["warnings"] if w["code"] == "format_option"]
    assert "(`--rounds N`, default 3;" in _readme()


@pytest.mark.parametrize("rounds", [ADVISED_ROUNDS, ADVISED_ROUNDS + 1])
def test_more_than_four_rounds_are_warned_against(rounds: int, tmp_path: Path) -> None:
    assert ADVISED_ROUNDS == 4
    path = tmp_path / "long.json"
    ran = _run("--rounds", str(rounds), "--json", str(path), "-q")
    assert ran.exit_code == 0, ran.output
    doc = check_result_json(path.read_text(encoding="utf-8"))
    assert {s["round"] for s in _speeches(doc)} == set(range(1, rounds + 1))
    advice = [w for w in doc["warnings"] if w["code"] == "format_option"]
    if rounds <= ADVISED_ROUNDS:
        assert advice == []
        assert "warning:" not in ran.stderr
        return
    (warning,) = advice
    assert warning["round"] == "setup"
    assert f"{rounds} rounds: over {ADVISED_ROUNDS}" in warning["message"]
    # said on the terminal and shown in the briefing, in its own words
    assert f"warning: {warning['message']}" in _flat(ran.stderr)
    assert warning["message"] in ran.stdout


@pytest.mark.parametrize("value", ["0", "-1", str(MAX_ROUNDS + 1)])
def test_rounds_out_of_range_are_refused(value: str) -> None:
    ran = _run(f"--rounds={value}", "--id", "refused", "-q")
    assert ran.exit_code == 2, ran.output
    assert ran.stdout == ""
    assert f"--rounds must be a whole number from 1 to {MAX_ROUNDS}" in _flat(ran.stderr)
    assert "Traceback" not in ran.output
    assert Store().get_debate("refused") is None


@pytest.mark.parametrize("value", ["2.5", "three", ""])
def test_rounds_that_are_not_whole_numbers_are_refused(value: str) -> None:
    ran = _run(f"--rounds={value}", "--id", "refused", "-q")
    assert ran.exit_code == 2, ran.output
    assert "Invalid value for '--rounds'" in _flat(ran.stderr)
    assert "Traceback" not in ran.output
    assert Store().get_debate("refused") is None


@pytest.mark.parametrize("rounds", [0, -2, MAX_ROUNDS + 1, 2.5, "3", True, None])
def test_the_api_refuses_bad_rounds_before_anything_is_stored(rounds: object) -> None:
    store = Store()
    if rounds is None:  # the one value that means "the default"
        result = moot.run_debate(TOPIC, model="scripted:demo", format="freeform")
        assert result.body["rounds"] == DEFAULT_ROUNDS
        return
    with pytest.raises(ConfigError, match="must be a whole number from 1 to"):
        moot.run_debate(
            TOPIC,
            model="scripted:demo",
            format="freeform",
            format_options={"rounds": rounds},
            store=store,
            debate_id="bad",
        )
    assert store.get_debate("bad") is None


# ---- the panel, Chinese -------------------------------------------------------------------


def test_a_panel_judges_a_three_sided_freeform_debate(tmp_path: Path) -> None:
    path = tmp_path / "panel.json"
    ran = _run("--sides", ";".join(THREE), "--panel", "technical,general", "--json", str(path))
    assert ran.exit_code == 0, ran.output
    # the second judge and the topic classification are the calls beyond one judge's
    doc = check_result_json(path.read_text(encoding="utf-8"), extra_calls=2)
    check_panel(doc)
    panel = doc["panel"]
    assert [j["name"] for j in panel["judges"]] == ["technical", "general"]
    assert [row["argument_id"] for row in panel["consensus"]] == [s["id"] for s in _speeches(doc)]
    assert list(panel["totals"]) == ["A", "B", "C"]
    assert "## Judge panel" in ran.stdout
    assert panel["gap"]["text"] in ran.stdout


def test_a_chinese_freeform_debate(tmp_path: Path) -> None:
    path = tmp_path / "zh.json"
    ran = _run(
        "--lang", "zh", "--sides", ";".join(ZH_THREE), "--json", str(path), "-q", topic=ZH_TOPIC
    )
    assert ran.exit_code == 0, ran.output
    doc = check_result_json(path.read_text(encoding="utf-8"))
    assert doc["lang"] == "zh"
    assert [p["name"] for p in doc["positions"]] == list(ZH_THREE)
    for speech in _speeches(doc):
        assert has_cjk(speech["text"]), speech
    assert ran.stdout.startswith("# 决策简报\n")
    assert "## 发言" in ran.stdout
    assert "Decision briefing" not in ran.stdout
    for name in ZH_THREE:
        assert name in ran.stdout


# ---- resume (a killed free-form run: tests/test_durable.py) ---------------------------------


def test_a_freeform_run_stopped_by_its_budget_keeps_whole_rounds_and_resumes() -> None:
    store = Store()
    options = moot.RunOptions(format="freeform", sides=THREE, seed=7, model="scripted:demo")
    whole = moot.run_debate(TOPIC, options, store=store, debate_id="whole")
    with pytest.raises(BudgetExceeded):
        moot.run_debate(TOPIC, options, store=store, debate_id="cut", max_tokens=2500)
    row = store.get_debate("cut")
    assert row is not None
    assert row.status == "budget_exceeded"
    partial = json.loads(row.result_json or "{}")
    assert partial["partial"] is True
    assert partial["format"] == "freeform"
    finished = FreeformPayload.model_validate(whole.body).model_dump()["speeches"]
    saved = partial["speeches"]
    # the rounds completed before the stop, as the finished run has them
    assert 0 < len(saved) < len(finished)
    assert len(saved) % len(THREE) == 0
    assert saved == finished[: len(saved)]

    resumed = resume_debate("cut", store=store, max_tokens=100_000)
    assert resumed.model_dump(exclude={"usage"}) == whole.model_dump(exclude={"usage"})
    assert store.get_debate("cut").status == "done"  # type: ignore[union-attr]


# ---- the detector re-ask --------------------------------------------------------------------

OFF_TOPIC = SpeechReply(
    responds_to=[],
    speech=[
        "Sourdough bread needs a starter that is fed with flour and water every day.",
        "The dough proves overnight in a cool larder before it is baked in a hot oven.",
    ],
)
ZH_OFF_TOPIC = SpeechReply(
    responds_to=[],
    speech=[
        "做酸面包需要每天用面粉和水喂养酵头。",
        "面团在阴凉的储藏室里发酵一夜，然后放进热烤箱烘烤。",
    ],
)


def _repeat_first_speech(data: SpeechCall) -> SpeechReply:
    """The speaker's own first speech again, word for word."""
    return SpeechReply(
        responds_to=[s.id for s in data.previous], speech=sentences(data.own[0].text)
    )


def _off_topic(data: SpeechCall) -> SpeechReply:
    return ZH_OFF_TOPIC if has_cjk(data.own[0].text) else OFF_TOPIC


def _speaker(bad: Callable[[SpeechCall], SpeechReply], *, every_time: bool) -> ScriptedBackend:
    """``scripted:demo``, except that pro's second speech is ``bad`` on the first try
    (on every try with ``every_time``)."""
    demo = DemoBackend()

    async def reply(
        messages: Sequence[Message],
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None,
    ) -> SpeechReply | Completion:
        assert context is not None
        data = context.data
        retry = any(m.role == "assistant" for m in messages)
        if (
            isinstance(data, SpeechCall)
            and (data.position, data.round) == ("pro", 2)
            and (every_time or not retry)
        ):
            return bad(data)
        return await demo.generate(messages, schema=schema, settings=settings, context=context)

    return ScriptedBackend(reply, name="speaker")


BRIEFING = {
    # the briefing's section on re-asks, and its words for a fixed and a kept speech
    "en": (
        "Speeches asked for again after a detector fired",
        "fixed by the rewrite",
        "still there after the rewrite",
    ),
    "zh": ("检测器触发后要求重写的发言", "重写后已解决", "重写后仍然存在"),
}
REASKS = {
    # detector, the speech that trips it, the reason the speaker is given (en, zh)
    "repetition": (
        _repeat_first_speech,
        "Your reply repeats your earlier speech PRO-R1",
        "你的发言与你方此前的发言 PRO-R1 几乎相同",
    ),
    "topic_drift": (_off_topic, "Your reply is not about the motion", "你的发言偏离了辩题"),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("detector", sorted(REASKS))
@pytest.mark.parametrize("every_time", [False, True], ids=["fixed", "not-fixed"])
def test_a_speech_a_detector_flags_is_asked_for_once_more_with_the_reason(
    detector: str, lang: str, every_time: bool
) -> None:
    bad, en_reason, zh_reason = REASKS[detector]
    backend = _speaker(bad, every_time=every_time)
    events: list[Event] = []
    topic = TOPIC if lang == "en" else ZH_TOPIC
    result = moot.run_debate(
        topic, model=backend, seed=5, lang=lang, format="freeform", on_event=events.append
    )
    calls = [
        c
        for c in backend.calls
        if c.context is not None and (c.context.side, c.context.round) == ("pro", "round_2")
    ]
    # asked once more, and never twice, even when the rewrite trips the detector again
    assert len(calls) == 2
    first, retry = calls
    said = bad(first.context.data)  # type: ignore[union-attr, arg-type]
    assert retry.messages[: len(first.messages)] == first.messages
    assert retry.messages[-2] == Message("assistant", said.model_dump_json())
    assert retry.messages[-1].role == "user"
    assert (en_reason if lang == "en" else zh_reason) in retry.messages[-1].content

    # recorded: the payload, the re-ask count, the warnings, the progress events
    body = FreeformPayload.model_validate(result.body)
    (reask,) = body.detector_reasks
    assert (reask.speech_id, reask.detectors, reask.fixed) == ("PRO-R2", [detector], not every_time)
    assert reask.reason in retry.messages[-1].content
    assert result.usage.reasks == 1
    check_result_json(moot.to_json(result))  # the calls: every first attempt and the re-ask
    assert [(w.where, w.message) for w in result.warnings if w.code == "detector_reask"] == [
        ("PRO-R2", reask.reason)
    ]
    reasked = [e for e in events if isinstance(e, Reasked)]
    assert [(e.context.side, e.context.round, e.codes) for e in reasked] == [
        ("pro", "round_2", (detector,))
    ]

    # the speech kept is the rewrite (the bad one when the rewrite is no better), and
    # the detectors after the debate agree with the one during it
    kept = next(s for s in body.speeches if s.id == "PRO-R2")
    bad_text = " ".join(said.speech) if lang == "en" else "".join(said.speech)
    assert (kept.text == bad_text) == every_time
    flagged = {(f.detector, f.unit) for f in result.detectors}
    assert ((detector, "PRO-R2") in flagged) == every_time

    briefing = moot.to_markdown(result)
    section, fixed, not_fixed = BRIEFING[lang]
    assert f"## {section}" in briefing
    shown = re.escape(detector.replace("_", "\\_"))  # the briefing escapes Markdown
    outcome = not_fixed if every_time else fixed
    assert re.search(rf"^- \*\*PRO-R2\*\* {shown}: {outcome}$", briefing, re.MULTILINE)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("rounds", range(1, ADVISED_ROUNDS + 1))
def test_the_two_sided_demo_trips_no_detector(lang: str, rounds: int) -> None:
    """Pro and con on the plain demo: no speech trips a detector while the debate runs
    (nothing re-asked or recorded) nor after it (no flag)."""
    result = moot.run_debate(
        TOPIC if lang == "en" else ZH_TOPIC,
        model="scripted:demo",
        seed=5,
        lang=lang,
        format="freeform",
        format_options={"rounds": rounds},
    )
    assert result.body["detector_reasks"] == []
    assert result.usage.reasks == 0
    assert "detector_reask" not in {w.code for w in result.warnings}
    assert result.detectors == []
    assert BRIEFING[lang][0] not in moot.to_markdown(result)
