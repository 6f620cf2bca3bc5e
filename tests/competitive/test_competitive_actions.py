"""The competitive action analysis: move counts and shares per stage and side,
attack-to-rebut ratios and the rehearsal claims used, recomputed here from the
recorded moves; in the briefing, the HTML report and ``moot tournament``."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from competitive_checks import SMALL
from moot.cli import app
from moot.debate import run_debate
from moot.formats.competitive.analysis import REUSE_THRESHOLD, analyse, config_moves, count
from moot.formats.competitive.payload import CompetitivePayload
from moot.formats.competitive.tournament import run_tournament
from moot.options import RunOptions
from moot.report.html import to_html
from moot.report.markdown import to_markdown
from moot.schema import DebateResult

TOPIC = "Should cities ban cars from their centres?"


@pytest.fixture(scope="module")
def debate() -> DebateResult:
    return run_debate(
        TOPIC,
        RunOptions(model="scripted:demo", seed=7, format="competitive", format_options=dict(SMALL)),
    )


def _body(result: DebateResult) -> CompetitivePayload:
    return CompetitivePayload.model_validate(result.body)


def test_the_shares_are_recomputed_from_the_recorded_moves(debate: DebateResult) -> None:
    body = _body(debate)
    analysis = body.action_analysis
    assert analysis is not None
    assert analysis == analyse(body)
    for row in analysis.stages:
        actions = Counter(
            m.action
            for s in body.speeches
            if s.stage == row.stage and s.side == row.side
            for m in s.actions
        )
        total = sum(actions.values())
        assert row.moves.total == total
        for action in ("propose", "attack", "rebut", "reinforce"):
            assert row.moves.counts[action] == actions[action]
            assert row.moves.shares[action] == round(actions[action] / total, 4)
    for side in analysis.sides:
        actions = Counter(m.action for s in body.speeches if s.side == side.side for m in s.actions)
        assert side.moves.total == sum(actions.values())
        expected = round(actions["attack"] / actions["rebut"], 4) if actions["rebut"] else None
        assert side.attack_to_rebut == expected
        assert side.config == body.sides[side.side].config


def test_the_demo_proposes_its_prepared_claims_and_counts_them_used(
    debate: DebateResult,
) -> None:
    """The demo writer proposes its strongest prepared claims word for word: each such
    proposal is a move from the rehearsal and the claim is listed as used."""
    body = _body(debate)
    analysis = body.action_analysis
    assert analysis is not None
    for side in analysis.sides:
        opening = next(s for s in body.speeches if s.side == side.side and s.stage == "opening")
        candidates = {r.matched for r in opening.prepared if r.target is None}
        proposed = [m.claim for m in opening.actions if m.action == "propose"]
        assert proposed
        assert set(proposed) <= candidates
        assert set(proposed) <= set(side.rehearsal.used)
        assert side.rehearsal.moves >= len(proposed)
        assert side.rehearsal.offered >= len(candidates)
    assert analysis.reuse_threshold == REUSE_THRESHOLD


def test_no_rehearsal_tree_means_no_rehearsal_claims() -> None:
    result = run_debate(
        TOPIC,
        RunOptions(
            model="scripted:demo",
            seed=7,
            format="competitive",
            format_options={**SMALL, "rehearsal_tree": []},
        ),
    )
    analysis = _body(result).action_analysis
    assert analysis is not None
    for side in analysis.sides:
        assert side.rehearsal.offered == 0
        assert side.rehearsal.used == []
        assert side.rehearsal.moves == 0
        assert side.moves.total > 0


def test_counts_and_ratio_of_an_empty_or_rebut_free_side() -> None:
    empty = count([])
    assert empty.total == 0
    assert set(empty.shares.values()) == {0.0}
    played = config_moves("full", [])
    assert played.moves.total == 0
    assert played.attack_to_rebut is None
    assert played.rehearsal_share is None


def test_the_briefing_and_the_html_show_the_moves(debate: DebateResult) -> None:
    analysis = _body(debate).action_analysis
    assert analysis is not None
    markdown = to_markdown(debate)
    assert "## Moves by stage and side" in markdown
    pro = analysis.sides[0]
    ratio = "-" if pro.attack_to_rebut is None else f"{pro.attack_to_rebut:.2f}"
    used = f"{len(pro.rehearsal.used)} / {pro.rehearsal.offered}"
    assert f"| {ratio} | {used} | {pro.rehearsal.moves} / {pro.moves.total} |" in markdown
    page = to_html(debate)
    section = page[page.index('<section id="moves"') :]
    section = section[: section.index("</section>")]
    assert "Attack / rebut" in section
    assert used in section


def test_the_chinese_briefing_names_the_moves() -> None:
    result = run_debate(
        "城市是否应禁止汽车进入市中心？",
        RunOptions(
            model="scripted:demo",
            seed=7,
            lang="zh",
            format="competitive",
            format_options=dict(SMALL),
        ),
    )
    markdown = to_markdown(result)
    assert "## 各阶段各方的招式" in markdown
    assert "攻击 / 反驳" in markdown


def test_a_tournament_sums_each_configurations_moves(tmp_path: Path) -> None:
    result = run_tournament(
        [TOPIC],
        ["full", "no-rehearsal"],
        2,
        RunOptions(model="scripted:demo", seed=3, format_options=dict(SMALL)),
    )
    full, bare = result.moves
    assert (full.config, bare.config) == ("full", "no-rehearsal")
    assert full.sides == bare.sides == 2
    assert full.offered > 0
    assert bare.offered == bare.used == bare.moves_from_rehearsal == 0
    assert full.moves.total == sum(full.by_stage[s].total for s in full.by_stage)
    path = tmp_path / "t.json"
    ran = CliRunner().invoke(
        app,
        [
            "tournament", TOPIC, "--configs", "full,baseline", "--debates", "1",
            "--model", "scripted:demo", "--no-store", "-q", "--json", str(path),
            "--stage-seconds", "40,40,30", "--depth", "1", "--branching", "1",
            "--format-option", "claims=1", "--format-option", "voters=3",
            "--format-option", "embedder=lexical",
        ],
    )  # fmt: skip
    assert ran.exit_code == 0, ran.output
    assert "Moves by configuration" in ran.output
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert [m["config"] for m in doc["moves"]] == ["full", "baseline"]
