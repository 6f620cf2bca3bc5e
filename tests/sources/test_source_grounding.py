"""Grounding for every model: the passage ids offered as an enum of the reply schema
(so a grammar-constrained model cannot name a passage it was not given), quotes of
passages with quotation marks and brackets (which the embedded backend's prose
grammar cannot write), and short Chinese search terms (under a trigram)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from source_docs import MEETING_ZH, write_docs

from moot import run_debate
from moot.llm.grammar import prose_pattern
from moot.llm.scripted import DemoBackend, ScriptedBackend
from moot.llm.types import CallContext, GenerationSettings, Message, OutputSpec
from moot.sources.citations import NO_SOURCE, offer_passages, quote_choices
from moot.sources.library import Passage, open_library
from moot.sources.normalize import find_quote
from moot.sources.retrieval import fts_query, search, short_terms
from moot.sources.verify import verify_citation
from moot.store import Store

TOPIC = "Should we migrate billing to Rust?"
MARKED = (
    'The team calls the Rust renderer the "fast path" [internal name] and measured'
    " {p99} of 95 ms on <staging>."
)


def _passage_enum(schema: object) -> list[list[str]]:
    """Every enum of a ``passage`` property in ``schema``."""
    found: list[list[str]] = []
    if isinstance(schema, dict):
        props = schema.get("properties")
        if isinstance(props, dict) and "passage" in props:
            found.append(list(props["passage"].get("enum", [])))
        for value in schema.values():
            found += _passage_enum(value)
    elif isinstance(schema, list):
        for item in schema:
            found += _passage_enum(item)
    return found


def test_offered_passages_become_the_schema_enum() -> None:
    base = OutputSpec(
        name="reply",
        json_schema={
            "type": "object",
            "properties": {
                "evidence": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "passage": {"type": "string", "maxLength": 16},
                            "quote": {"type": "string", "maxLength": 300},
                            "data_point": {"type": "string", "maxLength": 39},
                        },
                    },
                },
                "passage": {"type": "string"},  # not an evidence item: left alone
            },
        },
    )
    first = _passage("S1:p2", 'The "fast path" cut p99 to 95 ms.\nMemory fell 40%.')
    second = _passage("S2:p1", "杭州分部的错误率为百分之五。每周重启两次。")
    offered = offer_passages(base, [first, second, first])
    assert _passage_enum(offered.json_schema) == [[], ["S1:p2", "S2:p1", NO_SOURCE]]
    item = offered.json_schema["properties"]["evidence"]["items"]["properties"]
    assert "enum" not in item["quote"]
    assert "enum" not in item["data_point"]
    assert offer_passages(base, []) is base
    # a compact profile's choices: per passage, its id with its own sentences and figures
    chosen = offer_passages(base, [first, second], choices=True)
    variants = chosen.json_schema["properties"]["evidence"]["items"]["anyOf"]
    fields = [v["properties"] for v in variants]
    assert [f["passage"]["enum"] for f in fields] == [["S1:p2"], ["S2:p1"], [NO_SOURCE]]
    assert fields[0]["quote"]["enum"] == ['The "fast path" cut p99 to 95 ms.', "Memory fell 40%."]
    assert fields[1]["quote"]["enum"] == ["杭州分部的错误率为百分之五。", "每周重启两次。"]
    assert fields[0]["data_point"]["enum"][0] == ""
    assert "40%" in fields[0]["data_point"]["enum"]
    assert "40%" not in fields[1]["data_point"]["enum"]
    assert "enum" not in fields[2]["quote"]  # reasoning with no source: the model's words
    for passage, field in zip((first, second), fields, strict=False):
        for quote in field["quote"]["enum"]:
            assert verify_citation(passage.text, quote, "", "en").status == "verified"
    # a sentence over the quote's bound is cut at a space, never inside a number
    long = _passage("S3:p1", "The renderer handled 4,200 invoices per second at peak load.")
    (cut,) = quote_choices([long], 30)
    assert cut == "The renderer handled 4,200"
    assert len(cut) <= 30


def _passage(ident: str, text: str) -> Passage:
    source, _, number = ident.partition(":p")
    return Passage(ident, source, int(number), text, None, 1, 1)


def _spec_recorder() -> tuple[ScriptedBackend, list[tuple[CallContext, OutputSpec | None]]]:
    demo = DemoBackend(seed=3)
    seen: list[tuple[CallContext, OutputSpec | None]] = []

    def answer(
        messages: Sequence[Message],
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None,
    ) -> str:
        assert context is not None
        seen.append((context, schema))
        reply = demo.reply(context, messages, seed=3)
        return reply if isinstance(reply, str) else reply.model_dump_json()

    return ScriptedBackend(answer), seen


def test_sourced_calls_offer_exactly_the_passages_in_their_prompt(tmp_path: Path) -> None:
    docs = write_docs(tmp_path / "docs")
    for fmt, options in (("structured", {}), ("freeform", {"rounds": 1})):
        backend, seen = _spec_recorder()
        run_debate(
            TOPIC, model=backend, seed=3, format=fmt, format_options=options, sources=[str(docs)]
        )
        sourced = [(c, s) for c, s in seen if s is not None and _passage_enum(s.json_schema)]
        assert sourced, fmt
        for call in backend.calls:
            if call.schema is None or not _passage_enum(call.schema.json_schema):
                continue
            prompt = call.messages[-1].content
            shown = re.findall(r"^\[(S\d+:p\d+)\]", prompt, flags=re.MULTILINE)
            (enum,) = _passage_enum(call.schema.json_schema)
            assert enum == [*shown, NO_SOURCE], fmt


def test_the_compact_profile_offers_the_passages_sentences_as_quotes(tmp_path: Path) -> None:
    docs = write_docs(tmp_path / "docs")
    backend, _ = _spec_recorder()
    result = run_debate(TOPIC, model=backend, seed=3, profile="compact", sources=[str(docs)])
    assert result.sources is not None
    openings = [c for c in backend.calls if c.context and c.context.round == "opening"]
    assert openings
    for call in openings:
        assert call.schema is not None
        item = call.schema.json_schema["properties"]["arguments"]["items"]
        variants = item["properties"]["evidence"]["items"]["anyOf"]
        prompt = " ".join(call.messages[-1].content.split())
        shown = re.findall(r"^\[(S\d+:p\d+)\]", call.messages[-1].content, flags=re.MULTILINE)
        assert [v["properties"]["passage"]["enum"][0] for v in variants] == [*shown, NO_SOURCE]
        for variant in variants[:-1]:
            fields = variant["properties"]
            assert fields["quote"]["enum"]
            assert all(quote in prompt for quote in fields["quote"]["enum"])
            assert fields["data_point"]["enum"][0] == ""
    assert result.profiles["pro"].quote_choices


def test_a_quote_the_local_grammar_can_write_verifies_against_a_marked_passage() -> None:
    passage = MARKED
    # what the embedded model can write: no double quote, no bracket (its prose pattern)
    quote = "calls the Rust renderer the fast path internal name and measured p99 of 95 ms"
    assert re.fullmatch(prose_pattern(1, 300)[1:-1], quote)
    assert not find_quote(passage, quote)  # the plain normalisation misses it
    check = verify_citation(passage, quote, "p99 of 95 ms", "en")
    assert check.status == "verified"
    # the citation keeps the passage's own words, which occur in it as they are
    assert check.quote == (
        'calls the Rust renderer the "fast path" [internal name] and measured {p99} of 95 ms'
    )
    assert check.quote in passage
    # single quotes for double ones, in Chinese, also verify
    zh = "报告称「账单错误率」可能上升【百分之五】。"
    assert (
        verify_citation(zh, "报告称'账单错误率'可能上升百分之五", "5%", "zh").status == "verified"
    )
    # leaving marks out does not let altered words or numbers through
    assert verify_citation(passage, "the slow path internal name", "", "en").status == (
        "not_in_source"
    )
    assert verify_citation(passage, "the fast path internal name", "90 ms", "en").status == (
        "number_mismatch"
    )


def test_short_chinese_terms_are_found_under_the_trigram(tmp_path: Path) -> None:
    (tmp_path / "zh.txt").write_text(MEETING_ZH + "\n税率不变。\n", encoding="utf-8")
    lib = open_library([tmp_path], Store(tmp_path / "moot.db"))
    assert fts_query("风险") == ""  # two characters: no trigram term
    assert short_terms("风险，税") == ["风险", "税"]
    assert [p.text[:3] for p in search(lib, "风险")] == ["风险：", "税率不"][:1]
    assert [p.text for p in search(lib, "税")] == ["税率不变。"]
    # bigrams of a longer query find text its trigrams miss (利率会上升 / 错误率可能上升)
    found = search(lib, "错误率会上升吗")
    assert found
    assert found[0].text.startswith("风险：账单错误率")
    assert search(lib, "汽车") == []
