"""The structured format's own labels, in English and Chinese: its rules (what a
re-ask tells the model, and the unmet rule in the briefing), the challenge answer and
the closing's stance change. They join the shared labels (``moot.i18n``) wherever a
structured result is shown (``StructuredFormat.labels``)."""

from __future__ import annotations

from typing import Final

LABELS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "reask.claim_sentences": "state the claim as exactly one sentence",
        "reask.claim_question": "a claim must be a falsifiable statement, not a question",
        "reask.reasoning_causal": "give a causal chain (X because Y, which leads to Z)",
        "reask.evidence_vague": "give concrete, checkable facts or figures with their source,"
        " not general statements",
        "reask.cross_reference": "each argument must stand alone; do not refer to other arguments",
        "reask.claim_repeated": "repeats another claim; each argument must make a different point",
        "reask.follow_up_question": "ask a pointed question",
        "rule.claim_sentences": "the claim is not exactly one sentence",
        "rule.claim_question": "the claim is a question, not a falsifiable statement",
        "rule.reasoning_causal": "the reasoning gives no causal chain",
        "rule.evidence_vague": "the evidence is not concrete and checkable",
        "rule.cross_reference": "the argument refers to other arguments",
        "rule.claim_repeated": "the claim repeats another claim",
        "rule.follow_up_question": "the follow-up is not a question",
        "response.challenge": "challenged",
        "stance.changed": "stance changed",
        "stance.unchanged": "stance unchanged",
        "stance.unstated": "stance change: no usable reason",
    },
    "zh": {
        "reask.claim_sentences": "请把断言写成恰好一句话",
        "reask.claim_question": "断言必须是可证伪的陈述，而不是问题",
        "reask.reasoning_causal": "请给出因果链（因为 Y，所以 X，进而导致 Z）",
        "reask.evidence_vague": "请给出具体、可核查的事实或数据并注明来源，不要泛泛而谈",
        "reask.cross_reference": "每条论据必须独立成立，不要引用其他论据",
        "reask.claim_repeated": "与另一条断言重复；每条论据必须提出不同的观点",
        "reask.follow_up_question": "请提出一个尖锐的追问",
        "rule.claim_sentences": "断言不是恰好一句话",
        "rule.claim_question": "断言是一个问题，而不是可证伪的陈述",
        "rule.reasoning_causal": "推理没有给出因果链",
        "rule.evidence_vague": "证据不具体、不可核查",
        "rule.cross_reference": "论据引用了其他论据",
        "rule.claim_repeated": "断言与另一条断言重复",
        "rule.follow_up_question": "追问不是一个问题",
        "response.challenge": "质疑",
        "stance.changed": "立场有变化",
        "stance.unchanged": "立场未变",
        "stance.unstated": "立场变化：理由不可用",
    },
}
