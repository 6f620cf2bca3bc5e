"""``benchmarks/ablation.py``: the full debater against an ablation, each debate's
result and a line per game on disk, and the tables recomputed from that directory
alone (``--summarise``)."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from moot.formats.competitive.analysis import analyse
from moot.formats.competitive.payload import CompetitivePayload
from moot.schema import DebateResult
from script_loader import load_script

ROOT = Path(__file__).resolve().parents[2]


def benchmark() -> ModuleType:
    return load_script("benchmarks/ablation.py", "ablation_bench")


@pytest.mark.slow(minutes=1)
def test_two_debates_against_the_baseline_on_the_demo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = benchmark()
    out = tmp_path / "ablation"
    args = ["--model", "scripted:demo", "--against", "baseline", "--debates", "2", "--claims",
            "1", "--voters", "1", "--embedder", "lexical", "--out", str(out)]  # fmt: skip
    assert bench.main(args) == 0
    lines = [json.loads(t) for t in (out / "games.jsonl").read_text("utf-8").splitlines()]
    assert [(g["pairing"], g["number"]) for g in lines] == [("baseline", 1), ("baseline", 2)]
    assert [g["sides"]["pro"] for g in lines] == ["full", "baseline"]  # sides alternate
    summary = bench.summarise(out)["pairings"]["baseline"]
    verdicts = [g["game"]["verdict"] for g in lines]
    assert summary["full"]["verdict"]["wins"] == verdicts.count("full")
    assert summary["full"]["verdict"]["losses"] == verdicts.count("baseline")
    full_moves = 0
    for line in lines:
        result = DebateResult.model_validate_json((out / line["result"]).read_text("utf-8"))
        body = CompetitivePayload.model_validate(result.body)
        assert body.sides["pro"].config == line["sides"]["pro"]
        analysis = analyse(body)
        side = "pro" if line["sides"]["pro"] == "full" else "con"
        full_moves += next(s.moves.total for s in analysis.sides if s.side == side)
    assert summary["moves"]["full"]["moves"]["total"] == full_moves
    assert summary["moves"]["baseline"]["offered"] == 0
    printed = capsys.readouterr().out
    assert "| baseline | 2 | 0 |" in printed
    assert bench.main(["--summarise", str(out)]) == 0
    assert capsys.readouterr().out == printed
    assert all(isinstance(g["load"], float) for g in lines)
    # a second run's directory summarised with the first: its games are added
    more = tmp_path / "more"
    assert bench.main([*args[:-1], str(more), "--debates", "1", "--seed", "7"]) == 0
    capsys.readouterr()
    both = bench.summarise(out, more)["pairings"]["baseline"]
    (extra,) = [json.loads(t) for t in (more / "games.jsonl").read_text("utf-8").splitlines()]
    assert (both["debates"], both["played"]) == (3, 3)
    assert both["seconds"] == [*summary["seconds"], extra["seconds"]]
    assert both["full"]["verdict"]["wins"] == verdicts.count("full") + (
        extra["game"]["verdict"] == "full"
    )
