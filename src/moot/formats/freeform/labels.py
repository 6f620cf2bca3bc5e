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
    },
}
