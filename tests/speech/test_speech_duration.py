"""The speech-duration controller: the budget search on its own, and the controller
with real synthesis and deterministic writers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from moot.formats.competitive.speech import (
    BudgetSearch,
    EspeakClock,
    EstimateClock,
    TimedSpeech,
    acontrol_duration,
    control_duration,
    espeak,
)
from moot.text import sentence_ends, word_count

DATA = Path(__file__).parent.parent / "data" / "speech"
EN = (DATA / "en.txt").read_text(encoding="utf-8")
ZH = (DATA / "zh.txt").read_text(encoding="utf-8")
ESTIMATE = EstimateClock(reason="tests of the search")


def truncating_writer(lang: str) -> Callable[[int], str]:
    """A deterministic writer: the first n words of the source speech (repeated when
    n is longer), as a model asked for n words might write."""
    source = EN if lang == "en" else ZH
    if lang == "en":
        words = source.split()
        return lambda n: " ".join((words * (n // len(words) + 1))[:n])
    return lambda n: (source * (n // len(source) + 2))[: round(n * 1.5)]


# -- the search -------------------------------------------------------------------------


def run_search(search: BudgetSearch, seconds_for: Callable[[int], float]) -> list[int]:
    budgets = []
    while search.budget is not None:
        budgets.append(search.budget)
        search.record(seconds_for(search.budget))
    return budgets


def test_the_first_budgets_are_those_of_the_public_code() -> None:
    assert BudgetSearch(240).budget == 522
    assert BudgetSearch(120).budget == 261
    assert BudgetSearch(240).window == (225, 241)


def test_a_speech_inside_the_window_ends_the_search() -> None:
    search = BudgetSearch(240)
    search.record(230.0)
    assert search.budget is None


def test_the_first_step_aims_at_the_middle_of_the_window() -> None:
    search = BudgetSearch(240)
    search.record(200.0)  # 33 s short of 233 s: 33 / 0.46 = 72 more words
    assert search.budget == 522 + 72
    search = BudgetSearch(240)
    search.record(280.0)  # 47 s over: 102 fewer words
    assert search.budget == 522 - 102


def test_bisection_once_both_sides_are_known() -> None:
    search = BudgetSearch(240)
    search.record(200.0)  # 522 short
    assert search.budget == 594
    search.record(250.0)  # 594 long: bisect [522, 594]
    assert search.budget == 558
    search.record(243.0)  # 558 long: [522, 558]
    assert search.budget == 540
    search.record(220.0)  # 540 short: [540, 558]
    assert search.budget == 549


def test_the_search_stops_when_no_budget_is_left_between() -> None:
    search = BudgetSearch(240)
    budgets = run_search(search, lambda n: 200.0 if n <= 560 else 250.0)
    # a jump from 200 s to 250 s between two neighbouring budgets: nothing fits
    assert budgets[-2:] in ([560, 561], [561, 560])
    assert len(budgets) <= 10


def test_at_most_ten_tries() -> None:
    # a writer that ignores its budget never fits
    budgets = run_search(BudgetSearch(240), lambda n: 100.0)
    assert len(budgets) == 10
    budgets = run_search(BudgetSearch(240, max_tries=3), lambda n: 100.0)
    assert len(budgets) == 3


def test_a_newer_try_overrides_a_contradicting_one() -> None:
    search = BudgetSearch(240)
    search.record(200.0)  # 522 short
    search.record(250.0)  # 594 long
    assert search.budget == 558
    search.record(200.0)  # 558 short
    search.record(250.0)  # 576 long
    assert search.budget == 567
    search.record(260.0)  # 567 long: but 558 was short, so the bracket is [558, 567]
    assert search.budget == 562


@pytest.mark.parametrize(
    "arguments",
    [
        {"target": 10},
        {"target": 240, "max_tries": 0},
        {"target": 240, "tolerance": -1},
        {"target": 240, "seconds_per_word": 0},
    ],
)
def test_bad_search_settings(arguments: dict[str, float]) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - the settings vary
        BudgetSearch(**arguments)  # type: ignore[arg-type]


def test_recording_after_the_end_is_an_error() -> None:
    search = BudgetSearch(240)
    search.record(230.0)
    with pytest.raises(RuntimeError, match="over"):
        search.record(230.0)


# -- the controller with real synthesis ------------------------------------------------


def assert_consistent(result: TimedSpeech, lang: str) -> None:
    """Every step is a real measurement, and the result's seconds are the text's."""
    assert 1 <= len(result.steps) <= 10
    assert result.duration_source == "espeak-ng"
    assert result.measured_seconds == pytest.approx(
        espeak().synthesise(result.text, lang).seconds, abs=0.2
    )
    assert result.steps[0].budget == round(result.target_seconds / 0.46)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("target", [240.0, 120.0, 60.0])
def test_the_controller_fits_a_speech_into_its_window(lang: str, target: float) -> None:
    result = control_duration(truncating_writer(lang), target, lang, clock=EspeakClock())
    assert result.within, result.steps
    assert target - 15 <= result.measured_seconds <= target + 1
    assert not result.cut
    assert_consistent(result, lang)
    last = result.steps[-1]
    assert last.seconds == result.measured_seconds
    assert last.words == word_count(result.text)


def test_a_writer_that_writes_too_much_is_cut_at_a_sentence() -> None:
    result = control_duration(lambda n: EN, 120.0, "en", clock=EspeakClock())
    assert result.cut
    assert result.within
    assert EN.startswith(result.text)
    assert result.text.endswith((".", "!", "?"))
    assert len(result.text) in sentence_ends(EN)
    assert all(step.seconds > 121 for step in result.steps)
    assert_consistent(result, "en")


def test_a_chinese_speech_is_cut_at_a_chinese_sentence() -> None:
    result = control_duration(lambda n: ZH, 90.0, "zh", clock=EspeakClock())
    assert result.cut
    assert result.within
    assert result.text.endswith(("。", "！", "？"))


def test_a_first_sentence_too_long_is_cut_at_a_word() -> None:
    run_on = " ".join(EN.replace(".", ",").split())  # one long sentence
    result = control_duration(lambda n: run_on, 30.0, "en", clock=EspeakClock())
    assert result.cut
    assert run_on.startswith(result.text)
    assert result.measured_seconds <= 31
    assert run_on[len(result.text)] == " "


def test_a_writer_that_writes_too_little_gives_its_longest_try() -> None:
    texts = iter(["Short.", "A little longer now.", "Short again."] * 4)
    result = control_duration(lambda n: next(texts), 120.0, "en", clock=EspeakClock())
    assert not result.within
    assert not result.cut
    assert result.text == "A little longer now."
    assert len(result.steps) == 10


def test_the_estimate_is_labelled() -> None:
    result = control_duration(truncating_writer("en"), 120.0, "en", clock=ESTIMATE)
    assert result.duration_source == "estimate"
    assert result.measured_seconds == pytest.approx(261 * 0.46)


def test_the_async_controller_gives_the_same_result() -> None:
    write = truncating_writer("zh")

    async def rewrite(n: int) -> str:
        await asyncio.sleep(0)
        return write(n)

    result = asyncio.run(acontrol_duration(rewrite, 240.0, "zh", clock=EspeakClock()))
    again = control_duration(write, 240.0, "zh", clock=EspeakClock())
    assert [s.budget for s in result.steps] == [s.budget for s in again.steps]
    assert result.text == again.text
    assert result.within
