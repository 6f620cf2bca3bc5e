"""Crafted citations through whole debates, written from issue 19 and the docs alone.

Each debate cites the documents of ``crafted_docs`` with citations of every class
the issue names (a quote absent or altered, a number of another passage or another
document, correct quotes in full-width forms, with curly or corner quotation marks,
other whitespace and case, Chinese numerals, percent and fraction forms, rounding,
reasoning with no source) and each must get the status docs/citation-verification.md
gives it in the result JSON (``sources.citations[].status``), in English and Chinese,
through ``moot run --sources`` (in process) and ``run_debate(sources=...)``. The
Markdown briefing and the HTML report must list every unverified citation, and every
``verified`` quote must be found again in its file by ``refind`` (its own reader and
normalisation).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from crafted_backend import Crafted, Plan, provider
from crafted_docs import write_en, write_zh
from refind import found_in, unfound_verified
from typer.testing import CliRunner

import moot
from moot.cli import app
from moot.llm.backend import ProviderFactory

UseProvider = Callable[[str, ProviderFactory], None]

V, NIS, NM, NS = "verified", "not_in_source", "number_mismatch", "no_source"

EN_FIRST = Plan(
    sides={
        "pro": [
            Crafted(
                "quote absent",
                "4,850 invoices",
                "The billing service never drops an invoice at peak",
                "The billing service is reliable at peak load",
                NIS,
            ),
            Crafted(
                "quote altered: a word",
                "4,850 invoices",
                "The billing service handles 4,850 payments per minute at peak",
                "The billing service is busy at peak load",
                NIS,
            ),
            Crafted(
                "quote altered: a number",
                "Median latency",
                "Median latency is 210 ms",
                "Median latency is already low for billing",
                NIS,
            ),
            Crafted(
                "number from another passage",
                "4,850 invoices",
                "The billing service handles 4,850 invoices per minute at peak",
                "Peak load reaches 37,500 invoices per minute",
                NM,
            ),
            Crafted(
                "number from another document",
                "Median latency",
                "Median latency is 120 ms",
                "Median latency is 42 ms in production",
                NM,
            ),
        ],
        "con": [
            Crafted(
                "curly quotes written straight",
                "fast path",
                'Operators call the bypass the "fast path"',
                "The fast path bypass was disabled after the incident",
                V,
            ),
            Crafted(
                "whitespace and case",
                "Revenue at risk",
                "REVENUE AT RISK\n   WAS $1.2\tMILLION",
                "About $1,200,000 of revenue was at risk",
                V,
            ),
            Crafted(
                "full-width digits, rounding",
                "Error rates rose",
                "Error rates rose by \uff11\uff12\uff0e\uff15 percent",
                "Error rates rose about 13% during the incident",
                V,
            ),
            Crafted(
                "fraction cited as a percentage",
                "About 3/4",
                "About 3/4 of incidents involve the retry queue",
                "75% of incidents involve the retry queue",
                V,
            ),
            Crafted(
                "hedged rounding",
                "4,850 invoices",
                "handles 4,850 invoices per minute at peak",
                "The service handles about 4,900 invoices a minute",
                V,
            ),
        ],
    }
)

EN_SECOND = Plan(
    sides={
        "pro": [
            Crafted(
                "HTML script text is not a passage",
                "15% discount",
                "The vendor refunds 99% of fees.",
                "The vendor refunds almost every fee paid",
                NIS,
            ),
            Crafted(
                "HTML, correct",
                "15% discount",
                "a 15% discount on list price",
                "The vendor offers a 15% discount",
                V,
            ),
            Crafted(
                "PDF, correct, percent word",
                "Uptime was",
                "Uptime was 99.95 percent over the last year",
                "Hosting uptime was 99.95% last year",
                V,
            ),
            Crafted(
                "PDF, number altered in the claim",
                "Uptime was",
                "Uptime was 99.95 percent over the last year",
                "Hosting uptime was only 99.5% last year",
                NM,
            ),
            Crafted(
                "CSV row, correct",
                "hosting",
                "item: hosting | cost_usd: 48000",
                "Hosting costs $48,000",
                V,
            ),
        ],
        "con": [
            Crafted(
                "CSV, number in no row",
                "hosting",
                "item: licences | cost_usd: 36000",
                "Licences cost $52,000",
                NM,
            ),
            Crafted(
                "reasoning with no source",
                "none",
                "reasoning only",
                "Rewrites usually take longer",
                NS,
            ),
            Crafted(
                "rounding too far",
                "Error rates rose",
                "Error rates rose by 12.5 percent",
                "Error rates rose by 14% during the incident",
                NM,
            ),
            Crafted(
                "ellipsis",
                "37,500 lines",
                "The Go worker was written in 2019 ... lines of code",
                "The worker dates from 2019",
                V,
            ),
            Crafted(
                "scale word, wrong amount",
                "Revenue at risk",
                "Revenue at risk was $1.2 million",
                "Revenue of $1.5 million was at risk",
                NM,
            ),
        ],
    }
)

ZH_FIRST = Plan(
    sides={
        "pro": [
            Crafted(
                "quote absent",
                "4850张发票",
                "计费服务从不丢失任何发票",
                "计费服务在高峰期非常可靠",
                NIS,
            ),
            Crafted(
                "quote altered: a word",
                "4850张发票",
                "计费服务低峰时每分钟处理4850张发票",
                "计费服务在高峰期负载很高",
                NIS,
            ),
            Crafted(
                "quote altered: a number",
                "中位延迟",
                "中位延迟为一百五十毫秒",
                "计费服务的延迟已经够低了",
                NIS,
            ),
            Crafted(
                "number from another passage",
                "百分之三点五",
                "去年营收增长百分之三点五",
                "去年营收增长了18%",
                NM,
            ),
            Crafted(
                "number from another document",
                "中位延迟",
                "中位延迟为一百二十毫秒",
                "中位延迟其实高达1200毫秒",
                NM,
            ),
        ],
        "con": [
            Crafted(
                "corner quotes written curly",
                "快速路径",
                "运维人员把这条旁路称为\u201c快速路径\u201d",
                "快速路径在事故后已经关闭",
                V,
            ),
            Crafted(
                "whitespace, Chinese numerals",
                "四十二分钟",
                "三月三日重试队列 停滞了\n四十二分钟",
                "重试队列停滞了42分钟",
                V,
            ),
            Crafted(
                "full-width digits",
                "4850张发票",
                "计费服务高峰时每分钟处理\uff14\uff18\uff15\uff10张发票",
                "高峰时每分钟处理4850张发票",
                V,
            ),
            Crafted(
                "fraction as a percentage",
                "四分之三",
                "约四分之三的故障与重试队列有关",
                "约75%的故障与重试队列有关",
                V,
            ),
            Crafted(
                "Chinese percent numeral",
                "百分之三点五",
                "去年营收增长百分之三点五",
                "去年营收增长了3.5%",
                V,
            ),
        ],
    }
)

ZH_SECOND = Plan(
    sides={
        "pro": [
            Crafted(
                "HTML, scale word 万",
                "二十五万美元",
                "供应商报价为每年二十五万美元",
                "供应商每年报价25万美元",
                V,
            ),
            Crafted(
                "HTML, wrong amount",
                "二十五万美元",
                "供应商报价为每年二十五万美元",
                "供应商每年报价30万美元",
                NM,
            ),
            Crafted(
                "rounding",
                "利润率为12.5%",
                "利润率为12.5%",
                "利润率约为13%",
                V,
            ),
        ],
        "con": [
            Crafted(
                "rounding too far",
                "利润率为12.5%",
                "利润率为12.5%",
                "利润率只有11%",
                NM,
            ),
            Crafted(
                "reasoning with no source", "none", "reasoning only", "重写项目通常会延期很久", NS
            ),
            Crafted(
                "quote absent from the cited passage, present in another",
                "利润率为12.5%",
                "共有1200张发票被延迟",
                "共有1200张发票被延迟了",
                NIS,
            ),
        ],
    }
)

EN_CODE = Plan(
    sides={
        "pro": [
            Crafted(
                "code in the quote",
                "Result<Invoice",
                "The new parser returns Result<Invoice, ParseError> and never panics",
                "The Rust parser never panics on bad input",
                V,
            ),
            Crafted(
                "JSON keys in the quote",
                "max_retries",
                'where "max_retries": 5 and "timeout_ms": 800 are set',
                "The worker allows 5 retries and 800 ms per call",
                V,
            ),
            Crafted(
                "generic type in the quote",
                "Vec<u8>",
                "Buffers are Vec<u8> of at most 64 KiB",
                "Buffers never exceed 64 KiB",
                V,
            ),
        ],
        "con": [
            Crafted(
                "code in the quote, altered",
                "Result<Invoice",
                "The new parser returns Result<Invoice, IoError> and never panics",
                "The Rust parser never panics on bad input",
                NIS,
            ),
            Crafted(
                "JSON keys in the quote, number of another key",
                "max_retries",
                'where "max_retries": 5 and "timeout_ms": 800 are set',
                "The worker allows 8 retries per call",
                NM,
            ),
            Crafted(
                "generic type in the quote, wrong size",
                "Vec<u8>",
                "Buffers are Vec<u8> of at most 64 KiB",
                "Buffers never exceed 128 KiB",
                NM,
            ),
        ],
    }
)

EN_TOPIC = "Should we migrate the billing service to Rust?"
ZH_TOPIC = "计费服务应该迁移到Rust吗？"

DEBATES = {
    "en-first": (EN_FIRST, "en", EN_TOPIC),
    "en-second": (EN_SECOND, "en", EN_TOPIC),
    "en-code": (EN_CODE, "en", EN_TOPIC),
    "zh-first": (ZH_FIRST, "zh", ZH_TOPIC),
    "zh-second": (ZH_SECOND, "zh", ZH_TOPIC),
}


def _folder(lang: str, tmp_path: Path) -> Path:
    return (write_zh if lang == "zh" else write_en)(tmp_path / f"docs-{lang}")


def _expected(plan: Plan) -> dict[str, tuple[str, str]]:
    """Unit id -> (class, expected status), one citation per argument."""
    return {
        f"{side.upper()}-{n}": (case.kind, case.expected)
        for side, cases in plan.sides.items()
        for n, case in enumerate(cases, start=1)
    }


def _statuses(result: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {c["unit"]: (c["passage"], c["status"]) for c in result["sources"]["citations"]}


def _check(plan: Plan, result: dict[str, Any]) -> None:
    assert not plan.unlocated, f"passages not found in the prompt: {plan.unlocated}"
    got = _statuses(result)
    wrong = [
        f"{unit} ({kind}): expected {status}, got {got.get(unit)}"
        for unit, (kind, status) in _expected(plan).items()
        if got.get(unit, ("", ""))[1] != status
    ]
    assert not wrong, "\n".join(wrong)
    assert unfound_verified(result) == []
    # the published rule: an argument whose every citation is unverified scores <= 3
    unverified = {u for u, (_, status) in _expected(plan).items() if status in {NIS, NM}}
    for row in result["judgement"]["scores"]:
        if row["argument_id"] in unverified:
            assert row["scores"]["evidence"] <= 3, row


def _run_cli(
    name: str, tmp_path: Path, use_provider: UseProvider
) -> tuple[Plan, dict[str, Any], str, str]:
    """The crafted debate ``name`` through ``moot run``: its plan, result JSON,
    briefing and HTML report; every citation's status checked."""
    plan, lang, topic = DEBATES[name]
    use_provider("crafted", provider(plan))
    out = tmp_path / "r.json"
    html_file = tmp_path / "r.html"
    run = CliRunner().invoke(
        app,
        [
            "run", topic, "--model", "crafted:x", "--seed", "3", "--lang", lang,
            "--sources", str(_folder(lang, tmp_path)),
            "--json", str(out), "--html", str(html_file),
        ],
    )  # fmt: skip
    assert run.exit_code == 0, run.output
    result = json.loads(out.read_text(encoding="utf-8"))
    _check(plan, result)
    return plan, result, run.stdout, html_file.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(DEBATES))
def test_crafted_citations_get_their_status_through_moot_run(
    name: str, tmp_path: Path, use_provider: UseProvider
) -> None:
    plan, result, briefing, report = _run_cli(name, tmp_path, use_provider)
    # a quote is the document's words: code or JSON in it is not debris of the debater's
    assert "no usable text" not in briefing
    listed = sorted(
        c["unit"]
        for c in result["sources"]["citations"]
        if c["passage"] and f"- **{c['unit']}** {c['passage']}:" in briefing
    )
    shown = sorted(
        c["unit"]
        for c in result["sources"]["citations"]
        if c["passage"] and f"<strong>{c['unit']}</strong> {c['passage']}" in report
    )
    unverified = sorted(u for u, (_, status) in _expected(plan).items() if status in {NIS, NM})
    assert unverified
    assert listed == unverified, "the briefing's list of citations that do not check out"
    assert shown == unverified, "the report's list of citations that do not check out"


@pytest.mark.parametrize("name", sorted(DEBATES))
def test_the_report_marks_every_verified_quote_in_its_passage(
    name: str, tmp_path: Path, use_provider: UseProvider
) -> None:
    _, result, _, report = _run_cli(name, tmp_path, use_provider)
    for citation in result["sources"]["citations"]:
        if citation["status"] == V:
            _check_in_context(citation, report)


def _check_in_context(citation: dict[str, Any], report: str) -> None:
    """The report links a verified quote to its passage, shown in the report itself
    with the quoted words marked."""
    unit, passage = citation["unit"], re.escape(citation["passage"])
    link = re.search(rf'<strong>{unit}</strong> <a href="#([\w-]+)">{passage}:', report)
    assert link, f"{unit}: no link to its passage"
    block = re.search(rf'<blockquote id="{link[1]}"[^>]*>(.*?)</blockquote>', report, re.S)
    assert block, f"{unit}: the link leads nowhere"
    assert f"<strong>{citation['passage']}</strong>" in block[1]
    assert "<mark>" in block[1]
    marked = " ... ".join(html.unescape(m) for m in re.findall(r"<mark>(.*?)</mark>", block[1]))
    assert found_in(citation["quote"], marked), (citation["quote"], marked)


@pytest.mark.parametrize("name", ["en-first", "zh-first"])
def test_crafted_citations_get_their_status_through_run_debate(
    name: str, tmp_path: Path, use_provider: UseProvider
) -> None:
    plan, lang, topic = DEBATES[name]
    use_provider("crafted", provider(plan))
    result = moot.run_debate(
        topic, model="crafted:x", seed=3, lang=lang, sources=[str(_folder(lang, tmp_path))]
    )
    _check(plan, json.loads(moot.to_json(result)))


SPEECHES = {
    "en": Plan(
        speeches={
            "pro": [
                Crafted("exact", "Median latency", "Median latency is 120 ms", "", V, "120 ms"),
                Crafted(
                    "data point of another document",
                    "Median latency",
                    "Median latency is 120 ms",
                    "",
                    NM,
                    "42 ms",
                ),
                Crafted("quote altered", "Median latency", "Median latency is 5 ms", "", NIS),
            ],
            "con": [
                Crafted("curly quotes", "fast path", 'the bypass the "fast path"', "", V),
                Crafted("no source", "none", "Rewrites usually run late", "", NS),
                Crafted(
                    "full-width, rounding",
                    "Error rates rose",
                    "Error rates rose by \uff11\uff12\uff0e\uff15 percent",
                    "",
                    V,
                    "13%",
                ),
            ],
        }
    ),
    "zh": Plan(
        speeches={
            "pro": [
                Crafted("中文数字", "四十二分钟", "重试队列停滞了四十二分钟", "", V, "42分钟"),
                Crafted(
                    "另一段落的数字", "四十二分钟", "重试队列停滞了四十二分钟", "", NM, "18个月"
                ),
                Crafted("引文不存在", "四十二分钟", "重试队列从未停滞", "", NIS),
            ],
            "con": [
                Crafted("分数与百分比", "四分之三", "约四分之三的故障与重试队列有关", "", V, "75%"),
                Crafted("无来源", "none", "重写项目通常会延期", "", NS),
                Crafted("引号", "快速路径", "这条旁路称为\u201c快速路径\u201d", "", V),
            ],
        }
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_crafted_speech_citations_get_their_status(
    lang: str, tmp_path: Path, use_provider: UseProvider
) -> None:
    """Free-form: every speech of a side cites the side's crafted items, in order."""
    plan = SPEECHES[lang]
    use_provider("crafted", provider(plan))
    result = json.loads(
        moot.to_json(
            moot.run_debate(
                EN_TOPIC if lang == "en" else ZH_TOPIC,
                format="freeform",
                model="crafted:x",
                seed=3,
                lang=lang,
                sources=[str(_folder(lang, tmp_path))],
            )
        )
    )
    assert not plan.unlocated, plan.unlocated
    by_unit: dict[str, list[str]] = {}
    for citation in result["sources"]["citations"]:
        by_unit.setdefault(citation["unit"], []).append(citation["status"])
    assert len(by_unit) >= 4, by_unit  # two speeches a side at least
    for unit, statuses in by_unit.items():
        side = "pro" if unit.startswith("PRO") else "con"
        assert statuses == [c.expected for c in plan.speeches[side]], unit
    assert unfound_verified(result) == []
