"""The encoder pass's calibrated models (``moot.detectors.learned``): the shipped
weights load and are what ``tools/fit_detector_weights.py`` fits, the probability is a
logistic of the standardised features, and each model decides a case each way."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from moot.detectors import Flag, learned, parse_transcript, repetition, run_detectors
from moot.detectors.evaluation import load_cases, load_real_cases
from moot.detectors.history import TurnHistory
from moot.detectors.learned import FEATURE_NAMES, Model, model, models, parse_models
from moot.detectors.lexical import content_terms, coverage
from moot.detectors.meaning import encoder
from script_loader import load_script
from test_detector_meaning import (
    CON_1,
    EN_SIDES,
    EN_TOPIC,
    PARAPHRASE_THRESHOLD,
    PRO_0,
    PRO_2,
    PRO_NEW,
    paraphrase_threshold,
)

ROOT = Path(__file__).resolve().parent.parent


def fired(flags: list[Flag], detector: str) -> list[tuple[int | None, str]]:
    return [(f.turn, f.mode) for f in flags if f.detector == detector]


def test_the_shipped_weights_load_with_their_features_and_thresholds() -> None:
    loaded = models()
    assert set(loaded) == {"repetition", "topic_drift"}
    for name, fitted in loaded.items():
        assert fitted.features == FEATURE_NAMES[name]
        assert len(fitted.weights) == len(fitted.mean) == len(fitted.scale) == len(fitted.features)
        assert all(s > 0 for s in fitted.scale)
        assert 0.0 < fitted.threshold < 1.0
        assert any(w != 0 for w in fitted.weights)


def test_the_probability_is_the_logistic_of_the_standardised_features() -> None:
    fitted = Model("repetition", ("a", "b"), (1.0, 0.0), (2.0, 1.0), (0.5, -1.0), 0.25, 0.5)
    # z = 0.25 + 0.5 * (3 - 1) / 2 - 1.0 * (0.5 - 0) / 1 = 0.25
    assert fitted.probability({"a": 3.0, "b": 0.5}) == pytest.approx(1 / (1 + math.exp(-0.25)))
    assert fitted.probability({"a": -1e6, "b": 0.0}) == 0.0


SIZE = len(FEATURE_NAMES["topic_drift"])


def document(**changes: Any) -> dict[str, Any]:
    raw = {
        "features": list(FEATURE_NAMES["topic_drift"]),
        "mean": [0.0] * SIZE,
        "scale": [1.0] * SIZE,
        "weights": [0.1] * SIZE,
        "bias": 0.0,
        "threshold": 0.5,
    }
    raw.update(changes)
    return {"models": {"topic_drift": raw}}


def test_malformed_weights_are_refused_with_the_reason() -> None:
    assert parse_models(document())["topic_drift"].threshold == 0.5
    with pytest.raises(ValueError, match="no 'models' object"):
        parse_models({})
    with pytest.raises(ValueError, match="has features"):
        parse_models(document(features=["motion"]))
    with pytest.raises(ValueError, match="malformed columns"):
        parse_models(document(scale=[0.0] * SIZE))
    with pytest.raises(ValueError, match="no features are known"):
        parse_models({"models": {"ad_hominem": {}}})


EN = {"topic": EN_TOPIC, "lang": "en", "sides": EN_SIDES}
CON_ESSAY = (
    "Let me tell you about my favourite recipe for sourdough bread. You feed the starter"
    " flour and water for a week, fold the dough every half hour, and bake it in a cast"
    " iron pot at a high temperature until the crust crackles and turns deep brown."
    " Rye flour gives a sourer loaf, spelt a nuttier one, and a long cold proof in the"
    " fridge overnight deepens the flavour and makes the crumb open and glossy."
)
REAL = ROOT / "tests" / "data" / "detectors" / "real" / "train"


def transcript(*turns: tuple[str, str]) -> Any:
    return parse_transcript({**EN, "turns": [{"side": s, "text": t} for s, t in turns]})


__all__ = ["paraphrase_threshold"]  # the fixture, imported for the tests below


def _probability(last: str) -> float:
    turns = transcript(("pro", PRO_0), ("con", CON_1), ("pro", last))
    history = TurnHistory(turns, encoder())
    history.advance(2)
    features = repetition.meaning_features(turns, 2, history)
    fitted = model("repetition")
    assert features is not None
    assert fitted is not None
    return fitted.probability(features.values)


def test_the_repetition_model_ranks_a_paraphrase_far_above_a_new_argument() -> None:
    paraphrase, new = _probability(PRO_2), _probability(PRO_NEW)
    assert paraphrase > 5 * new
    assert new < PARAPHRASE_THRESHOLD <= paraphrase


@pytest.mark.usefixtures("paraphrase_threshold")
def test_the_repetition_model_flags_a_paraphrase_and_not_a_new_argument() -> None:
    restated = run_detectors(transcript(("pro", PRO_0), ("con", CON_1), ("pro", PRO_2)), "auto")
    assert fired(restated, "repetition") == [(2, "encoder")]
    assert "calibrated model" in next(f for f in restated if f.detector == "repetition").evidence
    new = run_detectors(transcript(("pro", PRO_0), ("con", CON_1), ("pro", PRO_NEW)), "auto")
    assert fired(new, "repetition") == []


TEMPLATED = {
    "topic": "人工智能对残障人士就业的影响是利大于弊还是弊大于利？",
    "lang": "zh",
    "sides": {"pro": "正方：利大于弊", "con": "反方：弊大于利"},
}
TEMPLATED_TURNS = [
    ("pro", "正方论点：人工智能为残障人士创造了数据标注工作。论据：傅高山的团队效率很高。"),
    ("con", "反方论点：人工智能会取代残障人士的数据标注工作。论据：傅高山的团队已被裁员。"),
]


def test_the_repetition_model_reads_a_templated_turns_own_words_not_its_scaffolding() -> None:
    # every turn shares the heading, the motion's words and one article's facts (both
    # sides cite the team and the labelling work): only the claim's own words count
    def novelty(text: str) -> float:
        turns = [{"side": s, "text": t} for s, t in [*TEMPLATED_TURNS, ("pro", text)]]
        found = parse_transcript({**TEMPLATED, "turns": turns})
        history = TurnHistory(found, encoder())
        history.advance(2)
        features = repetition.meaning_features(found, 2, history)
        assert features is not None
        every = set(content_terms(text))
        shares.append(1.0 - coverage(every, history.side_terms["pro"]))
        return features.values["novel_specific"]

    shares: list[float] = []
    new_claim = "正方论点：人工智能让残障人士可以在家工作，减少通勤压力。论据：团队远程办公。"
    restated = "正方论点：人工智能为残障人士创造了数据标注工作。论据：傅高山的团队效率真的很高。"
    assert novelty(new_claim) == 1.0
    # over all its terms, the scaffolding the side has used before hides half of it
    assert shares[0] < 0.6
    assert novelty(restated) < 0.3


def test_the_topic_model_keeps_a_drift_and_overrules_a_lexical_false_flag() -> None:
    off = run_detectors(transcript(("pro", PRO_0), ("con", CON_ESSAY)), "auto")
    assert fired(off, "topic_drift") == [(1, "lexical")]
    on = run_detectors(transcript(("pro", PRO_0), ("con", CON_1)), "auto")
    assert fired(on, "topic_drift") == []
    # a reply on the motion's subject with few of the debate's words: the lexical rules
    # call it unrelated, the model (which has the last word on long turns) does not (p 0.22
    # against 0.47 since the fourteenth round, not a short answer taken back). Until
    # session 19 the example was train's en-human-2016-syria turn 5, which the refits with
    # fresh12 and fresh13 keep (p 0.57)
    scene = REAL.parent / "fresh8" / "en-llm-scene-45-14.json"
    data = json.loads(scene.read_text(encoding="utf-8"))
    data["turns"] = data["turns"][:3]
    reply = parse_transcript(data)
    assert (2, "lexical") in fired(run_detectors(reply, "lexical"), "topic_drift")
    assert fired(run_detectors(reply, "auto"), "topic_drift") == []


def test_without_a_model_the_encoder_pass_adds_no_flag_by_meaning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the guard: the flags above come from the models, not from another rule. The shipped
    # repetition model flags no written paraphrase (``PARAPHRASE_THRESHOLD``): the
    # paraphrase is flagged with that model at the fixture's threshold, and not without it
    shipped = learned.models()
    lowered = replace(shipped["repetition"], threshold=PARAPHRASE_THRESHOLD)
    monkeypatch.setattr(learned, "models", lambda: {**shipped, "repetition": lowered})
    restated = transcript(("pro", PRO_0), ("con", CON_1), ("pro", PRO_2))
    assert fired(run_detectors(restated, "auto"), "repetition") == [(2, "encoder")]
    monkeypatch.setattr(learned, "models", lambda: {})
    assert fired(run_detectors(restated, "auto"), "repetition") == []
    data = json.loads((REAL / "en-human-2016-syria.json").read_text(encoding="utf-8"))
    data["turns"] = data["turns"][:6]
    retort = parse_transcript(data)
    assert (5, "lexical") in fired(run_detectors(retort, "auto"), "topic_drift")
    assert model("repetition") is None


def _tool() -> ModuleType:
    return load_script("tools/fit_detector_weights.py", "fit_detector_weights")


def test_the_tool_answers_help_and_refuses_an_unknown_argument_before_fitting(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--help`` and a mistyped option end before the fit (minutes) and never write the
    weights: until session 19 any argument but ``--check`` ran the fit and wrote them."""
    tool = _tool()

    def no_fit() -> dict[str, object]:
        raise AssertionError("the fit ran")

    monkeypatch.setattr(tool, "document", no_fit)
    with pytest.raises(SystemExit) as helped:
        tool.main(["--help"])
    assert helped.value.code == 0
    assert "--check" in capsys.readouterr().out
    with pytest.raises(SystemExit) as refused:
        tool.main(["--chek"])
    assert refused.value.code == 2
    assert "unrecognized arguments: --chek" in capsys.readouterr().err


def test_the_fit_recovers_a_separating_direction_and_its_threshold() -> None:
    numpy = pytest.importorskip("numpy")
    tool = _tool()
    x = numpy.asarray([[v] for v in (-2.0, -1.5, -1.0, -0.5, 0.5, 1.0, 1.5, 2.0)])
    y = numpy.asarray([0, 0, 0, 0, 1, 1, 1, 1])
    weights, _ = tool.fit(x, y)
    assert weights[0] > 0
    threshold, precision, recall, f1 = tool.best_threshold(tool.probabilities(x, weights, 0.0), y)
    assert (precision, recall, f1) == (1.0, 1.0, 1.0)
    assert 0.05 <= threshold <= 0.95


@pytest.mark.slow(minutes=4)
def test_the_shipped_weights_are_what_the_fitting_tool_gives() -> None:
    assert _tool().main(["--check"]) == 0


def test_the_threshold_adds_a_models_flags_only_where_they_help_the_detector() -> None:
    numpy = pytest.importorskip("numpy")
    tool = _tool()
    # on its own turns the model's flags are right half the time and find every
    # positive: alone, its best F-beta is at the threshold that keeps them
    p = numpy.asarray([0.6, 0.6, 0.6, 0.6, 0.1])
    y = numpy.asarray([1, 1, 0, 0, 0])
    assert tool.best_threshold(p, y)[0] == 0.6
    # beside standing flags right nine times in ten (18 / 2, 4 positives missed), flags
    # right half the time lower the detector's F-beta: the threshold adds none of them
    threshold, precision, recall, _ = tool.best_threshold(p, y, (18, 2, 4))
    assert threshold == 0.95
    assert (precision, recall) == (18 / 20, 18 / 24)
    # flags right every time (the two positives on the model's turns): kept
    sure = numpy.asarray([0.6, 0.6, 0.1])
    threshold, precision, recall, _ = tool.best_threshold(
        sure, numpy.asarray([1, 1, 0]), (18, 2, 4)
    )
    assert threshold == 0.6
    assert (precision, recall) == (20 / 22, 20 / 24)


def _sampled_cases() -> list[Any]:
    """Transcripts with each kind of verdict: the wording rule's repetitions and lexical
    topic-drift flags the model keeps (a written debate), scaffolding (a real one that
    echoes its instructions), and a short answer the run takes back (a real one)."""
    real = ROOT / "tests" / "data" / "detectors" / "real"
    written = load_cases(ROOT / "tests" / "data" / "detectors" / "train" / "en.json")
    chosen = [c for c in written if c.id == "en-train-screen-time"]
    chosen += [c for c in load_real_cases(real, "fresh10") if c.id == "en-llm-qwen-echo"]
    chosen += [c for c in load_real_cases(real, "fresh6") if c.id == "en-human-iq2-men-a1"]
    assert len(chosen) == 3
    return chosen


def test_the_fitting_tool_samples_the_verdicts_the_encoder_pass_gives() -> None:
    # the threshold is chosen on the tool's partition (a turn the model judges, or a
    # verdict that stands): at the shipped thresholds it must give the run's own flags,
    # topic drift's short answers included, which the run takes back from the model
    tool = _tool()
    meaning = encoder()
    assert meaning is not None
    standing = {"repetition": 0, "topic_drift": 0}
    taken_back: set[tuple[str, int]] = set()
    for case in _sampled_cases():
        found = case.transcript
        flags = run_detectors(found, "auto")
        for detector in ("repetition", "topic_drift"):
            fitted = model(detector)
            assert fitted is not None
            lexical, encoded = TurnHistory(found), TurnHistory(found, meaning)
            sampled: set[int] = set()
            for index in range(len(found.turns)):
                lexical.advance(index)
                encoded.advance(index)
                sample = tool.SAMPLE[detector](found, index, lexical, encoded)
                if sample.features is None:
                    if sample.stands:
                        sampled.add(index)
                        standing[detector] += 1
                    continue
                if fitted.probability(sample.features.values) < fitted.threshold:
                    continue
                if sample.taken_back:
                    taken_back.add((case.id, index))
                else:
                    sampled.add(index)
            assert sampled == {f.turn for f in flags if f.detector == detector}, (
                case.id,
                detector,
            )
    # flags that stand were met: the wording rule's (2), scaffolding (7); and the short
    # answer the run takes back (the tool's docstring), which the tool now models
    assert standing == {"repetition": 2, "topic_drift": 7}
    assert taken_back == {("en-human-iq2-men-a1", 26)}
