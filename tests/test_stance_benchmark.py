"""The stance benchmark's topic sets and its reading of the model's own words
(``benchmarks/stance.py``; docs/sides.md gives its figures)."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from moot.formats.structured.sides import claim_prefix, thesis, yes_no
from script_loader import load_script

ROOT = Path(__file__).resolve().parent.parent


def benchmark() -> ModuleType:
    return load_script("benchmarks/stance.py", "stance_bench")


def test_the_fresh_set_is_ten_yes_no_questions_in_both_languages() -> None:
    fresh = benchmark().FRESH
    assert len(fresh) == 10
    assert len({row[0] for row in fresh}) == 10
    for topic, zh, pro, con in fresh:
        assert yes_no(topic, "en")
        assert yes_no(zh, "zh")
        assert pro != con
        # the statement rule reads every one of them, in both languages
        assert thesis(topic, "en", "con") is not None
        assert thesis(zh, "zh", "con") is not None


def test_the_model_words_are_the_claim_after_the_start_the_grammar_wrote() -> None:
    module = benchmark()
    topic = "Should teachers get tenure?"
    start = claim_prefix(topic, "en", "con", two_sided=True)
    assert start == "Teachers should not get tenure, because "
    assert module.model_words(start + "it shields bad teachers.", topic, "en", "con") == (
        "it shields bad teachers."
    )
    # a claim that does not start so (another backend) is all the model's
    assert module.model_words("Tenure shields bad teachers.", topic, "en", "con") == (
        "Tenure shields bad teachers."
    )


def test_every_topic_of_the_three_sets_has_a_bank_of_reasons_for_each_side() -> None:
    module = benchmark()
    banks = module.load_banks()
    sets = {
        "tuned": [row[0] for row in module.TOPICS],
        "held-out": [row[0] for row in module.HELD_OUT],
        "fresh": [row[0] for row in module.FRESH],
    }
    assert len(banks) == 30
    for name, topics in sets.items():
        for topic in topics:
            bank = banks[topic]
            assert bank["set"] == name
            for side in ("pro", "con"):
                assert len(set(bank[side])) >= 4
            assert not set(bank["pro"]) & set(bank["con"])
            # the fresh set's reasons come from the public debates it cites
            assert bool(bank.get("source")) == (name == "fresh")


def test_the_measures_own_words_leave_out_the_angle_words_the_grammar_wrote() -> None:
    module = benchmark()
    topic = "Should teachers get tenure?"
    start = claim_prefix(topic, "en", "con", two_sided=True)
    for lead in ("it would cost", "it would harm", "it could lead to"):
        assert lead in module.angle_leads("en")
        claim = f"{start}{lead} schools money to remove bad teachers."
        assert (
            module.own_words(claim, topic, "en", "con") == "schools money to remove bad teachers."
        )
    # the side for the topic has its own angle words, also left out
    pro_start = claim_prefix(topic, "en", "pro", two_sided=True)
    assert module.own_words(f"{pro_start}it would help good teachers.", topic, "en", "pro") == (
        "good teachers."
    )
    zh = "教师是否应该获得终身教职？"
    zh_start = claim_prefix(zh, "zh", "con", two_sided=True)
    assert module.own_words(f"{zh_start}它会伤害学生。", zh, "zh", "con") == "学生。"


class WordOverlap:
    """A stand-in for the sentence encoder: cosine of word-count vectors."""

    def similarity(self, a: list[str], b: list[str]) -> Any:
        words = sorted({w for t in [*a, *b] for w in t.lower().split()})

        def vector(text: str) -> Any:
            found = text.lower().split()
            v = np.array([found.count(w) for w in words], dtype=float)
            return v / (np.linalg.norm(v) or 1.0)

        return np.array([[float(vector(x) @ vector(y)) for y in b] for x in a])


def test_an_argument_is_on_side_when_closer_to_its_own_sides_bank() -> None:
    module = benchmark()
    pro = ["tenure protects teachers from unfair firing", "tenure keeps experienced teachers"]
    con = ["tenure makes bad teachers hard to fire", "tenure costs schools money"]
    text = ["bad teachers cost schools money"]
    encoder = WordOverlap()
    for rule in module.BANK_RULES:
        assert module.bank_on_side(text, [False], pro, con, encoder, rule) == [True]
        assert module.bank_on_side(text, [True], pro, con, encoder, rule) == [False]
    # max and mean differ: one close reason against several loosely related ones
    pro = ["a b c d", "x y", "x z"]
    con = ["a b", "a c"]
    assert module.bank_on_side(["a b c d"], [True], pro, con, encoder, "max") == [True]
    assert module.bank_on_side(["a b c d"], [True], pro, con, encoder, "mean") == [False]


def test_the_blind_sheet_names_no_version_and_its_key_scores_the_marks(tmp_path: Path) -> None:
    blind = load_script("benchmarks/stance_blind.py", "stance_blind")
    topic = "Should teachers get tenure?"
    for label in ("old", "new"):
        folder = tmp_path / label
        folder.mkdir()
        arguments = [
            {
                "id": f"{p}-{n}",
                "side": side,
                "claim": claim_prefix(topic, "en", side, two_sided=True) + f"{label} reason {n}.",
                "reasoning": "why",
                "evidence": "",
            }
            for side, p in (("pro", "PRO"), ("con", "CON"))
            for n in (1, 2)
        ]
        result = {
            "format": "structured",
            "topic": topic,
            "lang": "en",
            "positions": [{"key": "pro"}, {"key": "con"}],
            "payload": {"structured": {"arguments": arguments}},
        }
        (folder / "compact-fresh-1-0.json").write_text(json.dumps(result), "utf-8")
    sheet, key = blind.make_sheet([f"old={tmp_path / 'old'}", f"new={tmp_path / 'new'}"], 3, 0)
    assert len(sheet) == 6
    for row in sheet:
        assert set(row) == {"id", "topic", "side", "words"}
        assert "Teachers should" not in row["words"]  # the grammar's start is left out
    labels = [key[row["id"]]["label"] for row in sheet]
    assert labels.count("old") == labels.count("new") == 3
    marks = {row["id"]: "on" if key[row["id"]]["label"] == "new" else "off" for row in sheet}
    assert blind.score(sheet, key, marks) == {"new": "3/3", "old": "0/3"}
