"""``--swap-sides`` follows the models, for every registered format and any number of
positions, as the call journal shows.

Each format runs with ``scripted:demo`` twice into a real store: once as it is, once
with the swap rerun. The swap exchanges mirrored positions (the i-th of n and the
(n+1-i)-th: pro and con, bull and bear, ``A`` and ``C`` of three, the middle one
keeping its own). In the rerun every call of a role must carry the seed that the
mirrored role's call of the same round carried in the first run (a role the format
derives from a position, like the market's ``bull:tech_bull``, mirrors the role in
the same place among the mirrored position's roles; the judge and the roles it plays
keep their own; a round named after a position, like the competitive format's
``opening_pro``, mirrors as well), go to the mirrored role's model, and the judge must
read the positions in reverse order.

The journal does not keep a call's seed; the demo model records the settings each
request reached it with, keyed by the request's identity, which the journal does
keep (``request_hash`` covers the seed)."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

import moot
from moot.formats import formats, get_format
from moot.judging.judge import JudgeCall
from moot.llm.backend import register_provider, unregister_provider
from moot.llm.requests import request_hash
from moot.llm.scripted import DemoBackend
from moot.llm.types import CallContext, Completion, GenerationSettings, Message, OutputSpec
from moot.store import CallRow, Store

TOPIC = "Should a city of a million people make its buses free?"
SEED = 11
OTHER_MODEL = "other:demo"
"""A second model (the same demo writer under another spec, with no latency: the fast
tier does not sleep), so that a call shows in the journal which position's model it
went to."""


class OtherDemo(DemoBackend):
    """The demo model under the spec ``other:demo``."""

    @property
    def spec(self) -> str:
        return OTHER_MODEL


@pytest.fixture(autouse=True)
def other_provider() -> Iterator[None]:
    """``other:demo`` resolves to :class:`OtherDemo` for the test's runs."""
    previous = register_provider(
        "other", lambda rest, seed, timeout: OtherDemo(seed, timeout=timeout)
    )
    yield
    if previous is None:
        unregister_provider("other")
    else:
        register_provider("other", previous)


TWO_LENSES = {
    "lenses": {
        "technical": {
            "modules": ["indices", "technicals"],
            "horizon": ["1d", "2w"],
            "label": {"en": "technical analysis", "zh": "技术分析"},
        },
        "fundamental": {
            "modules": ["indices", "sectors", "fundamentals"],
            "horizon": ["3m", "2y"],
            "label": {"en": "fundamental analysis", "zh": "基本面分析"},
        },
    },
    "agents": {
        name: {"lens": lens, "stance": stance, "focus": {"en": focus, "zh": focus}}
        for name, lens, stance, focus in (
            ("tech_bull", "technical", "bull", "Find bullish technical signals."),
            ("fund_bull", "fundamental", "bull", "Find fundamental support."),
            ("tech_bear", "technical", "bear", "Find bearish technical signals."),
            ("fund_bear", "fundamental", "bear", "Find fundamental risk."),
        )
    },
}
"""The market's smallest panel with two analysts a side (the bulls listed first)."""

SMALLEST: dict[str, dict[str, Any]] = {
    "freeform": {"rounds": 1},
    "market": {"kb": "demo", "analysts": TWO_LENSES, "baseline": True},
    "competitive": {
        "embedder": "lexical",
        "claims": 1,
        "branching": 1,
        "depth": 1,
        "voters": 2,
        "stage_seconds": {"opening": 40, "rebuttal": 40, "closing": 30},
    },
}
"""Each format's smallest options (a format not listed runs with none)."""

THREE = ("Hainan", "the North-East", "Yunnan")


@dataclass(frozen=True)
class Case:
    format: str
    sides: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.format}-{len(self.sides)}-named" if self.sides else self.format


CASES = [
    *(Case(fmt.name) for fmt in formats()),
    *(Case(fmt.name, THREE) for fmt in formats() if fmt.max_positions >= len(THREE)),
]


@dataclass(frozen=True)
class Sent:
    """What a request reached the model with."""

    seed: int | None
    reading: tuple[str, ...] | None
    """For a judge call: the positions of its units, in the order it reads them."""
    ids: tuple[str, ...] | None


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> dict[str, Sent]:
    """Every request the demo model answers, by its identity (as the journal keys it)."""
    seen: dict[str, Sent] = {}
    original = DemoBackend.generate

    async def generate(
        self: DemoBackend,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        data = context.data if context is not None else None
        reading = ids = None
        if isinstance(data, JudgeCall):
            reading = tuple(dict.fromkeys(unit.side for unit in data.units))
            ids = tuple(unit.id for unit in data.units)
        seen[request_hash(self.spec, messages, schema, settings)] = Sent(
            settings.seed, reading, ids
        )
        return await original(self, messages, schema=schema, settings=settings, context=context)

    monkeypatch.setattr(DemoBackend, "generate", generate)
    return seen


def mirror_of(case: Case, keys: Sequence[str]) -> dict[str, str]:
    """Each role's mirror: the positions reversed, and the k-th role a format derives
    from a position mirrored by the k-th of the mirrored position's roles."""
    fmt = get_format(case.format)
    positions = fmt.positions(case.sides, "en")
    assert [p.key for p in positions] == list(keys)
    derived = fmt.roles(positions, SMALLEST.get(case.format, {}))
    mirror = dict(zip(keys, reversed(keys), strict=True))
    by_position = {key: [role for role, of in derived.items() if of == key] for key in keys}
    for key, other in list(mirror.items()):
        mine, theirs = by_position[key], by_position[other]
        assert len(mine) == len(theirs), "mirrored positions with unlike roles"
        mirror.update(zip(mine, theirs, strict=True))
    return mirror


def run(case: Case, store: Store, run_id: str, *, swap: bool) -> moot.DebateResult:
    models: dict[str, Any] = {"model": "scripted:demo"}
    if not case.sides:
        models["con_model"] = OTHER_MODEL  # the second position's, here and in the rerun
    return moot.run_debate(
        TOPIC,
        store=store,
        debate_id=run_id,
        format=case.format,
        format_options=SMALLEST.get(case.format, {}),
        sides=case.sides,
        seed=SEED,
        cache="off",
        swap_sides=swap,
        **models,
    )


def by_role(rows: Sequence[CallRow], sent: dict[str, Sent]) -> dict[tuple[str, str], set[Any]]:
    """(role, round) -> the seeds and models its calls went with."""
    found: dict[tuple[str, str], set[Any]] = defaultdict(set)
    for row in rows:
        found[(row.role, row.round)].add((sent[row.request_hash].seed, row.model))
    return dict(found)


def judge_reading(rows: Sequence[CallRow], sent: dict[str, Sent]) -> set[tuple[str, ...]]:
    """The reading order of every judge call, checked against the journaled prompt."""
    orders = set()
    for row in rows:
        seen = sent[row.request_hash]
        if row.round != "judgement" or seen.reading is None:
            continue
        assert seen.ids is not None
        prompt = row.messages[-1]["content"]
        listed = re.search(r"in this order: (.+?)\. For each", prompt)
        assert listed is not None, prompt
        assert tuple(listed.group(1).split(", ")) == seen.ids  # the prompt reads that order
        orders.add(seen.reading)
    return orders


@pytest.mark.parametrize("case", CASES, ids=str)
def test_the_swap_rerun_gives_each_role_its_mirrors_seeds_and_model(
    case: Case, sent: dict[str, Sent], tmp_path: Any
) -> None:
    # one store each, no cache: every call of the rerun is made and journaled (the
    # competitive format would otherwise take the rehearsal trees the first run kept)
    with Store(tmp_path / "normal.db") as store:
        normal = run(case, store, "normal", swap=False)
        first = store.calls("normal")
    with Store(tmp_path / "swapped.db") as store:
        swapped = run(case, store, "swapped", swap=True)
        both = store.calls("swapped")
    assert swapped.swap is not None
    assert all(row.request_hash in sent for row in [*first, *both])
    keys = [p.key for p in normal.positions]
    mirror = mirror_of(case, keys)
    # the swap run's journal: the first run again, then the rerun
    again, rerun = both[: len(first)], both[len(first) :]

    def calls(rows: Sequence[CallRow]) -> Counter[tuple[str, str, int, int | None]]:
        return Counter((r.role, r.round, r.attempt, sent[r.request_hash].seed) for r in rows)

    assert calls(again) == calls(first)
    assert rerun

    before, after = by_role(first, sent), by_role(rerun, sent)
    assert set(after) == set(before)
    moved = 0
    for (role, round_name), seeds in after.items():
        # a round named after a position (competitive: opening_pro) mirrors it too
        mirrored = (
            mirror.get(role, role),
            "_".join(mirror.get(word, word) for word in round_name.split("_")),
        )
        assert seeds == before[mirrored], (role, round_name, mirrored)
        if before[mirrored] != before[(role, round_name)]:
            moved += 1
    # the swap changes something in every format: the mirrored roles' seeds differ
    assert moved >= len([k for k in keys if mirror[k] != k])

    assert judge_reading(first, sent) == {tuple(keys)}
    assert judge_reading(rerun, sent) == {tuple(reversed(keys))}
    if not case.sides:
        a, b = keys
        assert swapped.swap.models == {a: OTHER_MODEL, b: "scripted:demo"}
        assert not swapped.swap.same_model


def test_the_mirror_of_the_market_and_of_three_positions() -> None:
    """What the journal test above expects, spelled out."""
    market = mirror_of(Case("market"), ["bull", "bear"])
    assert market == {
        "bull": "bear",
        "bear": "bull",
        "bull:tech_bull": "bear:tech_bear",
        "bull:fund_bull": "bear:fund_bear",
        "bear:tech_bear": "bull:tech_bull",
        "bear:fund_bear": "bull:fund_bull",
    }
    assert mirror_of(Case("structured", THREE), ["A", "B", "C"]) == {"A": "C", "B": "B", "C": "A"}
