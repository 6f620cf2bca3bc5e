"""What kind of topic is debated (technical, business, risk, general): the judge
weights depend on it. The judge model classifies it; if that call fails, a keyword
rule decides, and the result says which. The user can override both."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Literal, cast

from pydantic import BaseModel, ConfigDict, Field

from moot.errors import BackendError, ModelOutputError
from moot.llm.backend import Backend
from moot.llm.meter import Meter
from moot.llm.schemas import output_spec, register_schemas
from moot.llm.structured import generate_structured
from moot.llm.types import CallContext, GenerationSettings, Message, OutputSpec
from moot.prompts import render
from moot.schema import TopicType

Source = Literal["model", "keywords", "user"]

KEYWORDS: dict[str, tuple[str, ...]] = {
    "technical": (
        "architecture",
        "microservice",
        "monolith",
        "database",
        "framework",
        "language",
        "rust",
        "python",
        "kubernetes",
        "cloud",
        "api",
        "code",
        "software",
        "server",
        "latency",
        "algorithm",
        "架构",
        "微服务",
        "数据库",
        "框架",
        "代码",
        "软件",
        "技术",
    ),
    "business": (
        "market",
        "revenue",
        "price",
        "pricing",
        "startup",
        "hire",
        "hiring",
        "customer",
        "profit",
        "sales",
        "invest",
        "budget",
        "cost",
        "brand",
        "trip",
        "travel",
        "市场",
        "收入",
        "价格",
        "创业",
        "招聘",
        "客户",
        "利润",
        "投资",
        "成本",
        "旅行",
        "旅游",
    ),
    "risk": (
        "risk",
        "safety",
        "security",
        "compliance",
        "regulation",
        "legal",
        "outlook",
        "forecast",
        "downside",
        "insurance",
        "crisis",
        "风险",
        "安全",
        "合规",
        "监管",
        "法律",
        "前景",
        "预测",
    ),
}


class TopicTypeReply(BaseModel):
    model_config = ConfigDict(extra="forbid")

    topic_type: TopicType
    reason: str = Field(min_length=3, max_length=300)


@register_schemas("topic classification")
def topic_schemas() -> Iterator[OutputSpec]:
    """The one schema the topic classification sends."""
    yield output_spec(TopicTypeReply)


def classify_by_keywords(topic: str) -> TopicType:
    """The type whose keywords occur most often in the topic (``general`` on a tie or
    none); English keywords match whole words (plurals too: "cost" is not "costume")."""
    lowered = topic.lower()
    counts: dict[str, int] = {}
    for kind, words in KEYWORDS.items():
        counts[kind] = sum(
            1
            for w in words
            if (re.search(rf"\b{re.escape(w)}(?:s|es)?\b", lowered) if w.isascii() else w in topic)
        )
    best = max(counts.values())
    winners = [k for k, c in counts.items() if c == best]
    return cast(TopicType, winners[0]) if best and len(winners) == 1 else "general"


async def classify_topic(
    topic: str,
    *,
    lang: str,
    backend: Backend,
    meter: Meter,
    settings: GenerationSettings,
    max_reasks: int,
) -> tuple[TopicType, Source]:
    """Ask the model; on a failed call fall back to keywords."""
    messages = [Message("user", render("classify_topic", lang, topic=topic))]
    try:
        outcome = await generate_structured(
            backend,
            messages,
            TopicTypeReply,
            settings=settings,
            context=CallContext(role="classifier", round="classification", topic=topic, lang=lang),
            meter=meter,
            max_reasks=max_reasks,
        )
    except (ModelOutputError, BackendError):
        return classify_by_keywords(topic), "keywords"
    return outcome.value.topic_type, "model"
