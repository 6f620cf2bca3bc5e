"""The toy format's part of a result, and its labels in English and Chinese."""

from __future__ import annotations

from typing import Final

from pydantic import BaseModel, ConfigDict

STANDINGS = ("CONVINCING", "PARTLY", "UNCONVINCING", "UNCLEAR")
"""How an opening held up (best, partial, worst, uncertain)."""

LABELS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "openings": "Openings",
        "vote": "Audience vote",
        "before": "For the motion before",
        "after": "For the motion after",
        "swing": "Swing",
        "col.id": "id",
        "col.side": "side",
        "col.speech": "speech",
        "col.score": "score",
    },
    "zh": {
        "openings": "开篇陈词",
        "vote": "观众投票",
        "before": "辩前支持动议",
        "after": "辩后支持动议",
        "swing": "变化",
        "col.id": "编号",
        "col.side": "方",
        "col.speech": "发言",
        "col.score": "得分",
    },
}


def labels(lang: str) -> dict[str, str]:
    return LABELS.get(lang, LABELS["en"])


class Opening(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    side: str
    text: str


class ToyPayload(BaseModel):
    """``payload["toy"]`` of a result: the two openings and the vote around them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    openings: list[Opening]
    before: int
    after: int
    swing: int
    """``after - before``: how far the openings moved the audience toward the motion."""
