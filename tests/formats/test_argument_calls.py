"""One opening argument per call (profiles with ``argument_calls``: the compact one),
near-copies asked for again, the shared prompt text first, and the compact profile's
Chinese bounds."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence

import pytest

from invariants import check_result_json
from moot import run_debate
from moot.formats.structured import rules
from moot.formats.structured.replies import ArgumentDraft, OpeningReply
from moot.formats.structured.rounds import ArgumentCall, OpeningCall
from moot.llm.schemas import output_spec
from moot.llm.scripted import DemoBackend
from moot.llm.types import (
    CallContext,
    Completion,
    GenerationSettings,
    Message,
    OutputSpec,
    Usage,
)
from moot.profiles import COMPACT, STANDARD

TOPIC = "Should a town ban fireworks at New Year?"
COPY = "Yes, because fireworks frighten pets and wild animals every single year."


class Recording:
    """scripted:demo, recording every call and how many were in flight at once; with
    ``copy``, every argument after a side's first (not asked again) repeats ``COPY``;
    ``fault`` rewrites the demo's reply to pro's second argument."""

    def __init__(
        self, *, copy: bool = False, fault: Callable[[dict[str, object]], str] | None = None
    ) -> None:
        self._inner = DemoBackend(seed=3)
        self.copy = copy
        self.fault = fault
        self.calls: list[tuple[CallContext, list[Message]]] = []
        self.specs: list[OutputSpec | None] = []
        self.in_flight = 0
        self.peak: dict[str, int] = {}

    @property
    def spec(self) -> str:
        return "scripted:demo"

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        assert context is not None
        self.calls.append((context, list(messages)))
        self.specs.append(schema)
        self.in_flight += 1
        self.peak[context.round] = max(self.peak.get(context.round, 0), self.in_flight)
        await asyncio.sleep(0)  # let the calls sent beside this one arrive
        self.in_flight -= 1
        data = context.data
        if self.copy and isinstance(data, ArgumentCall) and data.number > 1 and not data.said:
            draft = ArgumentDraft(
                claim=COPY, reasoning="Because loud bangs scare animals.", evidence="A 2019 poll."
            )
            return Completion(draft.model_dump_json(), "stop", Usage(), model=self.spec)
        completion = await self._inner.generate(
            messages, schema=schema, settings=settings, context=context
        )
        if (
            self.fault
            and isinstance(data, ArgumentCall)
            and (data.position, data.number)
            == (
                "pro",
                2,
            )
        ):
            return Completion(self.fault(json.loads(completion.text)), "stop", Usage(), self.spec)
        return completion

    def openings(self) -> list[tuple[CallContext, list[Message]]]:
        return [(c, m) for c, m in self.calls if c.round == "opening"]

    def argument_calls(self) -> list[tuple[ArgumentCall, list[Message]]]:
        return [(c.data, m) for c, m in self.openings() if isinstance(c.data, ArgumentCall)]

    def argument_calls_with_specs(self) -> list[tuple[ArgumentCall, list[Message], OutputSpec]]:
        return [
            (c.data, m, s)
            for (c, m), s in zip(self.calls, self.specs, strict=True)
            if isinstance(c.data, ArgumentCall) and s is not None
        ]


def test_the_compact_profile_asks_each_argument_on_its_own_from_its_own_angle() -> None:
    backend = Recording()
    result = run_debate(TOPIC, model=backend, seed=3, profile="compact")
    openings = backend.argument_calls()
    assert len(openings) == len(backend.openings())
    data = [d for d, _ in openings]
    per_side = {side: [d for d in data if d.position == side] for side in ("pro", "con")}
    assert {side: len(calls) for side, calls in per_side.items()} == {"pro": 3, "con": 3}
    # each argument from its own angle, named at the end of its prompt: gains for the
    # side for the topic, harms for the side against it
    assert len({d.angle for d in per_side["pro"]}) == 3
    assert {d.angle for d in per_side["pro"]}.isdisjoint(d.angle for d in per_side["con"])
    for call, messages in openings:
        assert f"\nThis argument is about {call.angle}.\n" in messages[-1].content
    # each claim starts from the side's statement of the topic and its angle's first
    # words, written by the grammar and shown last in the prompt
    starts = {
        (c.position, c.number): (dict(s.prefixes)["claim"], m[-1].content)
        for c, m, s in backend.argument_calls_with_specs()
    }
    assert (
        starts[("pro", 1)][0] == "A town should ban fireworks at New Year, because it would save "
    )
    # the side against asks what the topic would make worse and why it would not work,
    # not who it would harm ("it would harm the environment" for anything)
    assert starts[("con", 2)][0] == (
        "A town should not ban fireworks at New Year, because it would make "
    )
    assert starts[("con", 3)][0].endswith("New Year, because it would fail to ")
    assert starts[("pro", 3)][0].endswith("New Year, because it would prevent ")
    for start, content in starts.values():
        assert content.endswith(f"\nYour claim starts: {start.rstrip()}")
    # every argument call of the round is in flight at once (the default cap on calls
    # in flight leaves room for them): one wave, not three
    assert backend.peak["opening"] == 6
    assert [a["id"] for a in result.body["arguments"]] == [
        *("PRO-1", "PRO-2", "PRO-3", "CON-1", "CON-2", "CON-3")
    ]


def test_a_capable_model_keeps_one_opening_call_per_side() -> None:
    backend = Recording()
    run_debate(TOPIC, model=backend, seed=3, profile="standard")
    assert [type(c.data) for c, _ in backend.openings()] == [OpeningCall, OpeningCall]
    assert not STANDARD.argument_calls
    assert COMPACT.argument_calls


def test_a_near_copy_is_asked_for_again_with_what_the_side_already_said() -> None:
    backend = Recording(copy=True)
    result = run_debate(TOPIC, model=backend, seed=3, profile="compact")
    again = [(d, m) for d, m in backend.argument_calls() if d.said]
    # the second argument copies nothing yet (the first is the demo's own); the third
    # copies the second, and each side asks for it once more
    assert sorted((d.position, d.number) for d, _ in again) == [("con", 3), ("pro", 3)]
    for call, messages in again:
        assert call.said[-1] == COPY
        assert f"- {COPY}\n" in messages[-1].content
        assert "Do not say that again" in messages[-1].content
    for side in ("pro", "con"):
        claims = [a["claim"] for a in result.body["arguments"] if a["side"] == side]
        assert rules.near_copy_pairs(claims) == 0
    # each near-copy re-ask is a re-ask in the run's usage: the calls add up
    assert result.usage.reasks == 2
    check_result_json(result.model_dump_json())


def test_claims_that_share_only_their_sides_start_are_not_near_copies() -> None:
    """Every claim of a side starts with the same words the grammar writes (the side's
    statement of the topic); only the words after them are compared."""
    start = "A town should not ban fireworks at New Year, because "
    first = start + "it would cost money."
    other = start + "dogs bark."
    assert rules.near_copy(first, [start + "it would cost money!"], start)
    assert not rules.near_copy(other, [first], start)
    assert rules.near_copy(other, [first])  # compared whole, the shared start dominates
    assert rules.near_copy_pairs([first, other], start) == 0


class Started(Recording):
    """scripted:demo whose opening claims start as the grammar makes them start on the
    embedded model: with the start the call's spec asks for."""

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        completion = await super().generate(
            messages, schema=schema, settings=settings, context=context
        )
        if context is None or not isinstance(context.data, ArgumentCall) or schema is None:
            return completion
        draft = json.loads(completion.text)
        draft["claim"] = dict(schema.prefixes)["claim"] + "pets and wild animals panic."
        return Completion(json.dumps(draft), "stop", Usage(), model=self.spec)


def test_a_claim_that_starts_as_the_grammar_writes_it_is_not_an_echo() -> None:
    """The start (the side's statement of the topic, 40-70 characters) is shown in the
    prompt, but not in the claim's field line, which the echo check compares: a claim
    that starts with it is the model's claim, not a copy of its description."""
    result = run_debate(TOPIC, model=Started(), seed=3, profile="compact")
    claims = [a["claim"] for a in result.body["arguments"]]
    assert claims[0] == (
        "A town should ban fireworks at New Year, because it would save pets and wild"
        " animals panic."
    )
    assert not [w for w in result.warnings if w.code in ("echo", "unusable_text")]
    check_result_json(result.model_dump_json())


def test_the_calls_of_a_compact_debate_add_up() -> None:
    """One call per opening argument, then cross-examinations, closings and the judge:
    the result's invariants count them from the recorded profiles."""
    result = run_debate(TOPIC, model=Recording(), seed=3, profile="compact")
    assert result.usage.calls == 6 + 2 + 2 + 1
    check_result_json(result.model_dump_json())


def test_both_sides_prompts_share_the_rules_and_the_topic_first() -> None:
    """llama.cpp reuses a prompt's cached prefix: the side's own words come after the
    text every debater is sent."""
    backend = Recording()
    run_debate(TOPIC, model=backend, seed=3, profile="compact")
    systems = {c.side: m[0].content for c, m in backend.openings()}
    pro, con = systems["pro"], systems["con"]
    shared = pro[: next(n for n, (a, b) in enumerate(zip(pro, con, strict=False)) if a != b)]
    assert shared.startswith("Rules of this structured debate:")
    assert f"Topic: {TOPIC}" in shared
    assert "PRO" not in shared
    assert "CON" not in shared


def test_near_copies_by_the_rule() -> None:
    first = "No, because of the fact that a company has to have a minimum budget."
    assert rules.near_copy(first.replace("minimum", "minimal"), [first])
    assert not rules.near_copy("No, because staff would lose focus in open offices.", [first])
    assert rules.near_copy_pairs([first, first, first, "No, because it is loud."]) == 3


def test_one_arguments_problems_are_placed_where_it_stands() -> None:
    """Within the call, a problem's path is the argument's field (what the model is
    told on a re-ask); in the result, the argument's place in the opening."""
    draft = ArgumentDraft(
        claim="Is it good?", reasoning="It just is, really, truly.", evidence="x" * 10
    )
    wheres = {p.where for p in rules.check_argument(draft, "en")}
    assert wheres == {"claim", "reasoning", "evidence"}

    def question(good: dict[str, object]) -> str:
        return json.dumps({**good, "claim": "Is a monolith really simpler for ten people?"})

    backend = Recording(fault=question)
    result = run_debate(TOPIC, model=backend, seed=3, profile="compact")
    (warning,) = [w for w in result.warnings if w.code == "claim_question"]
    assert (warning.side, warning.where) == ("pro", "arguments[2].claim")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_compact_profile_has_tighter_chinese_bounds(lang: str) -> None:
    def claim_max(profile: object, lang: str) -> int:
        spec = profile.spec(output_spec(OpeningReply), lang)  # type: ignore[attr-defined]
        items = spec.json_schema["properties"]["arguments"]["items"]
        return int(items["properties"]["claim"]["maxLength"])

    # relative to its own English bounds, compact Chinese is 0.35, standard Chinese 0.5
    ratio = {p.name: claim_max(p, lang) / claim_max(p, "en") for p in (STANDARD, COMPACT)}
    assert ratio == (
        {"standard": 1.0, "compact": 1.0} if lang == "en" else {"standard": 0.5, "compact": 0.35}
    )


def test_each_side_of_an_a_or_b_question_argues_for_its_option() -> None:
    """ "Night train or plane ...?": pro argues for the first option and con for the
    second, each claim starts from its option, both from their option's gains, and the
    prompts and the briefing name the options."""
    from moot.report.markdown import to_markdown

    topic = "Night train or plane for a 700 km business trip?"
    backend = Recording()
    result = run_debate(topic, model=backend, seed=3, profile="compact")
    starts = {
        (c.position, c.number): (dict(s.prefixes)["claim"], m)
        for c, m, s in backend.argument_calls_with_specs()
    }
    assert starts[("pro", 1)][0] == "Night train, because it would save "
    assert starts[("con", 1)][0] == "Plane, because it would save "
    assert starts[("con", 3)][0] == "Plane, because it would prevent "
    system, user = (m.content for m in starts[("con", 1)][1])
    assert 'You are the CON side. You argue for "plane", not "Night train"' in system
    assert "AGAINST" not in system + user
    assert 'for "plane"' in user
    assert [p.name for p in result.positions] == ["Pro (Night train)", "Con (plane)"]
    briefing = to_markdown(result)
    assert "**Positions:** Pro (Night train), Con (plane)" in briefing


@pytest.mark.parametrize(
    ("topic", "lang", "singular", "plural"),
    [
        (
            "Hainan or the North-East for a winter trip?",
            "en",
            ("The other side's arguments", "How the other side answered them"),
            ("positions'", "other positions"),
        ),
        ("冬季旅行去海南还是去东北？", "zh", ("对方的论据", "对方对你方论据的回应"), ("其他各方",)),
    ],
)
def test_an_a_or_b_debate_calls_the_one_opponent_the_other_side(
    topic: str, lang: str, singular: tuple[str, ...], plural: tuple[str, ...]
) -> None:
    """Two options argued by two sides: the cross-examination and closing prompts speak
    of one other side, not of other positions (the form for three or more)."""
    backend = Recording()
    run_debate(topic, model=backend, seed=3, lang=lang)
    prompts = {
        context.round: "\n".join(m.content for m in messages)
        for context, messages in backend.calls
        if context.round in ("cross_examination", "closing")
    }
    assert set(prompts) == {"cross_examination", "closing"}
    assert singular[0] in prompts["cross_examination"]
    assert singular[1] in prompts["closing"]
    for text in prompts.values():
        assert not any(words in text for words in plural)
