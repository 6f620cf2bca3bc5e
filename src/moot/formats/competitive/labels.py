"""The competitive format's own labels, in English and Chinese: its rebuttal stage
and the rules only its timed speeches raise. They join the shared labels
(``moot.i18n``) wherever a competitive result is shown (``CompetitiveFormat.labels``;
its briefing's own words are in ``words.py``)."""

from __future__ import annotations

from typing import Final

LABELS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "round.rebuttal": "Rebuttal",
        "rule.speech_outside_window": "the speech does not fit its time window",
        "rule.duration_estimate": "speaking time estimated from word counts (no speech synthesis)",
        "rule.similarity_fallback": "claims matched by the lexical fallback (no sentence"
        " embeddings)",
        "rule.audio_unavailable": "no audio written (no speech synthesis)",
    },
    "zh": {
        "round.rebuttal": "反驳",
        "rule.speech_outside_window": "发言时长不在规定的时间窗口内",
        "rule.duration_estimate": "发言时长按字数估算（没有语音合成）",
        "rule.similarity_fallback": "主张按词汇回退方法匹配（没有句向量）",
        "rule.audio_unavailable": "没有写出音频（没有语音合成）",
    },
}
