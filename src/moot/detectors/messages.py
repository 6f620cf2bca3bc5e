"""The detectors' words in each language: the evidence of a flag and the reason a
speaker is given when a debate asks for a turn again. Same shape as ``moot.i18n``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from moot.i18n import labels as common_labels

CATALOG: Final[dict[str, dict[str, str]]] = {
    "en": {
        "evidence.repetition": "repeats turn {earlier} of the same side"
        " (similarity {similarity:.2f} >= {threshold:.2f}): “{quote}”",
        "evidence.repetition.learned": "restates turn {earlier} of the same side in other"
        " words (calibrated model: {probability:.2f} >= {threshold:.2f}; meaning similarity"
        " {similarity:.2f}): “{quote}”",
        "ad_hominem.insult": "an insult",
        "ad_hominem.lying": "calls the speaker a liar",
        "ad_hominem.credentials": "dismisses the speaker's credentials",
        "ad_hominem.competence": "denies the speaker's competence",
        "ad_hominem.experience": "mocks the speaker's experience",
        "ad_hominem.speaker": "contempt for the speaker",
        "ad_hominem.disqualify": "denies the speaker the right to speak",
        "ad_hominem.motive": "questions the speaker's motives",
        "ad_hominem.background": "targets the speaker's background",
        "evidence.ad_hominem": "attacks the speaker, not the argument ({cue}): “{quote}”",
        "evidence.topic_drift.meta": "talks about the task or the reader (“{cue}”) instead of"
        " the motion: “{quote}”",
        "evidence.topic_drift.unrelated": "is not tied to the motion, and only {share:.0%} of its"
        " distinctive terms occur earlier in the debate: “{quote}”",
        "evidence.topic_drift.learned": "is off the motion by meaning (calibrated model:"
        " {probability:.2f} >= {threshold:.2f}; similarity to the motion {relevance:.2f}):"
        " “{quote}”",
        "evidence.topic_drift.change": "changes the subject (“{cue}”) and shares"
        " {share:.0%} of its terms with the debate so far: “{quote}”",
        "evidence.topic_drift.nonspeech": "is not a speech (a raw tool call, data or a bare"
        " number, nothing of the motion): “{quote}”",
        "evidence.topic_drift.scaffolding": "is not a speech but the framework's scaffolding"
        " (an echoed instruction or a fallback text, “{cue}”): “{quote}”",
        "evidence.stance_drift.agrees": "agrees with {opponents} and rebuts nothing: “{quote}”",
        "evidence.stance_drift.self": "finds fault with its own side ({own}), named in"
        " the third person, as its opponents would: “{quote}”",
        "evidence.stance_drift.stance": "states {opponents}'s position (“{stance}”) and"
        " rebuts nothing: “{quote}”",
        "evidence.judge_zero_variance": "all {count} judge scores are {value:g}",
        "evidence.score_inflation.band": "all {count} judge scores lie between {low:g} and"
        " {high:g} with a spread of {spread:.2f} (a compressed high band: at most"
        " {max_spread:.2f})",
        "evidence.score_inflation": "{share:.0%} of the {count} judge scores are 9 or 10"
        " (mean {mean:.2f}; inflation is at least {min_share:.0%} at 9-10 and a mean of at"
        " least {min_mean:g})",
        "evidence.false_consensus.claim": "conceded in turn {conceded}: “{concession}”; the"
        " closing claims otherwise: “{quote}”",
        "evidence.false_consensus.contradiction": "conceded in turn {conceded}: “{concession}”;"
        " the closing says the opposite: “{quote}”",
        "evidence.false_consensus.unlisted": "conceded {target} during the debate"
        " (“{concession}”), but its closing concessions do not mention it",
        "evidence.false_consensus.standing": "its opponent conceded {target}"
        " (“{concession}”), but the standing of {target} is {standing}",
        "reask.repetition": "Your reply repeats your earlier turn {earlier} almost word for word"
        " (similarity {similarity:.2f}). Make a new point, or answer the latest speeches,"
        " instead of restating it.",
        "reask.repetition.named": "Your reply repeats your earlier speech {earlier} almost word"
        " for word (similarity {similarity:.2f}). Make a new point, or answer the latest"
        " speeches, instead of restating it.",
        "reask.repetition.learned": "Your reply restates your earlier turn {earlier} in other"
        " words (similarity in meaning {similarity:.2f}). Make a new point, or answer the"
        " latest speeches, instead of restating it.",
        "reask.repetition.learned.named": "Your reply restates your earlier speech {earlier} in"
        " other words (similarity in meaning {similarity:.2f}). Make a new point, or answer"
        " the latest speeches, instead of restating it.",
        "reask.topic_drift": "Your reply is not about the motion (“{topic}”). Stay on the motion"
        " and answer the other side's points.",
        "reask.stance_drift": "Your reply argues {opponents}'s case without rebutting it. Argue"
        " for your own position (“{own}”): if you quote the other side, answer it.",
        "lint.none": "No flags.",
        "lint.encoder": "Detectors: lexical rules and the sentence encoder (repetition and"
        " topic relevance judged by meaning).",
        "lint.lexical": "Detectors: lexical rules only ({reason}); paraphrase and topic"
        " relevance by meaning are not judged.",
        "lint.whole": "whole transcript",
        "evidence.model_stance": "the reviewing model found this turn arguing the other"
        " side's case: {reason}",
        "lint.review": "Model-assisted: {model} reviewed {reviewed} candidate flags"
        " ({rejected} rejected, {found} stance drifts found) in {calls} calls;"
        " {unreviewed} left unreviewed.",
    },
    "zh": {
        "evidence.repetition": "重复了同一方第 {earlier} 轮的发言"
        "（相似度 {similarity:.2f} >= {threshold:.2f}）：“{quote}”",
        "evidence.repetition.learned": "换了说法重复同一方第 {earlier} 轮的发言"
        "（校准模型：{probability:.2f} >= {threshold:.2f}；语义相似度 {similarity:.2f}）："
        "“{quote}”",
        "ad_hominem.insult": "侮辱",
        "ad_hominem.lying": "指责对方说谎",
        "ad_hominem.credentials": "否定对方的资历",
        "ad_hominem.competence": "否定对方的能力",
        "ad_hominem.experience": "嘲讽对方的经历",
        "ad_hominem.speaker": "蔑视发言者本人",
        "ad_hominem.disqualify": "否定对方发言的资格",
        "ad_hominem.motive": "揣测对方的动机",
        "ad_hominem.background": "针对对方的出身背景",
        "evidence.ad_hominem": "攻击的是发言者本人而不是论点（{cue}）：“{quote}”",
        "evidence.topic_drift.meta": "谈论的是任务或读者（“{cue}”），而不是辩题：“{quote}”",
        "evidence.topic_drift.unrelated": "与辩题没有关联，其特有词语在此前辩论中出现的仅占"
        " {share:.0%}：“{quote}”",
        "evidence.topic_drift.learned": "在语义上偏离辩题（校准模型：{probability:.2f} >="
        " {threshold:.2f}；与辩题的相似度 {relevance:.2f}）：“{quote}”",
        "evidence.topic_drift.change": "转移了话题（“{cue}”），与此前辩论的共同词语仅占"
        " {share:.0%}：“{quote}”",
        "evidence.topic_drift.nonspeech": "不是发言（原始的工具调用、数据或一个孤立的数字，"
        "与辩题无关）：“{quote}”",
        "evidence.topic_drift.scaffolding": "不是发言，而是框架的脚手架文本"
        "（复述的写作要求或兜底文本，“{cue}”）：“{quote}”",
        "evidence.stance_drift.agrees": "认同{opponents}的观点，且没有任何反驳：“{quote}”",
        "evidence.stance_drift.self": "像对方一样以第三人称批评己方（{own}）：“{quote}”",
        "evidence.stance_drift.stance": "陈述了{opponents}的立场（“{stance}”），且没有任何反驳："
        "“{quote}”",
        "evidence.judge_zero_variance": "裁判给出的全部 {count} 个分数都是 {value:g}",
        "evidence.score_inflation.band": "裁判给出的 {count} 个分数都在 {low:g} 到 {high:g}"
        " 分之间，离散度仅 {spread:.2f}（分数挤在高分段：不超过 {max_spread:.2f}）",
        "evidence.score_inflation": "裁判给出的 {count} 个分数中有 {share:.0%} 是 9 或 10 分"
        "（平均 {mean:.2f}；判定标准：至少 {min_share:.0%} 为 9-10 分且平均分不低于 {min_mean:g}）",
        "evidence.false_consensus.claim": "第 {conceded} 轮已经承认：“{concession}”；"
        "总结陈词却声称：“{quote}”",
        "evidence.false_consensus.contradiction": "第 {conceded} 轮已经承认：“{concession}”；"
        "总结陈词却说了相反的话：“{quote}”",
        "evidence.false_consensus.unlisted": "辩论中承认了 {target}（“{concession}”），"
        "但总结陈词的让步中没有提到",
        "evidence.false_consensus.standing": "对方已经承认了 {target}（“{concession}”），"
        "但 {target} 的判定状态是 {standing}",
        "reask.repetition": "你的发言与你方第 {earlier} 轮的发言几乎相同"
        "（相似度 {similarity:.2f}）。请提出新的论点或回应最新的发言，不要重复。",
        "reask.repetition.named": "你的发言与你方此前的发言 {earlier} 几乎相同"
        "（相似度 {similarity:.2f}）。请提出新的论点或回应最新的发言，不要重复。",
        "reask.repetition.learned": "你的发言换了说法重复你方第 {earlier} 轮的发言"
        "（语义相似度 {similarity:.2f}）。请提出新的论点或回应最新的发言，不要重复。",
        "reask.repetition.learned.named": "你的发言换了说法重复你方此前的发言 {earlier}"
        "（语义相似度 {similarity:.2f}）。请提出新的论点或回应最新的发言，不要重复。",
        "reask.topic_drift": "你的发言偏离了辩题（“{topic}”）。请围绕辩题发言，并回应对方的论点。",
        "reask.stance_drift": "你的发言在陈述{opponents}的观点，却没有反驳。"
        "请为你方立场（“{own}”）辩护；引用对方观点时，请作出回应。",
        "lint.none": "没有发现问题。",
        "lint.encoder": "检测方式：词汇规则加句向量编码器（按语义判断重复和切题）。",
        "lint.lexical": "检测方式：仅词汇规则（{reason}）；未按语义判断换说法的重复与切题。",
        "lint.whole": "整场辩论",
        "evidence.model_stance": "审阅模型认为此发言在为对方立场辩护：{reason}",
        "lint.review": "模型辅助：{model} 审阅了 {reviewed} 个候选标记（驳回 {rejected} 个，"
        "新发现 {found} 个立场偏移），共 {calls} 次调用；{unreviewed} 个未经审阅。",
    },
}


def message(lang: str, key: str, **values: object) -> str:
    """One message in ``lang`` (English for an unknown language), formatted with ``values``."""
    return CATALOG.get(lang, CATALOG["en"])[key].format(**values)


def side_name(side: str, lang: str, names: Mapping[str, str] | None = None) -> str:
    """How a side is named in a message: by its name in ``names`` (a debate's position
    names, such as "Bull" or "多头"), else the language's word for a standard side ("pro"
    is "Pro", "正方"), else its own key."""
    if names and names.get(side):
        return names[side]
    return common_labels(lang).get(f"side.{side}", side)
