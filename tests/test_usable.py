"""What counts as usable prose, the local grammar's prose patterns, and the rule that
derives each side's claim prefix from the topic."""

from __future__ import annotations

import dataclasses
import importlib
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import needs_llama_cpp_python
from moot import usable as rules
from moot.formats.structured.replies import OpeningReply
from moot.formats.structured.sides import claim_prefix, options, thesis, yes_no
from moot.llm.grammar import grammar_schema, prose_pattern
from moot.llm.schemas import output_spec
from moot.usable import (
    LOOP,
    LOOP_CHARS,
    looping_runs,
    marker,
    may_loop,
    shown,
    unusable_fields,
    unusable_reason,
)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # the judge's synthesis of the README's seed-7 debate before the grammar
        ("{{ <debate> <rebuttal>", "debris"),
        ("[{", "debris"),
        ("], {", "debris"),
        ("furthermore: [", "debris"),
        ('{"claim": "x"}', "debris"),
        ("a [ b ] c { d } e", "debris"),
        ("不，因为；1234567890', 'reasoning': ", "debris"),  # seen in a Chinese opening
        ("成本会上升》，“reasoning”: “这很好", "debris"),  # Gemma 3 270M, full-width quotes
        ("他们说“reasoning”：不成立", "debris"),
        ("所谓“AI”：一种工具，不是万能的。", None),  # a quoted acronym is not a key
        ("Survey 2023: " + "1." * 30, "loop"),
        ("Yes", "no_words"),
        ("", None),  # an empty field shows nothing
        ("   ", None),
        ("42.", "no_words"),
        ("Microservices let small teams deploy on their own.", None),
        ("Source: the 2023 WHO report [1]", None),
        ("Costs (see [2]) rose by 4%.", None),
        ("微服务让团队独立部署。", None),
    ],
)
def test_what_counts_as_unusable_text(text: str, reason: str | None) -> None:
    assert unusable_reason(text) == reason


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # the README's quick start (seed 7): Con's closing stance and the judge's
        # unresolved questions copied the cross-examination's label lines
        ("PRO-1: refute - refutation of CON-1 CON-2: challenge - refuted CON-1", "debris"),
        ("PRO-1: refute - refutation of CON-1 CON-2: challenge of PRO-4", "debris"),
        ("CON-1: refute - the cost figure is wrong", "debris"),
        ("B-2：challenge——没有证据", "debris"),
        # a final stance is a list of sentences, each checked on its own (en05, seed 1)
        ("CON-1: refute", "debris"),
        ("CON-3: concede STANCE-CHANGED", "debris"),
        # an id named inside a sentence is prose
        ("PRO-1 is refuted: its cost figure counts a full rebuild.", None),
        ("The weakest point is CON-2: it names no source.", None),
    ],
)
def test_a_copy_of_the_debates_label_lines_is_debris(text: str, reason: str | None) -> None:
    assert unusable_reason(text) == reason


def test_one_word_is_enough_in_a_short_field_and_enums_are_never_prose() -> None:
    assert unusable_reason("Yes", sentence=False) is None
    schema = {
        "type": "object",
        "properties": {
            "response": {"type": "string", "enum": ["rebut", "concede"]},
            "label": {"type": "string", "maxLength": 12},
            "items": {"type": "array", "items": {"type": "string", "maxLength": 200}},
        },
    }
    value = {"response": "rebut", "label": "Cost", "items": ["fine text here", "[{"]}
    assert unusable_fields(value, schema) == [("items[2]", "debris")]


def test_the_marker_is_in_the_debates_language() -> None:
    assert shown("[{", "en") == marker("en") == "(no usable text)"
    assert shown("[{", "zh") == "（无可用文本）"
    assert shown("A real sentence here.", "zh") == "A real sentence here."


def test_the_local_grammar_keeps_markup_and_json_punctuation_out_of_prose() -> None:
    spec = dataclasses.replace(output_spec(OpeningReply), prefixes=(("claim", "No, because "),))
    schema = grammar_schema(spec)
    item = schema["properties"]["arguments"]["items"]["properties"]
    claim, reasoning = item["claim"]["pattern"], item["reasoning"]["pattern"]
    assert re.fullmatch(claim[1:-1], "No, because it adds operational overhead.")
    for bad in (
        "Because it adds overhead.",  # no prefix
        "No, because [{",
        "No, because it is <b>bad</b>.",
        'No, because "x".',
        "No, because why?",  # a claim is a statement
        "No, because why？",
        "No, because " + "x" * 200,  # longer than the field
    ):
        assert not re.fullmatch(claim[1:-1], bad), bad
    assert re.fullmatch(reasoning[1:-1], "Each service needs its own deploys, so costs rise?")
    assert not re.fullmatch(reasoning[1:-1], "Each service needs its own deploys } so")
    assert not re.fullmatch(reasoning[1:-1], "too short")  # minLength 20 is kept
    # the portable schema itself is unchanged, and the response enum gets no pattern
    assert "pattern" not in json.dumps(spec.json_schema)


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("Costs rose by 4% in the first year.", True),
        ("Which figure did the other side use?", True),
        ("微服务让团队独立部署。", True),
        # SmolLM2's synthesis fragments (docs/debris-check.md)
        ("2. Challenge CON-3", False),
        (". This argument is not supported by evidence.", False),
        ("The argument is flawed", False),
        ("defying logic error.", False),
    ],
)
def test_the_judges_synthesis_is_written_as_sentences(text: str, sentence: bool) -> None:
    from moot.judging.judge import judge_spec
    from moot.judging.rubric import GENERAL

    schema = grammar_schema(judge_spec(GENERAL, ["UPHELD", "REFUTED"], ["PRO-1", "CON-1"]))
    properties = schema["properties"]
    patterns = [
        properties["key_insight"]["pattern"],
        properties["recommendation"]["pattern"],
        properties["unresolved_questions"]["items"]["pattern"],
    ]
    assert [bool(re.fullmatch(p.strip("^$"), text)) for p in patterns] == [sentence] * 3
    # an assessment's reason is prose, not held to the sentence shape
    reason = properties["assessments"]["prefixItems"][0]["properties"]["reason"]["pattern"]
    assert re.fullmatch(reason.strip("^$"), "2. Challenge CON-3")


def test_a_prefix_leaves_room_for_the_models_own_words() -> None:
    expected = '^No, because [^{}\\[\\]<>"\\\\\\x00-\\x1f?？]{8,28}$'
    assert prose_pattern(8, 40, "No, because ") == expected
    assert prose_pattern(1, 5, "a.b").startswith("^a\\.b[")


@needs_llama_cpp_python
def test_the_local_grammar_builds_with_llama_cpps_converter() -> None:
    llama_grammar = importlib.import_module("llama_cpp.llama_grammar")
    spec = dataclasses.replace(output_spec(OpeningReply), prefixes=(("claim", "是的，因为"),))
    grammar = llama_grammar.LlamaGrammar.from_json_schema(
        json.dumps(grammar_schema(spec)), verbose=False
    )
    (rule,) = [r for r in grammar._grammar.splitlines() if r.startswith("arguments-item-claim ::=")]
    assert '"是的，因' in rule


@pytest.mark.parametrize(
    ("topic", "lang", "pro", "con"),
    [
        (
            "Should a 10-person startup adopt microservices from day one?",
            "en",
            "A 10-person startup should adopt microservices from day one, because ",
            "A 10-person startup should not adopt microservices from day one, because ",
        ),
        (
            "Is nuclear power a good way to cut carbon emissions?",
            "en",
            "Nuclear power is a good way to cut carbon emissions, because ",
            "Nuclear power is not a good way to cut carbon emissions, because ",
        ),
        # a yes/no question the statement rule cannot read: no verb it knows
        ("Should spaceships colonise Mars?", "en", "Yes, because ", "No, because "),
        ("Microservices from day one", "en", "Because ", "Because "),
        # an "A or B" question: each side starts from its option
        ("Rust or Go?", "en", "Rust, because ", "Go, because "),
        (
            "Night train or plane for a 700 km business trip?",
            "en",
            "Night train, because ",
            "Plane, because ",
        ),
        # a yes/no question with "or" in it stays a yes/no question
        (
            "Should cities ban cars or trucks?",
            "en",
            "Cities should ban cars or trucks, because ",
            "Cities should not ban cars or trucks, because ",
        ),
        (
            "政府是否应该补贴电动汽车？",
            "zh",
            "政府应该补贴电动汽车，因为",
            "政府不应该补贴电动汽车，因为",
        ),
        (
            "一个家庭应该买房而不是租房吗？",
            "zh",
            "一个家庭应该买房而不是租房，因为",
            "一个家庭不应该买房而不是租房，因为",
        ),
        ("海南还是东北？", "zh", "海南更好，因为", "东北更好，因为"),
        ("春节回老家，坐火车还是坐飞机？", "zh", "坐火车更好，因为", "坐飞机更好，因为"),
    ],
)
def test_claim_prefixes_follow_the_yes_no_rule(topic: str, lang: str, pro: str, con: str) -> None:
    assert (claim_prefix(topic, lang, "pro", True), claim_prefix(topic, lang, "con", True)) == (
        pro,
        con,
    )


@pytest.mark.parametrize(
    ("topic", "lang", "against"),
    [
        ("Should cities charge cars a fee to enter the centre?", "en", "Cities should not charge"),
        ("Should a small shop sell mainly online?", "en", "A small shop should not sell"),
        ("Should the federal minimum wage be increased?", "en", "The federal minimum wage"),
        ("Should Election Day be a national holiday?", "en", "Election Day should not be"),
        ("Should a ban on smoking be lifted?", "en", "A ban on smoking should not be"),
        ("Can AI replace teachers?", "en", "AI cannot replace teachers"),
        ("Does social media harm teenagers?", "en", "Social media does not harm"),
        ("Is a college education worth it?", "en", "A college education is not worth it"),
        ("核能是减少碳排放的好办法吗？", "zh", "核能不是减少碳排放的好办法"),
        ("是否应该提高联邦最低工资？", "zh", "不应该提高联邦最低工资"),
    ],
)
def test_a_yes_no_question_becomes_each_sides_statement(
    topic: str, lang: str, against: str
) -> None:
    stated = thesis(topic, lang, "con")
    assert stated is not None
    assert stated.startswith(against)
    # the side for it says the same without the negation
    assert thesis(topic, lang, "pro") == stated.replace(" not", "", 1).replace(
        "cannot", "can", 1
    ).replace("不", "", 1)


@pytest.mark.parametrize(
    "topic",
    [
        "Should spaceships colonise Mars?",
        "Should we?",
        "Rust or Go?",
        "Is it?",
        "海南还是东北？",
    ],
)
def test_a_question_the_rule_cannot_read_has_no_statement(topic: str) -> None:
    lang = "zh" if "海" in topic else "en"
    assert thesis(topic, lang, "pro") is None
    assert thesis(topic, lang, "con") is None


def test_a_long_statement_leaves_the_claim_to_the_model() -> None:
    topic = (
        "Should governments build a high-speed railway between every pair of the ten"
        " largest cities of the country before the year 2040?"
    )
    assert thesis(topic, "en", "con") is not None
    assert claim_prefix(topic, "en", "con", True) == "No, because "


@pytest.mark.parametrize(
    ("topic", "lang", "read"),
    [
        ("Rent or buy a flat in your twenties?", "en", ("Rent", "buy a flat")),
        ("Which is better for a beginner, tea or coffee?", "en", ("tea", "coffee")),
        ("Walk or cycle to work?", "en", ("Walk", "cycle")),
        ("孩子先学画画还是学游泳？", "zh", ("学画画", "学游泳")),
        ("周末在家或者出门？", "zh", ("周末在家", "出门")),
        # not "A or B": a yes/no question, two "or"s, no question, an option too long
        ("Should animals be used for scientific or commercial testing?", "en", None),
        ("Tea or coffee or water?", "en", None),
        ("Tea or coffee", "en", None),
        ("Tea or the very long list of things we could drink instead of it?", "en", None),
        ("是否应该把动物用于科学或商业测试？", "zh", None),
        ("Tea or tea?", "en", None),
    ],
)
def test_an_a_or_b_question_is_read_into_its_two_options(
    topic: str, lang: str, read: tuple[str, str] | None
) -> None:
    assert options(topic, lang) == read


def test_more_than_two_positions_get_the_neutral_prefix() -> None:
    topic = "Should we winter in Hainan?"
    assert yes_no(topic, "en")
    assert claim_prefix(topic, "en", "A", two_sided=False) == "Because "


def test_a_bare_figure_is_a_usable_data_point() -> None:
    """An evidence item's data point is a figure ("90%"), not a sentence: its schema
    keeps it under the sentence-field length, so the usable rule does not re-ask it."""
    from moot.sources.citations import EvidenceDraft

    schema = output_spec(EvidenceDraft).json_schema
    value = {"passage": "S1:p2", "quote": "Latency p99 is 180 ms.", "data_point": "90%"}
    assert unusable_fields(value, schema) == []


_LOOPY = st.builds(
    lambda head, unit, times, tail: head + unit * times + tail,
    st.text(max_size=30),
    st.text(min_size=1, max_size=11),
    st.integers(min_value=0, max_value=40),
    st.text(max_size=30),
)


@settings(max_examples=400, deadline=None)
@given(st.one_of(_LOOPY, st.text(max_size=200), st.text(alphabet="ab. ", max_size=120)))
def test_the_loop_prefilter_never_hides_a_loop(text: str) -> None:
    """``may_loop`` only skips the ``LOOP`` regex: wherever the regex finds a looping
    run, the prefilter must say it may loop (checked by hand: with a look-ahead of 9
    characters instead of 10, hypothesis finds a unit of 10 repeated that it misses)."""
    regex_runs = [m.group(0) for m in LOOP.finditer(text) if len(m.group(0)) >= LOOP_CHARS]
    assert looping_runs(text) == regex_runs
    if regex_runs:
        assert may_loop(text)


def chunk_recurs(text: str) -> bool:
    """``may_loop``'s definition, chunk by chunk."""
    for start in range(0, len(text) - 8, 8):
        chunk = text[start : start + 8]
        if text.find(chunk, start + 1, start + 18) != -1:
            return True
    return False


_NEAR_LOOPY = st.builds(
    lambda head, unit, times, gap, tail: head + unit * times + gap + unit + tail,
    st.text(alphabet="abc \n", max_size=20),
    st.text(alphabet="abcd \n", min_size=1, max_size=12),
    st.integers(min_value=0, max_value=3),
    st.text(alphabet="abcd \n", max_size=4),
    st.text(alphabet="abc \n", max_size=12),
)


@settings(max_examples=1500, deadline=None)
@given(st.one_of(_LOOPY, _NEAR_LOOPY, st.text(max_size=60), st.text(alphabet="ab\n", max_size=40)))
def test_the_loop_prefilter_is_its_chunk_test(text: str) -> None:
    """The regex answers as the chunk loop does: chunks at multiples of 8 only, a
    recurrence 1 to 10 characters on, line breaks included (checked by hand: with a
    recurrence of 1 to 9 characters, or without ``re.DOTALL``, hypothesis finds a text
    where the two differ)."""
    assert may_loop(text) == chunk_recurs(text)


def test_the_loop_prefilter_lets_prose_through() -> None:
    prose = "Microservices split a small team's attention across many deployments. " * 3
    assert not may_loop(prose[:70])
    assert may_loop("1.1.1.1.1.1.1.1.1.1.1.1.1.1")


# Found by the hidden-topic check of issue 22 (benchmarks/debris.py on
# benchmarks/data/qa_topics.json, embedded model, seed 1): the judge's key insight of
# "Should a public library lend power tools?" was the page's own marker copied from the
# judge's transcript, after a closing parenthesis.
EN01_KEY_INSIGHT = (
    "); (no usable text) (no usable text), (no usable text). (No user provided evidence for"
    " this argument.) (No user provided evidence for this fallacy.) (No user provided"
    " evidence for this appeal-to-power"
)


@pytest.mark.parametrize(
    "text",
    [
        EN01_KEY_INSIGHT,
        "The Con side's closing was (No usable text) and nothing else.",
        "反方的总结是（无可用文本），没有论证。",
        ") the library would have to insure every drill it lends.",
        "）图书馆要为每件工具买保险。",
    ],
)
def test_a_copy_of_the_marker_or_a_closing_bracket_at_the_start_is_debris(text: str) -> None:
    assert unusable_reason(text) == "debris"


def test_brackets_and_the_marker_words_inside_prose_stay_usable() -> None:
    # the guard above must not take ordinary prose with it, nor a reply that quotes an
    # opponent's marked claim once inside sentences of its own
    assert unusable_reason("Tools (drills, saws) wear out; the library repairs them.") is None
    assert unusable_reason("No usable text was given by Con, so Pro's point stands.") is None
    quoting = (
        'The claim "...(no usable text)" holds as stated, because the mechanism is plausible'
        " and we have no better figure to set against it."
    )
    assert unusable_reason(quoting) is None
    assert unusable_reason("(no usable text)") == "debris"  # a quote of the marker alone


@pytest.mark.parametrize(
    "text", [", You are right, there's a problem with this idea.", "；因为它会伤害本地经济。"]
)
def test_a_value_that_opens_with_a_comma_or_semicolon_is_debris(text: str) -> None:
    assert unusable_reason(text) == "debris"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # the README's quick start (seed 7): the recommendation opened with a made-up,
        # shouted label; an earlier run's with another (docs/debris-check.md)
        (
            "PARTIAIRAL ADAPTION: The company will not have to make any changes, as they"
            " are already doing things right now.",
            "debris",
        ),
        ("PARTIAIREA - 10% of the cost saving can only be achieved by switching.", "debris"),
        ("KEY INSIGHT: the debate turned on cost.", "debris"),
        ("PARTIAIRAL ADAPTION：公司不需要做任何改变。", "debris"),
        # an acronym or a short name before a colon is prose
        ("GDPR: the law asks for consent before any tracking.", None),
        ("US GDP: it grew by two percent last year.", None),
        ("UNESCO - the agency - lists the site as at risk.", None),
        ("PRO-1 is refuted: its cost figure counts a full rebuild.", None),
        ("A startup - even a small one - pays for every extra service.", None),
        ("WHO：世界卫生组织建议每天运动。", None),
    ],
)
def test_a_shouted_label_at_the_start_is_debris(text: str, reason: str | None) -> None:
    assert unusable_reason(text) == reason


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # the README's quick start (seed 7): Pro's stance-change reason
        ("concessions: CON-1 vs. PRO-1", "debris"),
        ("PRO-1 and CON-2.", "debris"),
        ("承认：CON-1 对 PRO-1", "debris"),
        ("TECH_BULL-1 vs. FUND_BEAR-2", "debris"),
        # ids named inside a reason are prose
        ("CON-1 showed that PRO-1's cost figure counts a full rebuild.", None),
        ("CON-1 证明了 PRO-1 的成本数字把整套重建都算了进去。", None),
        ("PRO-1 and CON-2 both fail for want of a source.", None),
    ],
)
def test_a_list_of_labels_is_not_a_reason(text: str, reason: str | None) -> None:
    assert unusable_reason(text) == reason


def test_the_same_reason_for_most_arguments_is_a_copy() -> None:
    # the README's quick start (seed 7): six arguments, one reason with another id
    readme = [
        "Pro-2 is not supported by the evidence provided.",
        "Pro-1 is not supported by the evidence provided.",
        "Pro-1 is not supported by the evidence provided.",
        "Con-3 is not supported by the evidence provided.",
        "Con-3 is not supported by the evidence provided.",
        "Con-2 is not supported by the evidence provided.",
    ]
    assert rules.copied_texts(readme) == [0, 1, 2, 3, 4, 5]
    near = [
        "PRO-1 is not supported by the evidence provided.",
        "PRO-2 is not supported by any evidence provided.",
        "PRO-3 is not supported by the evidence given.",
        "CON-1 names a source: the 2023 survey of forty startups.",
    ]
    assert rules.copied_texts(near) == [0, 1, 2]
    assert rules.copied_texts(["这个论点没有证据支持。"] * 3 + ["反方承认了这一点。"]) == [0, 1, 2]


def test_reasons_about_each_argument_or_a_few_alike_are_not_copies() -> None:
    own = [
        "The cost figure counts a full rebuild, which nobody proposed.",
        "Agility is asserted, not shown: no team size or release data.",
        "Con conceded it, and the scaling case stood unanswered.",
        "The survey it cites covers firms of 500, not of ten.",
    ]
    assert rules.copied_texts(own) == []
    # two alike of six is not most of them: a judge may find one flaw twice
    two = [*own, "No evidence was given.", "No evidence was given."]
    assert rules.copied_texts(two) == []
    # unusable text and empty reasons are another rule's
    assert rules.copied_texts([marker("en")] * 4) == []
    assert rules.copied_texts([""] * 4) == []


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # qa topic en01 (seed 1) before these rules: a stance-change reason and two
        # unresolved questions in capitals, with made-up words
        ("CONS/REFULLIGUTE", "debris"),
        ("PARTIAIRALLING THEIR RISKS TOGETHER WITH THE PROBABILITIES OF THIS SPEECH.", "debris"),
        ("THEY ARE NOT THE SAME AS YOU KNEW THROUGIN' IN THEIR FUTURE.", "debris"),
        ("PARTIAIRALLING：这些风险应该一起考虑。", "debris"),
        # acronyms inside prose are not shouting
        ("The OECD and the WHO both publish yearly figures on it.", None),
        ("NASA, ESA and JAXA share the cost of the station.", None),
        ("GDP 增长了百分之二，OECD 的数据也这样说。", None),
        # the market format's ids are labels, not shouting
        ("我接受TECH_BULL-1的观点", None),
        ("I accept the point of TECH_BULL-1 and FUND_BEAR-2 on the margins.", None),
    ],
)
def test_a_text_in_capitals_is_debris(text: str, reason: str | None) -> None:
    assert unusable_reason(text) == reason


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # qa topic en08 (seed 1) before this rule: a judge's reason opening on a label
        (
            "Pro on CON-3: refute argument is that paying people to learn will change them.",
            "debris",
        ),
        ("对 PRO-2：challenge 这个论点没有证据。", "debris"),
        ("CON-3 is refuted: paying people to learn does not change them.", None),
    ],
)
def test_an_id_a_colon_and_a_response_type_is_a_label_copy(text: str, reason: str | None) -> None:
    assert unusable_reason(text) == reason


_WORDISH = st.lists(
    st.sampled_from([*"aZ_-9 é中\u3400", "PRO-1", "xx_yy", "ab_"]), max_size=20
).map("".join)


@settings(max_examples=1000, deadline=None)
@given(
    st.one_of(_WORDISH, st.text(max_size=40), st.text(alphabet=st.characters(max_codepoint=0x7F)))
)
def test_words_are_the_word_pattern_s(text: str) -> None:
    """``words`` finds what ``_WORD`` does, ASCII text by its own pattern (checked by
    hand: the ASCII pattern without its underscore joins fails)."""
    assert rules.words(text) == [m.group(0) for m in rules._WORD.finditer(text)]
