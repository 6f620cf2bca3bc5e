"""The market format over documents (``--sources``): documents beside the KB. The
analysts cite passages (verified like every format's citations), the KB's numbers
are still checked and bound to their index and period, and a number the KB does not
hold counts as the document's only when a verified citation's passage holds it."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from source_checks import check_verified_quotes
from source_docs import write_docs
from spoiling import spoiling

from moot import run_debate
from moot.formats.market.checks import check_fields
from moot.formats.market.data import demo_kb
from moot.llm.scripted import ScriptedBackend
from moot.llm.types import CallContext, Message
from moot.report.markdown import to_markdown
from moot.schema import DebateResult

TOPIC = "Will the market rise over the next month?"
STATEMENT = (
    "The central bank said on Tuesday that inflation eased to 2.4% in November and that"
    " it expects to hold rates through the first quarter."
)


def _recording(bad_quote: str | None = None) -> ScriptedBackend:
    def spoil(context: CallContext, data: dict[str, Any], _: Sequence[Message]) -> None:
        if bad_quote and context.role == "bull:tech_bull" and context.round == "opening":
            data["arguments"][0]["citations"][0]["quote"] = bad_quote

    return spoiling(spoil)


def _market(backend: ScriptedBackend, docs: Path) -> DebateResult:
    return run_debate(
        TOPIC,
        model=backend,
        seed=3,
        format="market",
        format_options={"kb": "demo"},
        sources=[str(docs)],
    )


def test_market_analysts_cite_documents_beside_the_kb(tmp_path: Path) -> None:
    docs = write_docs(tmp_path / "docs")
    backend = _recording()
    result = _market(backend, docs)
    assert result.sources is not None
    arguments = result.body["arguments"]
    cited = [(a["id"], c["passage"]) for a in arguments for c in a["citations"]]
    assert cited
    assert len({a for a, _ in cited}) == len(arguments)
    ids = {a["id"] for a in arguments}  # challenges and closings cite too (below)
    assert cited == [(c.unit, c.passage) for c in result.sources.citations if c.unit in ids]
    assert all(c.status == "verified" for c in result.sources.citations)
    check_verified_quotes(json.loads(result.model_dump_json()))
    openings = [c for c in backend.calls if c.context and c.context.round == "opening"]
    for call in openings:
        if call.context and call.context.role == "baseline":
            continue
        prompt = call.messages[-1].content
        shown = re.findall(r"^\[(S\d+:p\d+)\]", prompt, flags=re.MULTILINE)
        assert shown
        assert "<documents>" in prompt
        assert call.schema is not None
        item = call.schema.json_schema["properties"]["arguments"]["items"]
        passage = item["properties"]["citations"]["items"]["properties"]["passage"]
        assert passage["enum"] == [*shown, "none"]
    judge = next(c for c in backend.calls if c.context and c.context.role == "judge")
    assert "Citations as code checked them" in "\n".join(m.content for m in judge.messages)
    assert "## Sources" in to_markdown(result)


def test_an_unverified_market_citation_is_reasked_kept_and_penalised(tmp_path: Path) -> None:
    docs = write_docs(tmp_path / "docs")
    backend = _recording("Rust would cut memory use by 90% according to nobody.")
    result = _market(backend, docs)
    assert result.sources is not None
    bad = [c for c in result.sources.citations if c.status != "verified"]
    assert [(c.unit, c.status) for c in bad] == [("TECH_BULL-1", "not_in_source")]
    asked = [
        c
        for c in backend.calls
        if c.context and c.context.role == "bull:tech_bull" and c.context.round == "opening"
    ]
    assert len(asked) == 2
    assert "does not check out" in asked[1].messages[-1].content
    assert any(
        w.code == "citation_unverified" and w.where.startswith("TECH_BULL-1")
        for w in result.warnings
    )
    score = next(s for s in result.judgement.scores if s.argument_id == "TECH_BULL-1")
    assert score.scores["evidence"] <= 3  # every citation of it unverified: capped
    kept = [s for s in result.body["evidence_scores"] if s["argument_id"] == "TECH_BULL-1"]
    assert kept
    assert all(s["penalised"] <= 3 for s in kept)


def test_kb_numbers_stay_bound_and_document_numbers_need_a_verified_passage() -> None:
    kb = demo_kb()
    fields = [("evidence", "Inflation eased to 2.4% in November, per the statement.")]
    alone = check_fields(fields, kb, kb)
    assert [n.status for n in alone.record.numbers] == ["unsupported"]
    sourced = check_fields(fields, kb, kb, documents=[STATEMENT])
    assert [n.status for n in sourced.record.numbers] == ["quoted"]
    assert sourced.report.unsupported == ()
    # a passage that does not hold the number lends it nothing
    other = check_fields(fields, kb, kb, documents=["Rates were held at 4.5%."])
    assert [n.status for n in other.record.numbers] == ["unsupported"]
    # a KB number of another index stays wrong_entity, whatever the documents say
    wrong = [("evidence", "ExampleIndex closed at 3825.01.")]
    bound = check_fields(wrong, kb, kb, documents=["The midcap index closed at 3825.01."])
    assert [n.status for n in bound.record.numbers] == ["wrong_entity"]


def _passage_fields(node: object) -> list[dict[str, object]]:
    """Every citation's ``passage`` field of a schema."""
    if isinstance(node, list):
        return [f for item in node for f in _passage_fields(item)]
    if not isinstance(node, dict):
        return []
    props = node.get("properties")
    found = [props["passage"]] if isinstance(props, dict) and "quote" in props else []
    return found + [f for value in node.values() for f in _passage_fields(value)]


def test_cross_examinations_and_closings_cite_and_are_checked_like_openings(
    tmp_path: Path,
) -> None:
    docs = write_docs(tmp_path / "docs")
    spoiled: list[str] = []

    def spoil(context: CallContext, data: dict[str, Any], _: Sequence[Message]) -> None:
        if context.round == "closing" and not spoiled:
            spoiled.append(context.role)  # the first closing quotes what no passage says
            data["citations"][0]["quote"] = "The central bank promised a 75 basis point cut."

    backend = spoiling(spoil)
    result = _market(backend, docs)
    assert result.sources is not None
    for round_name in ("cross_examination", "closing"):
        calls = [c for c in backend.calls if c.context and c.context.round == round_name]
        assert calls
        for call in calls:
            prompt = "\n".join(m.content for m in call.messages if m.role == "user")
            shown = re.findall(r"^\[(S\d+:p\d+)\]", prompt, flags=re.MULTILINE)
            assert shown
            assert "<documents>" in prompt
            assert call.schema is not None
            offered = _passage_fields(call.schema.json_schema)
            assert offered  # every citation slot names one of the passages shown, or none
            assert all(f.get("enum") == [*shown, "none"] for f in offered)
    # the spoiled closing was sent back once with the verifier's note, then fixed
    closings = [c for c in backend.calls if c.context and c.context.round == "closing"]
    assert "does not check out" in closings[1].messages[-1].content
    assert closings[1].context is not None
    assert closings[1].context.role == spoiled[0]
    body = result.body
    units = {c.unit for c in result.sources.citations}
    for challenge in body["challenges"]:
        assert challenge["citations"]
        assert challenge["unit"] in units
    for closing in body["closings"]:
        assert closing["citations"]
        assert closing["unit"] in units
    assert all(c.status == "verified" for c in result.sources.citations)
    assert any(u.endswith("-X1") for u in units)
    assert any(u.endswith("-CLOSING") for u in units)
    check_verified_quotes(json.loads(result.model_dump_json()))
    judge = next(c for c in backend.calls if c.context and c.context.role == "judge")
    transcript = "\n".join(m.content for m in judge.messages)
    assert transcript.count("Citations as code checked them") > len(body["arguments"])
