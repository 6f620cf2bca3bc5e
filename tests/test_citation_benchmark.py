"""The planted-citation benchmark as a regression guard (docs/citation-verification.md,
"Measured"): the targets on the labelled data of tests/data/citations, every train case
as labelled, and the data itself sound. ``python benchmarks/citations.py`` prints the
figures."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from types import ModuleType
from typing import Any

from moot.sources.verify import unsupported_numbers
from script_loader import load_script

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "citations"


def benchmark() -> ModuleType:
    return load_script("benchmarks/citations.py", "citations_bench")


def test_the_data_has_at_least_100_correct_and_100_wrong_in_both_languages() -> None:
    cases = list(benchmark().cases())
    for kind in ("correct", "wrong"):
        assert sum(c.kind == kind for c in cases) >= 100
        assert {c.lang for c in cases if c.kind == kind} == {"en", "zh"}
    assert {c.split for c in cases} == {"train", "holdout"}


def test_every_quote_is_verbatim_and_every_altered_quote_is_not() -> None:
    passages = {
        p["id"]: p["text"]
        for p in json.loads((DATA / "passages.json").read_text("utf-8"))["passages"]
    }
    for fact in json.loads((DATA / "facts.json").read_text("utf-8"))["facts"]:
        text = " ".join(passages[fact["passage"]].split())
        assert " ".join(fact["quote"].split()) in text, fact["quote"]
        assert " ".join(fact["altered"].split()) not in text, fact["altered"]


def test_every_train_case_gets_its_label_and_the_targets_hold() -> None:
    bench = benchmark()
    train = [*bench.run_sources("train"), *bench.run_market("train")]
    assert [o.case.id for o in train if not o.right] == []
    # the targets (wrong flagged >= 95%, correct flagged <= 2%); the held-out split's
    # wrong citations at their measured 55 of 58 (docs: three pass by half-up rounding
    # or a number the passage holds), not below
    for split, least_wrong in (("train", 0.95), ("holdout", 55 / 58)):
        found = bench.run_sources(split)
        wrong = [o for o in found if o.case.kind == "wrong"]
        correct = [o for o in found if o.case.kind == "correct"]
        assert sum(o.flagged for o in wrong) / len(wrong) >= least_wrong, split
        assert sum(o.flagged for o in correct) / len(correct) <= 0.02, split
        market = bench.run_market(split)
        assert all(o.right for o in market), split


def test_the_first_fresh_set_is_train_now_and_every_case_gets_its_label() -> None:
    # its misses were looked at when the count, compound-word and fraction rules
    # were written (docs/citation-verification.md), so it is held to every label
    bench = benchmark()
    found = bench.run_sources(None, bench.FRESH)
    assert [o.case.id for o in found if not o.right] == []


def sound_set(bench: ModuleType, data: Path) -> tuple[list[Any], list[Any]]:
    """The wrong and the correct outcomes of a held-out set in ``data``, once its quotes
    are shown to occur in their passages and its altered quotes not to, in en and zh."""
    passages = {
        p["id"]: p["text"]
        for p in json.loads((data / "passages.json").read_text("utf-8"))["passages"]
    }
    for fact in json.loads((data / "facts.json").read_text("utf-8"))["facts"]:
        assert fact["quote"] in passages[fact["passage"]], fact["quote"]
        assert fact["altered"] not in passages[fact["passage"]], fact["altered"]
    found = bench.run_sources(None, data)
    wrong = [o for o in found if o.case.kind == "wrong"]
    correct = [o for o in found if o.case.kind == "correct"]
    assert {o.case.lang for o in found} == {"en", "zh"}
    return wrong, correct


def test_the_second_fresh_set_is_sound_and_no_worse_than_after_its_misses() -> None:
    bench = benchmark()
    data = bench.HELDOUT2
    wrong, correct = sound_set(bench, data)
    # the first run (docs): 116 of 118 wrong flagged, 8 of 93 correct flagged; its
    # misses were looked at since (it is train now): 1 of 93, a unit conversion
    assert sum(o.flagged for o in wrong) >= 116
    assert sum(o.flagged for o in correct) <= 1


def test_the_third_fresh_set_is_sound_and_no_worse_than_after_its_misses() -> None:
    bench = benchmark()
    found = bench.run_sources(None, bench.HELDOUT3)
    wrong = [o for o in found if o.case.kind == "wrong"]
    correct = [o for o in found if o.case.kind == "correct"]
    assert {o.case.lang for o in found} == {"en", "zh"}
    # the first run (docs): 121 of 122 wrong flagged, 10 of 83 correct flagged; its
    # misses were looked at since (it is train now): 1 of 83, a unit conversion
    assert sum(o.flagged for o in wrong) >= 121
    assert sum(o.flagged for o in correct) <= 1


def test_the_fourth_fresh_set_is_seen_now_and_no_worse_than_after_the_general_rules() -> None:
    bench = benchmark()
    found = bench.run_sources(None, bench.HELDOUT4)
    wrong = [o for o in found if o.case.kind == "wrong"]
    correct = [o for o in found if o.case.kind == "correct"]
    assert {o.case.lang for o in found} == {"en", "zh"}
    # the first run (docs): 91 of 97 wrong flagged, 14 of 65 correct flagged; its
    # misses were looked at when the general rules (versions, identifiers, durations,
    # dates, ordinals, whole counts, parallel items) were written: 96 of 97, 0 of 65
    assert sum(o.flagged for o in wrong) >= 96
    assert sum(o.flagged for o in correct) == 0
    quotes = [o for o in wrong if o.case.cls in ("absent_quote", "altered_quote", "no_source")]
    assert all(o.right for o in quotes)


def test_the_fifth_fresh_set_is_sound_and_no_worse_than_its_first_run() -> None:
    bench = benchmark()
    data = bench.HELDOUT5
    wrong, correct = sound_set(bench, data)
    assert len(wrong) >= 80
    assert len(correct) >= 80
    # the first run (docs, commit d0eb140): 218 of 223 wrong flagged, 18 of 160
    # correct flagged; every absent, altered and empty-passage citation flagged. Seen
    # since: the readings and derivations written from its misses leave 2 of 160
    assert sum(o.flagged for o in wrong) >= 218
    assert sum(o.flagged for o in correct) <= 2
    quotes = [o for o in wrong if o.case.cls in ("absent_quote", "altered_quote", "no_source")]
    assert all(o.right for o in quotes)
    # its market texts (demo KB): every one as labelled on the first run
    market = bench.run_market(None, data)
    assert len(market) == 16
    assert all(o.right for o in market)


def test_the_sixth_fresh_set_is_sound_and_no_worse_than_its_first_run() -> None:
    bench = benchmark()
    data = bench.HELDOUT6
    wrong, correct = sound_set(bench, data)
    assert len(wrong) >= 60
    assert len(correct) >= 60
    # the first run (docs, commit f3070d3 for the data, the verifier of 4548f8c):
    # 147 of 147 wrong flagged, 29 of 110 correct flagged. Seen since: the readings
    # written from its misses leave the 13 correct citations marked as label errors
    assert sum(o.flagged for o in wrong) == 147
    assert sum(o.flagged for o in correct) <= 13
    assert all(o.right for o in wrong)
    found = bench.run_sources(None, data)
    aside = bench._aside(found)
    assert len(found) - len(aside) == 13
    assert not any(o.flagged for o in aside if o.case.kind == "correct")


def test_a_label_error_is_a_claim_number_its_passage_does_not_state() -> None:
    """A fact marked ``label_error`` must name, outside its ``{n}``, a number that no
    number of its passage supports, so the mark can be checked, not just asserted."""
    marked = 0
    for data in (DATA, *benchmark().SETS.values()):
        passages = {
            p["id"]: p["text"]
            for p in json.loads((data / "passages.json").read_text("utf-8"))["passages"]
        }
        for fact in json.loads((data / "facts.json").read_text("utf-8"))["facts"]:
            if "label_error" in fact:
                marked += 1
                rest = fact["claim"].replace("{n}", "")
                assert unsupported_numbers(passages[fact["passage"]], rest), fact["claim"]
    assert marked == 4


def test_the_seventh_fresh_set_is_sound_and_no_worse_than_its_first_run() -> None:
    bench = benchmark()
    data = bench.HELDOUT7
    passages = {
        p["id"]: p["text"]
        for p in json.loads((data / "passages.json").read_text("utf-8"))["passages"]
    }

    def folded(text: str) -> str:
        return " ".join(unicodedata.normalize("NFKC", text).split())

    for fact in json.loads((data / "facts.json").read_text("utf-8"))["facts"]:
        text = folded(passages[fact["passage"]])
        if "undocumented_reading" not in fact:
            assert folded(fact["quote"]) in text, fact["quote"]
        assert folded(fact["altered"]) not in text, fact["altered"]
    found = bench.run_sources(None, data)
    wrong = [o for o in found if o.case.kind == "wrong"]
    correct = [o for o in found if o.case.kind == "correct"]
    assert len(wrong) == 373
    assert len(correct) == 240
    # the first run (heldout7/SOURCES.md; data of 9d69c76, the verifier of main
    # 526db15): 322 of 373 wrong flagged (every unflagged one a number of the same
    # passage), 7 of 240 correct flagged (2 of 227 of documented readings). Seen since:
    # the readings written from its misses (a year in Chinese digits is a date, digits
    # + 成, Markdown emphasis in a quote) flag no correct one; the one wrong citation
    # they let through (6% of d-en-10) had been flagged only for its quote's asterisks
    assert sum(o.flagged for o in wrong) >= 321
    assert sum(o.flagged for o in correct) == 0
    quotes = [o for o in wrong if o.case.cls in ("absent_quote", "altered_quote", "no_source")]
    assert all(o.right for o in quotes)


def unmarked(text: str) -> str:
    """``text`` in NFKC with its whitespace folded and Markdown's asterisks left out."""
    return " ".join(unicodedata.normalize("NFKC", text).split()).replace("*", "")


def test_the_eighth_fresh_set_is_sound_and_no_worse_than_its_first_run() -> None:
    bench = benchmark()
    data = bench.HELDOUT8
    raw = json.loads((data / "passages.json").read_text("utf-8"))["passages"]
    texts = {p["id"]: unmarked(p["text"]) for p in raw}
    for fact in json.loads((data / "facts.json").read_text("utf-8"))["facts"]:
        # one quote (c-zh-15) leaves out the passage's Markdown emphasis (normalisation
        # rule 9); every other quote is verbatim
        assert unmarked(fact["quote"]) in texts[fact["passage"]], fact["quote"]
        for bad in (fact["altered"], *fact.get("altered_also", []), *fact.get("absent", [])):
            assert unmarked(bad) not in texts[fact["passage"]], bad
    found = bench.run_sources(None, data)
    wrong = [o for o in found if o.case.kind == "wrong"]
    correct = [o for o in found if o.case.kind == "correct"]
    assert (len(wrong), len(correct)) == (512, 343)
    # the first run (heldout8/SOURCES.md; data of 8ebeef4, the checker of main c658562):
    # 453 of 512 wrong flagged (53 of the 59 unflagged are numbers of the same passage),
    # none of 343 correct flagged; market 63 of 64 wrong, none of 29 correct. Since the
    # three checker faults it found were read (a list count is no scaled amount, 3G is
    # no bare figure, a line marker is no list item): 456
    assert sum(o.flagged for o in wrong) >= 456
    assert sum(o.flagged for o in correct) == 0
    quotes = ("absent_quote", "absent_plausible", "altered_quote", "no_source")
    assert all(o.right for o in wrong if o.case.cls in quotes)
    market = bench.run_market(None, data)
    assert sum(o.right for o in market if o.case.kind == "wrong") >= 63
    assert not any(o.flagged for o in market if o.case.kind == "correct")
