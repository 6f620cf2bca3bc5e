"""A competitive debate on scripted:demo: every speech synthesised with espeak-ng and
inside its window, only legal moves, every figure recomputable, both trees in the
briefing and the JSON, every schema sent registered, a panel and the swap rerun."""

from __future__ import annotations

import json
import wave
from pathlib import Path
from typing import Any

import pytest

from competitive_checks import Recorder, check_competitive
from moot import to_markdown
from moot.debate import run_debate
from moot.formats.competitive.trees import RehearsalTree
from moot.llm.scripted import DemoBackend
from moot.llm.types import OutputSpec
from moot.result_schema import result_json_schema
from moot.schema import DebateResult
from schema_registry import all_registered

TOPIC = "Should cities ban cars from their centres?"
SMALL = {"embedder": "lexical", "claims": 2, "branching": 2, "depth": 2}


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory) -> tuple[DebateResult, Path]:
    audio = tmp_path_factory.mktemp("audio")
    result = run_debate(
        TOPIC,
        model="scripted:demo",
        seed=5,
        format="competitive",
        format_options={"embedder": "lexical", "audio_dir": str(audio)},
    )
    return result, audio


def test_every_speech_is_synthesised_inside_its_window_with_legal_moves(
    english: tuple[DebateResult, Path],
) -> None:
    result, _ = english
    body = check_competitive(result)
    assert body["clock"]["source"] == "espeak-ng"
    assert body["clock"]["detail"].startswith("espeak-ng 1.")
    assert body["stage_seconds"] == {"opening": 240.0, "rebuttal": 240.0, "closing": 120.0}
    # the default tree: 3 claims a side, branching 3, depth 3, grown in 1 + 3 waves
    (record,) = body["rehearsal"]
    tree = RehearsalTree.model_validate(record["tree"])
    assert (tree.branching, tree.depth, len(tree.claims)) == (3, 3, 6)
    assert record["calls"] == 2 + 6 + 18 + 54
    assert record["waves"] == 4
    assert not record["from_cache"]
    assert [w.code for w in result.warnings] == []


def test_audio_files_hold_the_measured_speeches(english: tuple[DebateResult, Path]) -> None:
    result, audio = english
    speeches = result.payload["competitive"]["speeches"]
    assert sorted(p.name for p in audio.iterdir()) == [s["audio"] for s in speeches]
    for speech in speeches:
        with wave.open(str(audio / speech["audio"])) as wav:
            seconds = wav.getnframes() / wav.getframerate()
            assert (wav.getnchannels(), wav.getsampwidth()) == (1, 2)
        # synthesised again from the final text: espeak-ng repeats within about 0.1 s
        assert abs(seconds - speech["measured_seconds"]) < 0.1


def test_payload_speeches_carry_the_documented_fields(english: tuple[DebateResult, Path]) -> None:
    result, _ = english
    for speech in result.payload["competitive"]["speeches"]:
        assert {
            "stage",
            "side",
            "text",
            "actions",
            "target_seconds",
            "measured_seconds",
            "duration_source",
            "budget_steps",
        } <= set(speech)
        assert all(set(step) == {"budget", "words", "seconds"} for step in speech["budget_steps"])
        # the demo rewrites to exactly its budget, so the search converges
        assert all(step["words"] == step["budget"] for step in speech["budget_steps"])


def test_prepared_claims_are_found_in_the_rehearsal_tree(
    english: tuple[DebateResult, Path],
) -> None:
    body = english[0].payload["competitive"]
    opening = body["speeches"][0]
    proposed = [m["claim"] for m in opening["actions"] if m["action"] == "propose"]
    prepared = [p for p in opening["prepared"] if p["target"] is None]
    assert proposed
    assert {p["claim"] for p in prepared} >= set(proposed)
    # strongest first, with the k of the first speech (3 exchanges left)
    assert [p["strength"] for p in prepared] == sorted(
        (p["strength"] for p in prepared), reverse=True
    )
    assert {p["k"] for p in opening["prepared"]} == {3}
    later = [p for s in body["speeches"][1:] for p in s["prepared"] if p["target"]]
    assert later
    assert all(p["similarity"] >= 0.8 for p in later)


def test_the_briefing_shows_both_trees_indented(english: tuple[DebateResult, Path]) -> None:
    result, _ = english
    text = to_markdown(result)
    assert "## Debate flow tree" in text
    assert "## Rehearsal tree" in text
    assert "\n- PRO-1 \\[Pro, attacked" in text
    assert "\n  - CON-" in text  # an answer, indented under the claim it answers
    assert "\n      - Con: " in text  # level 3 of the rehearsal tree
    assert "f3 = " in text
    assert "## Audience vote (Oxford style)" in text
    assert "## Head-to-head by stage" in text
    assert "## Speaking time" in text


def test_the_result_validates_against_the_published_schema(
    english: tuple[DebateResult, Path],
) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    document = json.loads(english[0].model_dump_json())
    jsonschema.validate(document, result_json_schema())


def test_every_schema_sent_is_registered() -> None:
    recorder = Recorder(DemoBackend(seed=2))
    run_debate(
        TOPIC,
        model=recorder,
        seed=2,
        format="competitive",
        format_options={**SMALL, "stage_seconds": {"opening": 60, "rebuttal": 60, "closing": 45}},
        panel=["technical", "risk"],
        swap_sides=True,
    )
    registered = {
        json.dumps([s.name, s.json_schema], sort_keys=True)
        for specs in all_registered().values()
        for s in specs
    }
    sent = [call.schema for call in recorder.calls if call.schema is not None]
    assert {s.name for s in sent} >= {
        "RehearsalClaimsReply",
        "RehearsalRebuttalsReply",
        "RehearsalAnswersReply",
        "SpeechDraftReply",
        "SpeechRewriteReply",
        "AudienceReply",
        "VoteReply",
        "JudgeReply",
    }
    by_name: dict[str, list[dict[str, Any]]] = {}
    for specs in all_registered().values():
        for spec in specs:
            by_name.setdefault(spec.name, []).append(spec.json_schema)
    missing = {
        s.name
        for s in sent
        if json.dumps([s.name, s.json_schema], sort_keys=True) not in registered
        and not any(covers(r, s.json_schema) for r in by_name.get(s.name, []))
    }
    assert missing == set()
    # the two families that vary: legal moves, and paragraphs sized to a word budget
    narrowed = [s for s in sent if s.name == "SpeechDraftReply" and len(move_enum(s)) < 40]
    assert narrowed
    sized = [s for s in sent if s.name == "SpeechRewriteReply"]
    assert all(s.json_schema["properties"]["speech"].get("minItems", 0) >= 1 for s in sized)


def covers(registered: Any, sent: Any) -> bool:
    """``sent`` is ``registered`` narrowed: the same schema, except enums that are
    subsets and length or count bounds inside the registered ones."""
    if isinstance(registered, dict) and isinstance(sent, dict):
        if set(sent) - set(registered) - {"minItems", "minLength"}:
            return False
        for key, value in sent.items():
            if key == "enum":
                if not set(value) <= set(registered[key]):
                    return False
            elif key in ("minItems", "minLength"):
                if not value <= registered.get(key.replace("min", "max"), value - 1):
                    return False
            elif key in ("maxItems", "maxLength"):
                if not (isinstance(value, int) and value <= registered[key]):
                    return False
            elif not covers(registered[key], value):
                return False
        return set(registered) - {"minItems", "minLength"} <= set(sent)
    if isinstance(registered, list) and isinstance(sent, list):
        return len(registered) == len(sent) and all(map(covers, registered, sent))
    return bool(registered == sent)


def move_enum(spec: OutputSpec) -> list[str]:
    moves = spec.json_schema["properties"]["moves"]["items"]["properties"]["move"]
    return list(moves["enum"])


def test_chinese_debate_with_a_panel_and_the_swap() -> None:
    result = run_debate(
        "城市应该禁止汽车进入市中心吗？",
        model="scripted:demo",
        lang="zh",
        seed=3,
        format="competitive",
        format_options={**SMALL, "stage_seconds": {"opening": 90, "rebuttal": 60, "closing": 45}},
        panel=["technical", "business", "risk"],
        swap_sides=True,
    )
    body = check_competitive(result)
    assert all("的" in s["text"] for s in body["speeches"])
    assert result.panel is not None
    assert len(result.panel.judges) == 3
    assert result.panel.agreement.alpha_interval.label
    assert result.swap is not None
    assert result.swap.same_model
    text = to_markdown(result)
    assert "## 辩论流程树" in text
    assert "## 演练树" in text


def test_the_html_report_shows_both_trees_as_nested_lists(
    english: tuple[DebateResult, Path],
) -> None:
    from html.parser import HTMLParser

    from moot.report.html import to_html

    class Depths(HTMLParser):
        """The list depth of each list item's text."""

        def __init__(self) -> None:
            super().__init__()
            self.depth = 0
            self.items: list[tuple[int, str]] = []

        def handle_starttag(self, tag: str, attrs: object) -> None:
            self.depth += tag == "ul"

        def handle_endtag(self, tag: str) -> None:
            self.depth -= tag == "ul"

        def handle_data(self, data: str) -> None:
            if data.strip():
                self.items.append((self.depth, data.strip()))

    page = to_html(english[0])
    # the flow tree, then one rehearsal tree, each collapsed
    assert page.count('<details class="more tree') == 2
    assert "<script" not in page
    parser = Depths()
    parser.feed(page[page.index('<details class="more tree') :])
    depth = {text.split(" ")[0]: d for d, text in parser.items if text[:4] in ("PRO-", "CON-")}
    flow = english[0].payload["competitive"]["flow_tree"]["nodes"]
    for node in flow:
        parent = node["parent"]
        expected = 1 if parent is None else depth[parent] + 1
        assert depth[node["id"]] == expected, node["id"]
