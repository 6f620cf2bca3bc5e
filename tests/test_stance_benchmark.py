"""The stance benchmark's topic sets and its reading of the model's own words
(``benchmarks/stance.py``; docs/sides.md gives its figures)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from moot.formats.structured.sides import claim_prefix, thesis, yes_no

ROOT = Path(__file__).resolve().parent.parent


def benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("stance_bench", ROOT / "benchmarks" / "stance.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


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
