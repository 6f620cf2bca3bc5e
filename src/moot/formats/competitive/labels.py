"""The competitive format's own labels, in English and Chinese: its rebuttal stage,
the rules only its timed speeches raise and the words of its HTML view
(``html.py``). They join the shared labels (``moot.i18n``) wherever a competitive
result is shown (``CompetitiveFormat.labels``; its briefing's own words are in
``words.py``)."""

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
        "format.competitive": "competitive debate",
        "cmp.results": "Stages and audience vote",
        "cmp.stages_won": "Stages won",
        "cmp.ties": "tie",
        "cmp.audience": "Audience vote",
        "cmp.no_audience_winner": "no winner",
        "cmp.chart.stages": "The judge's score of each side's speech, stage by stage",
        "cmp.chart.vote": "The audience's votes before and after the debate",
        "cmp.stage_note": "Each stage is won by the side whose speech the judge scored higher;"
        " the audience vote by the side whose share grew more.",
        "cmp.speeches_note": "One row per speech in speaking order: its stage and debater, its"
        " moves on the debate flow tree (each links to its node), its speaking time against its"
        " window, where it stood and its score. The text, the audience's ratings of the draft"
        " and the timing tries are behind the links.",
        "cmp.moves": "Moves",
        "cmp.time": "Time (s)",
        "cmp.speech_text": "Speech text",
        "cmp.ratings": "The audience's ratings of the draft (1-10)",
        "cmp.rating.clarity": "clarity",
        "cmp.rating.engagement": "engagement",
        "cmp.rating.evidence": "evidence",
        "cmp.rating.persuasion": "persuasion",
        "cmp.tries": "Fitting the time",
        "cmp.within": "within",
        "cmp.outside": "OUTSIDE",
        "cmp.timing_value": "{seconds:.1f} s in [{low:g}, {high:g}]: {mark}",
        "cmp.chart.timing": "Each speech's speaking time against its window (seconds)",
        "cmp.timing_note": "Bars: the time measured. Dashed band: the window the speech must"
        " land in. Mark: the target.",
        "cmp.trees": "Trees",
        "cmp.tree_summary": "Show the tree ({n} claims)",
    },
    "zh": {
        "round.rebuttal": "反驳",
        "rule.speech_outside_window": "发言时长不在规定的时间窗口内",
        "rule.duration_estimate": "发言时长按字数估算（没有语音合成）",
        "rule.similarity_fallback": "主张按词汇回退方法匹配（没有句向量）",
        "rule.audio_unavailable": "没有写出音频（没有语音合成）",
        "format.competitive": "竞技辩论",
        "cmp.results": "各阶段结果与听众投票",
        "cmp.stages_won": "赢得的阶段",
        "cmp.ties": "平局",
        "cmp.audience": "听众投票",
        "cmp.no_audience_winner": "没有胜方",
        "cmp.chart.stages": "裁判对双方各阶段发言的评分",
        "cmp.chart.vote": "辩论前后听众的投票",
        "cmp.stage_note": "每个阶段由裁判评分较高的一方获胜；"
        "听众投票由支持比例增长更多的一方获胜。",
        "cmp.speeches_note": "按发言顺序每篇发言一行：所属阶段与辩手配置、在辩论流程树上的招式"
        "（各自链接到对应节点）、发言时长与规定窗口、最终结果与得分。全文、听众对初稿的评分和"
        "时长调整过程在“详情”里。",
        "cmp.moves": "招式",
        "cmp.time": "时长（秒）",
        "cmp.speech_text": "发言全文",
        "cmp.ratings": "听众对初稿的评分（1-10）",
        "cmp.rating.clarity": "清晰度",
        "cmp.rating.engagement": "吸引力",
        "cmp.rating.evidence": "证据",
        "cmp.rating.persuasion": "说服力",
        "cmp.tries": "时长调整",
        "cmp.within": "在窗口内",
        "cmp.outside": "超出窗口",
        "cmp.timing_value": "{seconds:.1f} 秒，窗口 [{low:g}, {high:g}]：{mark}",
        "cmp.chart.timing": "各篇发言时长与规定窗口（秒）",
        "cmp.timing_note": "条形：测得的时长。虚线区域：发言必须落入的时间窗口。竖线：目标时长。",
        "cmp.trees": "辩论树",
        "cmp.tree_summary": "显示此树（{n} 个主张）",
    },
}
