"""Every validation and re-ask path, through a whole debate.

A ``ScriptedBackend`` answers every call as ``scripted:demo`` would, except for the
faults a test injects into chosen calls; the tests then check what the engine did
with them: re-asked with the errors, counted the re-asks, or raised with the raw text.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence

import pytest

from moot import ModelOutputError, run_debate
from moot.formats.structured.payload import StructuredPayload
from moot.llm.scripted import DemoBackend, ScriptedBackend, ScriptedCall
from moot.llm.types import CallContext, Completion, GenerationSettings, Message, OutputSpec, Usage
from moot.schema import DebateResult
from moot.trust import unusable_fields

TOPIC = "Should a 10-person startup adopt microservices from day one?"
Fault = Callable[[dict[str, object]], str | Completion]


def faulty(faults: Mapping[tuple[str, str, int], Fault], name: str = "scripted") -> ScriptedBackend:
    """A backend that answers like the demo, but applies ``faults[(role, round, attempt)]``
    to the demo's reply on that attempt (attempt 1 is the first ask)."""
    demo = DemoBackend(seed=3)
    attempts: dict[tuple[str, str], int] = {}

    def answer(
        messages: Sequence[Message],
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None,
    ) -> str | Completion:
        assert context is not None
        key = (context.role, context.round)
        attempts[key] = attempts.get(key, 0) + 1
        reply = demo.reply(context, messages, seed=3)
        good: dict[str, object] = json.loads(
            reply if isinstance(reply, str) else reply.model_dump_json()
        )
        fault = faults.get((*key, attempts[key]))
        return fault(good) if fault else json.dumps(good)

    return ScriptedBackend(answer, name=name)


def debate(backend: ScriptedBackend, **options: object) -> DebateResult:
    return run_debate(TOPIC, model=backend, seed=3, **options)  # type: ignore[arg-type]


def body(result: DebateResult) -> StructuredPayload:
    return StructuredPayload.model_validate(result.body)


def reask_messages(backend: ScriptedBackend, role: str, round_name: str) -> list[str]:
    """The re-ask texts sent to ``role`` in ``round_name`` (last user message of each
    call after the first)."""
    calls = [
        c
        for c in backend.calls
        if c.context and (c.context.role, c.context.round) == (role, round_name)
    ]
    return [c.messages[-1].content for c in calls[1:]]


def test_clean_debate_needs_no_reask() -> None:
    backend = faulty({})
    result = debate(backend)
    assert result.usage.reasks == 0
    assert result.usage.calls == len(backend.calls) == 7


def test_malformed_json_is_reasked_and_counted() -> None:
    backend = faulty({("pro", "opening", 1): lambda good: json.dumps(good)[:-5]})
    result = debate(backend)
    assert result.usage.reasks == 1
    assert result.usage.calls == 8
    (reask,) = reask_messages(backend, "pro", "opening")
    assert "not valid JSON" in reask
    # the re-ask shows the model its own broken reply before the correction request
    pro_calls = [c for c in backend.calls if c.context and c.context.role == "pro"]
    assert pro_calls[1].messages[-2].role == "assistant"


def test_wrong_enum_value_is_reasked() -> None:
    def bad_response(good: dict[str, object]) -> str:
        responses = good["responses"]
        assert isinstance(responses, list)
        responses[0]["response"] = "destroy"
        return json.dumps(good)

    backend = faulty({("con", "cross_examination", 1): bad_response})
    result = debate(backend)
    assert result.usage.reasks == 1
    (reask,) = reask_messages(backend, "con", "cross_examination")
    assert "responses.0.response" in reask
    assert all(
        c.response in {"refute", "challenge", "concede", "partial"}
        for c in body(result).cross_examinations
    )


def test_missing_cross_examination_target_is_reasked() -> None:
    def drop_last(good: dict[str, object]) -> str:
        responses = good["responses"]
        assert isinstance(responses, list)
        responses.pop()
        return json.dumps(good)

    backend = faulty({("pro", "cross_examination", 1): drop_last})
    result = debate(backend)
    (reask,) = reask_messages(backend, "pro", "cross_examination")
    assert "is not answered" in reask
    con_ids = [a.id for a in body(result).arguments if a.side == "con"]
    answered = [c.target_id for c in body(result).cross_examinations if c.by == "pro"]
    assert sorted(answered) == sorted(con_ids)


def test_duplicate_cross_examination_target_is_reasked() -> None:
    def duplicate(good: dict[str, object]) -> str:
        responses = good["responses"]
        assert isinstance(responses, list)
        responses[-1] = dict(responses[0])
        return json.dumps(good)

    backend = faulty({("con", "cross_examination", 1): duplicate})
    result = debate(backend)
    (reask,) = reask_messages(backend, "con", "cross_examination")
    assert "exactly once" in reask
    targets = [c.target_id for c in body(result).cross_examinations if c.by == "con"]
    assert len(targets) == len(set(targets))


def test_new_argument_in_cross_examination_is_reasked() -> None:
    def new_argument(good: dict[str, object]) -> str:
        responses = good["responses"]
        assert isinstance(responses, list)
        responses[0]["reasoning"] = "New argument: hiring costs rise 40% with every service we add."
        return json.dumps(good)

    backend = faulty({("pro", "cross_examination", 1): new_argument})
    debate(backend)
    (reask,) = reask_messages(backend, "pro", "cross_examination")
    assert "new argument" in reask


def test_cut_off_reply_is_a_failure_and_reasked() -> None:
    def cut(good: dict[str, object]) -> Completion:
        return Completion(
            text=json.dumps(good), finish_reason="length", usage=Usage(10, 10), model="x"
        )

    backend = faulty({("judge", "judgement", 1): cut})
    result = debate(backend)
    assert result.usage.reasks == 1
    (reask,) = reask_messages(backend, "judge", "judgement")
    assert "cut off" in reask
    # the re-ask asks for half the length under the same output limit, so it fits
    first, second = [c for c in backend.calls if c.context and c.context.role == "judge"]
    assert first.schema is not None
    assert second.schema is not None
    assert second.settings.max_tokens == first.settings.max_tokens
    first_length = first.schema.json_schema["properties"]["key_insight"]["maxLength"]
    second_length = second.schema.json_schema["properties"]["key_insight"]["maxLength"]
    assert second_length == first_length // 2


def calls_of(backend: ScriptedBackend, role: str, round_name: str) -> list[ScriptedCall]:
    """Every call ``backend`` received for ``role`` in ``round_name``, in order."""
    return [
        c
        for c in backend.calls
        if c.context and (c.context.role, c.context.round) == (role, round_name)
    ]


def first_argument(good: dict[str, object]) -> dict[str, object]:
    """The first argument of an opening reply: the reply itself where each argument is
    asked for in its own call (the compact profile)."""
    if "arguments" not in good:
        return good
    arguments = good["arguments"]
    assert isinstance(arguments, list)
    first: dict[str, object] = arguments[0]
    return first


def loop_in_evidence(good: dict[str, object]) -> str:
    """A fault: the first argument's evidence loops ("1.1.1.1...") inside its limits."""
    first_argument(good)["evidence"] = "Survey 2023: " + "1." * 30
    return json.dumps(good)


def test_a_reply_that_looped_to_the_limit_is_reasked_with_a_new_seed_and_a_clipped_echo() -> None:
    loop = '{"arguments": [{"claim": "The 1' + ".1" * 2000

    def looped(good: dict[str, object]) -> Completion:
        return Completion(text=loop, finish_reason="length", usage=Usage(10, 10), model="x")

    backend = faulty({("pro", "opening", 1): looped, ("pro", "opening", 2): looped})
    result = debate(backend)
    assert result.usage.reasks == 2
    calls = calls_of(backend, "pro", "opening")
    seeds = [c.settings.seed for c in calls]
    assert seeds[0] is not None
    assert seeds == [seeds[0], seeds[0] + 1, seeds[0] + 2]
    # the loop is echoed only up to its first characters: the whole of it would prime
    # the model to loop again
    # (and only the last reply is shown: the prompt grows by one reply at most)
    echoes = [m.content for m in calls[2].messages if m.role == "assistant"]
    assert echoes == [loop[:300] + "…"]
    assert len(calls[2].messages) == len(calls[0].messages) + 2
    # each re-ask after a cut-off samples hotter: near-greedy sampling stays in its loop
    temperatures = [c.settings.temperature for c in calls]
    assert temperatures[0] < temperatures[1] < temperatures[2] <= 1.0


def test_a_reply_that_loops_inside_its_limits_is_reasked_hotter() -> None:
    backend = faulty({("con", "opening", 1): loop_in_evidence})
    result = debate(backend)
    (reask,) = reask_messages(backend, "con", "opening")
    assert "repeats itself in a loop" in reask
    assert "1.1.1.1" in reask
    first, second = calls_of(backend, "con", "opening")
    assert second.settings.temperature > first.settings.temperature
    assert all("1.1.1.1" not in a.evidence for a in body(result).arguments)


def test_without_rule_reasks_a_loop_is_kept_with_a_warning_and_shown_as_unusable() -> None:
    backend = faulty({("con", "opening", 1): loop_in_evidence})
    result = debate(backend, profile="compact")
    calls = calls_of(backend, "con", "opening")
    assert len(calls) == 3  # a call per argument; the compact profile re-asks no rule problem
    (warning,) = [w for w in result.warnings if w.code == "loop"]
    assert "1.1.1.1" in warning.message
    (unusable,) = [w for w in result.warnings if w.code == "unusable_text"]
    assert (unusable.round, unusable.side, unusable.where) == (
        "opening",
        "con",
        "arguments[1].evidence",
    )
    con = [a for a in body(result).arguments if a.side == "con"]
    assert con[0].evidence == "(no usable text)"
    assert all("1.1.1.1" not in a.evidence for a in body(result).arguments)


@pytest.mark.parametrize(
    ("text", "looping"),
    [
        ("1." * 12, True),
        ("the " * 8, True),
        ("哈" * 24, True),
        ("Costs rose 1.1% in 2021 and 1.2% in 2022.", False),
        ("We ... hesitate. Then... we act.", False),
        ("=" * 23, False),  # shorter than a loop
    ],
)
def test_what_counts_as_a_loop(text: str, looping: bool) -> None:
    from moot.llm.structured import loops

    assert bool(loops({"a": [text]})) is looping


def test_the_output_limit_is_the_longest_valid_reply() -> None:
    from moot.llm.bounds import max_reply_tokens

    backend = faulty({})
    debate(backend, lang="zh")
    for call in backend.calls:
        assert call.schema is not None
        assert call.context is not None
        assert call.settings.max_tokens == max_reply_tokens(call.schema, "zh")


def test_never_valid_reply_raises_with_raw_text() -> None:
    garbage = '{"arguments": "not a list"}'
    backend = faulty({("con", "opening", n): (lambda good: garbage) for n in (1, 2, 3)})
    with pytest.raises(ModelOutputError) as caught:
        debate(backend)
    error = caught.value
    assert error.raw == garbage
    assert error.attempts == [garbage] * 3
    assert error.role == "con"
    assert any("arguments" in e for e in error.errors)


def test_reask_budget_is_configurable() -> None:
    garbage = "no json here"
    backend = faulty({("con", "opening", 1): lambda good: garbage})
    with pytest.raises(ModelOutputError) as caught:
        debate(backend, max_reasks=0)
    assert caught.value.attempts == [garbage]


def test_rule_problems_become_warnings_or_errors_when_strict() -> None:
    def question_claim(good: dict[str, object]) -> str:
        arguments = good["arguments"]
        assert isinstance(arguments, list)
        arguments[0]["claim"] = "Is a monolith really simpler for ten people?"
        return json.dumps(good)

    always = {("pro", "opening", n): question_claim for n in (1, 2, 3)}
    result = debate(faulty(always))
    assert result.usage.reasks == 2
    assert any(w.round == "opening" and w.side == "pro" for w in result.warnings)
    assert body(result).arguments[0].claim.endswith("?")  # kept as written, flagged, not rewritten
    with pytest.raises(ModelOutputError):
        debate(faulty(always), strict_rules=True)


def test_the_compact_profile_keeps_rule_problems_without_reasking() -> None:
    def question_claim(good: dict[str, object]) -> str:
        first_argument(good)["claim"] = "Is a monolith really simpler for ten people?"
        return json.dumps(good)

    backend = faulty({("pro", "opening", 1): question_claim})
    result = debate(backend, profile="compact")
    assert result.usage.reasks == 0
    assert any(w.code == "claim_question" for w in result.warnings)
    assert result.profiles["pro"].name == "compact"
    assert result.profiles["pro"].rule_reasks == 0
    # hard problems are still re-asked under the compact profile
    broken = faulty({("con", "opening", 1): lambda good: "not json"})
    assert debate(broken, profile="compact").usage.reasks == 1
    # compact replies are asked for in shorter form
    (opening,) = [c for c in backend.calls if c.context and c.context.round == "opening"][:1]
    assert opening.schema is not None
    claim = opening.schema.json_schema["properties"]["claim"]  # one argument per call
    # the model's own part of a claim: the start the grammar writes gets its own room
    assert claim["maxLength"] == 100 + len(dict(opening.schema.prefixes)["claim"])


def test_a_target_missing_in_a_three_sided_debate_is_reasked() -> None:
    """Position B answers every argument of A and C: one left out is re-asked, with
    the ids of both other positions."""

    def drop_last(good: dict[str, object]) -> str:
        responses = good["responses"]
        assert isinstance(responses, list)
        responses.pop()
        return json.dumps(good)

    backend = faulty({("B", "cross_examination", 1): drop_last})
    result = debate(backend, sides=["Hainan", "the North-East", "Yunnan"])
    assert result.usage.reasks == 1
    (reask,) = reask_messages(backend, "B", "cross_examination")
    assert "is not answered" in reask
    others = [a.id for a in body(result).arguments if a.side != "B"]
    assert any(i.startswith("A-") for i in others)
    assert any(i.startswith("C-") for i in others)
    answered = [c.target_id for c in body(result).cross_examinations if c.by == "B"]
    assert sorted(answered) == sorted(others)


def claim_copies_its_description(good: dict[str, object]) -> str:
    """A fault: the first argument's claim is the prompt's description of a claim."""
    arguments = good["arguments"]
    assert isinstance(arguments, list)
    arguments[0]["claim"] = "ONE falsifiable sentence stating your point (against the topic)."
    return json.dumps(good)


def claim_copies_its_compact_description(good: dict[str, object]) -> str:
    """A fault: the first argument's claim is the compact prompt's description of a claim."""
    first_argument(good)["claim"] = (
        "One sentence that starts with the words given below and gives one reason in your own"
        " words."
    )
    return json.dumps(good)


def test_a_reply_that_copies_a_field_description_is_reasked() -> None:
    backend = faulty({("con", "opening", 1): claim_copies_its_description})
    result = debate(backend)
    (reask,) = reask_messages(backend, "con", "opening")
    assert "arguments[1].claim: copies the prompt's description of the field" in reask
    assert all("falsifiable sentence" not in a.claim for a in body(result).arguments)
    assert not [w for w in result.warnings if w.code == "echo"]


def test_without_rule_reasks_a_copied_description_is_kept_with_a_warning() -> None:
    backend = faulty({("con", "opening", 1): claim_copies_its_compact_description})
    result = debate(backend, profile="compact")
    assert len(calls_of(backend, "con", "opening")) == 3  # a call per argument, no re-ask
    (warning,) = [w for w in result.warnings if w.code == "echo"]
    assert warning.where == "arguments[1].claim"
    assert (warning.round, warning.side) == ("opening", "con")
    # the demo then quotes the marked claim as a concession and a fallacy's quote,
    # copies of the marker that are flagged in turn (tests/test_usable.py)
    (unusable,) = [w for w in result.warnings if w.code == "unusable_text" and w.round == "opening"]
    assert unusable.where == "arguments[1].claim"
    con = [a for a in body(result).arguments if a.side == "con"]
    assert con[0].claim == "(no usable text)"


@pytest.mark.parametrize(
    ("text", "copied"),
    [
        ("The bull side's case as it stood at the end of the debate, in two or three.", True),
        ("  THE BULL SIDE'S CASE   as it stood at the end of the debate", True),
        ("The bull side's case rests on RSI 55 and a rising 50-day average.", False),
        ("辩论结束时多头一方的论点，两三句话。", True),
        ("多头一方的论点是均线向上。", False),
        ("", False),
    ],
)
def test_what_counts_as_a_copied_description(text: str, copied: bool) -> None:
    from moot.llm.echo import echoes, instructions

    prompt = (
        'Write:\n- "bull_case": the bull side\'s case as it stood at the end of the debate,'
        ' in two or three sentences.\n- "bear_case"：辩论结束时多头一方的论点，两三句话。\n'
        "The bull side's case as it stood is not a field line."
    )
    described = instructions([Message("user", prompt)])
    assert len(described) == 2
    found = echoes({"cases": [{"bull_case": text}]}, described)
    assert bool(found) is copied
    if copied:
        assert found[0][0] == "cases[1].bull_case"


def judge_writes_debris(good: dict[str, object]) -> str:
    """A fault: the judge's synthesis is JSON and markup debris, as SmolLM2 wrote it."""
    good["key_insight"] = "{{ <debate> <rebuttal>"
    good["recommendation"] = "furthermore: ["
    good["unresolved_questions"] = ["], {, [", "What would a second year of data show?"]
    return json.dumps(good)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_debris_in_the_judges_synthesis_is_shown_as_unusable_everywhere(lang: str) -> None:
    from moot.report.html import render_report
    from moot.report.markdown import to_markdown

    backend = faulty({("judge", "judgement", 1): judge_writes_debris})
    result = debate(backend, profile="compact", lang=lang)
    marker = {"en": "(no usable text)", "zh": "（无可用文本）"}[lang]
    judgement = result.judgement
    assert judgement.key_insight == marker
    assert judgement.recommendation == marker
    assert judgement.unresolved_questions[0] == marker
    assert judgement.unresolved_questions[1] == "What would a second year of data show?"
    flagged = {w.where for w in result.warnings if w.code == "unusable_text"}
    assert flagged == {"key_insight", "recommendation", "unresolved_questions[1]"}
    for page in (to_markdown(result), render_report(result), result.model_dump_json()):
        for debris in ("<debate>", "<rebuttal>", "furthermore: [", "], {, ["):
            assert debris not in page


@pytest.mark.parametrize(
    ("name", "lang", "warned"),
    [("local", "zh", True), ("local", "en", False), ("scripted", "zh", False)],
)
def test_a_chinese_run_on_the_embedded_model_says_it_is_an_english_model(
    name: str, lang: str, warned: bool
) -> None:
    # a scripted backend named like the embedded model stands in for it
    result = debate(faulty({}, name=name), lang=lang)
    found = [w for w in result.warnings if w.code == "english_model"]
    assert bool(found) is warned
    if warned:
        (warning,) = found
        assert (warning.round, warning.side) == ("setup", None)
        assert "SmolLM2-135M" in warning.message
        assert "英文模型" in warning.message
        # and the trust verdict reads it: the small-model reason says so in Chinese
        assert result.trust is not None
        small = next(r for r in result.trust.reasons if r.code == "small_model")
        assert "只懂英语" in small.detail


def judge_writes_fragments(good: dict[str, object]) -> str:
    """A fault: the judge's synthesis as SmolLM2 wrote it on two hidden topics of issue
    22's check (seed 1): the marker copied from its transcript, two-word fragments."""
    good["key_insight"] = "); (no usable text) (no usable text), (no usable text). (No user"
    good["recommendation"] = "Defensive argument"
    good["unresolved_questions"] = ["2. Challenge CON-3", "Would a tool library pay off?"]
    return json.dumps(good)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_judges_synthesis_is_sentences_or_marked_unusable(lang: str) -> None:
    from moot.report.html import render_report
    from moot.report.markdown import to_markdown

    backend = faulty({("judge", "judgement", 1): judge_writes_fragments})
    result = debate(backend, profile="compact", lang=lang)
    marker = {"en": "(no usable text)", "zh": "（无可用文本）"}[lang]
    judgement = result.judgement
    assert judgement.key_insight == marker
    assert judgement.recommendation == marker
    assert judgement.unresolved_questions == [marker, "Would a tool library pay off?"]
    flagged = {w.where for w in result.warnings if w.code == "unusable_text"}
    assert flagged == {"key_insight", "recommendation", "unresolved_questions[1]"}
    assert result.trust is not None
    assert result.trust.level == "low"
    assert result.trust.reasons[0].code == "unusable_text"
    # each field once: the marked question and its warning name the same path
    assert unusable_fields(result)[0] == [
        "key_insight",
        "recommendation",
        "unresolved_questions[1]",
    ]
    for page in (to_markdown(result), render_report(result), result.model_dump_json()):
        for fragment in ("Defensive argument", "Challenge CON-3", "(No user"):
            assert fragment not in page


def argument_copies_the_rules(good: dict[str, object]) -> str:
    """A fault: an argument as SmolLM2 wrote it on a hidden topic of issue 22's check
    ("Should a neighbourhood bakery go card-only?", seed 3): its reasoning copies the
    system prompt's rule line, and both fields open with a comma."""
    argument = first_argument(good)
    argument["reasoning"] = (
        ", This argument is against the topic, whatever you privately think. Your claim"
        " starts: A 10-person startup should not adopt microservices from day one."
    )
    argument["evidence"] = ", You are right, there's a problem with this idea, and we need"
    return json.dumps(good)


def test_a_copy_of_the_system_prompts_rules_is_an_echo_and_shown_as_unusable() -> None:
    backend = faulty({("con", "opening", 1): argument_copies_the_rules})
    result = debate(backend, profile="compact")
    echoed = {w.where for w in result.warnings if w.code == "echo" and w.side == "con"}
    assert echoed == {"arguments[1].reasoning"}
    unusable = {
        w.where for w in result.warnings if w.code == "unusable_text" and w.round == "opening"
    }
    assert unusable == {"arguments[1].reasoning", "arguments[1].evidence"}
    con = [a for a in body(result).arguments if a.side == "con"]
    assert con[0].reasoning == con[0].evidence == "(no usable text)"
    assert "privately think" not in result.model_dump_json()


def closing_loops_in_every_sentence(good: dict[str, object]) -> str:
    """A fault: a final stance of four sentences, each unusable, as SmolLM2 wrote it on
    a hidden topic of issue 22's check ("Night train or plane ...", seed 4)."""
    good["final_stance"] = ["[{", "1.1.1.1.1.1.1.1.1.1.1.1.1", "], {", "{{ <closing>"]
    return json.dumps(good)


def closing_mixes_debris_and_sentences(good: dict[str, object]) -> str:
    good["final_stance"] = ["[{", "Microservices cost a small team its focus."]
    return json.dumps(good)


def test_a_final_stance_shows_its_usable_sentences_or_one_marker() -> None:
    from moot.report.markdown import to_markdown

    backend = faulty(
        {
            ("con", "closing", 1): closing_loops_in_every_sentence,
            ("pro", "closing", 1): closing_mixes_debris_and_sentences,
        }
    )
    result = debate(backend, profile="compact")
    stances = {c.side: c.final_stance for c in body(result).closings}
    assert stances == {
        "pro": "Microservices cost a small team its focus.",
        "con": "(no usable text)",
    }
    flagged = {
        (w.side, w.where)
        for w in result.warnings
        if w.code == "unusable_text" and w.round == "closing"
    }
    assert {("con", f"final_stance[{n}]") for n in range(1, 5)} <= flagged
    assert ("pro", "final_stance[1]") in flagged
    assert "(no usable text) (no usable text)" not in to_markdown(result)


def judge_copies_its_reasons(good: dict[str, object]) -> str:
    """A fault: the judge's reply of the README's quick start (seed 7): the same reason
    for every argument with some other id, and a recommendation that opens with a
    made-up, shouted label."""
    assessments = good["assessments"]
    assert isinstance(assessments, list)
    others = ["Pro-2", "Pro-1", "Pro-1", "Con-3", "Con-3", "Con-2"]
    for assessment, other in zip(assessments, others, strict=True):
        assessment["reason"] = f"{other} is not supported by the evidence provided."
    good["recommendation"] = (
        "PARTIAIRAL ADAPTION: The company will not have to make any changes, as they are"
        " already doing things right now."
    )
    return json.dumps(good)


def closing_lists_labels(good: dict[str, object]) -> str:
    """A fault: Pro's stance-change reason in the README's quick start (seed 7)."""
    good["stance_changed"] = True
    good["stance_change_reason"] = "concessions: CON-1 vs. PRO-1"
    return json.dumps(good)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_copied_reasons_a_shouted_label_and_a_label_list_are_not_shown_as_text(
    lang: str,
) -> None:
    from moot.report.html import render_report
    from moot.report.markdown import to_markdown
    from moot.trust import unusable_fields

    backend = faulty(
        {
            ("judge", "judgement", 1): judge_copies_its_reasons,
            ("pro", "closing", 1): closing_lists_labels,
        }
    )
    result = debate(backend, profile="compact", lang=lang)
    marker = {"en": "(no usable text)", "zh": "（无可用文本）"}[lang]
    judgement = result.judgement
    assert [row.reason for row in judgement.trace] == [marker] * 6
    assert judgement.recommendation == marker
    copied = {w.where for w in result.warnings if w.code == "copied_reason"}
    assert copied == {f"assessments[{n}].reason" for n in range(1, 7)}
    assert result.trust is not None
    assert result.trust.level == "low"
    assert "trace[PRO-1].reason" in result.trust.reasons[0].detail
    # each reason is one field, not counted again by its warning's path
    judge_fields, _ = unusable_fields(result)
    assert sum(f.startswith("trace[") for f in judge_fields) == 6
    assert not [f for f in judge_fields if f.startswith("assessments[")]
    pro = next(c for c in body(result).closings if c.side == "pro")
    assert pro.stance_change.label == "stance.unstated"
    markdown = to_markdown(result)
    rule = {"en": "the same reason as for most other arguments", "zh": "与大多数其他论据的理由相同"}
    assert rule[lang] in markdown
    for page in (markdown, render_report(result), result.model_dump_json()):
        for copy in ("is not supported by the evidence provided", "PARTIAIRAL", "CON-1 vs. PRO-1"):
            assert copy not in page


@pytest.mark.parametrize(
    ("text", "copied"),
    [
        ("logic/fact error,", True),  # SmolLM2's reasons (a new English topic, seed 3)
        ("partial/core accepted,", True),
        ("Evidence insufficient.", True),
        ("defensive argumentation,", False),  # empty, but not the prompt's words
        ("The cost figure counts a full road rebuild.", False),
        ("Costs rise.", False),
        ("refute", False),  # one word: the sentence rule's, not this one's
        ("接受核心观点", True),
        ("存在逻辑错误", False),  # 逻辑 and 错误 are there, 在逻 and 辑错 are not
        ("成本会大幅上升", False),
    ],
)
def test_a_short_reply_made_of_a_descriptions_words_rewords_it(text: str, copied: bool) -> None:
    from moot.llm.echo import instructions, reworded

    prompt = (
        '- "response": "refute" (logic or fact error), "challenge" (evidence insufficient'
        ' or conditions do not hold), "concede" (you accept it) or "partial" (core'
        " accepted, degree or scope disputed).\n"
        '- "response"："refute"（存在逻辑或事实错误）、'
        '"partial"（接受核心观点，但对程度或范围有异议）。'
    )
    assert reworded(text, instructions([Message("user", prompt)])) is copied


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_cross_examination_reason_that_rewords_the_prompt_is_unusable(lang: str) -> None:
    label = {"en": "logic/fact error,", "zh": "接受核心观点，但对程度"}[lang]

    def label_reason(good: dict[str, object]) -> str:
        responses = good["responses"]
        assert isinstance(responses, list)
        responses[0]["reasoning"] = label
        return json.dumps(good)

    faults = {("con", "cross_examination", n): label_reason for n in (1, 2, 3)}
    result = debate(faulty(faults), lang=lang)
    first = next(c for c in body(result).cross_examinations if c.by == "con")
    assert first.reasoning == {"en": "(no usable text)", "zh": "（无可用文本）"}[lang]
    flagged = [(w.round, w.side, w.where) for w in result.warnings if w.code == "unusable_text"]
    assert ("cross_examination", "con", "responses[1].reasoning") in flagged
    assert label not in result.model_dump_json()
