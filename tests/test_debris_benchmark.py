"""The hidden-topic checker (``benchmarks/debris.py``; docs/debris-check.md gives its
figures): silent on a clean run, and it finds each kind of defect it reports."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import moot
from moot import run_debate
from moot.report.html import render_report
from moot.report.markdown import to_markdown
from script_loader import load_script

ROOT = Path(__file__).resolve().parent.parent
TOPIC = "Should a public library lend power tools?"


@pytest.fixture(scope="module")
def clean() -> moot.DebateResult:
    return run_debate(TOPIC, model="scripted:demo", seed=1)


def checker() -> ModuleType:
    return load_script("benchmarks/debris.py", "debris_bench")


def _write(tmp: Path, result: moot.DebateResult) -> tuple[Path, Path, Path]:
    paths = tmp / "r.json", tmp / "r.md", tmp / "r.html"
    paths[0].write_text(moot.to_json(result), encoding="utf-8")
    paths[1].write_text(to_markdown(result), encoding="utf-8")
    paths[2].write_text(render_report(result), encoding="utf-8")
    return paths


def _check_edited(tmp: Path, result: moot.DebateResult, edit: Callable[[Any], None]) -> Any:
    """The checker's report on ``result``'s pages with its JSON changed by ``edit``."""
    bench = checker()
    paths = _write(tmp, result)
    data = json.loads(paths[0].read_text(encoding="utf-8"))
    edit(data)
    paths[0].write_text(json.dumps(data), encoding="utf-8")
    return bench.check(*paths, bench.prompt_lines())


def test_a_clean_scripted_run_has_no_finding(tmp_path: Path, clean: moot.DebateResult) -> None:
    bench = checker()
    report = bench.check(*_write(tmp_path, clean), bench.prompt_lines())
    assert report.findings == []
    assert report.counts["prose chunks (md)"] > 10  # it did read the pages' prose
    assert report.counts["prose chunks (html)"] > 10


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ('{"claim": "x"}', "debris"),
        ("It costs <b>more</b> than it saves.", "debris"),
        ("The cost rises and the cost rises and the cost rises and the cost rises.", "loop"),
        ("You argue AGAINST the topic, whatever you privately think.", "echo"),
        ("PRO-1: refute - refutation of CON-1 CON-2: challenge - refuted CON-1", "label copy"),
        ("PARTIAIRAL ADAPTION: The company will not have to change.", "shouted word"),
        ("concessions: CON-1 vs. PRO-1", "label list"),
    ],
)
def test_each_kind_of_defect_is_found_in_the_json(
    tmp_path: Path, clean: moot.DebateResult, text: str, kind: str
) -> None:
    def edit(data: Any) -> None:
        data["judgement"]["key_insight"] = text

    report = _check_edited(tmp_path, clean, edit)
    assert report.counts[kind] >= 1, report.findings


def test_claims_that_restate_the_topic_or_ask_are_found(
    tmp_path: Path, clean: moot.DebateResult
) -> None:
    def edit(data: Any) -> None:
        arguments = data["payload"]["structured"]["arguments"]
        arguments[0]["claim"] = TOPIC
        arguments[1]["claim"] = arguments[2]["claim"]

    report = _check_edited(tmp_path, clean, edit)
    assert report.counts["claim restates the topic"] == 1
    assert report.counts["claim ends with '?'"] == 1
    assert report.counts["near-copy claims (1.00)"] == 1


def test_reasons_copied_across_arguments_are_found(
    tmp_path: Path, clean: moot.DebateResult
) -> None:
    def edit(data: Any) -> None:
        for row, other in zip(data["judgement"]["trace"][:3], ["Pro-2", "Pro-1", "Con-3"],
                              strict=True):  # fmt: skip
            row["reason"] = f"{other} is not supported by the evidence provided."

    report = _check_edited(tmp_path, clean, edit)
    assert report.counts["copied reason"] == 3, report.findings
