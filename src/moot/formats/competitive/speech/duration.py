"""The speech-duration controller: fit a speech into its time window.

A writer is asked for a speech of n words (``rewrite(n) -> text``); the text is
synthesised and its duration t measured. The first budget is T / 0.46 words (about
130 words a minute: 522 words for 240 s, 261 for 120 s). While t is outside the
window [T - 15 s, T + 1 s] the budget moves: by (aim - t) / 0.46 words (aim = the
window's centre) until one budget gave too short a speech and another too long a
one, then by bisection between the two. The search stops inside the window, after
10 tries, or when no whole budget is left between the two. If no try fitted, the
shortest over-long text is cut at a sentence boundary (at a word when even its
first sentence is too long), unless a try that fell short is longer than the cut.

Durations come from espeak-ng (``duration_source = "espeak-ng"``). Only when
synthesis is unavailable do they come from the word count at 0.46 s a word,
labelled ``"estimate"``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Final, Literal, Protocol

from moot.formats.competitive.speech.espeak import SpeechUnavailable, espeak
from moot.text import sentence_ends, word_count

DurationSource = Literal["espeak-ng", "estimate"]
SECONDS_PER_WORD: Final = 0.46
"""The public TreeDebater code's speaking rate: about 130 words a minute."""
TOLERANCE: Final = 15.0
"""How far under its target a speech may end."""
OVERRUN: Final = 1.0
"""How far over its target a speech may run."""
MAX_TRIES: Final = 10


class Clock(Protocol):
    """Measures how long a text takes to say."""

    @property
    def source(self) -> DurationSource: ...

    def seconds(self, text: str, lang: str) -> float: ...


class EspeakClock:
    """Seconds of audio espeak-ng synthesises for the text."""

    source: DurationSource = "espeak-ng"

    def seconds(self, text: str, lang: str) -> float:
        return espeak().synthesise(text, lang).seconds


@dataclass(frozen=True)
class EstimateClock:
    """Seconds from the word count at ``SECONDS_PER_WORD``: used only when synthesis is
    unavailable, and ``reason`` says why."""

    reason: str
    source: DurationSource = "estimate"

    def seconds(self, text: str, lang: str) -> float:
        return word_count(text) * SECONDS_PER_WORD


def default_clock() -> EspeakClock | EstimateClock:
    """espeak-ng when it loads, else the labelled estimate (with the reason)."""
    try:
        espeak()
    except SpeechUnavailable as exc:
        return EstimateClock(reason=str(exc))
    return EspeakClock()


@dataclass(frozen=True)
class BudgetStep:
    """One try: the word budget asked for, the words written and the seconds measured."""

    budget: int
    words: int
    seconds: float


@dataclass(frozen=True)
class TimedSpeech:
    """The controller's result. ``steps`` holds every try in order; ``cut`` says the
    text is a try cut at a sentence (or word) boundary to fit."""

    text: str
    target_seconds: float
    window: tuple[float, float]
    measured_seconds: float
    duration_source: DurationSource
    steps: list[BudgetStep] = field(default_factory=list)
    cut: bool = False

    @property
    def within(self) -> bool:
        """Whether the speech ends inside its window."""
        low, high = self.window
        return low <= self.measured_seconds <= high


class BudgetSearch:
    """The word-budget search, without writing or measuring: ``budget`` is the next
    budget to try (None when the search is over); ``record`` reports its seconds."""

    def __init__(
        self,
        target: float,
        *,
        tolerance: float = TOLERANCE,
        overrun: float = OVERRUN,
        max_tries: int = MAX_TRIES,
        seconds_per_word: float = SECONDS_PER_WORD,
    ) -> None:
        if not target > tolerance:
            raise ValueError(f"the target ({target} s) must be longer than the tolerance")
        if max_tries < 1 or tolerance < 0 or overrun < 0 or not seconds_per_word > 0:
            raise ValueError("max_tries >= 1, tolerance >= 0, overrun >= 0, seconds_per_word > 0")
        self.window = (target - tolerance, target + overrun)
        self._aim = sum(self.window) / 2
        self._per_word = seconds_per_word
        self._tries_left = max_tries
        self._short: int | None = None  # the largest budget known to fall short
        self._long: int | None = None  # the smallest budget known to run over
        self.budget: int | None = max(1, round(target / seconds_per_word))

    def record(self, seconds: float) -> None:
        """Record the seconds the current budget gave and choose the next one."""
        budget = self.budget
        if budget is None:
            raise RuntimeError("the search is over")
        self._tries_left -= 1
        low, high = self.window
        if low <= seconds <= high or self._tries_left == 0:
            self.budget = None
            return
        # the newest try wins over an older one that contradicts it
        if seconds < low:
            self._short = budget
            if self._long is not None and self._long <= budget:
                self._long = None
        else:
            self._long = budget
            if self._short is not None and self._short >= budget:
                self._short = None
        if self._short is not None and self._long is not None:
            middle = (self._short + self._long) // 2
            self.budget = middle if middle > self._short else None
            return
        step = round((self._aim - seconds) / self._per_word)
        following = max(1, budget + step)
        if following == budget:
            self.budget = None
        else:
            self.budget = following


def _word_ends(text: str) -> list[int]:
    ends = [i for i in range(1, len(text)) if text[i].isspace() and not text[i - 1].isspace()]
    return [*ends, len(text.rstrip())] if text.strip() else []


def _longest_prefix(
    text: str, ends: list[int], lang: str, high: float, clock: Clock
) -> tuple[str, float] | None:
    """The longest ``text[:end]`` that lasts at most ``high`` seconds, by bisection
    (a longer prefix never takes less time to say)."""
    best = None
    low_index, high_index = 0, len(ends) - 1
    while low_index <= high_index:
        middle = (low_index + high_index) // 2
        prefix = text[: ends[middle]]
        seconds = clock.seconds(prefix, lang)
        if seconds <= high:
            best = (prefix, seconds)
            low_index = middle + 1
        else:
            high_index = middle - 1
    return best


def _fit(text: str, lang: str, high: float, clock: Clock) -> tuple[str, float]:
    """``text`` cut at the last sentence boundary that keeps it within ``high`` seconds
    (at a word boundary when even its first sentence is too long)."""
    ends = sentence_ends(text)
    fitted = _longest_prefix(text, ends, lang, high, clock)
    if fitted is None and ends:
        fitted = _longest_prefix(text, _word_ends(text[: ends[0]]), lang, high, clock)
    return fitted or ("", 0.0)


class _Tries:
    """The tries of one control run and the choice among them at the end."""

    def __init__(
        self,
        target: float,
        lang: str,
        clock: Clock,
        tolerance: float,
        overrun: float,
        max_tries: int,
    ) -> None:
        self.search = BudgetSearch(
            target, tolerance=tolerance, overrun=overrun, max_tries=max_tries
        )
        self.target = target
        self.lang = lang
        self.clock = clock
        self.tries: list[tuple[str, BudgetStep]] = []

    def record(self, budget: int, text: str, seconds: float) -> None:
        self.tries.append((text, BudgetStep(budget, word_count(text), seconds)))
        self.search.record(seconds)

    def finish(self) -> TimedSpeech:
        """The try inside the window; else the shortest over-long try cut to fit, or
        the longest short try when that is longer than the cut."""
        low, high = window = self.search.window
        steps = [step for _, step in self.tries]

        def result(text: str, seconds: float, cut: bool = False) -> TimedSpeech:
            return TimedSpeech(text, self.target, window, seconds, self.clock.source, steps, cut)

        for text, step in reversed(self.tries):
            if low <= step.seconds <= high:
                return result(text, step.seconds)
        short = max(
            (t for t in self.tries if t[1].seconds < low), key=lambda t: t[1].seconds, default=None
        )
        long = min(
            (t for t in self.tries if t[1].seconds > high), key=lambda t: t[1].seconds, default=None
        )
        if long is not None:
            text, seconds = _fit(long[0], self.lang, high, self.clock)
            if short is None or seconds >= short[1].seconds:
                return result(text, seconds, cut=True)
        if short is None:
            raise ValueError("no try to choose from")
        return result(short[0], short[1].seconds)


def control_duration(
    rewrite: Callable[[int], str],
    target_seconds: float,
    lang: str,
    *,
    clock: Clock | None = None,
    tolerance: float = TOLERANCE,
    overrun: float = OVERRUN,
    max_tries: int = MAX_TRIES,
) -> TimedSpeech:
    """Ask ``rewrite`` for speeches of different word budgets until one lasts between
    ``target_seconds - tolerance`` and ``target_seconds + overrun`` (see the module)."""
    timer = clock if clock is not None else default_clock()
    run = _Tries(target_seconds, lang, timer, tolerance, overrun, max_tries)
    while (budget := run.search.budget) is not None:
        text = rewrite(budget)
        run.record(budget, text, timer.seconds(text, lang))
    return run.finish()


async def acontrol_duration(
    rewrite: Callable[[int], Awaitable[str]],
    target_seconds: float,
    lang: str,
    *,
    clock: Clock | None = None,
    tolerance: float = TOLERANCE,
    overrun: float = OVERRUN,
    max_tries: int = MAX_TRIES,
) -> TimedSpeech:
    """:func:`control_duration` with an async ``rewrite`` (a model call); synthesis
    runs in a worker thread so the event loop stays free."""
    timer = clock if clock is not None else await asyncio.to_thread(default_clock)
    run = _Tries(target_seconds, lang, timer, tolerance, overrun, max_tries)
    while (budget := run.search.budget) is not None:
        text = await rewrite(budget)
        run.record(budget, text, await asyncio.to_thread(timer.seconds, text, lang))
    return await asyncio.to_thread(run.finish)
