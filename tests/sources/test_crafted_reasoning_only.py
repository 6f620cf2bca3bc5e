"""Reasoning with no source (``"passage": "none"``) in a grounded structured debate.

docs/sources.md: it "is allowed and labelled (no_source, "no source: reasoning
only")" and costs no points. A demanding user expects an allowed answer not to be
sent back as vague evidence: the re-ask ("give concrete, checkable facts or figures
with their source") pushes a model either to cite a passage that does not say it
(a mis-citation) or to put a figure in the uncited text, where no code checks it.
So the argument is labelled, asked once, and no rule warning is raised for it; an
argument that cites a passage is checked as before.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from crafted_backend import Crafted, Plan, crafted_backend
from crafted_docs import write_en, write_zh

import moot
from moot.llm.backend import Backend, ProviderFactory
from moot.llm.types import CallContext, Message

UseProvider = Callable[[str, ProviderFactory], None]

PLANS = {
    "en": [
        Crafted(
            "none",
            "none",
            "reasoning only",
            "Billing rewrites usually run late and over budget",
            "no_source",
        ),
        Crafted(
            "cited",
            "Median latency",
            "Median latency is 120 ms",
            "Median latency is already 120 ms",
            "verified",
        ),
        Crafted(
            "cited",
            "About 3/4",
            "About 3/4 of incidents involve the retry queue",
            "Most incidents involve the retry queue",
            "verified",
        ),
    ],
    "zh": [
        Crafted("none", "none", "仅为推理", "重写计费系统通常会延期并超出预算", "no_source"),
        Crafted(
            "cited", "中位延迟", "中位延迟为一百二十毫秒", "中位延迟已经只有120毫秒了", "verified"
        ),
        Crafted(
            "cited",
            "四分之三",
            "约四分之三的故障与重试队列有关",
            "大部分故障都与重试队列有关",
            "verified",
        ),
    ],
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_reasoning_only_is_labelled_not_reasked_as_vague(
    lang: str, tmp_path: Path, use_provider: UseProvider
) -> None:
    plan = Plan(sides={"pro": PLANS[lang]})
    asked: list[str] = []

    def observe(messages: Sequence[Message], context: CallContext | None) -> None:
        if context is not None and context.round == "opening":
            asked.append(context.side or "")

    def factory(rest: str, seed: int | None, timeout: float | None) -> Backend:
        return crafted_backend(plan, seed or 1, observe)

    use_provider("crafted", factory)
    folder = (write_zh if lang == "zh" else write_en)(tmp_path / "docs")
    result = json.loads(
        moot.to_json(
            moot.run_debate(
                "计费服务应该迁移到Rust吗？" if lang == "zh" else "Should we migrate to Rust?",
                model="crafted:x", seed=3, lang=lang, sources=[str(folder)],
            )
        )
    )  # fmt: skip
    assert not plan.unlocated, plan.unlocated
    statuses = [c["status"] for c in result["sources"]["citations"] if c["unit"].startswith("PRO")]
    assert statuses == [c.expected for c in PLANS[lang]]
    assert asked.count("pro") == 1, "the reasoning-only argument was sent back"
    vague = [w for w in result["warnings"] if w.get("code") == "evidence_vague"]
    assert not vague, vague
