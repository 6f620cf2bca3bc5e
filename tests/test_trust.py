"""The trust verdict (``moot.trust``) and the one verdict rule (``moot.judging.verdict``).

A clean scripted run of every format is ``ok``; a run that carries what the embedded
model produces (debris in the judge's fields, echoes, loops, rules left broken,
detector flags, the compact profile) is ``low`` with those reasons; a competitive run
whose stages and audience vote favour one side and whose totals favour the other is
a ``verdict_conflict`` with the combined verdict; a panel whose judges' majority
contradicts its totals names no winner. The reports state the level and the reasons
first, rank the positions with the leader marked, and carry the run's provenance. A
result stored before ``trust`` existed is assessed on read."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import moot
from competitive_checks import SMALL
from moot import i18n
from moot.cli import app
from moot.judging.judge import position_totals, read_gap
from moot.report import to_markdown
from moot.report.html import to_html
from moot.report.verdict import RunInfo, verdict_text
from moot.result_schema import result_json_schema
from moot.schema import (
    CitationStatus,
    DebateResult,
    DetectorFlag,
    ProfileReport,
    QualityWarning,
    SourceCitation,
    SourcesSection,
)
from moot.store import default_path
from moot.trust import (
    FLAGS_CAUTION,
    RULES_LOW,
    assess,
    is_debris,
    trust_of,
    unusable_fields,
    verdict_of,
)

TOPIC = "Should a city ban cars from its centre?"
FORMATS: dict[str, dict[str, Any]] = {
    "structured": {},
    "structured-3": {"sides": ("Hainan", "the North-East", "Yunnan")},
    "freeform": {"format": "freeform"},
    "freeform-zh": {"format": "freeform", "lang": "zh"},
    "market": {"format": "market", "format_options": {"kb": "demo"}},
    "competitive": {"format": "competitive", "format_options": SMALL},
}


FLAG = DetectorFlag(
    detector="stance_drift",
    turn=4,
    unit="CON-1",
    side="con",
    evidence="74% of its terms come from Pro's earlier turns and nothing rebuts them",
)
"""A detector flag to plant: the scripted demo itself raises none."""


@pytest.fixture(scope="module")
def clean() -> dict[str, DebateResult]:
    """A scripted run of every format (and three positions, and Chinese), run once."""
    return {
        name: moot.run_debate(TOPIC, model="scripted:demo", seed=7, **options)
        for name, options in FORMATS.items()
    }


@pytest.fixture(scope="module")
def panel_result() -> DebateResult:
    return moot.run_debate(
        TOPIC, model="scripted:demo", seed=7, panel=["technical", "business", "risk", "general"]
    )


# ---- clean runs --------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_a_clean_scripted_run_of_every_format_is_ok(
    name: str, clean: dict[str, DebateResult]
) -> None:
    result = clean[name]
    assert result.trust is not None
    assert result.trust.level == "ok", result.trust.reasons
    assert result.trust.reasons == []
    # computed by code from the result: the same again on read
    assert assess(result) == result.trust
    doc = json.loads(moot.to_json(result))
    assert doc["trust"] == {"level": "ok", "reasons": []}


def test_the_schema_describes_trust() -> None:
    schema = result_json_schema()
    trust = schema["properties"]["trust"]
    assert "Trust" in json.dumps(trust)
    levels = schema["$defs"]["Trust"]["properties"]["level"]["enum"]
    assert levels == ["ok", "caution", "low"]
    codes = set(schema["$defs"]["TrustReason"]["properties"]["code"]["enum"])
    assert {
        "rules_broken",
        "detector_flags",
        "unusable_text",
        "verdict_conflict",
        "low_agreement",
        "unverified_evidence",
        "small_model",
    } <= codes


# ---- what the embedded model produces ----------------------------------------------


def _rule(n: int) -> QualityWarning:
    return QualityWarning(
        round="opening",
        side="pro" if n % 2 else "con",
        code="claim_sentences",
        where=f"arguments[{n % 3}].claim",
        message="a claim is one sentence",
    )


def embedded_like(result: DebateResult, lang: str = "en") -> DebateResult:
    """``result`` as the embedded model's README debate (seed 7) read on main: the key
    insight ``{{ <debate> <rebuttal>``, the recommendation ``[{``, an echoed field and
    a loop, 11 rules left broken, 7 detector flags, every role on the compact profile
    of the embedded model."""
    compact = ProfileReport(
        name="compact", chars=0.5, items=0.6, rule_reasks=0, stance_words=(40, 80)
    )
    warnings = [
        *(_rule(n) for n in range(11)),
        QualityWarning(
            round="closing",
            side="con",
            code="echo",
            where="final_stance",
            message="copies the prompt's description of the field",
        ),
        QualityWarning(
            round="opening", side="pro", code="loop", message="the reply repeats itself"
        ),
    ]
    flag = FLAG
    judgement = result.judgement.model_copy(
        update={"key_insight": "{{ <debate> <rebuttal>", "recommendation": "[{"}
    )
    return result.model_copy(
        update={
            "lang": lang,
            "models": dict.fromkeys(result.models, "local"),
            "profiles": dict.fromkeys(result.models, compact),
            "judgement": judgement,
            "warnings": warnings,
            "detectors": [flag] * 7,
            "trust": None,
        }
    )


def test_an_embedded_model_like_run_is_low_with_its_reasons(
    clean: dict[str, DebateResult],
) -> None:
    junk = embedded_like(clean["structured"])
    trust = assess(junk)
    assert trust.level == "low"
    by_code = {r.code: r for r in trust.reasons}
    assert set(by_code) == {"unusable_text", "rules_broken", "small_model", "detector_flags"}
    assert by_code["unusable_text"].level == "low"
    assert "key_insight" in by_code["unusable_text"].detail
    assert "recommendation" in by_code["unusable_text"].detail
    assert by_code["rules_broken"].level == "low"
    assert "11" in by_code["rules_broken"].detail
    assert by_code["small_model"].level == "caution"
    assert by_code["detector_flags"].level == "caution"
    # the reasons that set the level come first
    assert [r.level for r in trust.reasons][:2] == ["low", "low"]


def test_each_reason_alone_sets_its_level(clean: dict[str, DebateResult]) -> None:
    base = clean["structured"]
    rules = base.model_copy(update={"warnings": [_rule(n) for n in range(RULES_LOW - 1)]})
    assert [(r.code, r.level) for r in assess(rules).reasons] == [("rules_broken", "caution")]
    flags = base.model_copy(update={"detectors": [FLAG] * FLAGS_CAUTION})
    assert [(r.code, r.level) for r in assess(flags).reasons] == [("detector_flags", "caution")]
    fewer = base.model_copy(update={"detectors": [FLAG] * (FLAGS_CAUTION - 1)})
    assert assess(fewer).level == "ok"
    small = base.model_copy(update={"models": {**base.models, "con": "local"}})
    assert [(r.code, r.level) for r in assess(small).reasons] == [("small_model", "caution")]


def test_chinese_on_the_english_only_small_model_is_low(
    clean: dict[str, DebateResult],
) -> None:
    result = clean["freeform-zh"]
    # a Chinese run on the embedded model records that it is an English model
    english = QualityWarning(
        round="setup", side=None, code="english_model", message=i18n.labels("zh")["english_model"]
    )
    local = dict.fromkeys(result.models, "local")
    small = result.model_copy(update={"models": local, "warnings": [*result.warnings, english]})
    trust = assess(small)
    assert trust.level == "low"
    assert trust.reasons[0].code == "small_model"
    assert "英语" in trust.reasons[0].detail  # worded in the debate's language
    # a small multilingual model run by path is weak, not English-only
    gemma = "local:/models/gemma-3-270m-q4_k_m.gguf"
    compact = dict.fromkeys(  # as a small model run by path gets it
        result.models, ProfileReport(name="compact", chars=1, items=1, rule_reasks=0,
                                     stance_words=(20, 40))
    )  # fmt: skip
    other = result.model_copy(
        update={"models": dict.fromkeys(result.models, gemma), "profiles": compact}
    )
    reason = assess(other).reasons[0]
    assert reason.code == "small_model"
    assert "英语" not in reason.detail


def test_one_echoed_debater_field_is_caution_a_judge_field_is_low(
    clean: dict[str, DebateResult],
) -> None:
    base = clean["structured"]
    echo = QualityWarning(
        round="opening", side="pro", code="echo", where="arguments[0].claim", message="echo"
    )
    debater = base.model_copy(update={"warnings": [echo]})
    assert [(r.code, r.level) for r in assess(debater).reasons] == [("unusable_text", "caution")]
    judge = base.model_copy(
        update={"judgement": base.judgement.model_copy(update={"recommendation": "[{"})}
    )
    assert unusable_fields(judge) == (["recommendation"], [])
    assert [(r.code, r.level) for r in assess(judge).reasons] == [("unusable_text", "low")]


def test_the_same_field_path_on_two_sides_is_two_fields_named_by_side(
    clean: dict[str, DebateResult],
) -> None:
    """The README's embedded debate had ``concessions[1]`` unusable on both sides; the
    trust line named it once, as if one field."""
    base = clean["structured"]
    names = {p.key: p.name for p in base.positions}
    warnings = [
        QualityWarning(
            round="closing", side=side, code="echo", where="concessions[1]", message="echo"
        )
        for side in ("pro", "con")
    ]
    judge, debater = unusable_fields(base.model_copy(update={"warnings": warnings}))
    assert judge == []
    assert debater == [f"concessions[1] ({names['pro']})", f"concessions[1] ({names['con']})"]
    reason = assess(base.model_copy(update={"warnings": warnings})).reasons[0]
    assert reason.code == "unusable_text"
    assert "2" in reason.detail


@pytest.mark.parametrize(
    ("text", "debris"),
    [
        ("{{ <debate> <rebuttal>", True),
        ("[{", True),
        ('{"claim": "x"}', True),
        ("1.1.1.1.1.1.1.1.1.1", True),
        ("", True),
        ("   ", True),
        ("(no usable text)", True),
        ("Protected bike lanes cut injuries by a third in two years.", False),
        ("海南冬天更暖和，适合一家四口过冬。", False),
        ("GDP grew 3.2% in 2023 (World Bank, table 4).", False),
        ("<rebuttal> <closing> <claim>", True),
        ("</debate> The end", True),
        ("Use std::vector<int> rather than raw arrays in the billing core.", False),
        ("[1] Smith (2020) measured a 12% drop in congestion.", False),
    ],
)
def test_what_counts_as_debris(text: str, debris: bool) -> None:
    assert is_debris(text) is debris


def test_the_first_lines_of_a_low_run_say_why_before_any_winner(
    clean: dict[str, DebateResult],
) -> None:
    junk = embedded_like(clean["structured"])
    # a leader by the totals, so that the verdict names a winner
    totals = {"pro": 7.9, "con": 5.0}
    names = {p.key: p.name for p in junk.positions}
    judgement = junk.judgement.model_copy(
        update={"totals": totals, "gap": read_gap(totals, "en", names)}
    )
    junk = junk.model_copy(update={"judgement": judgement})
    assert verdict_of(junk).leader == "pro"
    lines = [line for line in to_markdown(junk).splitlines() if line]
    assert lines[0] == "# Decision briefing"
    assert lines[1].startswith("**Trust: LOW**: ")
    assert "11 protocol rules" in lines[1]
    verdict = lines[2]
    assert verdict.startswith("**Verdict:** Trust is low: do not rely on this verdict.")
    assert verdict.index("do not rely") < verdict.index("Pro")
    page = to_html(junk)
    card = page[page.index('<div class="trust low"') :]
    assert card.index("LOW") < card.index("Trust is low") < card.index('class="headline')


# ---- verdicts that agree with their evidence ---------------------------------------


def conflicting(result: DebateResult) -> DebateResult:
    """The competitive ``result`` rescored so that Con wins the opening and the
    rebuttal and the audience vote, while Pro's closing is so much better that the
    judges' totals favour Pro: every figure recomputed as code would."""
    doc = json.loads(result.model_dump_json())
    body = doc["payload"]["competitive"]
    stage_of = {s["id"]: s["stage"] for s in body["speeches"]}
    weighted = {
        ("opening", "pro"): 5.0,
        ("opening", "con"): 5.5,
        ("rebuttal", "pro"): 6.0,
        ("rebuttal", "con"): 6.5,
        ("closing", "pro"): 9.0,
        ("closing", "con"): 4.0,
    }
    for score in doc["judgement"]["scores"]:
        score["weighted"] = weighted[stage_of[score["argument_id"]], score["side"]]
    totals = position_totals(
        {s["argument_id"]: s["weighted"] for s in doc["judgement"]["scores"]},
        {s["argument_id"]: s["side"] for s in doc["judgement"]["scores"]},
    )
    doc["judgement"]["totals"] = totals
    names = {p["key"]: p["name"] for p in doc["positions"]}
    doc["judgement"]["gap"] = read_gap(totals, "en", names).model_dump()
    for stage in body["head_to_head"]:
        scores = {side: weighted[stage["stage"], side] for side in ("pro", "con")}
        stage["scores"] = scores
        stage["winner"] = max(scores, key=lambda side: scores[side])
    body["vote"]["shift"] = {"pro": 0.0, "con": 0.34}
    body["vote"]["winner"] = "con"
    doc["trust"] = None
    return DebateResult.model_validate(doc)


def test_stages_and_vote_against_the_totals_is_a_conflict_with_the_combined_verdict(
    clean: dict[str, DebateResult],
) -> None:
    result = conflicting(clean["competitive"])
    assert result.judgement.gap.leader == "pro"
    verdict = verdict_of(result)
    assert verdict.rule == "combined"
    assert verdict.leader == "con"  # stages and vote: 2 of 3 signals
    assert {s.kind for s in verdict.conflict} == {"stages", "vote"}
    assert [key for key, _ in verdict.ranking] == ["con", "pro"]
    trust = assess(result)
    assert [(r.code, r.level) for r in trust.reasons] == [("verdict_conflict", "caution")]
    text = to_markdown(result)
    assert "Con wins on 2 of 3 signals" in text
    for shown in ("Judges' totals", "Stage wins", "Audience vote"):
        assert f"**{shown.lower()}:**" in text.lower()
    assert "| 1 | Con (leads) |" in text
    page = to_html(result)
    assert page.count('<span class="lead-mark">') == 1
    assert 'class="evidence"' in page


def test_a_competitive_run_whose_vote_alone_dissents_follows_the_totals(
    clean: dict[str, DebateResult],
) -> None:
    result = clean["competitive"]
    verdict = verdict_of(result)
    totals, stages, vote = verdict.signals
    assert (totals.kind, stages.kind, vote.kind) == ("totals", "stages", "vote")
    named = [s.leader for s in verdict.signals if s.leader]
    if verdict.leader is not None:
        assert named.count(verdict.leader) * 2 > len(verdict.signals)
    assert verdict.conflict == () or verdict.leader != totals.leader


def test_a_panel_shows_its_judges_vote_and_names_no_winner_against_their_majority(
    panel_result: DebateResult,
) -> None:
    verdict = verdict_of(panel_result)
    vote = verdict.signal("judges")
    assert vote is not None
    assert vote.out_of == 4
    assert sum(vote.counts.values()) <= 4
    said = verdict_text(panel_result, i18n.labels("en"))
    assert [e.kind for e in said.evidence] == ["totals", "judges"]
    assert "(of 4)" in said.evidence[1].counts
    # three of the four judges score Con highest while the panel's totals favour Pro
    doc = json.loads(panel_result.model_dump_json())
    doc["panel"]["totals"] = {"pro": 6.2, "con": 6.17}
    doc["panel"]["gap"].update(value=0.03, leader="pro", runner_up="con")
    for n, judge in enumerate(doc["panel"]["judges"]):
        judge["totals"] = {"pro": 7.0, "con": 6.0} if n == 0 else {"pro": 5.0, "con": 6.0}
    doc["trust"] = None
    split = DebateResult.model_validate(doc)
    verdict = verdict_of(split)
    assert verdict.leader is None
    assert verdict.why_none == "judges_disagree"
    assert [s.kind for s in verdict.conflict] == ["judges"]
    assert "verdict_conflict" in {r.code for r in assess(split).reasons}
    text = to_markdown(split)
    assert "3 of 4 judges scored Con highest" in text
    assert "(no winner named)" in text
    assert "ahead of" not in text.split("## ")[1]  # the chip names no leader


def test_three_positions_are_ranked_with_the_leader_marked(
    clean: dict[str, DebateResult],
) -> None:
    result = clean["structured-3"]
    keys = [p.key for p in result.positions]
    totals = dict(zip(keys, (5.0, 8.5, 6.0), strict=True))
    names = {p.key: p.name for p in result.positions}
    judgement = result.judgement.model_copy(
        update={"totals": totals, "gap": read_gap(totals, "en", names)}
    )
    ranked = result.model_copy(update={"judgement": judgement})
    verdict = verdict_of(ranked)
    assert verdict.ranking == ((keys[1], 1), (keys[2], 2), (keys[0], 3))
    assert verdict.leader == keys[1]
    rows = [line for line in to_markdown(ranked).splitlines() if line.startswith("| ")][:4]
    assert rows[1:] == [
        "| 1 | the North-East (leads) | 8.50 |",
        "| 2 | Yunnan | 6.00 |",
        "| 3 | Hainan | 5.00 |",
    ]
    page = to_html(ranked)
    assert page.count('<span class="lead-mark">') == 1
    order = [page.index(f'<span class="rank">{n}.</span>') for n in (1, 2, 3)]
    assert order == sorted(order)
    # evenly matched: ranked, no leader marked
    even = {keys[0]: 6.0, keys[1]: 6.0, keys[2]: 5.5}
    tied = result.model_copy(
        update={
            "judgement": judgement.model_copy(
                update={"totals": even, "gap": read_gap(even, "en", names)}
            )
        }
    )
    assert verdict_of(tied).ranking == ((keys[0], 1), (keys[1], 1), (keys[2], 3))
    assert '<span class="lead-mark">' not in to_html(tied)


# ---- the header, the store, the CLI -------------------------------------------------


def test_the_report_header_carries_the_runs_provenance(clean: dict[str, DebateResult]) -> None:
    result = clean["structured"]
    run = RunInfo(id="20261202-010000-abcdef", date="2026-12-02T01:00:00.000000+00:00")
    page = to_html(result, run)
    header = page[page.index('class="meta-line provenance"') : page.index("</header>")]
    for shown in ("20261202-010000-abcdef", "2026-12-02 01:00 UTC", moot.__version__, "7"):
        assert shown in header
    assert "scripted:demo" in header
    text = to_markdown(result, run)
    assert "**Run:** 20261202-010000-abcdef" in text
    assert f"**moot:** {moot.__version__}" in text
    assert "**Seed:** 7" in text
    assert "**Format:** structured" in text
    assert "**Run:** not stored" in to_markdown(result)


def test_a_run_stored_before_trust_is_assessed_on_read() -> None:
    runner = CliRunner()
    ran = runner.invoke(app, ["run", TOPIC, "--model", "scripted:demo", "--seed", "7", "-q"])
    assert ran.exit_code == 0, ran.output
    listed = json.loads(runner.invoke(app, ["list", "--json"]).stdout)
    run_id = listed[0]["id"]
    assert listed[0]["trust"]["level"] == "ok"
    # as an older version stored it: no trust
    with sqlite3.connect(default_path()) as db:
        (stored,) = db.execute("SELECT result_json FROM debates WHERE id = ?", (run_id,)).fetchone()
        doc = json.loads(stored)
        del doc["trust"]
        doc["models"] = dict.fromkeys(doc["models"], "local")
        db.execute("UPDATE debates SET result_json = ? WHERE id = ?", (json.dumps(doc), run_id))
    assert trust_of(doc) is not None
    listed = json.loads(runner.invoke(app, ["list", "--json"]).stdout)
    assert listed[0]["trust"]["level"] == "caution"
    assert "CAUTION (small_model)" in runner.invoke(app, ["list"], env={"COLUMNS": "200"}).stdout
    shown = runner.invoke(app, ["show", run_id])
    assert shown.exit_code == 0, shown.output
    first = shown.stdout.splitlines()
    assert first[1].startswith("Trust: CAUTION (played by a model known to be weak")
    assert "**Trust: CAUTION**" in shown.stdout
    assert f"**Run:** {run_id}" in shown.stdout
    exported = json.loads(runner.invoke(app, ["export", run_id]).stdout)
    assert exported["trust"]["level"] == "caution"


def test_a_result_that_does_not_read_back_has_no_trust() -> None:
    assert trust_of({"format": "structured"}) is None
    assert trust_of("not json") is None
    assert trust_of(None) is None


def test_cited_sources_that_do_not_verify_lower_trust(clean: dict[str, DebateResult]) -> None:
    """Read from the ``sources`` section: half or more of the citations unverified is
    low, fewer is caution."""
    base = clean["structured"]

    def cited(*statuses: CitationStatus) -> DebateResult:
        citations = [
            SourceCitation(unit="PRO-1", source="S1", passage="S1:p1", quote="q", status=s, note="")
            for s in statuses
        ]
        return base.model_copy(
            update={"sources": SourcesSection(documents=[], citations=citations)}
        )

    assert assess(cited("verified", "verified")).level == "ok"
    few = assess(cited("verified", "verified", "not_in_source"))
    assert [(r.code, r.level) for r in few.reasons] == [("unverified_evidence", "caution")]
    many = assess(cited("verified", "number_mismatch", "no_source"))
    assert [(r.code, r.level) for r in many.reasons] == [("unverified_evidence", "low")]


def test_the_published_thresholds_are_the_codes() -> None:
    """docs/trust.md states the thresholds the code uses."""
    from moot import trust

    doc = (Path(__file__).resolve().parent.parent / "docs" / "trust.md").read_text("utf-8")
    for name in ("RULES_CAUTION", "RULES_LOW", "FLAGS_CAUTION", "UNUSABLE_LOW"):
        assert f"`{name}` = {getattr(trust, name)}" in doc, name


def test_the_version_the_reports_name_is_moots() -> None:
    import tomllib

    from moot.version import VERSION

    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    declared = tomllib.loads(pyproject.read_text("utf-8"))["project"]["version"]
    assert VERSION == moot.__version__ == declared
