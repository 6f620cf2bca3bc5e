"""The product's own words in each language: briefing labels and messages that code
writes into results. Prompts are not here; they are templates under ``moot/prompts``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

CATALOG: Final[dict[str, dict[str, str]]] = {
    "en": {
        "format": "Format",
        "positions": "Positions",
        "detectors": "What went wrong in the debate (detectors)",
        "detector.repetition": "repetition",
        "detector.ad_hominem": "ad hominem",
        "detector.topic_drift": "topic drift",
        "detector.stance_drift": "stance drift",
        "detector.judge_zero_variance": "judge gave identical scores",
        "detector.score_inflation": "score inflation",
        "detector.false_consensus": "false consensus",
        "notes": "Notes",
        "speeches": "Speeches",
        "standing.STRONG": "STRONG",
        "standing.MIXED": "MIXED",
        "standing.WEAK": "WEAK",
        "round.setup": "Setup",
        "rule.format_option": "an option the format advises against",
        "unit.argument": "argument",
        "unit.speech": "speech",
        "dimension.logic": "is the reasoning valid and the claim well formed?",
        "dimension.evidence": "is the evidence concrete, checkable and relevant?",
        "dimension.responsiveness": "did its position answer the attacks on it?",
        "dimension.honesty": "are concessions made where due, without distortion?",
        "dimension.clarity": "is it clear, specific and easy to follow?",
        "dimension.persuasiveness": "would it move a reasonable, informed reader?",
        "title": "Decision briefing",
        "trust": "Trust",
        "trust.level.ok": "OK",
        "trust.level.caution": "CAUTION",
        "trust.level.low": "LOW",
        "trust.level.unknown": "UNKNOWN",
        "trust.none": "no reason found to doubt this run",
        "trust.rules_broken": "{n} protocol rules stayed broken after the re-asks",
        "trust.detector_flags": "{n} detector flags on how the debate went",
        "trust.unusable_text": (
            "{n} fields hold no usable text (markup or JSON debris, a copy of the prompt, a "
            "loop, or a judge's reason copied for most arguments): {fields}"
        ),
        "trust.verdict_conflict": "the judges' totals favour {leader}, but {against}",
        "trust.low_agreement": (
            "the judges do not agree (interval alpha {alpha}, {disputed} disputed)"
        ),
        "trust.judge_uniform": "a judge gave every unit the same score: it ranked nothing",
        "trust.unverified_evidence": "{n} of {total} citations were not verified in their sources",
        "trust.small_model": (
            "played by a model known to be weak (the embedded SmolLM2-135M or the compact "
            "profile): {roles}"
        ),
        "trust.small_model.english_only": (
            "; SmolLM2-135M knows little but English, so a Chinese debate is least reliable"
        ),
        "trust.headline.low": "Trust is low: do not rely on this verdict.",
        "trust.headline.caution": "Trust calls for caution: read this verdict with care.",
        "verdict": "Verdict",
        "verdict.signal.totals": "judges' totals",
        "verdict.signal.judges": "judges' vote",
        "verdict.signal.stages": "stage wins",
        "verdict.signal.vote": "audience vote",
        "verdict.favours": "favours {side}",
        "verdict.favours_none": "favours no side",
        "verdict.of": "of {n}",
        "verdict.shift": "shift",
        "verdict.rank": "Rank",
        "verdict.leads": "leads",
        "verdict.ahead_of": "ahead of",
        "verdict.no_winner": "no winner named",
        "verdict.outvoted": "{leader} ahead on the totals, outvoted by the other signals",
        "verdict.and": " and ",
        "trust.against": "{side} leads on the {signals}",
        "verdict.combined": (
            "{side} wins on {n} of {of} signals: the stage wins, the audience vote and the judges' "
            "totals."
        ),
        "verdict.split": (
            "No winner: the stage wins, the audience vote and the judges' totals do not agree."
        ),
        "verdict.judges_disagree": (
            "No winner is named: the totals favour {leader}, but {votes} of {judges} judges scored "
            "{other} highest."
        ),
        "verdict.rule.combined": (
            "Rule: the winner is the side that more than half of the signals favour (the judges' "
            "totals count as one, however small the gap)."
        ),
        "verdict.rule.panel": (
            "Rule: the panel names a winner unless it diverged, the top is evenly matched or most "
            "judges scored another position highest."
        ),
        "verdict.rule.one_judge": (
            "Rule: the leader of the totals wins unless the top two are under 1 point apart."
        ),
        "header.run": "Run",
        "header.date": "Date",
        "header.version": "moot",
        "header.seed": "Seed",
        "header.not_stored": "not stored",
        "header.no_seed": "none",
        "topic": "Topic",
        "models": "Models",
        "side.pro": "Pro",
        "side.con": "Con",
        "role.judge": "judge",
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
        "fallacy.unverified": "not a quote (the judge's words do not occur in the debate)",
        "no_fallacies": "None flagged.",
        "closings": "Closing stances",
        "key_insight": "Key insight",
        "unresolved": "Unresolved questions",
        "recommendation": "Recommendation",
        "warnings": "Protocol rules not met after rewrites",
        "usage": "Usage",
        "usage.line": "{calls} model calls ({reasks} re-asks), {prompt} prompt + {completion}"
        " completion tokens, {seconds:.1f} s",
        "note.fallback": "The server behind {model} refused the {schema} schema in {rejected}"
        " ({reason}); its {calls} call(s) used {mode} instead, and every reply was validated"
        " as usual.",
        "note.sep": " and ",
        "mode.json_schema": "native structured output (json_schema)",
        "mode.json_object": "JSON mode with the schema in the prompt (json_object)",
        "mode.prompt": "a schema in the prompt only",
        "gap.evenly_matched": "Evenly matched: the top totals differ by {value:.2f} points"
        " (under 1).",
        "gap.moderate_difference": "Moderate difference: {leader} leads {runner_up} by {value:.2f}"
        " points.",
        "gap.clear_difference": "Clear difference: {leader} leads {runner_up} by {value:.2f} points"
        " (over 3).",
        "judge_zero_variance": "The judge gave every argument identical scores: a sign of"
        " judge bias or of a judge that did not discriminate.",
        "reask.language": "write in English",
        "reask.stance_length": "has about {words} words; write {low}-{high}",
        "reask.fallacy_quote": "quote words that actually occur in the debate",
        "reask.sentence": "not a sentence (fewer than {words} words); write a whole sentence",
        "reask.copied_reason": "the same reason as for {n} other arguments; say why this"
        " argument's own claim stands or falls",
        "rule.copied_reason": "the same reason as for most other arguments, so none about"
        " this one: shown as (no usable text)",
        "rule.language": "not written in the debate's language",
        "rule.unusable_text": "not usable text (markup, JSON punctuation, an echo or a loop):"
        " shown as (no usable text)",
        "rule.english_model": "the embedded model is an English model",
        "english_model": "SmolLM2-135M, the embedded model, is an English model: asked in"
        " Chinese it mostly answers in English or in broken Chinese. Read this debate as a"
        " demonstration of the protocol, not as Chinese text.",
        "rule.stance_length": "the final stance is not as long as the protocol asks",
        "rule.fallacy_quote": "the fallacy's quote does not occur in the debate",
        "rule.judge_zero_variance": "the judge gave every argument identical scores",
        "round.opening": "Opening",
        "round.cross_examination": "Cross-examination",
        "round.closing": "Closing",
        "round.judgement": "Judgement",
        "panel.total": "Panel total (calibrated)",
        "panel.interval": "95% bootstrap interval",
        "panel.calibrated": "Calibrated pro / con",
        "panel.even": "The panel agrees the sides are evenly matched; no winner is named.",
        "panel.too_close": "The panel agrees, but the totals are within 5% of each other:"
        " too close to call, so no winner is named.",
        "sentence_gap": " ",
        "topic.technical": "technical",
        "topic.business": "business",
        "topic.risk": "risk",
        "topic.general": "general",
        "calibration.zscore": "z-score",
        "calibration.minmax": "min-max",
        "judge.technical": "technical judge",
        "judge.business": "business judge",
        "judge.risk": "risk judge",
        "judge.general": "general judge",
        "calibration.one_score": "one score: nothing to calibrate against",
        "calibration.flat": "every score is equal: the judge did not rank the arguments",
        "panel": "Judge panel",
        "panel.topic_type": "Topic type",
        "panel.source.model": "classified by the judge model",
        "panel.source.keywords": "keyword rule (the model's classification failed)",
        "panel.source.user": "set by you",
        "panel.judge": "Judge",
        "panel.model": "Model",
        "panel.weight": "Weight",
        "panel.run_spread": "Run spread",
        "panel.agreement": "Agreement",
        "panel.deliberation": "Deliberation",
        "panel.deliberation.note": "After the independent pass the judges read each other's"
        " anonymised scores and reasons and could revise, {rounds} round(s). The verdict"
        " above uses the independent pass; the deliberated pass is shown beside it.",
        "panel.pass": "Pass",
        "panel.pass.independent": "independent",
        "panel.pass.round": "after round {n}",
        "panel.revisions": "Revisions",
        "panel.toward_mean": "toward the panel mean",
        "panel.conformity": "Conformity",
        "panel.conformity.text": "{conformity} of the revisions moved toward the panel mean"
        " without a stated new reason ({silent} of {revisions}; {toward} moved toward it in all).",
        "panel.conformity.none": "No judge revised a score: agreement did not change.",
        "panel.alpha_interval": "Krippendorff's alpha, interval, on calibrated scores",
        "panel.alpha_nominal": "Krippendorff's alpha, nominal, on standings",
        "panel.kappa": "Fleiss' kappa on standings",
        "panel.verdict": "Verdict",
        "panel.winner": "The panel favours {side}. {gap}",
        "panel.no_winner": "The panel could not agree, so no winner is named.",
        "panel.disputed": "Most disputed arguments",
        "panel.settle": "What would settle them",
        "panel.expert": "Gather that information, or ask a human expert, before deciding.",
        "panel.standings": "Panel standings",
        "panel.majority": "Majority",
        "panel.tie": "tie",
        "panel.spread": "Spread",
        "panel.calibration": "calibration",
        "panel.runs": "runs per judge",
        "swap": "Stance swap check",
        "swap.survives": "The verdict survives: with the stances exchanged between the models"
        " the same stance leads ({side}).",
        "swap.fails": "The verdict does not survive: with the stances exchanged between the"
        " models the lead moves from {first} to {second}. The verdict follows the models or"
        " the speaking order more than the arguments.",
        "swap.none": "nobody",
        "swap.same_model": "Both sides use the same model, so the swap exchanges the sides'"
        " sampling seeds and the order in which the judges read them (con first), not two"
        " different models.",
        "swap.survives_none": "The verdict survives: with the stances exchanged between the"
        " models, again no side leads.",
        "lead_judge": "lead judge",
        "agreement.indicative": "{arguments} arguments and {judges} judges: with fewer than 10"
        " arguments or 3 judges these figures are indicative only.",
        "agreement.one_judge": "one judge: agreement needs two or more",
        "label.high": "high",
        "label.moderate": "moderate",
        "label.needs_attention": "needs attention",
        "label.not_computable": "not computable",
        "divergence.low_agreement": "agreement is low (alpha < 0.50 and kappa < 0.40)",
        "divergence.disputed_argument": "the judges' scores for an argument are far apart",
        "divergence.close_totals": "the weighted totals are within 5% of each other",
        "response.refute": "refuted",
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
        "format": "辩论形式",
        "positions": "立场",
        "detectors": "辩论中出现的问题（检测器）",
        "detector.repetition": "重复",
        "detector.ad_hominem": "人身攻击",
        "detector.topic_drift": "偏离辩题",
        "detector.stance_drift": "立场漂移",
        "detector.judge_zero_variance": "裁判给出完全相同的分数",
        "detector.score_inflation": "分数虚高",
        "detector.false_consensus": "虚假共识",
        "notes": "说明",
        "speeches": "发言",
        "standing.STRONG": "有力",
        "standing.MIXED": "有得有失",
        "standing.WEAK": "薄弱",
        "round.setup": "设置",
        "rule.format_option": "该辩论形式不建议的选项",
        "unit.argument": "论据",
        "unit.speech": "发言",
        "dimension.logic": "推理是否成立，断言是否表述严谨？",
        "dimension.evidence": "证据是否具体、可核查且切题？",
        "dimension.responsiveness": "该方是否回应了对它的攻击？",
        "dimension.honesty": "该让步时是否让步，有无歪曲？",
        "dimension.clarity": "是否清楚、具体、易于理解？",
        "dimension.persuasiveness": "能否说服一位理性而知情的读者？",
        "title": "决策简报",
        "trust": "可信度",
        "trust.level.ok": "可信",
        "trust.level.caution": "需谨慎",
        "trust.level.low": "低",
        "trust.level.unknown": "未知",
        "trust.none": "未发现怀疑本次辩论的理由",
        "trust.rules_broken": "重问之后仍有 {n} 条协议规则未满足",
        "trust.detector_flags": "检测器对辩论过程标记了 {n} 处问题",
        "trust.unusable_text": (
            "{n} 个字段没有可用文本（标记或 JSON 残片、照抄提示、循环重复，"
            "或裁判对大多数论据照抄同一理由）：{fields}"
        ),
        "trust.verdict_conflict": "裁判总分倾向{leader}，但{against}",
        "trust.low_agreement": "裁判意见不一致（区间 alpha {alpha}，{disputed} 条有争议）",
        "trust.judge_uniform": "有裁判给所有单元打了相同的分数：它没有区分优劣",
        "trust.unverified_evidence": "{total} 条引用中有 {n} 条未在来源中得到核实",
        "trust.small_model": (
            "由已知能力很弱的模型扮演（内置的 SmolLM2-135M 或精简配置）：{roles}"
        ),
        "trust.small_model.english_only": "；SmolLM2-135M 基本只懂英语，中文辩论尤其不可靠",
        "trust.headline.low": "可信度低：不要依赖这一结论。",
        "trust.headline.caution": "需谨慎：请审慎看待这一结论。",
        "verdict": "结论",
        "verdict.signal.totals": "裁判总分",
        "verdict.signal.judges": "裁判投票",
        "verdict.signal.stages": "各阶段胜负",
        "verdict.signal.vote": "观众投票",
        "verdict.favours": "倾向{side}",
        "verdict.favours_none": "不倾向任何一方",
        "verdict.of": "共 {n}",
        "verdict.shift": "变化",
        "verdict.rank": "名次",
        "verdict.leads": "领先",
        "verdict.ahead_of": "领先于",
        "verdict.no_winner": "未判定胜方",
        "verdict.outvoted": "{leader}总分领先，但被其他依据否决",
        "verdict.and": "和",
        "trust.against": "{side}在{signals}上领先",
        "verdict.combined": (
            "{side}在 {of} 项依据中占 {n} 项而获胜：各阶段胜负、观众投票和裁判总分。"
        ),
        "verdict.split": "没有胜方：各阶段胜负、观众投票和裁判总分互相矛盾。",
        "verdict.judges_disagree": (
            "不判定胜方：总分倾向{leader}，但 {judges} 位裁判中有 {votes} 位给{other}打了最高分。"
        ),
        "verdict.rule.combined": (
            "规则：超过半数依据所倾向的一方获胜（裁判总分算作一项，无论差距多小）。"
        ),
        "verdict.rule.panel": (
            "规则：除非评审团意见分歧、最高分势均力敌，或多数裁判给另一方打了最高分，"
            "否则评审团判定胜方。"
        ),
        "verdict.rule.one_judge": "规则：除非前两名相差不到 1 分，否则总分领先者获胜。",
        "header.run": "运行",
        "header.date": "日期",
        "header.version": "moot",
        "header.seed": "种子",
        "header.not_stored": "未保存",
        "header.no_seed": "无",
        "topic": "辩题",
        "models": "模型",
        "side.pro": "正方",
        "side.con": "反方",
        "role.judge": "裁判",
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
        "fallacy.unverified": "不是引文（裁判的这段话没有出现在辩论中）",
        "no_fallacies": "未标记。",
        "closings": "总结陈词立场",
        "key_insight": "核心洞察",
        "unresolved": "未解决的问题",
        "recommendation": "建议",
        "warnings": "重写后仍未满足的协议规则",
        "usage": "用量",
        "usage.line": "模型调用 {calls} 次（重问 {reasks} 次），提示 {prompt} + 生成 {completion}"
        " 个 token，耗时 {seconds:.1f} 秒",
        "note.fallback": "{model} 的服务器拒绝以{rejected}接收 {schema} 模式（{reason}）；"
        "相关的 {calls} 次调用改为以{mode}发送，每个回复照常校验。",
        "mode.json_schema": "原生结构化输出（json_schema）",
        "mode.json_object": "JSON 模式并在提示中附上模式（json_object）",
        "mode.prompt": "仅在提示中给出模式",
        "note.sep": "和",
        "gap.evenly_matched": "势均力敌：最高的两个总分相差 {value:.2f} 分（小于 1 分）。",
        "gap.moderate_difference": "有一定差距：{leader}领先{runner_up} {value:.2f} 分。",
        "gap.clear_difference": "差距明显：{leader}领先{runner_up} {value:.2f} 分（超过 3 分）。",
        "judge_zero_variance": "裁判给所有论据打了完全相同的分数："
        "这可能说明裁判存在偏差或没有区分能力。",
        "reask.language": "请用简体中文书写（write in Chinese）",
        "reask.stance_length": "约 {chars} 字；请写 {zh_low} 到 {zh_high} 字",
        "reask.fallacy_quote": "请引用辩论中真实出现过的原话",
        "reask.sentence": "不是句子（少于 {words} 个词）；请写完整的句子",
        "reask.copied_reason": "与另外 {n} 个论据的理由相同；"
        "请说明这个论据自己的主张为何成立或不成立",
        "rule.copied_reason": "与大多数其他论据的理由相同，并非针对这一论据：显示为（无可用文本）",
        "rule.language": "没有用辩论的语言书写",
        "rule.unusable_text": "不是可用的文本（标记、JSON 标点、照抄说明或循环）："
        "显示为（无可用文本）",
        "rule.english_model": "内置模型是英文模型",
        "english_model": "内置模型 SmolLM2-135M 是英文模型：用中文提问时，它大多用英文或不通顺的"
        "中文回答。请把这场辩论当作协议的演示，而不是中文文本。",
        "rule.stance_length": "最终立场的长度不符合协议要求",
        "rule.fallacy_quote": "谬误的引文没有出现在辩论中",
        "rule.judge_zero_variance": "裁判给所有论据打了完全相同的分数",
        "round.opening": "开场陈述",
        "round.cross_examination": "交叉质询",
        "round.closing": "总结陈词",
        "round.judgement": "裁判",
        "panel.total": "评审团总分（校准后）",
        "panel.interval": "95% 自助法区间",
        "panel.calibrated": "校准后 正方 / 反方",
        "panel.even": "评审团一致认为双方势均力敌，不判定胜方。",
        "panel.too_close": "评审团意见一致，但双方总分相差不到 5%：难分高下，因此不判定胜方。",
        "sentence_gap": "",
        "topic.technical": "技术",
        "topic.business": "商业",
        "topic.risk": "风险",
        "topic.general": "综合",
        "calibration.zscore": "z 分数",
        "calibration.minmax": "最小-最大",
        "judge.technical": "技术裁判",
        "judge.business": "商业裁判",
        "judge.risk": "风险裁判",
        "judge.general": "综合裁判",
        "calibration.one_score": "只有一个分数：无从校准",
        "calibration.flat": "所有分数相同：该裁判没有区分论据的高下",
        "panel": "评审团",
        "panel.topic_type": "辩题类型",
        "panel.source.model": "由裁判模型分类",
        "panel.source.keywords": "关键词规则（模型分类失败）",
        "panel.source.user": "由你指定",
        "panel.judge": "裁判",
        "panel.model": "模型",
        "panel.weight": "权重",
        "panel.run_spread": "多次评分离散度",
        "panel.agreement": "一致性",
        "panel.deliberation": "合议",
        "panel.deliberation.note": "独立评分之后，裁判们阅读了彼此匿名的评分与理由，并可修改，"
        "共 {rounds} 轮。上面的裁决采用独立评分；合议后的评分列在旁边。",
        "panel.pass": "评分轮次",
        "panel.pass.independent": "独立评分",
        "panel.pass.round": "第 {n} 轮合议后",
        "panel.revisions": "修改",
        "panel.toward_mean": "趋向评审团均值",
        "panel.conformity": "从众度",
        "panel.conformity.text": "{conformity} 的修改在没有给出新理由的情况下趋向了评审团均值"
        "（{revisions} 次中的 {silent} 次；共有 {toward} 次趋向均值）。",
        "panel.conformity.none": "没有裁判修改评分：一致性没有变化。",
        "panel.alpha_interval": "Krippendorff alpha（区间尺度，校准后分数）",
        "panel.alpha_nominal": "Krippendorff alpha（名义尺度，论据状态）",
        "panel.kappa": "Fleiss kappa（论据状态）",
        "panel.verdict": "结论",
        "panel.winner": "评审团倾向{side}。{gap}",
        "panel.no_winner": "评审团无法达成一致，因此不判定胜方。",
        "panel.disputed": "争议最大的论据",
        "panel.settle": "需要哪些信息才能定论",
        "panel.expert": "请先补充这些信息，或请教人类专家，再做决定。",
        "panel.standings": "评审团对论据状态的判定",
        "panel.majority": "多数意见",
        "panel.tie": "平票",
        "panel.spread": "离散度",
        "panel.calibration": "校准方法",
        "panel.runs": "每位裁判评分次数",
        "swap": "立场互换检验",
        "swap.survives": "结论经受住了检验：模型互换立场后，仍是同一立场领先（{side}）。",
        "swap.fails": "结论没有经受住检验：模型互换立场后，领先方从{first}变为{second}。"
        "结论更多取决于模型或发言顺序，而不是论据本身。",
        "swap.none": "无",
        "swap.same_model": "双方使用同一个模型，因此互换的是双方的采样种子"
        "和裁判阅读的顺序（反方在前），而不是两个不同的模型。",
        "swap.survives_none": "结论经受住了检验：模型互换立场后，同样没有哪一方领先。",
        "lead_judge": "主裁判",
        "agreement.indicative": "共 {arguments} 条论据、{judges} 位裁判：论据少于 10 条或裁判少于"
        " 3 位时，这些数字仅供参考。",
        "agreement.one_judge": "只有一位裁判：一致性至少需要两位裁判",
        "label.high": "高",
        "label.moderate": "中等",
        "label.needs_attention": "需要关注",
        "label.not_computable": "无法计算",
        "divergence.low_agreement": "一致性偏低（alpha < 0.50 且 kappa < 0.40）",
        "divergence.disputed_argument": "各裁判对某条论据的评分相差很大",
        "divergence.close_totals": "双方加权总分相差不到 5%",
        "response.refute": "驳斥",
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


def labels(lang: str, *own: Mapping[str, str]) -> dict[str, str]:
    """Every shared label of a language (English for an unknown one), with ``own`` on
    top, in order: the labels of the format whose result is shown (``Format.labels``,
    found by ``moot.formats.format_labels``), a page's own words. This is the one place
    that merges them; a format's rule, round and answer labels live only in its own."""
    shared = CATALOG.get(lang, CATALOG["en"])
    if not own:
        return shared
    merged = dict(shared)
    for table in own:
        merged.update(table)
    return merged


def in_language(table: Mapping[str, Mapping[str, str]], lang: str) -> Mapping[str, str]:
    """One language's part of a table of labels by language (``en``, ``zh``), such as a
    format's own: English for a language it lacks."""
    return table.get(lang, table["en"])


def message(lang: str, key: str, **values: object) -> str:
    """One message, formatted with ``values``."""
    return labels(lang)[key].format(**values)


def gap_text(lang: str, reading: str, value: float, leader: str, runner_up: str) -> str:
    """The sentence that reads the gap between the leading position and the runner-up
    (their names as people read them)."""
    return message(lang, f"gap.{reading}", value=value, leader=leader, runner_up=runner_up)
