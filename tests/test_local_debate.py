"""Full debates on the real embedded model (SmolLM2-135M via llama.cpp), through the
``moot`` command line, in English and in Chinese. Minutes each on a laptop CPU.

The 135M model argues badly; these tests check that the engine is correct with it:
the JSON satisfies every invariant, the Chinese run's own words are Chinese, and
every rule the model still broke is reported rather than hidden.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from invariants import check_result_json, has_cjk
from panel_checks import check_panel

CASES = [
    ("Should a 10-person startup adopt microservices from day one?", "en", "# Decision briefing"),
    ("冬季旅行应该去海南还是去东北？", "zh", "# 决策简报"),
]


@pytest.mark.process
@pytest.mark.slow(minutes=3)
@pytest.mark.parametrize(("topic", "lang", "title"), CASES, ids=["en", "zh"])
def test_full_debate_on_the_embedded_model(
    topic: str, lang: str, title: str, tmp_path: Path
) -> None:
    out = tmp_path / "result.json"
    command = [sys.executable, "-m", "moot", "run", topic, "--lang", lang, "--seed", "7"]
    done = subprocess.run(
        [*command, "--json", str(out)], capture_output=True, text=True, timeout=1800, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    doc = check_result_json(out.read_text(encoding="utf-8"))
    assert doc["models"] == {"pro": "local", "con": "local", "judge": "local"}
    assert doc["lang"] == lang
    assert doc["seed"] == 7
    assert doc["usage"]["prompt_tokens"] > 0
    assert doc["usage"]["completion_tokens"] > 0
    # progress went to stderr while it ran: rounds and tokens
    assert "round: cross_examination" in done.stderr
    assert "tokens" in done.stderr
    briefing = done.stdout
    assert briefing.startswith(title)
    arguments = doc["payload"]["structured"]["arguments"]
    assert arguments
    for arg in arguments:
        assert f"| {arg['id']} |" in briefing
    if lang == "zh":
        assert has_cjk(doc["topic"])
        assert has_cjk(doc["judgement"]["gap"]["text"])
        assert "论据追溯表" in briefing
        # whatever language the model wrote in, a rule it broke is reported, not hidden
        english_text = [a for a in arguments if not has_cjk(a["claim"])]
        if english_text:
            assert any(w["code"] == "language" for w in doc["warnings"])
    json.dumps(doc)  # the document round-trips


@pytest.mark.process
@pytest.mark.slow(minutes=4)
def test_panel_debate_on_the_embedded_model(tmp_path: Path) -> None:
    """Three judges on the embedded model; every panel figure is recomputed from the
    JSON's raw scores (weights, totals, alpha with the krippendorff package, kappa)."""
    out = tmp_path / "panel.json"
    command = [
        sys.executable,
        "-m",
        "moot",
        "run",
        CASES[0][0],
        "--seed",
        "11",
        "--panel",
        "technical,business,general",
        "--json",
        str(out),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=1800, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    doc = check_result_json(out.read_text(encoding="utf-8"), extra_calls=3)
    check_panel(doc)
    assert "## Judge panel" in done.stdout
