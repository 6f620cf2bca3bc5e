"""The free-form format's own labels, in English and Chinese: its speeches round,
the answer a later speech gives, the detector re-asks and its briefing's speech
table. They join the shared labels (``moot.i18n``) wherever a free-form result is
shown (``FreeformFormat.labels``)."""

from __future__ import annotations

from typing import Final

LABELS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "round.speech": "Speeches",
        "response.answered": "answered",
        "rule.detector_reask": "a detector fired; the speaker was asked again once",
        "detector_reasks": "Speeches asked for again after a detector fired",
        "reask.fixed": "fixed by the rewrite",
        "reask.not_fixed": "still there after the rewrite",
        "col.round": "Round",
        "col.speech": "Speech",
        "trajectory": "Score after each round",
        "trajectory.note": "The judge scored each round's speeches after that round"
        " (--judge-each-round): each position's mean weighted score of its speeches of"
        " the round. The verdict is the final judgement of the whole debate.",
        "trajectory.chart": "Each position's score after each round",
        "trajectory.change": "Change, first to last round",
        "col.leader": "Ahead",
        "leader.none": "even",
    },
    "zh": {
        "round.speech": "发言",
        "response.answered": "已回应",
        "rule.detector_reask": "检测器触发，已要求发言者重写一次",
        "detector_reasks": "检测器触发后要求重写的发言",
        "reask.fixed": "重写后已解决",
        "reask.not_fixed": "重写后仍然存在",
        "col.round": "轮次",
        "col.speech": "发言",
        "trajectory": "每轮之后的得分",
        "trajectory.note": "裁判在每轮结束后为该轮发言打分（--judge-each-round）："
        "各方本轮发言的平均加权得分。裁决仍以对整场辩论的最终评判为准。",
        "trajectory.chart": "各方每轮之后的得分",
        "trajectory.change": "首轮到末轮的变化",
        "col.leader": "领先",
        "leader.none": "持平",
    },
}
