"""Every reply schema has a longest valid reply, and each call's output limit fits it.

The limit comes from :func:`moot.llm.bounds.max_reply_tokens`; here the longest valid
reply of every round's schema (every field written to the brim, in English and in
Chinese) is built and counted with the embedded model's own tokenizer (llama.cpp's, on
its server: those tests are in the slow tier).
"""

from __future__ import annotations

import copy
import json
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel

from moot.formats.freeform.payload import STANDINGS as FREEFORM_STANDINGS
from moot.formats.freeform.replies import SpeechReply, speech_spec
from moot.formats.structured.payload import STANDINGS
from moot.formats.structured.replies import (
    ClosingReply,
    CrossExamReply,
    OpeningReply,
    closing_spec,
)
from moot.formats.structured.replies import cross_exam_spec as cross_spec
from moot.judging.judge import judge_spec
from moot.judging.replies import judge_reply_type
from moot.judging.rubric import GENERAL
from moot.judging.topic import TopicTypeReply
from moot.llm.bounds import (
    max_reply_chars,
    max_reply_tokens,
    relax_minimums,
    scale_lengths,
    widen,
)
from moot.llm.local import check_grammar_limits
from moot.llm.schemas import output_spec
from moot.llm.types import OutputSpec
from moot.profiles import COMPACT, STANDARD, ModelProfile

FILLER = {
    "en": (
        "Independent deployment lets each team ship on its own schedule, which cuts the"
        " coordination cost that grows with every engineer hired, according to the 2023"
        " State of DevOps report and three case studies of firms with under 50 staff. "
    ),
    "zh": (
        "独立部署让每个团队按自己的节奏发布，从而降低随着每位工程师加入而增长的协调成本，"
        "这一点见于二零二三年的开发运维状况报告以及三家员工不足五十人的公司的案例研究。"
    ),
}
PRO = ["PRO-1", "PRO-2", "PRO-3", "PRO-4", "PRO-5"]
CON = ["CON-1", "CON-2", "CON-3", "CON-4", "CON-5"]


def _round_specs() -> dict[str, OutputSpec]:
    """Each round's schema as a two-sided debate sends it, with the most ids: the
    structured format's rounds, the free-form format's speeches and judge (three
    rounds, the default), and the topic classification."""
    ids = PRO + CON
    speeches = [f"{p}-R{r}" for r in range(1, 4) for p in ("PRO", "CON")]
    return {
        "opening": output_spec(OpeningReply),
        "cross_examination": cross_spec(output_spec(CrossExamReply), CON),
        "closing": closing_spec(output_spec(ClosingReply), PRO),
        "judgement": judge_spec(GENERAL, STANDINGS, ids),
        "freeform_speech": speech_spec(output_spec(SpeechReply), ["CON-R1"]),
        "freeform_judgement": judge_spec(GENERAL, FREEFORM_STANDINGS, speeches),
        "classification": output_spec(TopicTypeReply),
    }


def largest(node: Any, filler: str) -> Any:
    """The longest valid value of a schema node: strings filled to ``maxLength`` with
    real text, lists at ``maxItems``, every property present, the longest enum."""
    if "enum" in node:
        return max(node["enum"], key=lambda v: len(json.dumps(v, ensure_ascii=False)))
    kind = node.get("type")
    if kind == "string":
        text = (filler * (1 + node["maxLength"] // len(filler)))[: node["maxLength"]]
        return text
    if kind == "integer":
        return node.get("maximum", 0)
    if kind == "boolean":
        return False
    if kind == "array":
        slots = [largest(s, filler) for s in node.get("prefixItems", [])]
        extra = node.get("maxItems", len(slots)) - len(slots)
        return slots + [largest(node["items"], filler) for _ in range(extra)]
    return {key: largest(value, filler) for key, value in node.get("properties", {}).items()}


@pytest.fixture(scope="module")
def count_tokens(llama_server: str) -> Callable[[str], int]:
    """The embedded model's own tokenizer: llama.cpp's server's ``/tokenize`` on it."""
    root = llama_server.removesuffix("/v1")

    def count(text: str) -> int:
        request = urllib.request.Request(  # noqa: S310 (loopback http)
            f"{root}/tokenize",
            data=json.dumps({"content": text, "add_special": False}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=120) as response:  # noqa: S310
            return len(json.loads(response.read())["tokens"])

    return count


@pytest.mark.parametrize("profile", [STANDARD, COMPACT], ids=["standard", "compact"])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("round_name", list(_round_specs()))
def test_the_longest_valid_reply_fits_the_output_limit(
    round_name: str, lang: str, profile: ModelProfile, count_tokens: Callable[[str], int]
) -> None:
    spec = profile.spec(_round_specs()[round_name], lang)
    check_grammar_limits(spec.json_schema)
    reply = json.dumps(largest(spec.json_schema, FILLER[lang]), ensure_ascii=False, indent=2)
    tokens = count_tokens(reply)
    limit = max_reply_tokens(spec, lang)
    assert tokens <= limit, f"{round_name}: {tokens} tokens > limit {limit}"
    # ... and the limit is not wildly loose: a looping model pays for it in time
    assert limit <= 4 * tokens + 64, f"{round_name}: limit {limit} for {tokens} tokens"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_compact_rounds_fit_the_embedded_context(lang: str) -> None:
    for name, spec in _round_specs().items():
        assert max_reply_tokens(COMPACT.spec(spec, lang), lang) < 4096, name


def test_max_reply_chars_counts_text_and_structure() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "string", "maxLength": 10},
            "b": {"type": "array", "maxItems": 2, "items": {"type": "string", "maxLength": 3}},
            "c": {"type": "boolean"},
        },
    }
    text, structure = max_reply_chars(schema)
    assert text == 10 + 2 * 3
    # braces, key names with quotes and colons, whitespace, string quotes, brackets...
    assert structure > len('{"a":"","b":["",""],"c":false}')


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "string"},
        {"type": "array", "items": {"type": "string", "maxLength": 3}},
        {"type": "object", "properties": {"x": {"type": "string"}}},
    ],
)
def test_an_unbounded_schema_has_no_longest_reply(schema: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="no longest value"):
        max_reply_chars(schema)


def test_scaling_never_goes_below_the_minimums_and_keeps_pinned_lists() -> None:
    spec = cross_spec(output_spec(CrossExamReply), CON[:3])
    small = scale_lengths(spec, chars=0.01, items=0.01)
    responses = small.json_schema["properties"]["responses"]
    assert responses["minItems"] == responses["maxItems"] == 3
    item = responses["prefixItems"][0]["properties"]
    assert item["reasoning"]["maxLength"] == item["reasoning"]["minLength"] == 10
    opening = scale_lengths(output_spec(OpeningReply), chars=0.5, items=0.6)
    arguments = opening.json_schema["properties"]["arguments"]
    assert (arguments["minItems"], arguments["maxItems"]) == (3, 3)
    assert arguments["items"]["properties"]["claim"]["maxLength"] == 100
    assert scale_lengths(spec) is spec


def test_relaxing_minimums_halves_what_a_caller_demanded_but_not_what_the_reply_type_needs() -> (
    None
):
    own = output_spec(OpeningReply)
    schema = copy.deepcopy(own.json_schema)
    arguments = schema["properties"]["arguments"]
    arguments["items"]["properties"]["claim"]["minLength"] = 80  # a caller's demand
    arguments["minItems"] = arguments["maxItems"] = 5
    demanded = OutputSpec(own.name, schema)
    relaxed = relax_minimums(demanded, own, 0.5).json_schema["properties"]["arguments"]
    assert relaxed["items"]["properties"]["claim"]["minLength"] == 40
    # the reply type itself needs 3 arguments: never relaxed below that
    assert relaxed["minItems"] == own.json_schema["properties"]["arguments"]["minItems"] == 3
    assert relaxed["maxItems"] == 5  # maximums are scale_lengths' job
    # pinned tuples keep their size
    pinned = cross_spec(output_spec(CrossExamReply), CON[:3])
    responses = relax_minimums(pinned, output_spec(CrossExamReply), 0.5).json_schema
    assert responses["properties"]["responses"]["minItems"] == 3


def smallest(node: Any, filler: str) -> Any:
    """The shortest value a schema node allows: strings cut to ``minLength`` of real
    text, lists at ``minItems`` (pinned slots first), integers at ``minimum``."""
    if "enum" in node:
        return node["enum"][0]
    kind = node.get("type")
    if kind == "string":
        return (filler * (1 + node.get("minLength", 0) // len(filler)))[: node.get("minLength", 0)]
    if kind == "integer":
        return node.get("minimum", 0)
    if kind == "boolean":
        return False
    if kind == "array":
        slots = [smallest(s, filler) for s in node.get("prefixItems", [])]
        extra = max(0, node.get("minItems", 0) - len(slots))
        return slots + [smallest(node["items"], filler) for _ in range(extra)]
    return {key: smallest(value, filler) for key, value in node.get("properties", {}).items()}


def _reply_types() -> dict[str, type[BaseModel]]:
    """The reply type each of ``_round_specs``' schemas is validated with."""
    return {
        "opening": OpeningReply,
        "cross_examination": CrossExamReply,
        "closing": ClosingReply,
        "judgement": judge_reply_type(GENERAL.dimensions, tuple(STANDINGS)),
        "freeform_speech": SpeechReply,
        "freeform_judgement": judge_reply_type(GENERAL.dimensions, tuple(FREEFORM_STANDINGS)),
        "classification": TopicTypeReply,
    }


@pytest.mark.parametrize("profile", [STANDARD, COMPACT], ids=["standard", "compact"])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("round_name", list(_round_specs()))
def test_the_shortest_and_longest_replies_a_relaxed_schema_allows_still_validate(
    round_name: str, lang: str, profile: ModelProfile
) -> None:
    """A reply cut off at the token limit is re-asked with its minimums relaxed (twice,
    at most, before the re-asks run out). The grammar then lets the model write the
    shortest reply the relaxed schema allows; the reply type must accept it, and the
    longest, or the re-ask can only fail. A judge's pinned assessments once fell to a
    5-character reason that the type refuses (llama.cpp's server wrote one, and the run
    ended)."""
    reply_type = _reply_types()[round_name]
    own = output_spec(reply_type)
    spec = profile.spec(_round_specs()[round_name], lang)
    for _ in range(3):
        reply_type.model_validate(smallest(spec.json_schema, FILLER[lang]))
        reply_type.model_validate(largest(spec.json_schema, FILLER[lang]))
        spec = scale_lengths(relax_minimums(spec, own, 0.5), chars=0.5, items=0.5)


def test_widen_gives_a_named_string_more_room_up_to_a_ceiling() -> None:
    """A claim whose start the grammar writes keeps the room the model had without it,
    within the reply type's own bound."""
    from moot.formats.structured.replies import ArgumentDraft, OpeningReply

    compact = scale_lengths(output_spec(ArgumentDraft), chars=0.5)
    assert compact.json_schema["properties"]["claim"]["maxLength"] == 100
    wider = widen(compact, "claim", 60, 200)
    assert wider.json_schema["properties"]["claim"]["maxLength"] == 160
    assert (
        wider.json_schema["properties"]["reasoning"]
        == compact.json_schema["properties"]["reasoning"]
    )
    assert widen(compact, "claim", 150, 200).json_schema["properties"]["claim"]["maxLength"] == 200
    nested = widen(output_spec(OpeningReply), "claim", 30, 200).json_schema
    item = nested["properties"]["arguments"]["items"]["properties"]
    assert item["claim"]["maxLength"] == 200
    assert max_reply_chars(wider.json_schema)[0] == max_reply_chars(compact.json_schema)[0] + 60
