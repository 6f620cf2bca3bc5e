"""``moot lint``: the detectors on a transcript file, as JSON or as a table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from moot.cli import app

DATA = Path(__file__).parent / "data" / "detectors"


def lint(*args: str, columns: int = 80) -> Result:
    return CliRunner().invoke(app, ["lint", *args], env={"COLUMNS": str(columns)})


def labelled(split: str, lang: str, index: int) -> dict[str, Any]:
    case: dict[str, Any] = json.loads((DATA / split / f"{lang}.json").read_text("utf-8"))["cases"][
        index
    ]
    return case


def write(tmp_path: Path, data: object, name: str = "t.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize(("lang", "index"), [("en", 9), ("zh", 7)])
def test_json_output_has_exactly_the_documented_shape(
    tmp_path: Path, lang: str, index: int
) -> None:
    case = labelled("test", lang, index)
    result = lint(str(write(tmp_path, case["transcript"])), "--json", "--lexical")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert list(document) == ["mode", "lexical_reason", "flags"]
    assert (document["mode"], document["lexical_reason"]) == ("lexical", "asked for")
    for flag in document["flags"]:
        assert list(flag) == ["detector", "turn", "side", "evidence", "mode"]
        assert flag["mode"] == "lexical"
    got = sorted((f["detector"], f["turn"], f["side"]) for f in document["flags"])
    want = sorted((x["detector"], x["turn"], x["side"]) for x in case["labels"])
    assert got == want


def test_a_flag_on_the_whole_transcript_has_null_turn_and_side(tmp_path: Path) -> None:
    case = labelled("test", "en", 2)  # every score is 6
    document = json.loads(lint(str(write(tmp_path, case["transcript"])), "--json").stdout)
    whole = [f for f in document["flags"] if f["detector"] == "judge_zero_variance"]
    assert whole == [
        {
            "detector": "judge_zero_variance",
            "turn": None,
            "side": None,
            "evidence": whole[0]["evidence"],
            "mode": "lexical",
        }
    ]
    assert "6" in whole[0]["evidence"]


def test_extra_fields_from_other_systems_are_ignored(tmp_path: Path) -> None:
    data = labelled("test", "en", 9)["transcript"]
    data |= {"id": "run-42", "models": {"pro": "gpt-4o"}, "lang": "EN"}
    for turn in data["turns"]:
        turn["round"] = 1
        turn["tokens"] = 120
    for score in data.get("judge_scores", []):
        score["judge"] = "general"
    result = lint(str(write(tmp_path, data)), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["flags"]


def test_the_table_shows_text_as_written_never_as_markup(tmp_path: Path) -> None:
    hostile = "[bold red]pro[/bold red]\x1b[31m"
    data = {
        "topic": "Should cities ban cars?",
        "lang": "en",
        "sides": {hostile: "Cities should ban cars", "con": "Cities should not ban cars"},
        "turns": [
            {"side": "con", "text": "A ban punishes the night-shift nurse and the tradesman."},
            {
                "side": hostile,
                "text": "You clearly don't understand [link=http://x]cities[/link] at all.\x07",
            },
        ],
    }
    result = lint(str(write(tmp_path, data)), columns=300)
    assert result.exit_code == 0, result.output
    flat = " ".join(result.stdout.split())
    assert "[bold red]pro[/bold red]" in flat
    assert "[link=http://x]cities[/link]" in flat
    assert "\x1b" not in result.stdout
    assert "\x07" not in result.stdout
    assert "ad_hominem" in flat


def test_a_clean_transcript_says_so(tmp_path: Path) -> None:
    data = {"topic": "t", "lang": "zh", "sides": {"甲": "x"}, "turns": []}
    result = lint(str(write(tmp_path, data)))
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "检测方式：词汇规则加句向量编码器（按语义判断重复和切题）。",
        "没有发现问题。",
    ]


def test_the_output_says_which_pass_ran(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, {"topic": "t", "lang": "en", "sides": {"a": "x"}, "turns": []})
    assert lint(str(path)).stdout.startswith("Detectors: lexical rules and the sentence encoder")
    assert json.loads(lint(str(path), "--json").stdout)["mode"] == "encoder"
    asked = lint(str(path), "--lexical").stdout
    assert asked.startswith("Detectors: lexical rules only (asked for);")
    # without the encoder (switched off here as when it is not installed) it never pretends
    monkeypatch.setenv("MOOT_DETECTORS", "lexical")
    document = json.loads(lint(str(path), "--json").stdout)
    assert document["mode"] == "lexical"
    assert document["lexical_reason"] == "asked for (MOOT_DETECTORS=lexical)"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "is not valid JSON"),
        (b"[1, 2]", "a transcript is a JSON object"),
        (b'{"topic": "t", "lang": "en", "sides": {"a": "x"}}', "turns"),
        (
            b'{"topic": "t", "lang": "en", "sides": {"a": "x"},'
            b' "turns": [{"side": "b", "text": "x"}]}',
            "unknown side 'b'",
        ),
        (
            b'{"topic": "t", "lang": "en", "sides": {"a": "x"},'
            b' "turns": [{"side": "a", "text": "x"}], "judge_scores": [{"turn": 1, "score": 7}]}',
            "points at turn 1",
        ),
        ('{"topic": "辩题"}'.encode("gb18030"), "is not UTF-8"),
        (b'{"topic": "t", "lang": "de", "sides": {"a": "x"}, "turns": []}', "lang must be"),
    ],
)
def test_bad_input_is_a_clear_error_with_exit_code_2(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    result = lint(str(path))
    assert result.exit_code == 2
    assert message in " ".join(result.stderr.split())
    assert result.stdout == ""


def test_a_missing_file_is_exit_code_2(tmp_path: Path) -> None:
    result = lint(str(tmp_path / "nowhere.json"), "--json")
    assert result.exit_code == 2
    assert "no such file" in result.stderr


def test_a_hostile_side_name_in_an_error_is_not_markup(tmp_path: Path) -> None:
    data = {
        "topic": "t",
        "lang": "en",
        "sides": {"a": "x"},
        "turns": [{"side": "[/bad]", "text": "x"}],
    }
    result = lint(str(write(tmp_path, data)))
    assert result.exit_code == 2
    assert "[/bad]" in result.stderr
