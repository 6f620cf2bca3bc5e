"""The competitive format's words in the briefing, in each language (same shape as
``moot.i18n``; the shared labels come from there)."""

from __future__ import annotations

from typing import Final

CATALOG: Final[dict[str, dict[str, str]]] = {
    "en": {
        "summary": "timed pro/con debate (TreeDebater): opening, rebuttal, closing; rehearsal"
        " and flow trees, audience feedback, speeches fitted to their time with espeak-ng",
        "section.speeches": "Speeches",
        "section.texts": "Speech texts",
        "section.h2h": "Head-to-head by stage",
        "section.vote": "Audience vote (Oxford style)",
        "section.flow": "Debate flow tree",
        "section.rehearsal": "Rehearsal tree",
        "section.timing": "Speaking time",
        "col.stage": "Stage",
        "col.config": "Debater",
        "col.time": "Time (s)",
        "col.tries": "Tries",
        "col.moves": "Moves",
        "col.winner": "Higher",
        "col.for": "For",
        "col.against": "Against",
        "col.undecided": "Undecided",
        "vote.before": "Before",
        "vote.after": "After",
        "vote.line": "{voters} audience members. Shift: pro {pro:+.0%}, con {con:+.0%}. {verdict}",
        "vote.winner": "{side} gained more and wins the vote.",
        "vote.tie": "Both sides gained as much: no winner.",
        "h2h.none": "tie",
        "stage.opening": "opening",
        "stage.rebuttal": "rebuttal",
        "stage.closing": "closing",
        "config.full": "full (both trees)",
        "config.no-rehearsal": "no rehearsal tree",
        "config.no-flow": "no flow tree",
        "config.baseline": "baseline (no trees)",
        "timing.clock": "Speaking time measured by {clock}.",
        "timing.estimate": "Speaking time ESTIMATED from word counts (0.46 s a word):"
        " speech synthesis is unavailable ({reason}).",
        "timing.step": "{budget} words asked, {words} written, {seconds:.1f} s",
        "timing.cut": "cut at a sentence to fit",
        "timing.within": "inside [{low:g}, {high:g}] s",
        "timing.outside": "OUTSIDE [{low:g}, {high:g}] s",
        "flow.note": "Ids in the order the claims were made; each point answers the one above it.",
        "rehearsal.note": "Grown with {model} for {sides}; {origin}; {calls} calls in {waves}"
        " waves. Strength f_k looks k exchanges ahead (k = 3 from the first speech).",
        "rehearsal.cached": "read from the store's cache (no calls)",
        "rehearsal.grown": "grown for this debate",
        "similarity": "Claims matched by {method} at similarity >= {threshold:g}.",
        "similarity.fallback": "Lexical fallback: {reason}.",
        "priming": "The audience was primed with the flow tree of run {run} ({topic},"
        " similarity {similarity:.2f}).",
        "priming.none": "No earlier competitive debate in the store was similar enough to"
        " prime the audience.",
        "audio": "audio: {name}",
        "refused": "{count} plan(s) refused as illegal and asked again",
    },
    "zh": {
        "summary": "限时正反方辩论（TreeDebater）：开篇、反驳、结辩；演练树与流程树、听众反馈，"
        "用 espeak-ng 把每篇发言控制在规定时间内",
        "section.speeches": "发言",
        "section.texts": "发言全文",
        "section.h2h": "各阶段对比",
        "section.vote": "听众投票（牛津式）",
        "section.flow": "辩论流程树",
        "section.rehearsal": "演练树",
        "section.timing": "发言时长",
        "col.stage": "阶段",
        "col.config": "辩手配置",
        "col.time": "时长（秒）",
        "col.tries": "尝试次数",
        "col.moves": "招式",
        "col.winner": "得分较高",
        "col.for": "支持",
        "col.against": "反对",
        "col.undecided": "未定",
        "vote.before": "辩论前",
        "vote.after": "辩论后",
        "vote.line": "{voters} 位听众。变化：正方 {pro:+.0%}，反方 {con:+.0%}。{verdict}",
        "vote.winner": "{side}增加得更多，赢得投票。",
        "vote.tie": "双方增加得一样多：没有胜方。",
        "h2h.none": "平",
        "stage.opening": "开篇",
        "stage.rebuttal": "反驳",
        "stage.closing": "结辩",
        "config.full": "完整（两棵树）",
        "config.no-rehearsal": "无演练树",
        "config.no-flow": "无流程树",
        "config.baseline": "基线（无树）",
        "timing.clock": "发言时长由 {clock} 测量。",
        "timing.estimate": "发言时长是按字数估算的（每词 0.46 秒）：语音合成不可用（{reason}）。",
        "timing.step": "要求 {budget} 词，写了 {words} 词，{seconds:.1f} 秒",
        "timing.cut": "在句末截断以符合时长",
        "timing.within": "在 [{low:g}, {high:g}] 秒之内",
        "timing.outside": "超出 [{low:g}, {high:g}] 秒",
        "flow.note": "编号按主张提出的顺序；每一点回应它上面的一点。",
        "rehearsal.note": "由 {model} 为{sides}生成；{origin}；{calls} 次调用，{waves} 轮。"
        "强度 f_k 考虑之后 k 次交锋（从第一篇发言算 k = 3）。",
        "rehearsal.cached": "取自存储的缓存（没有调用）",
        "rehearsal.grown": "为本场辩论生成",
        "similarity": "主张按 {method} 匹配，相似度 >= {threshold:g}。",
        "similarity.fallback": "词汇回退：{reason}。",
        "priming": "听众参考了运行 {run} 的流程树（{topic}，相似度 {similarity:.2f}）。",
        "priming.none": "存储中没有足够相似的早先竞技辩论可供听众参考。",
        "audio": "音频：{name}",
        "refused": "{count} 个计划因不合规被拒绝并重问",
    },
}


def word(lang: str, key: str, **values: object) -> str:
    """One of the format's words in ``lang`` (English for another), with ``values``."""
    return CATALOG.get(lang, CATALOG["en"])[key].format(**values)
