"""The words ``moot backtest`` and ``moot snapshots`` print beside their figures, in
English and Chinese (``--lang``)."""

from __future__ import annotations

from typing import Final

from moot.i18n import in_language

WORDS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "modules.title": "KB modules filled ({n} snapshots)",
        "modules.module": "module",
        "modules.snapshots": "snapshots with data",
        "modules.empty": "no snapshot has {modules}: the analysts of those modules argued"
        " from the rest of their slice or from nothing",
        "modules.index_only": "analysts whose slice held nothing beyond the index, on so many"
        " snapshots: {analysts}",
        "excluded": "baseline rows left out (direction contradicts its P(up)): {n} of {total}",
        "strategies.title": "strategies on {target} ({per_year:g} periods a year, cost"
        " {cost:g} per unit of position changed, risk-free rate {rf:g})",
        "strategies.name": "strategy",
        "strategies.total": "total %",
        "strategies.annual": "annualised %",
        "strategies.volatility": "volatility %",
        "strategies.sharpe": "Sharpe",
        "strategies.drawdown": "max drawdown %",
        "strategies.hit": "hit rate",
        "calibration.title": "calibration of stated probabilities",
        "calibration.which": "probability",
        "calibration.moot_quality": "moot P(up), quality totals",
        "calibration.moot_stated": "moot P(up), analysts' stated confidence",
        "calibration.baseline": "baseline P(up)",
        "calibration.analysts": "each argument's confidence (its side right)",
        "calibration.analysts_standing": "each argument's confidence (upheld by the judge)",
        "analysts.title": "each analyst's stated confidence against the outcome and against"
        " its arguments' standing ({uncertain} uncertain standings left out)",
        "analysts.agent": "analyst",
        "analysts.side": "side",
        "analysts.confidence": "mean confidence",
        "analysts.right": "side right",
        "analysts.upheld": "upheld",
        "analysts.brier_outcome": "Brier (outcome)",
        "analysts.brier_standing": "Brier (standing)",
        "platt": "Platt scaling of moot's P(up), fitted on {train_n} snapshots up to"
        " {split_date}, out of sample ({test_n}): Brier {test_brier:.4f}, ECE {test_ece:.4f}"
        " (raw quality ratio: Brier {raw_test_brier:.4f}, ECE {raw_test_ece:.4f})",
        "platt.none": "Platt scaling: {note}",
        "snapshots.wrote": "wrote {n} snapshots of {ticker} ({first} .. {last}), {ups} up"
        " and {downs} down",
        "snapshots.total": "{n} snapshots of {tickers} ticker(s), {bar} bars, in {out}",
        "snapshots.synthetic": "[synthetic data]",
    },
    "zh": {
        "modules.title": "知识库模块的填充情况（{n} 个快照）",
        "modules.module": "模块",
        "modules.snapshots": "有数据的快照数",
        "modules.empty": "没有任何快照包含 {modules}：负责这些模块的分析师"
        "只能依据切片中的其余数据或无据可依",
        "modules.index_only": "切片中除指数外没有任何数据的分析师（及快照数）：{analysts}",
        "excluded": "被排除的基线行（方向与其上涨概率矛盾）：{total} 行中的 {n} 行",
        "strategies.title": "{target} 上的策略（每年 {per_year:g} 个周期，每单位仓位变动成本"
        " {cost:g}，无风险利率 {rf:g}）",
        "strategies.name": "策略",
        "strategies.total": "总回报 %",
        "strategies.annual": "年化回报 %",
        "strategies.volatility": "波动率 %",
        "strategies.sharpe": "夏普比率",
        "strategies.drawdown": "最大回撤 %",
        "strategies.hit": "命中率",
        "calibration.title": "所述概率的校准",
        "calibration.which": "概率",
        "calibration.moot_quality": "moot 上涨概率（质量总分）",
        "calibration.moot_stated": "moot 上涨概率（分析师所述置信度）",
        "calibration.baseline": "基线上涨概率",
        "calibration.analysts": "各论据的置信度（其一方是否正确）",
        "calibration.analysts_standing": "各论据的置信度（是否被裁判维持）",
        "analysts.title": "各分析师所述置信度相对结果与其论据最终地位的校准"
        "（排除 {uncertain} 个不确定的地位）",
        "analysts.agent": "分析师",
        "analysts.side": "立场",
        "analysts.confidence": "平均置信度",
        "analysts.right": "其一方正确",
        "analysts.upheld": "被维持",
        "analysts.brier_outcome": "Brier（结果）",
        "analysts.brier_standing": "Brier（地位）",
        "platt": "moot 上涨概率的 Platt 校准：在截至 {split_date} 的 {train_n} 个快照上拟合，"
        "样本外（{test_n} 个）：Brier {test_brier:.4f}，ECE {test_ece:.4f}"
        "（原始质量比：Brier {raw_test_brier:.4f}，ECE {raw_test_ece:.4f}）",
        "platt.none": "Platt 校准：{note}",
        "snapshots.wrote": "写入 {ticker} 的 {n} 个快照（{first} .. {last}），上涨 {ups} 个，"
        "下跌 {downs} 个",
        "snapshots.total": "共 {n} 个快照，{tickers} 个代码，{bar} 数据，位于 {out}",
        "snapshots.synthetic": "[合成数据]",
    },
}


def word(lang: str, key: str, **values: object) -> str:
    """One of the commands' words in ``lang`` (English for an unknown language)."""
    return in_language(WORDS, lang)[key].format(**values)
