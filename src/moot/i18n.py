"""The product's own words in each language: briefing labels and messages that code
writes into results. Prompts are not here; they are templates under ``moot/prompts``.
"""

from __future__ import annotations

from typing import Final

CATALOG: Final[dict[str, dict[str, str]]] = {
    "en": {
        "title": "Decision briefing",
        "topic": "Topic",
        "models": "Models",
        "side.pro": "Pro",
        "side.con": "Con",
        "totals": "Scores",
        "total": "Total",
        "gap": "Gap",
        "score_note": "Scores measure the quality of the debate, not which stance is right.",
        "arguments": "Argument trace",
        "col.id": "ID",
        "col.side": "Side",
        "col.claim": "Claim",
        "col.cross": "Cross-examination",
        "col.standing": "Standing",
        "col.score": "Score",
        "col.reason": "Reason",
        "fallacies": "Possible fallacies (hints, not verdicts)",
        "fallacy.unverified": "quote not found in the debate",
        "no_fallacies": "None flagged.",
        "closings": "Closing stances",
        "stance.changed": "stance changed",
        "stance.unchanged": "stance unchanged",
        "key_insight": "Key insight",
        "unresolved": "Unresolved questions",
        "recommendation": "Recommendation",
        "warnings": "Protocol rules not met after rewrites",
        "usage": "Usage",
        "usage.line": "{calls} model calls ({reasks} re-asks), {prompt} prompt + {completion}"
        " completion tokens, {seconds:.1f} s",
        "gap.evenly_matched": "Evenly matched: the totals differ by {value:.2f} points (under 1).",
        "gap.moderate_difference": "Moderate difference: {leader} leads by {value:.2f} points.",
        "gap.clear_difference": "Clear difference: {leader} leads by {value:.2f} points (over 3).",
        "judge_zero_variance": "The judge gave every argument identical scores: a sign of"
        " judge bias or of a judge that did not discriminate.",
        "rule.claim_sentences": "the claim is not exactly one sentence",
        "rule.claim_question": "the claim is a question, not a falsifiable statement",
        "rule.reasoning_causal": "the reasoning gives no causal chain",
        "rule.evidence_vague": "the evidence is not concrete and checkable",
        "rule.cross_reference": "the argument refers to other arguments",
        "rule.claim_repeated": "the claim repeats another claim",
        "rule.language": "not written in the debate's language",
        "rule.follow_up_question": "the follow-up is not a question",
        "rule.stance_length": "the final stance is not 100-200 words long",
        "rule.fallacy_quote": "the fallacy's quote does not occur in the debate",
        "rule.judge_zero_variance": "the judge gave every argument identical scores",
        "round.opening": "Opening",
        "round.cross_examination": "Cross-examination",
        "round.closing": "Closing",
        "round.judgement": "Judgement",
        "response.refute": "refuted",
        "response.challenge": "challenged",
        "response.concede": "conceded",
        "response.partial": "partly accepted",
        "standing.UPHELD": "UPHELD",
        "standing.PARTIALLY_UPHELD": "PARTIALLY UPHELD",
        "standing.REFUTED": "REFUTED",
        "standing.UNCERTAIN": "UNCERTAIN",
        "fallacy.straw_man": "straw man",
        "fallacy.appeal_to_authority": "appeal to authority",
        "fallacy.slippery_slope": "slippery slope",
        "fallacy.false_dilemma": "false dilemma",
        "fallacy.anecdotal_evidence": "anecdotal evidence",
        "fallacy.circular_reasoning": "circular reasoning",
        "fallacy.ad_hominem": "ad hominem",
    },
    "zh": {
        "title": "决策简报",
        "topic": "辩题",
        "models": "模型",
        "side.pro": "正方",
        "side.con": "反方",
        "totals": "评分",
        "total": "总分",
        "gap": "分差",
        "score_note": "评分衡量的是辩论质量，而不是哪一方立场正确。",
        "arguments": "论据追溯表",
        "col.id": "编号",
        "col.side": "立场",
        "col.claim": "断言",
        "col.cross": "交叉质询",
        "col.standing": "最终状态",
        "col.score": "得分",
        "col.reason": "理由",
        "fallacies": "可能的逻辑谬误（提示，不是裁决）",
        "fallacy.unverified": "引文未在辩论中找到",
        "no_fallacies": "未标记。",
        "closings": "总结陈词立场",
        "stance.changed": "立场有变化",
        "stance.unchanged": "立场未变",
        "key_insight": "核心洞察",
        "unresolved": "未解决的问题",
        "recommendation": "建议",
        "warnings": "重写后仍未满足的协议规则",
        "usage": "用量",
        "usage.line": "模型调用 {calls} 次（重问 {reasks} 次），提示 {prompt} + 生成 {completion}"
        " 个 token，耗时 {seconds:.1f} 秒",
        "gap.evenly_matched": "势均力敌：双方总分相差 {value:.2f} 分（小于 1 分）。",
        "gap.moderate_difference": "有一定差距：{leader}领先 {value:.2f} 分。",
        "gap.clear_difference": "差距明显：{leader}领先 {value:.2f} 分（超过 3 分）。",
        "judge_zero_variance": "裁判给所有论据打了完全相同的分数："
        "这可能说明裁判存在偏差或没有区分能力。",
        "rule.claim_sentences": "断言不是恰好一句话",
        "rule.claim_question": "断言是一个问题，而不是可证伪的陈述",
        "rule.reasoning_causal": "推理没有给出因果链",
        "rule.evidence_vague": "证据不具体、不可核查",
        "rule.cross_reference": "论据引用了其他论据",
        "rule.claim_repeated": "断言与另一条断言重复",
        "rule.language": "没有用辩论的语言书写",
        "rule.follow_up_question": "追问不是一个问题",
        "rule.stance_length": "最终立场的长度不在 150 到 300 字之间",
        "rule.fallacy_quote": "谬误的引文没有出现在辩论中",
        "rule.judge_zero_variance": "裁判给所有论据打了完全相同的分数",
        "round.opening": "开场陈述",
        "round.cross_examination": "交叉质询",
        "round.closing": "总结陈词",
        "round.judgement": "裁判",
        "response.refute": "驳斥",
        "response.challenge": "质疑",
        "response.concede": "承认",
        "response.partial": "部分接受",
        "standing.UPHELD": "成立",
        "standing.PARTIALLY_UPHELD": "部分成立",
        "standing.REFUTED": "被驳倒",
        "standing.UNCERTAIN": "不确定",
        "fallacy.straw_man": "稻草人",
        "fallacy.appeal_to_authority": "诉诸权威",
        "fallacy.slippery_slope": "滑坡谬误",
        "fallacy.false_dilemma": "虚假两难",
        "fallacy.anecdotal_evidence": "轶事证据",
        "fallacy.circular_reasoning": "循环论证",
        "fallacy.ad_hominem": "人身攻击",
    },
}


def labels(lang: str) -> dict[str, str]:
    """Every label of a language (English for an unknown one)."""
    return CATALOG.get(lang, CATALOG["en"])


def message(lang: str, key: str, **values: object) -> str:
    """One message, formatted with ``values``."""
    return labels(lang)[key].format(**values)


def gap_text(lang: str, reading: str, value: float, leader: str | None) -> str:
    """The sentence that reads a gap between the side totals."""
    leader_label = labels(lang)[f"side.{leader}"] if leader else ""
    return message(lang, f"gap.{reading}", value=value, leader=leader_label)
