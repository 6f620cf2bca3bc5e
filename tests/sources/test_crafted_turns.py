"""Crafted citations in the turns the first crafted checks left alone: every speech of
the competitive format (draft and rewrites), and the market format's
cross-examinations and closings beside its openings, with narrative documents
beside the KB. Written from issue 19, docs/sources.md and docs/market.md alone.

Each debate runs through ``moot run`` (in process); every crafted citation must get
the status the docs give it under its unit (``PRO-REBUTTAL``, ``TECH_BULL-X2``,
``TECH_BULL-CLOSING``), the judge's prompt must carry that check, and the briefing
and the HTML report must list every unverified one. Verified quotes are re-found in
their files by ``refind``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from crafted_backend import Crafted, MarketCrafted, Plan, Turn, crafted_backend
from crafted_docs import write_en, write_zh
from refind import unfound_verified
from typer.testing import CliRunner

from moot.cli import app
from moot.formats.market.data import load_kb
from moot.llm.backend import Backend, ProviderFactory
from moot.llm.types import CallContext, Message

UseProvider = Callable[[str, ProviderFactory], None]

V, NIS, NM, NS = "verified", "not_in_source", "number_mismatch", "no_source"


def _use(plan: Plan, use_provider: UseProvider) -> list[str]:
    """Registers ``crafted:`` answering with ``plan``; returns the judge prompts seen."""
    judged: list[str] = []

    def observe(messages: Sequence[Message], context: CallContext | None) -> None:
        if context is not None and context.role.startswith("judge"):
            judged.append("\n".join(m.content for m in messages))

    def factory(rest: str, seed: int | None, timeout: float | None) -> Backend:
        return crafted_backend(plan, seed or 1, observe)

    use_provider("crafted", factory)
    return judged


def _run(args: list[str], tmp_path: Path) -> tuple[dict[str, Any], str, str]:
    out, report = tmp_path / "r.json", tmp_path / "r.html"
    run = CliRunner().invoke(
        app, ["run", *args, "--model", "crafted:x", "--seed", "3", "--json", str(out),
              "--html", str(report)],
    )  # fmt: skip
    assert run.exit_code == 0, run.output
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    (tmp_path / "briefing.md").write_text(run.stdout, encoding="utf-8")
    return result, run.stdout, report.read_text(encoding="utf-8")


def _by_unit(result: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    units: dict[str, list[dict[str, Any]]] = {}
    for citation in result["sources"]["citations"]:
        units.setdefault(citation["unit"], []).append(citation)
    return units


def _first_list(briefing: str) -> str:
    """The first list of the briefing's Sources section (English or Chinese heading):
    the citations that do not check out, when there are any."""
    section = re.split(r"^## (?:Sources|资料来源)$", briefing, flags=re.M)[1]
    section = re.split(r"^## ", section, flags=re.M)[0]
    block = re.search(r"(?:^- \*\*.*\n)+", section, re.M)
    assert block, "no list in the briefing's Sources section"
    return block[0]


def _units(listing: str) -> list[str]:
    units = re.findall(r"^- \*\*([A-Z\\_]+-[A-Z0-9]+)\*\* ", listing, re.M)
    return [u.replace("\\_", "_") for u in units]


def _check_units(
    expected: dict[str, list[Crafted]],
    result: dict[str, Any],
    briefing: str,
    report: str,
    judged: list[str],
) -> None:
    """Every unit's citations carry the crafted statuses (a continuation may repeat
    them), the judge read each check, and the briefing and the report list exactly
    the units with an unverified citation."""
    units = _by_unit(result)
    wrong = []
    for unit, cases in expected.items():
        got = [(c["quote"], c["status"]) for c in units.get(unit, [])]
        want = [(case.quote, case.expected) for case in cases]
        if not got or len(got) % len(want) or got != want * (len(got) // len(want)):
            wrong.append(f"{unit}: expected {want}, got {got}")
    assert not wrong, "\n".join(wrong)
    judge = "\n".join(judged)
    for unit in expected:
        for citation in units[unit]:
            if citation["status"] != NS:
                seen = f"{citation['passage']} {citation['status']}"
                assert seen in judge, f"{unit}: the judge never read '{seen}'"
    unverified = sorted(
        u for u, cases in expected.items() if any(c.expected in {NIS, NM} for c in cases)
    )
    assert unverified
    listed = sorted(set(_units(_first_list(briefing))))
    first = report.partition('<ul class="citations">')[2].partition("</ul>")[0]
    shown = sorted(set(re.findall(r"<strong>([A-Z_]+-[A-Z0-9]+)</strong>", first)))
    assert listed == unverified, "the briefing's list of citations that do not check out"
    assert shown == unverified, "the report's list of citations that do not check out"
    warned = {w.get("unit") for w in result["warnings"] if w.get("kind") == "citation_unverified"}
    assert set(unverified) <= warned | {
        u for u in unverified for w in result["warnings"] if u in json.dumps(w)
    }, result["warnings"]
    assert unfound_verified(result) == []


# -- competitive: every speech's draft and rewrites cite --------------------------------

COMPETITIVE: dict[str, dict[str, list[Crafted]]] = {
    lang: {turn: [Crafted(*row) for row in rows] for turn, rows in turns.items()}
    for lang, turns in json.loads(
        (Path(__file__).parent / "crafted_competitive.json").read_text(encoding="utf-8")
    ).items()
}
"""Each language's crafted citations of every speech: ``ROUND:SIDE`` to rows of
``Crafted`` fields (kind, locator, quote, claim, expected status, data point)."""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_competitive_speech_citations_get_their_status(
    lang: str, tmp_path: Path, use_provider: UseProvider
) -> None:
    crafted = COMPETITIVE[lang]
    plan = Plan(turns={key: [Turn(cases)] for key, cases in crafted.items()})
    judged = _use(plan, use_provider)
    folder = (write_zh if lang == "zh" else write_en)(tmp_path / "docs")
    topic = (
        "Should we migrate the billing service to Rust?"
        if lang == "en"
        else "计费服务应该迁移到Rust吗？"
    )
    result, briefing, report = _run(
        [topic, "--format", "competitive", "--lang", lang, "--sources", str(folder)], tmp_path
    )
    assert not plan.unlocated, plan.unlocated
    expected = {
        f"{key.split(':')[1].upper()}-{key.split('_')[0].upper()}": cases
        for key, cases in crafted.items()
    }
    _check_units(expected, result, briefing, report, judged)


# -- market: openings, cross-examinations and closings over narrative documents ---------


def _kb_numbers() -> set[float]:
    numbers: set[float] = set()

    def walk(value: Any) -> None:
        if isinstance(value, bool):
            return
        if isinstance(value, int | float):
            numbers.add(round(float(value), 2))
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(load_kb("demo").model_dump())
    return numbers


CALL = {
    "en": (
        "Earnings call notes\n\n"
        "The chair said revenue of listed firms grew 17.37% in the quarter.\n\n"
        "The central bank kept its policy rate unchanged at 4.65 percent.\n"
    ),
    "zh": (
        "业绩会纪要\n\n董事长称上市公司本季度营收增长17.37%。\n\n"
        "央行将政策利率维持在百分之四点六五不变。\n"
    ),
}


def _market_plan(lang: str) -> tuple[Plan, dict[str, list[Crafted]]]:
    en = lang == "en"
    revenue = "revenue of listed firms grew 17.37%" if en else "上市公司本季度营收增长17.37%"
    revenue_altered = (
        "revenue of listed firms grew 19.37%" if en else "上市公司本季度营收增长19.37%"
    )
    rate = (
        "kept its policy rate unchanged at 4.65 percent"
        if en
        else "央行将政策利率维持在百分之四点六五不变"
    )
    rate_altered = (
        "kept its policy rate unchanged at 4.85 percent"
        if en
        else "央行将政策利率维持在百分之四点八五不变"
    )
    says_revenue = (
        "Listed firms' revenue grew 17.37% last quarter."
        if en
        else "上市公司上季度营收增长17.37%。"
    )
    says_rate = "The policy rate is held at 4.65%." if en else "政策利率维持在4.65%。"
    close = f"{load_kb('demo').indices['EXI'].close:.2f}"
    own = MarketCrafted(
        "own close", "The index holds its level" if en else "指数守住了关键点位",
        f"ExampleIndex closed at {close}." if en else f"ExampleIndex收于{close}点。",
        close, "matched", "indices.EXI.close",
    )  # fmt: skip
    market = {
        "tech_bull": [
            MarketCrafted(
                "a document's number, verified",
                "Earnings back the rally" if en else "上市公司盈利支撑指数上涨",
                says_revenue, "17.37", "quoted", None, cite=revenue,
            ),
            own,
        ],
        "tech_bear": [
            MarketCrafted(
                "a document's number, quote altered",
                "Earnings are overstated" if en else "上市公司盈利被明显高估",
                says_revenue, "17.37", "unsupported", None, cite=revenue, quote=revenue_altered,
            ),
            own,
        ],
    }  # fmt: skip
    turns = {
        "cross_examination:tech_bull": [
            Turn([Crafted("verified", rate, rate, "", V)], {"new_evidence": says_rate}),
            Turn([Crafted("altered", rate, rate_altered, "", NIS)], {"new_evidence": says_rate}),
            Turn([Crafted("no source", "none", "reasoning only", "", NS)]),
        ],
        "closing:tech_bull": [
            Turn([Crafted("data point stated nowhere", rate, rate, "", NM, "5.25%")]),
        ],
        "cross_examination:tech_bear": [
            Turn([Crafted("another passage's words", revenue, rate, "", NIS)]),
        ],
        "closing:tech_bear": [Turn([Crafted("verified", revenue, revenue, "", V, "17.37%")])],
    }
    plan = Plan(market=market, turns=turns)
    expected: dict[str, list[Crafted]] = {
        "TECH_BULL-1": [Crafted("", "", revenue, "", V)],
        "TECH_BEAR-1": [Crafted("", "", revenue_altered, "", NIS)],
        "TECH_BULL-X1": turns["cross_examination:tech_bull"][0].citations,
        "TECH_BULL-X2": turns["cross_examination:tech_bull"][1].citations,
        "TECH_BULL-CLOSING": turns["closing:tech_bull"][0].citations,
        "TECH_BEAR-X1": turns["cross_examination:tech_bear"][0].citations,
        "TECH_BEAR-X2": turns["cross_examination:tech_bear"][0].citations,  # the last repeats
        "TECH_BEAR-CLOSING": turns["closing:tech_bear"][0].citations,
    }
    return plan, expected


def _numbers(entry: dict[str, Any], number: str) -> list[dict[str, Any]]:
    return [r for r in entry["check"]["numbers"] if number in r["text"]]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_market_turns_cite_narrative_documents(
    lang: str, tmp_path: Path, use_provider: UseProvider
) -> None:
    assert not {17.37, 4.65, 19.37, 4.85, 5.25} & _kb_numbers()
    plan, expected = _market_plan(lang)
    judged = _use(plan, use_provider)
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / ("call.md" if lang == "en" else "纪要.md")).write_text(CALL[lang], encoding="utf-8")
    topic = (
        "Will ExampleIndex close higher a month from now?"
        if lang == "en"
        else "ExampleIndex一个月后会收得更高吗？"
    )
    result, briefing, report = _run(
        [topic, "--format", "market", "--kb", "demo", "--lang", lang, "--sources", str(folder)],
        tmp_path,
    )
    assert not plan.unlocated, plan.unlocated
    _check_units(expected, result, briefing, report, judged)
    market = result["payload"]["market"]
    arguments = {a["id"]: a for a in market["arguments"]}
    # a number the KB does not hold: the document's when a verified citation holds it
    assert [r["status"] for r in _numbers(arguments["TECH_BULL-1"], "17.37")] == ["quoted"]
    assert [r["status"] for r in _numbers(arguments["TECH_BEAR-1"], "17.37")] == ["unsupported"]
    challenges = {c["unit"]: c for c in market["challenges"]}
    assert [r["status"] for r in _numbers(challenges["TECH_BULL-X1"], "4.65")] == ["quoted"]
    assert [r["status"] for r in _numbers(challenges["TECH_BULL-X2"], "4.65")] == ["unsupported"]
    # the penalty scores arguments only: TECH_BEAR-1's only citation does not check out
    for row in market["evidence_scores"]:
        if row["argument_id"] == "TECH_BEAR-1":
            assert row["penalised"] <= 3, row
