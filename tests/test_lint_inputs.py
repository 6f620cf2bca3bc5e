"""``moot lint`` reads other systems' transcripts (an OpenAI-style chat list, an object
with ``messages``, JSON Lines of turns or messages), and its flags name the sides as a
reader would (Pro / 正方, not the keys pro / con)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from moot.detectors import run_detectors
from moot.detectors.lint import lint_file
from moot.detectors.transcript import TranscriptError, parse_transcript, read_transcript

CARS = "Cars pollute the centre and make streets dangerous for children and the old."
SHOPS = "Shops in the centre depend on drivers; a ban would empty them."


def _flags(raw: str) -> list[tuple[str, int | None, str | None]]:
    transcript = read_transcript(raw.encode("utf-8"), "t.json")
    return [(f.detector, f.turn, f.side) for f in run_detectors(transcript)]


def test_an_openai_chat_list_names_sides_by_name_and_takes_the_topic_from_system() -> None:
    messages = [
        {"role": "system", "content": "Debate: should cities ban cars from their centres?"},
        {"role": "assistant", "name": "pro", "content": CARS},
        {"role": "assistant", "name": "con", "content": [{"type": "text", "text": SHOPS}]},
        {"role": "assistant", "name": "con", "content": None, "tool_calls": []},
        {"role": "assistant", "name": "pro", "content": CARS},
    ]
    transcript = read_transcript(json.dumps(messages).encode(), "chat.json")
    assert transcript.topic == "Debate: should cities ban cars from their centres?"
    assert list(transcript.sides) == ["pro", "con"]
    assert [t.side for t in transcript.turns] == ["pro", "con", "pro"]
    assert transcript.turns[1].text == SHOPS
    assert ("repetition", 2, "pro") in _flags(json.dumps(messages))
    wrapped = {"topic": "Cars", "lang": "en", "messages": messages[1:]}
    assert read_transcript(json.dumps(wrapped).encode(), "c.json").topic == "Cars"


def test_a_message_without_name_is_spoken_by_its_role() -> None:
    messages = [{"role": "user", "content": SHOPS}, {"role": "assistant", "content": CARS}]
    transcript = read_transcript(json.dumps(messages).encode(), "chat.json")
    assert list(transcript.sides) == ["user", "assistant"]


def test_json_lines_of_turns_with_a_header() -> None:
    lines = [
        {"topic": "Should cities ban cars?", "sides": {"pro": "ban", "con": "keep"}},
        {"side": "pro", "text": CARS},
        {"side": "con", "text": SHOPS},
        {"side": "pro", "text": CARS},
    ]
    raw = "\n".join(json.dumps(line) for line in lines) + "\n"
    transcript = read_transcript(raw.encode(), "t.jsonl")
    assert transcript.sides == {"pro": "ban", "con": "keep"}
    assert len(transcript.turns) == 3
    assert ("repetition", 2, "pro") in _flags(raw)


def test_json_lines_of_chat_messages() -> None:
    lines = [{"role": "assistant", "name": n, "content": t} for n, t in [("a", CARS), ("b", SHOPS)]]
    raw = "\n".join(json.dumps(line) for line in lines)
    assert [t.side for t in read_transcript(raw.encode(), "t.jsonl").turns] == ["a", "b"]


def test_a_bad_json_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"side": "pro", "text": "x"}\n{"side": \n', encoding="utf-8")
    with pytest.raises(TranscriptError, match=r"bad\.jsonl line 2 is not valid JSON"):
        lint_file(path)
    path.write_text("{not json\n{also not\n", encoding="utf-8")
    with pytest.raises(TranscriptError, match=r"bad\.jsonl is not valid JSON"):
        lint_file(path)


@pytest.mark.parametrize(
    ("lang", "stances", "turns", "name", "key"),
    [
        (
            "en",
            ("Cities should ban cars", "Cities should not ban cars"),
            (
                "Cars choke the centre, so the centre should be car free for walkers and buses.",
                "Shops in the centre depend on drivers and parking, so cars must stay for trade.",
                "They are right: cities should not ban cars; centre shops depend on drivers,"
                " parking and trade.",
            ),
            "with Con",
            "with con",
        ),
        (
            "zh",
            ("城市应该禁止汽车", "城市不应该禁止汽车"),
            (
                "汽车让市中心拥堵又污染，应该禁止汽车进入市中心。",
                "市中心商店依赖开车顾客和停车位，禁止汽车会让商店倒闭，就业受损。",
                "你说得对，市中心商店依赖开车顾客和停车位，禁止汽车会让商店倒闭。",
            ),
            "认同反方",
            "认同con",
        ),
    ],
)
def test_flags_name_the_sides_as_a_reader_would(
    lang: str, stances: tuple[str, str], turns: tuple[str, ...], name: str, key: str
) -> None:
    transcript = parse_transcript(
        {
            "topic": "Should cities ban cars?",
            "lang": lang,
            "sides": dict(zip(("pro", "con"), stances, strict=True)),
            "turns": [
                {"side": s, "text": t} for s, t in zip(("pro", "con", "pro"), turns, strict=True)
            ],
        }
    )
    (flag,) = [f for f in run_detectors(transcript) if f.detector == "stance_drift"]
    assert name in flag.evidence
    assert key not in flag.evidence
    assert flag.side == "pro"  # the JSON keeps the key
