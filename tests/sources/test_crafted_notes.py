"""A quote altered only in a number: docs/citation-verification.md says it is
``not_in_source`` and "its note names the numbers" ("the quote occurs in the passage
only with other numbers (190,000 (closest: 187,000))"), and that Chinese numerals
compare by value like any other number (rule 6). Crafted through whole structured
debates (``run_debate(sources=...)``), written from the docs alone.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from crafted_backend import Crafted, Plan, provider
from crafted_docs import write_en, write_zh

import moot
from moot.llm.backend import ProviderFactory

UseProvider = Callable[[str, ProviderFactory], None]

NIS = "not_in_source"

# (locator, altered quote, the quote's number as written, the passage's number)
ALTERED: dict[str, list[tuple[str, str, tuple[str, ...], tuple[str, ...]]]] = {
    "en": [
        ("Median latency", "Median latency is 210 ms", ("210",), ("120",)),
        ("Error rates rose", "Error rates rose by 21.5 percent", ("21.5",), ("12.5",)),
        ("37,500 lines", "holds 47,500 lines of code", ("47,500",), ("37,500",)),
    ],
    "zh": [
        ("中位延迟", "中位延迟为一百五十毫秒", ("150", "一百五十"), ("120", "一百二十")),
        ("四十二分钟", "三月三日重试队列停滞了43分钟", ("43",), ("42", "四十二")),
        ("百分之三点五", "去年营收增长百分之四点五", ("4.5", "四点五"), ("3.5", "三点五")),
    ],
}

CLAIMS = {
    "en": [
        "Billing latency is already low enough to keep Go",
        "Incidents raise error rates sharply for customers",
        "The Go worker is too large to maintain by hand",
    ],
    "zh": [
        "计费服务的延迟已经足够低了",
        "重试队列的故障持续时间太长",
        "去年的营收增长支持这次迁移",
    ],
}


def _run(lang: str, tmp_path: Path, use_provider: UseProvider) -> list[dict[str, Any]]:
    claims = CLAIMS[lang]
    cases = [
        Crafted("a number altered", locator, quote, claim, NIS)
        for (locator, quote, _, _), claim in zip(ALTERED[lang], claims, strict=True)
    ]
    plan = Plan(sides={"pro": cases})
    use_provider("crafted", provider(plan))
    folder = (write_zh if lang == "zh" else write_en)(tmp_path / "docs")
    result = json.loads(
        moot.to_json(
            moot.run_debate(
                "计费服务应该迁移到Rust吗？" if lang == "zh" else "Should we migrate to Rust?",
                model="crafted:x",
                seed=3,
                lang=lang,
                sources=[str(folder)],
            )
        )
    )
    assert not plan.unlocated, plan.unlocated
    return [c for c in result["sources"]["citations"] if c["unit"].startswith("PRO-")]


def _names(note: str, writings: tuple[str, ...]) -> bool:
    return any(w in note for w in writings)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_quote_altered_in_a_number_gets_a_note_naming_the_numbers(
    lang: str, tmp_path: Path, use_provider: UseProvider
) -> None:
    citations = _run(lang, tmp_path, use_provider)
    assert [c["status"] for c in citations] == [NIS] * len(ALTERED[lang])
    generic = [
        c["quote"]
        for c, (_, _, said, stated) in zip(citations, ALTERED[lang], strict=True)
        if not (_names(c["note"], said) and _names(c["note"], stated))
    ]
    assert not generic, f"a generic note for a quote altered only in a number: {generic}"
