"""The market format's labels, in English and Chinese: its sides, rounds, answers
and rules, its briefing sections and columns, and its HTML report's words. They join
the shared labels (``moot.i18n``) wherever a market result is shown
(``MarketFormat.labels``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from moot.i18n import in_language

LABELS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "side.bull": "Bull",
        "side.bear": "Bear",
        "standing.WEAKENED": "WEAKENED",
        "response.question_evidence": "questioned the evidence",
        "round.baseline": "Single-agent baseline",
        "round.synthesis": "Market synthesis",
        "conviction.strengthened": "conviction strengthened",
        "conviction.weakened": "conviction weakened",
        "conviction.unchanged": "conviction unchanged",
        "direction.up": "up",
        "direction.down": "down",
        "reask.evidence_no_data": "cite the data points from your data that support the claim,"
        " with their numbers",
        "reask.handshake": "you challenged or refuted {attacks} of {n} arguments; challenge or"
        " refute at least {needed} (refute or question_evidence) instead of agreeing",
        "reask.unsupported_number": "cites {numbers}, which is not in your data; cite only"
        " numbers from your data",
        "reask.baseline_inconsistent": "direction {direction} contradicts probability_up: up"
        " needs a probability above 50, down one below",
        "rule.evidence_no_data": "the evidence cites no data point",
        "rule.handshake": "fewer than half of the opponent's arguments were challenged or"
        " refuted (anti-handshake rule)",
        "rule.unsupported_number": "new evidence cites numbers that are not in the analyst's data",
        "rule.baseline_inconsistent": "the direction contradicts the probability of up",
        "market.data": "Market data and analysts",
        "market.as_of": "Data as of {date}, from {source}.",
        "market.modules": "Modules: {modules}.",
        "market.synthetic": "synthetic data",
        "market.synthesis": "Market synthesis",
        "market.bull_case": "Bull case:",
        "market.bear_case": "Bear case:",
        "market.judge_note": "Judge's note:",
        "market.not_forecast": "This judges the quality of the debate, not where the market"
        " will go: it is not a forecast and not investment advice.",
        "market.panel_weights": "The judge profiles' own weights cover the standard dimensions,"
        " not the market rubric's, so every judge of the panel weighs logic 30%, evidence 30%,"
        " clarity 20% and persuasiveness 20%.",
        "market.evidence": "Evidence check (every cited number verified by code)",
        "market.evidence.summary": "{checked} numbers and dates checked: {matched} found in the"
        " data, {derived} computed from cited fields, {quoted} quoted from an opponent,"
        " {unsupported} unsupported, {wrong_entity} of another index or ticker than the text"
        " names, {wrong_period} of another period than the text names.",
        "market.evidence.rule": "Rule: each flagged number in an argument (unsupported, or of"
        " another index or period than the text names) takes {per:g}"
        " points off its evidence score (1-10); an argument whose every number is flagged"
        " scores at most {cap:g}; never below {floor:g}. The trace shows the judge's score and"
        " the penalised one.",
        "market.evidence.none": "No unsupported number.",
        "market.elsewhere": "in the knowledge base at {field}, outside the analyst's slice",
        "market.concedes": "Concedes",
        "market.baseline": "Single-agent baseline",
        "market.baseline.line": "One agent, one call on the whole knowledge base: {direction},"
        " probability of up {p}%.",
        "market.baseline.contradicts": "The direction contradicts that probability, after"
        " the {n} re-ask(s) its profile allows: a backtest leaves this row out of the"
        " baseline's scoring.",
        "col.agent": "Analyst",
        "col.lens": "Lens",
        "col.modules": "Data (slice)",
        "col.horizon": "Horizon",
        "col.opponents": "Cross-examines",
        "col.confidence": "Confidence",
        "col.evidence_score": "Evidence (judge -> code)",
        "col.unsupported": "Flagged",
        "col.where": "Field",
        "col.cited": "Cited",
        "col.closest": "Closest field",
        "col.kb_value": "Value there",
        "col.note": "Note",
        "col.target": "Target",
        "col.challenge": "Challenge",
        "col.new_evidence": "New evidence",
        # the HTML report
        "html.market_trace_note": "One row per argument: the analyst who made it, the"
        " challenges it received, the numbers it cites as code checked them against the"
        " analyst's data, its evidence score (the judge's, then lowered for each unsupported"
        " number), and where it stood in the end.",
        "html.evidence_check": "Evidence check",
        "html.lens_chart": "Score of each {lens} argument",
        "html.lens_means": "Mean score: {means}",
        "format.market": "market debate",
        "html.numbers_checked": "{n} numbers checked",
        "html.unsupported_numbers": "Not in the data, or of another index or period",
        "html.counterpoints": "Counterpoints",
        "html.challenge_by": "Challenge from {agent}",
        "html.refined_claims": "Claims that stand",
        # the backtest's HTML report (backtest_html.py)
        "bt.title": "Market backtest {id}",
        "bt.eyebrow": "moot backtest",
        "bt.meta": "{n} snapshots from {source}",
        "bt.synthetic": "synthetic data: not a market record",
        "bt.not_advice": "A backtest of debate forecasts on past data: not investment advice.",
        "bt.summary": "Summary figures",
        "bt.figure": "figure",
        "bt.moot": "moot",
        "bt.baseline": "single-agent baseline",
        "bt.accuracy": "accuracy",
        "bt.interval": "{level:.0%} Wilson interval",
        "bt.brier": "Brier score",
        "bt.ece": "expected calibration error",
        "bt.n": "snapshots scored",
        "bt.mcnemar": "McNemar exact p = {p} (moot right and baseline wrong: {b}; the reverse:"
        " {c})",
        "bt.excluded": "baseline rows left out (direction contradicts its P(up)): {n}",
        "bt.weights": "weights chosen on {train_n} snapshots up to {split_date}: {weights};"
        " out of sample ({test_n} snapshots): accuracy {accuracy}, Brier {brier}",
        "bt.weights_none": "weights: {note}",
        "bt.equity": "Equity curves",
        "bt.equity_note": "Each strategy's equity after each holding period, starting at 1"
        " (cost {cost:g} per unit of position changed).",
        "bt.equity_chart": "Equity of the strategies on {target}",
        "bt.strategy.buy_and_hold": "buy and hold",
        "bt.strategy.moot_long_flat": "moot long/flat",
        "bt.strategy.moot_long_short": "moot long/short",
        "bt.strategy.baseline_long_flat": "baseline long/flat",
        "bt.strategy.baseline_long_short": "baseline long/short",
        "bt.strategy": "strategy",
        "bt.total": "total %",
        "bt.annual": "annualised %",
        "bt.volatility": "volatility %",
        "bt.sharpe": "Sharpe",
        "bt.drawdown": "max drawdown %",
        "bt.hit": "hit rate",
        "bt.calibration": "Reliability of moot's P(up)",
        "bt.calibration_note": "Share of snapshots that went up in each bin of moot's P(up);"
        " a calibrated forecast lies on the diagonal.",
        "bt.reliability_chart": "Reliability diagram of moot's P(up)",
        "bt.diagonal": "perfect calibration",
        "bt.raw": "raw P(up), all {n}",
        "bt.raw_test": "raw P(up), later {n}",
        "bt.platt_test": "Platt, later {n}",
        "bt.platt": "Platt scaling fitted on {train_n} snapshots up to {split_date}; out of"
        " sample ({test_n}): Brier {brier}, ECE {ece} (raw: Brier {raw_brier}, ECE {raw_ece}).",
        "bt.platt_none": "Platt scaling: {note}",
        "bt.bin": "bin",
        "bt.count": "n",
        "bt.mean_p": "mean P(up)",
        "bt.observed": "observed up",
        "bt.analysts": "Analysts' stated confidence",
        "bt.analysts_note": "Each analyst's stated confidence in its opening arguments against"
        " the outcome (its side right) and against the judge's final standing (upheld;"
        " weakened and refuted count as not; {uncertain} uncertain standings left out)."
        " Brier 0 is perfect, 0.25 is a constant 50%.",
        "bt.agent": "analyst",
        "bt.side": "side",
        "bt.arguments": "arguments",
        "bt.mean_confidence": "mean confidence",
        "bt.right_rate": "side right",
        "bt.upheld_rate": "upheld",
        "bt.brier_outcome": "Brier (outcome)",
        "bt.brier_standing": "Brier (standing)",
        "bt.snapshots": "Snapshots",
        "bt.snapshots_note": "One row per snapshot; its run id opens the debate in the viewer"
        " (moot view) when this file is served beside it.",
        "bt.snapshot": "snapshot",
        "bt.target": "ticker",
        "bt.as_of": "as of",
        "bt.end": "end",
        "bt.return": "return %",
        "bt.actual": "actual",
        "bt.predicted": "moot",
        "bt.p_up": "moot P(up)",
        "bt.baseline_predicted": "baseline",
        "bt.baseline_p_up": "baseline P(up)",
        "bt.run": "debate",
    },
    "zh": {
        "side.bull": "多头",
        "side.bear": "空头",
        "standing.WEAKENED": "被削弱",
        "response.question_evidence": "质疑证据",
        "round.baseline": "单智能体基准",
        "round.synthesis": "市场综合",
        "conviction.strengthened": "信心增强",
        "conviction.weakened": "信心减弱",
        "conviction.unchanged": "信心不变",
        "direction.up": "上涨",
        "direction.down": "下跌",
        "reask.evidence_no_data": "请引用你的数据中支持该主张的数据点，并写出数字",
        "reask.handshake": "你只对 {n} 条论据中的 {attacks} 条提出了质疑或反驳；请至少对 {needed}"
        " 条使用 refute 或 question_evidence，而不是一味同意",
        "reask.unsupported_number": "引用了 {numbers}，这些数字不在你的数据中；"
        "只能引用你的数据中的数字",
        "reask.baseline_inconsistent": "方向 {direction} 与 probability_up 矛盾："
        "up 需要高于 50 的概率，down 需要低于 50",
        "rule.evidence_no_data": "证据没有引用任何数据点",
        "rule.handshake": "对对手论据提出质疑或反驳的不到一半（反握手规则）",
        "rule.unsupported_number": "新证据引用了分析师数据中没有的数字",
        "rule.baseline_inconsistent": "方向与上涨概率矛盾",
        "market.data": "市场数据与分析师",
        "market.as_of": "数据截至 {date}，来源：{source}。",
        "market.modules": "模块：{modules}。",
        "market.synthetic": "合成数据",
        "market.synthesis": "市场综合",
        "market.bull_case": "多头观点：",
        "market.bear_case": "空头观点：",
        "market.judge_note": "裁判说明：",
        "market.not_forecast": "这里评判的是辩论质量，而不是市场走向：它不是预测，也不是投资建议。",
        "market.panel_weights": "评审团各裁判档案的权重针对的是标准维度，而不是市场评分维度，"
        "因此每位裁判都按逻辑 30%、证据 30%、清晰度 20%、说服力 20% 计分。",
        "market.evidence": "证据核查（每个引用的数字都由代码核对）",
        "market.evidence.summary": "共核对 {checked} 个数字和日期：{matched} 个在数据中找到，"
        "{derived} 个由引用的字段计算得出，{quoted} 个引自对手，{unsupported} 个无依据，"
        "{wrong_entity} 个属于文中所说之外的指数或代码，{wrong_period} 个属于文中所说之外的期间。",
        "market.evidence.rule": "规则：论据中每个被标记的数字（无依据，或属于文中所说之外的指数"
        "或期间）扣除其证据得分（1-10）{per:g} 分；"
        "所有数字都被标记的论据最多得 {cap:g} 分；最低 {floor:g} 分。"
        "追溯表同时列出裁判的原始得分和扣分后的得分。",
        "market.evidence.none": "没有无依据的数字。",
        "market.elsewhere": "在知识库的 {field} 中，但不在该分析师的数据切片内",
        "market.concedes": "让步",
        "market.baseline": "单智能体基准",
        "market.baseline.line": "单个智能体对完整知识库的一次调用：{direction}，上涨概率 {p}%。",
        "market.baseline.contradicts": "该方向与这一概率矛盾（已用完其配置允许的 {n} 次重问）："
        "回测不计入基线的评分。",
        "col.agent": "分析师",
        "col.lens": "视角",
        "col.modules": "数据（切片）",
        "col.horizon": "时间维度",
        "col.opponents": "质询对象",
        "col.confidence": "置信度",
        "col.evidence_score": "证据（裁判 -> 代码）",
        "col.unsupported": "被标记",
        "col.where": "字段",
        "col.cited": "引用",
        "col.closest": "最接近的字段",
        "col.kb_value": "该字段的值",
        "col.note": "说明",
        "col.target": "对象",
        "col.challenge": "质询",
        "col.new_evidence": "新证据",
        # HTML 报告
        "html.market_trace_note": "每条论据一行：提出它的分析师、它受到的质询、代码按该分析师"
        "的数据核对它所引用的数字的结果、它的证据得分（裁判的分数，以及按每个无依据数字扣分"
        "后的分数），以及它最终的状态。",
        "html.evidence_check": "证据核查",
        "html.lens_chart": "{lens}各论据的得分",
        "html.lens_means": "平均得分：{means}",
        "format.market": "市场辩论",
        "html.numbers_checked": "核对了 {n} 个数字",
        "html.unsupported_numbers": "数据中没有，或属于其他指数或期间",
        "html.counterpoints": "反论点",
        "html.challenge_by": "来自 {agent} 的质询",
        "html.refined_claims": "仍然成立的论点",
        # 回测的 HTML 报告（backtest_html.py）
        "bt.title": "市场回测 {id}",
        "bt.eyebrow": "moot 回测",
        "bt.meta": "{n} 个快照，数据来源：{source}",
        "bt.synthetic": "合成数据：并非真实行情",
        "bt.not_advice": "这是辩论预测在历史数据上的回测，不构成投资建议。",
        "bt.summary": "汇总数据",
        "bt.figure": "指标",
        "bt.moot": "moot",
        "bt.baseline": "单智能体基线",
        "bt.accuracy": "准确率",
        "bt.interval": "{level:.0%} Wilson 区间",
        "bt.brier": "Brier 分数",
        "bt.ece": "期望校准误差",
        "bt.n": "计分的快照数",
        "bt.mcnemar": "McNemar 精确检验 p = {p}（moot 正确而基线错误：{b}；反之：{c}）",
        "bt.excluded": "被排除的基线行（方向与其上涨概率矛盾）：{n}",
        "bt.weights": "在截至 {split_date} 的 {train_n} 个快照上选出的权重：{weights}；"
        "样本外（{test_n} 个快照）：准确率 {accuracy}，Brier {brier}",
        "bt.weights_none": "权重：{note}",
        "bt.equity": "净值曲线",
        "bt.equity_note": "各策略在每个持有期之后的净值，起点为 1（每单位仓位变动成本 {cost:g}）。",
        "bt.equity_chart": "{target} 上各策略的净值",
        "bt.strategy.buy_and_hold": "买入并持有",
        "bt.strategy.moot_long_flat": "moot 做多/空仓",
        "bt.strategy.moot_long_short": "moot 做多/做空",
        "bt.strategy.baseline_long_flat": "基线 做多/空仓",
        "bt.strategy.baseline_long_short": "基线 做多/做空",
        "bt.strategy": "策略",
        "bt.total": "总回报 %",
        "bt.annual": "年化回报 %",
        "bt.volatility": "波动率 %",
        "bt.sharpe": "夏普比率",
        "bt.drawdown": "最大回撤 %",
        "bt.hit": "命中率",
        "bt.calibration": "moot 上涨概率的可靠性",
        "bt.calibration_note": "moot 上涨概率每个区间中实际上涨的快照比例；"
        "校准良好的预测落在对角线上。",
        "bt.reliability_chart": "moot 上涨概率的可靠性图",
        "bt.diagonal": "完美校准",
        "bt.raw": "原始（全部 {n} 个）",
        "bt.raw_test": "原始（后 {n} 个）",
        "bt.platt_test": "Platt（后 {n} 个）",
        "bt.platt": "Platt 校准在截至 {split_date} 的 {train_n} 个快照上拟合；"
        "样本外（{test_n} 个）：Brier {brier}，ECE {ece}"
        "（原始：Brier {raw_brier}，ECE {raw_ece}）。",
        "bt.platt_none": "Platt 校准：{note}",
        "bt.bin": "区间",
        "bt.count": "数量",
        "bt.mean_p": "平均上涨概率",
        "bt.observed": "实际上涨比例",
        "bt.analysts": "分析师所述置信度",
        "bt.analysts_note": "各分析师对其开场论据所述的置信度，分别对照结果（其一方是否正确）"
        "与裁判给出的最终地位（被维持；被削弱与被驳倒计为未维持；"
        "排除 {uncertain} 个不确定的地位）。"
        "Brier 为 0 最佳，恒为 50% 时为 0.25。",
        "bt.agent": "分析师",
        "bt.side": "立场",
        "bt.arguments": "论据数",
        "bt.mean_confidence": "平均置信度",
        "bt.right_rate": "其一方正确",
        "bt.upheld_rate": "被维持",
        "bt.brier_outcome": "Brier（结果）",
        "bt.brier_standing": "Brier（地位）",
        "bt.snapshots": "快照",
        "bt.snapshots_note": "每个快照一行；当本文件与查看器（moot view）同源提供时，点击运行 ID"
        " 即可打开该场辩论。",
        "bt.snapshot": "快照",
        "bt.target": "代码",
        "bt.as_of": "数据日期",
        "bt.end": "结束日期",
        "bt.return": "回报 %",
        "bt.actual": "实际",
        "bt.predicted": "moot",
        "bt.p_up": "moot 上涨概率",
        "bt.baseline_predicted": "基线",
        "bt.baseline_p_up": "基线上涨概率",
        "bt.run": "辩论",
    },
}


def labels(lang: str) -> Mapping[str, str]:
    """The market format's labels in ``lang`` (English for an unknown language)."""
    return in_language(LABELS, lang)


def message(lang: str, key: str, **values: object) -> str:
    """One of the market format's messages, formatted with ``values``."""
    return labels(lang)[key].format(**values)
