"""``--format freeform --judge-each-round``: the judge scores every round's speeches
after that round (its own call, ``judge_round_N``, alongside the next round's wave);
the result keeps one score per position per round, recomputable from the integer
scores; the briefing shows the trajectory as a table, the HTML as a line chart."""

from __future__ import annotations

import itertools
import json
import re
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

import moot
from invariants import check_result_json
from moot.cli import app
from moot.formats import get_format
from moot.formats.base import make_positions
from moot.formats.freeform.payload import FreeformPayload
from moot.judging.judge import JudgeCall
from moot.judging.rubric import GENERAL
from moot.llm.scripted import DemoBackend
from moot.report.html import to_html
from moot.report.html.labels import labels, round_label
from moot.schema import DebateResult

TOPIC = "Where should a family of four spend the winter?"
THREE = ("Hainan", "the North-East", "Yunnan")


def _moot(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def _each_round(rounds: int, backend: DemoBackend, **extra: Any) -> DebateResult:
    return moot.run_debate(
        TOPIC,
        model=backend,
        sides=THREE,
        format="freeform",
        format_options={"rounds": rounds, "judge_each_round": True},
        **extra,
    )


@pytest.mark.parametrize("rounds", [1, 3])
def test_one_score_per_position_per_round_recomputed_from_the_integer_scores(rounds: int) -> None:
    backend = DemoBackend(seed=5)
    result = _each_round(rounds, backend)
    check_result_json(result.model_dump_json())
    body = FreeformPayload.model_validate(result.body)
    assert [r.round for r in body.round_scores] == list(range(1, rounds + 1))
    for row in body.round_scores:
        ids = {s.id for s in body.speeches if s.round == row.round}
        assert {s.argument_id for s in row.speeches} == ids
        assert set(row.scores) == {"A", "B", "C"}
        for unit in row.speeches:
            assert unit.weighted == GENERAL.weighted(unit.scores)
        for side, value in row.scores.items():
            mine = [u.weighted for u in row.speeches if u.side == side]
            assert value == round(statistics.fmean(mine), 4)
        top = max(row.scores.values())
        leaders = [k for k, v in row.scores.items() if v == top]
        assert row.leader == (leaders[0] if len(leaders) == 1 else None)


def test_each_round_is_judged_on_its_own_speeches_with_the_rounds_before() -> None:
    """Round N's judge call carries exactly round N's speeches as its units, reads a
    transcript that stops at round N, and is its own round (seeded and journaled as
    ``judge_round_N``); the final judgement still reads every speech."""
    backend = DemoBackend(seed=2)
    result = _each_round(3, backend)
    body = FreeformPayload.model_validate(result.body)
    calls = {c.context.round: c for c in backend.calls if c.context.role == "judge"}
    assert set(calls) == {"judge_round_1", "judge_round_2", "judge_round_3", "judgement"}
    for n in (1, 2, 3):
        data = calls[f"judge_round_{n}"].context.data
        assert isinstance(data, JudgeCall)
        assert {u.id for u in data.units} == {s.id for s in body.speeches if s.round == n}
        assert f"Round {n}:" in data.transcript
        assert f"Round {n + 1}:" not in data.transcript
    final = calls["judgement"].context.data
    assert isinstance(final, JudgeCall)
    assert len(final.units) == len(body.speeches)


def test_without_the_option_the_judge_scores_once() -> None:
    backend = DemoBackend(seed=5)
    result = moot.run_debate(TOPIC, model=backend, sides=THREE, format="freeform")
    assert FreeformPayload.model_validate(result.body).round_scores == []
    assert Counter(c.context.round for c in backend.calls if c.context.role == "judge") == {
        "judgement": 1
    }


@pytest.mark.timing
def test_a_rounds_score_runs_alongside_the_next_round() -> None:
    """No extra wave: round N's score is in flight with round N + 1's speeches (each
    side's first call: a detector's re-ask comes later) and the last round's with the
    final judgement."""
    backend = DemoBackend(seed=4, latency_ms=100)
    _each_round(3, backend)
    by_round: dict[str, list[Any]] = {}
    seen: set[tuple[str, str | None]] = set()
    for call in sorted(backend.calls, key=lambda c: c.started):
        key = (call.context.round, call.context.side)
        if key not in seen:
            seen.add(key)
            by_round.setdefault(call.context.round, []).append(call)
    for score, beside in (
        ("judge_round_1", "round_2"),
        ("judge_round_2", "round_3"),
        ("judge_round_3", "judgement"),
    ):
        pairs = itertools.product(by_round[score], by_round[beside])
        assert all(a.started < b.finished and b.started < a.finished for a, b in pairs)


def test_the_flag_the_briefing_and_the_html_report(tmp_path: Path) -> None:
    path = tmp_path / "ff.json"
    ran = _moot(
        "run", TOPIC, "--model", "scripted:demo", "--seed", "3", "--format", "freeform",
        "--judge-each-round", "--no-store", "--json", str(path),
    )  # fmt: skip
    assert ran.exit_code == 0, ran.output
    result = DebateResult.model_validate_json(path.read_text(encoding="utf-8"))
    body = FreeformPayload.model_validate(result.body)
    assert len(body.round_scores) == 3
    briefing = ran.output
    assert "## Score after each round" in briefing
    for row in body.round_scores:
        cells = f"| {row.round} | {row.scores['pro']:.2f} | {row.scores['con']:.2f} |"
        assert cells in briefing
    page = to_html(result)
    section = page[page.index('id="trajectory"') :]
    section = section[: section.index("</section>")]
    # one line per position between consecutive rounds, one point per position and round
    assert len(re.findall(r'<line [^>]*class="trend side-\d"', section)) == 2 * 2
    assert len(re.findall(r'<circle [^>]*class="point side-\d"', section)) == 2 * 3
    first = f"{body.round_scores[0].scores['pro']:.2f}"
    assert re.search(r'<table class="sr-only">.*' + re.escape(first), section, re.S)


def test_the_chinese_briefing_has_the_trajectory() -> None:
    ran = _moot(
        "run", "一家四口冬天去哪里过冬？", "--lang", "zh", "--model", "scripted:demo",
        "--format", "freeform", "--judge-each-round", "--no-store",
    )  # fmt: skip
    assert ran.exit_code == 0, ran.output
    assert "## 每轮之后的得分" in ran.output
    assert "首轮到末轮的变化" in ran.output


@pytest.mark.parametrize("value", ["3", '"yes"'])
def test_a_value_that_is_not_true_or_false_is_refused(value: str) -> None:
    ran = _moot(
        "run", TOPIC, "--model", "scripted:demo", "--format", "freeform", "--no-store",
        "--format-option", f"judge_each_round={value}",
    )  # fmt: skip
    assert ran.exit_code == 2, ran.output
    assert "judge_each_round" in ran.output


def test_the_payload_schema_names_the_round_scores() -> None:
    ran = _moot("schema")
    assert ran.exit_code == 0, ran.output
    schema = json.loads(ran.output)
    assert "round_scores" in schema["$defs"]["FreeformPayload"]["properties"]
    assert set(schema["$defs"]["RoundScore"]["properties"]) == {
        "round",
        "scores",
        "speeches",
        "leader",
    }


def test_the_default_concurrency_lets_a_rounds_score_join_the_next_round() -> None:
    """Six positions speak at once and the previous round's score joins them: the
    engine's default cap is at least seven, so nothing waits for a slot."""
    fmt = get_format("freeform")
    positions = make_positions(list("UVWXYZ"), "en")
    plain = fmt.widest_wave(positions, {}, judge_calls=1, classifier=False)
    each = fmt.widest_wave(positions, {"judge_each_round": True}, judge_calls=1, classifier=False)
    assert (plain, each) == (6, 7)
    assert (
        fmt.widest_wave(positions[:2], {"judge_each_round": True}, judge_calls=4, classifier=True)
        == 5
    )


@pytest.mark.parametrize(
    ("lang", "code", "words"),
    [
        ("en", "judge_round_2", "Judge's score of round 2"),
        ("zh", "judge_round_2", "裁判为第 2 回合打分"),
        ("en", "deliberation_1", "Panel deliberation, round 1"),
        ("zh", "deliberation_1", "评审团合议第 1 轮"),
    ],
)
def test_the_new_rounds_have_words_in_the_pages(lang: str, code: str, words: str) -> None:
    assert round_label(labels(lang, "freeform"), code) == words


def test_the_live_page_counts_and_orders_the_round_scores() -> None:
    from moot.report.html.formats import expected_calls, rounds

    config = {"format_options": {"rounds": 3, "judge_each_round": True}, "sides": list(THREE)}
    assert rounds("freeform", config) == (
        "classification", "round_1", "round_2", "judge_round_1", "round_3", "judge_round_2",
        "judge_round_3", "judgement",
    )  # fmt: skip
    result = _each_round(3, DemoBackend(seed=5))
    reasks = result.usage.reasks
    assert result.usage.calls - reasks == expected_calls("freeform", config) == 3 * 3 + 3 + 1
