"""``scripted:demo`` for the market format: deterministic, schema-valid replies for
every round, in English or Simplified Chinese, that cite real numbers of the
analyst's slice (so the evidence check finds every one of them), follow the
anti-handshake rule, and say they are a scripted demo.

Each analyst reads its slice as *observations*: one sentence per field it knows how
to phrase (returns, moving averages, RSI, valuation, macro series, breadth...), with
the field's value written as the KB holds it, and a leaning (bullish, bearish or
neither) from a simple documented reading of the value. A bull picks the bullish
and neutral ones, a bear the bearish and neutral ones.

:func:`planted_opening` is the test helper that plants wrong numbers: it writes the
demo opening, then adds to every argument's evidence numbers that no field of the
slice holds (``PE 15`` style labelled ones and unlabelled percentages), and returns
them, so a test can expect each one flagged.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

from pydantic import BaseModel

from moot.demo_text import shorten
from moot.errors import BackendError
from moot.formats.market.data.evidence import verify_numbers
from moot.formats.market.data.facts import fact_sheet
from moot.formats.market.data.kb import Indicator, KnowledgeBase
from moot.formats.market.payload import ATTACKS, CHALLENGE_TYPES, ChallengeType, MarketArgument
from moot.formats.market.replies import (
    ArgumentDraft,
    BaselineReply,
    ChallengeItem,
    ClosingReply,
    CrossExamReply,
    OpeningReply,
    SynthesisReply,
)
from moot.formats.market.rounds import (
    BaselineCall,
    ClosingCall,
    CrossExamCall,
    OpeningCall,
    SynthesisCall,
)
from moot.formats.market.sources import (
    SourcedCrossExamReply,
    SourcedOpeningReply,
    demo_sourced,
    demo_sourced_challenges,
    demo_sourced_closing,
)
from moot.judging import demo as judge_demo
from moot.judging.judge import JudgeCall
from moot.llm.scripted import DemoRequest, register_demo_writer
from moot.numerals import agrees
from moot.text import word_count

LANGS: Final = ("en", "zh")


@dataclass(frozen=True)
class Observation:
    """One sentence about one field of the slice, and which way it leans."""

    path: str
    text: str
    lean: int  # +1 bullish, -1 bearish, 0 neither


def number(value: float) -> str:
    """A value as the KB holds it (the evidence check matches it exactly)."""
    return f"{value:.10g}"


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


# field -> (English, Chinese) sentence; {name} is the entry's name, {v} the value
_PRICED: Final[dict[str, tuple[str, str]]] = {
    "close": ("{name} closed at {v}", "{name}收于{v}"),
    "return_5d_pct": ("{name} returned {v}% over five sessions", "{name}近五个交易日回报为{v}%"),
    "return_20d_pct": (
        "{name} returned {v}% over the last 20 sessions",
        "{name}近20个交易日回报为{v}%",
    ),
    "return_60d_pct": (
        "{name} returned {v}% over the last 60 sessions",
        "{name}近60个交易日回报为{v}%",
    ),
    "return_252d_pct": ("{name} returned {v}% over a year", "{name}近一年回报为{v}%"),
    "vs_52w_high_pct": ("{name} trades {v}% from its 52-week high", "{name}距52周高点{v}%"),
    "relative_20d_pct": (
        "{name} ran {v}% against its benchmark over 20 sessions",
        "{name}近20个交易日相对基准{v}%",
    ),
}
_TECHNICAL: Final[dict[str, tuple[str, str]]] = {
    "close_vs_sma_20_pct": ("{name} is {v}% from its 20-day average", "{name}相对20日均线{v}%"),
    "close_vs_sma_50_pct": ("{name} is {v}% from its 50-day average", "{name}相对50日均线{v}%"),
    "close_vs_sma_200_pct": (
        "{name} is {v}% from its 200-day average",
        "{name}相对200日均线{v}%",
    ),
    "rsi_14": ("the RSI(14) of {name} is {v}", "{name}的RSI(14)为{v}"),
    "macd_histogram": ("the MACD histogram of {name} is {v}", "{name}的MACD柱状图为{v}"),
    "volume_ratio": ("the volume ratio of {name} is {v}", "{name}的量比为{v}"),
}
_FUNDAMENTAL: Final[dict[str, tuple[str, str]]] = {
    "pe_trailing": ("the trailing P/E of {name} is {v}", "{name}的市盈率为{v}倍"),
    "pe_long_term_avg": (
        "the long-run average P/E of {name} is {v}",
        "{name}的长期平均市盈率为{v}倍",
    ),
    "earnings_yield_pct": ("the earnings yield of {name} is {v}%", "{name}的盈利收益率为{v}%"),
    "eps_growth_yoy_pct": (
        "earnings per share of {name} grew {v}% year on year",
        "{name}每股收益同比增长{v}%",
    ),
    "dividend_yield_pct": ("the dividend yield of {name} is {v}%", "{name}的股息率为{v}%"),
}
_SENTIMENT: Final[dict[str, tuple[str, str]]] = {
    "volatility_index": ("the volatility index is at {v}", "波动率指数为{v}"),
    "breadth_20d_pct": (
        "{v}% of sectors rose over the last 20 sessions",
        "近20个交易日上涨的行业占比为{v}%",
    ),
}
_MACRO: Final = ("{name} stands at {v}{unit}, trend {trend}", "{name}为{v}{unit}，趋势{trend}")
_TRENDS: Final = {
    "en": {"rising": "rising", "falling": "falling", "flat": "flat", None: "not given"},
    "zh": {"rising": "上升", "falling": "下降", "flat": "持平", None: "未给出"},
}
_MACRO_GOOD_WHEN_RISING: Final = ("gdp", "growth", "pmi", "payroll", "spread", "增长")
_MACRO_BAD_WHEN_RISING: Final = ("cpi", "inflation", "rate", "yield", "unemployment", "通胀")


def _lean(field: str, value: float, entry: Any) -> int:
    """A simple reading of one value, for the demo only."""
    if field in ("rsi_14",):
        return 1 if 50 <= value <= 70 or value < 30 else -1
    if field == "volatility_index":
        return 1 if value < 20 else -1
    if field == "breadth_20d_pct":
        return 1 if value >= 50 else -1
    if field == "pe_trailing":
        average = getattr(entry, "pe_long_term_avg", None)
        return 0 if average is None else (-1 if value > average else 1)
    if field in ("close", "volume_ratio", "pe_long_term_avg", "dividend_yield_pct"):
        return 0
    if field in ("earnings_yield_pct",):
        return 0
    return _sign(value)


def _macro_lean(key: str, entry: Indicator) -> int:
    change = entry.change if entry.change is not None else 0.0
    label = f"{key} {entry.name}".lower()
    if any(w in label for w in _MACRO_BAD_WHEN_RISING):
        return -_sign(change)
    if any(w in label for w in _MACRO_GOOD_WHEN_RISING):
        return _sign(change)
    return 0


def _usable(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and abs(value) < 1e7


def observations(kb: KnowledgeBase, lang: str) -> list[Observation]:
    """Every observation the demo can make about ``kb`` (a slice), in KB order."""
    pick = 0 if lang == "en" else 1
    found: list[Observation] = []

    def add(path: str, phrase: str, lean: int, **values: Any) -> None:
        found.append(Observation(path, phrase.format(**values), lean))

    def entries(
        table: Mapping[str, Any],
        phrases: Mapping[str, tuple[str, str]],
        module: str,
        names: Mapping[str, str],
    ) -> None:
        for key, entry in table.items():
            for field, pair in phrases.items():
                value = getattr(entry, field, None)
                if isinstance(value, int | float) and _usable(value):
                    add(
                        f"{module}.{key}.{field}",
                        pair[pick],
                        _lean(field, value, entry),
                        name=names.get(key, key),
                        v=number(value),
                    )

    names = {k: v.name for k, v in {**kb.indices, **kb.sectors, **kb.global_markets}.items()}
    names.update({k: f.name or names.get(k, k) for k, f in kb.fundamentals.items()})
    entries(kb.indices, _PRICED, "indices", names)
    entries(kb.technicals, _TECHNICAL, "technicals", names)
    entries(kb.sectors, _PRICED, "sectors", names)
    entries(kb.fundamentals, _FUNDAMENTAL, "fundamentals", names)
    entries(kb.global_markets, _PRICED, "global_markets", names)
    for key, series in kb.macro.items():
        if _usable(series.value):
            add(
                f"macro.{key}.value",
                _MACRO[pick],
                _macro_lean(key, series),
                name=series.name,
                v=number(series.value),
                unit="%" if series.unit == "percent" else "",
                trend=_TRENDS[lang][series.trend],
            )
    if kb.sentiment is not None:
        for field, pair in _SENTIMENT.items():
            value = getattr(kb.sentiment, field)
            if _usable(value):
                add(f"sentiment.{field}", pair[pick], _lean(field, value, None), v=number(value))
    return found


def _for_side(found: list[Observation], stance: str) -> list[Observation]:
    """A side's observations: those leaning its way first, then the neutral ones; when
    its slice holds nothing else (a bear whose few macro series all lean up), those
    leaning the other way, which it argues from as they are."""
    want = 1 if stance == "bull" else -1
    mine = [o for o in found if o.lean == want] + [o for o in found if o.lean == 0]
    return mine or list(found)


@dataclass(frozen=True)
class _Words:
    """Everything the demo writes in one language. Each side has its own wording, so
    that one side's turns do not read as reciting the other side's case."""

    claims: Mapping[str, Mapping[str, tuple[str, ...]]]  # lens -> stance -> claims
    evidence_tail: str
    counterpoint: str
    join: str
    reasoning: Mapping[str, Mapping[str, tuple[str, ...]]]  # stance -> type -> {target} {claim}
    new_evidence: str  # {obs}
    refined: str  # {claim}
    concession: str  # {target}
    stance: Mapping[str, tuple[str, ...]]  # stance -> sentences; {lens} {n} {claims} {horizon}
    case: str  # {side} {n} {claim}
    judge_note: str
    baseline: str  # {obs} {direction}


WORDS: Final[dict[str, _Words]] = {
    "en": _Words(
        claims={
            "technical": {
                "bull": (
                    "Trend signals still favour buyers",
                    "The long-run uptrend is intact",
                    "Oversold readings point to a rebound",
                    "Volume backs the rally",
                ),
                "bear": (
                    "Short-term momentum is fading",
                    "Price is losing its moving averages",
                    "The recent drop marks distribution",
                    "The advance looks stretched",
                ),
            },
            "fundamental": {
                "bull": (
                    "Profit growth supports prices",
                    "Many sectors are participating",
                    "Companies keep delivering",
                    "Owning equities still pays",
                ),
                "bear": (
                    "Valuation is stretched",
                    "Multiples outrun earnings power",
                    "Gains rest on a few industries",
                    "The yield on stocks is thin",
                ),
            },
            "macro": {
                "bull": (
                    "Growth is holding up",
                    "Policy is turning easier",
                    "Foreign markets give support",
                    "The macro backdrop is benign",
                ),
                "bear": (
                    "Inflation is sticky",
                    "Rates remain restrictive",
                    "The yield curve warns of a slowdown",
                    "Overseas indices are slipping",
                ),
            },
            "sentiment": {
                "bull": (
                    "Pessimism is a contrarian buy signal",
                    "Calm conditions favour buyers",
                    "A washout often precedes recovery",
                    "Positioning leaves room to rise",
                ),
                "bear": (
                    "Breadth is collapsing",
                    "Volatility is climbing",
                    "Sentiment warns of more downside",
                    "Risk appetite is draining away",
                ),
            },
            "other": {
                "bull": (
                    "Figures favour a rise",
                    "Upside signals dominate",
                    "Support outweighs the risks",
                    "A higher close is likelier",
                ),
                "bear": (
                    "Evidence points lower",
                    "Downside pressure is building",
                    "Weakness exceeds strength",
                    "Declines look more probable",
                ),
            },
        },
        evidence_tail="(scripted demo, figures from the data)",
        counterpoint="A scripted demo reading; other figures may weigh more",
        join="; ",
        reasoning={
            "bull": {
                "refute": (
                    "{target} reads one figure alone, while the wider picture favours"
                    " buyers, so “{claim}” does not follow.",
                    "{target} confuses a pause with a reversal; “{claim}” overreaches.",
                    "Nothing in {target} shows that “{claim}” lasts beyond a handful of sessions.",
                ),
                "question_evidence": (
                    "{target} leans on a single reading, too slight for “{claim}”.",
                    "Which second figure confirms “{claim}”? {target} offers only one.",
                    "{target} picks the weakest reading for “{claim}” and skips the"
                    " healthier ones.",
                ),
                "concede": (
                    "{target} holds: its figure is in the data and backs “{claim}”.",
                    "Fair enough on {target}; I grant “{claim}”.",
                    "{target} is well founded, and I grant “{claim}”.",
                ),
                "partial": (
                    "{target} spots a real soft patch, but “{claim}” makes too much of it.",
                    "“{claim}” is partly right; {target} stretches a short window.",
                    "The core of {target} stands, yet “{claim}” goes past its data.",
                ),
            },
            "bear": {
                "refute": (
                    "{target} treats a past gain as a promise; “{claim}” is not proven.",
                    "The logic of {target} breaks: a level is no direction, so “{claim}” fails.",
                    "{target} ignores the warning signs beside it; “{claim}” collapses.",
                ),
                "question_evidence": (
                    "A lone number cannot carry “{claim}”; {target} needs more proof.",
                    "Where is corroboration for “{claim}”? {target} provides none.",
                    "{target} is selective about “{claim}”: the fields it omits cut against it.",
                ),
                "concede": (
                    "{target} is correct as far as it goes; I accept “{claim}”.",
                    "I will not dispute {target}: “{claim}” matches the numbers.",
                    "{target} survives scrutiny, so “{claim}” may remain.",
                ),
                "partial": (
                    "{target} has the correct direction, but “{claim}” overstates the scale.",
                    "“{claim}” is valid only in part; {target} overstates the duration.",
                    "{target} earns some credit, though less than its certainty about"
                    " “{claim}” implies.",
                ),
            },
        },
        new_evidence="{obs}.",
        refined="{claim} (still supported by the data)",
        concession="I accept the point of {target}",
        stance={
            "bull": (
                "As a bull I keep my upbeat case after cross-examination.",
                "It rests on this: {claims}.",
                "Of my {n} points, those resting on several readings held up best.",
                "On balance the picture still tilts toward higher prices.",
                "One reading can mislead, so I look for readings that agree.",
                "I granted what was fair and listed it.",
                "This is a scripted demo on the data given, not a forecast or advice.",
                "Anyone can check each cited figure against the knowledge base.",
                "A turn in the readings I cited would change my mind.",
                "Over {horizon} I still expect buyers to prevail.",
                "Where the data says little, I held my confidence down.",
            ),
            "bear": (
                "My cautious view survives the questioning.",
                "My warnings were these: {claims}.",
                "Among my {n} warnings, the ones backed by multiple fields proved sturdiest.",
                "Taken together, my fields describe weakness.",
                "A lone statistic deceives; I trust fields that corroborate each other.",
                "Where my opponent was correct I said so plainly.",
                "Purely illustrative output: no prediction, no recommendation.",
                "Every number quoted here traces back to the source file.",
                "Only improvement in those fields would make me drop the warning.",
                "The risks I listed still dominate.",
                "Gaps in my inputs made me trim my certainty.",
            ),
        },
        case="The {side} side made {n} arguments; the best supported was that {claim}.",
        judge_note="Scripted demo: the analysts cited figures from their own data, and the"
        " verdict weighs the quality of their reasoning, not where the market will go.",
        baseline="One reading of the whole data: {obs}, so the call is {direction}.",
    ),
    "zh": _Words(
        claims={
            "technical": {
                "bull": (
                    "趋势信号有利于继续上涨",
                    "长期上升趋势完好，仍会上涨",
                    "超卖读数预示反弹上涨",
                    "成交量放大，支撑上涨",
                ),
                "bear": (
                    "短期动量衰竭，将会下跌",
                    "价格跌破关键均线，继续下跌",
                    "近期下跌显示出派发迹象",
                    "涨幅透支，面临下跌",
                ),
            },
            "fundamental": {
                "bull": (
                    "利润增长足以支撑上涨",
                    "众多行业都在参与上涨",
                    "上市公司业绩兑现，利于上涨",
                    "持有股票仍有回报，支持上涨",
                ),
                "bear": (
                    "估值明显偏高，容易下跌",
                    "市盈倍数超出盈利能力，将会下跌",
                    "涨幅集中于少数板块，易下跌",
                    "权益收益率偏薄，预示下跌",
                ),
            },
            "macro": {
                "bull": (
                    "经济增长稳健，支持上涨",
                    "货币政策转向宽松，利于上涨",
                    "海外市场走强，带动上涨",
                    "宏观背景温和，利于上涨",
                ),
                "bear": (
                    "通胀压力顽固，压制指数下跌",
                    "利率偏紧，导致估值下跌",
                    "收益率曲线倒挂，预示下跌",
                    "境外指数走低，拖累下跌",
                ),
            },
            "sentiment": {
                "bull": (
                    "过度悲观是反向信号，将会上涨",
                    "市况平静，有利于上涨",
                    "恐慌出清之后往往上涨",
                    "仓位偏低，留有上涨空间",
                ),
                "bear": (
                    "市场广度坍塌，预示下跌",
                    "波动率攀升，预示下跌",
                    "情绪指标预示进一步下跌",
                    "风险偏好退潮，将会下跌",
                ),
            },
            "other": {
                "bull": (
                    "现有数据支持上涨",
                    "上行信号占据主导，利于上涨",
                    "支撑因素大于风险，支持上涨",
                    "收高的可能性更大，将会上涨",
                ),
                "bear": (
                    "现有证据指向下跌",
                    "下行压力累积，将会下跌",
                    "疲弱迹象多于强势，预示下跌",
                    "回落更加可能，将会下跌",
                ),
            },
        },
        evidence_tail="（脚本演示，数据取自知识库）",
        counterpoint="这是脚本演示的一种解读，其他数据可能更重要",
        join="；",
        reasoning={
            "bull": {
                "refute": (
                    "{target}只看一个读数，而整体图景对买方有利，“{claim}”并不成立。",
                    "{target}把暂时停顿当成了反转，“{claim}”言过其实。",
                    "{target}无法说明“{claim}”能持续几个交易日以上。",
                ),
                "question_evidence": (
                    "{target}只依赖单个读数，撑不起“{claim}”。",
                    "哪个第二个读数能印证“{claim}”？{target}只给出了一个。",
                    "{target}为“{claim}”挑了最弱的读数，跳过了更健康的那些。",
                ),
                "concede": (
                    "{target}成立：它的读数支持“{claim}”。",
                    "在{target}上我认可“{claim}”。",
                    "{target}有据可依，我认可“{claim}”。",
                ),
                "partial": (
                    "{target}看到了真实的疲软，但“{claim}”夸大了它。",
                    "“{claim}”部分正确，{target}把一个短窗口延伸得太远。",
                    "{target}的核心成立，但“{claim}”超出了读数所能说明的。",
                ),
            },
            "bear": {
                "refute": (
                    "{target}把过去的涨幅当成承诺，“{claim}”没有得到证明。",
                    "{target}的逻辑断裂：水平不等于方向，“{claim}”站不住。",
                    "{target}忽视了旁边的警示，“{claim}”随之瓦解。",
                ),
                "question_evidence": (
                    "孤零零一个数字撑不起“{claim}”，{target}需要更多证明。",
                    "佐证“{claim}”的独立来源在哪里？{target}一样也没提供，论证因此悬空。",
                    "{target}对“{claim}”有选择性：它略去的字段与它相悖。",
                ),
                "concede": (
                    "{target}在其范围内是对的，我接受“{claim}”。",
                    "我不反驳{target}：“{claim}”与数字相符。",
                    "{target}经得起推敲，“{claim}”可以保留。",
                ),
                "partial": (
                    "{target}方向没错，但“{claim}”夸大了幅度。",
                    "“{claim}”只部分有效，{target}高估了持续时间。",
                    "{target}值得肯定，但不及它对“{claim}”的确定程度。",
                ),
            },
        },
        new_evidence="{obs}。",
        refined="{claim}（仍有数据支持）",
        concession="我接受{target}的观点",
        stance={
            "bull": (
                "作为多头，经过质询我仍坚持乐观的看法。",
                "我的论点基于：{claims}。",
                "在我的{n}个论点中，建立在多个读数之上的最为稳固。",
                "总体而言，图景仍然偏向更高的价格。",
                "单个读数可能误导，所以我寻找相互印证的读数。",
                "对方说得对的地方，我已如实认可并列出。",
                "这是基于给定数据的脚本演示，不是预测，也不是投资建议。",
                "任何人都可以把引用的读数与知识库逐一核对。",
                "只有我引用的读数出现转折，我才会改变看法。",
                "在{horizon}内，我仍预计买方占上风。",
                "在读数说明不多的地方，我压低了置信度。",
            ),
            "bear": (
                "我的谨慎观点经受住了盘问。",
                "我提出的警示是：{claims}。",
                "在我的{n}条警示中，有多个字段支撑的最为牢靠。",
                "综合来看，我掌握的字段描绘出疲弱。",
                "孤立的统计会骗人，我只信彼此佐证的字段。",
                "对手正确之处，我都坦率承认了。",
                "纯属示意性输出：既无预言，也无推荐。",
                "这里每个数字都能追溯到源文件。",
                "只有这些字段好转，我才会撤回警示。",
                "我列出的风险依然占主导。",
                "输入中的空白让我降低了确定性。",
            ),
        },
        case="{side}一方提出了{n}条论据，证据最充分的是：{claim}。",
        judge_note="脚本演示：分析师引用的都是各自数据中的数字，裁决评估的是推理质量，而不是市场走向。",
        baseline="对完整数据的一种解读：{obs}，因此判断为{direction}。",
    ),
}
_SIDES: Final = {"en": {"bull": "bull", "bear": "bear"}, "zh": {"bull": "多头", "bear": "空头"}}
_DIRECTIONS: Final = {"en": {"up": "up", "down": "down"}, "zh": {"up": "上涨", "down": "下跌"}}


def _words(lang: str) -> _Words:
    if lang not in WORDS:
        raise BackendError(f"scripted:demo writes {', '.join(WORDS)}, not {lang!r}")
    return WORDS[lang]


def _data(request: DemoRequest, kind: type[Any]) -> Any:
    data = request.context.data
    if not isinstance(data, kind):
        raise BackendError(
            f"scripted:demo: the market {request.context.round} call carries no {kind.__name__}"
        )
    return data


def _limit(request: DemoRequest, *path: str) -> int:
    """A string's maxLength in the schema the call sent (a profile may shorten it)."""
    node: Any = request.schema.json_schema if request.schema else {}
    for key in path:
        node = node.get(key, {}) if isinstance(node, dict) else {}
    limit = node.get("maxLength") if isinstance(node, dict) else None
    return int(limit) if isinstance(limit, int) else 10_000


def _cycle(items: list[Observation], start: int) -> Iterator[Observation]:
    for n in range(len(items)):
        yield items[(start + n) % len(items)]


def opening(request: DemoRequest) -> OpeningReply | SourcedOpeningReply:
    call: OpeningCall = _data(request, OpeningCall)
    reply = _kb_opening(request, call)
    return demo_sourced(reply, call.passages) if call.passages else reply


def _kb_opening(request: DemoRequest, call: OpeningCall) -> OpeningReply:
    lang = request.context.lang
    w = _words(lang)
    rng = request.rng()
    found = observations(call.kb_slice, lang)
    mine = _for_side(found, call.agent.stance)
    against = [o for o in found if o.lean == (-1 if call.agent.stance == "bull" else 1)]
    if not mine:
        raise BackendError(f"scripted:demo: analyst {call.agent.id} has no data to cite")
    bank = w.claims.get(call.agent.lens.name, w.claims["other"])[call.agent.stance]
    count = max(call.min_args, min(call.max_args, 3, len(mine)))
    claim_limit = _limit(request, "properties", "arguments", "items", "properties", "claim")
    evidence_limit = _limit(request, "properties", "arguments", "items", "properties", "evidence")
    point_limit = 200
    start = rng.randrange(len(mine))
    cited = list(_cycle(mine, start))
    arguments = []
    for n in range(count):
        facts = [cited[(n * 2) % len(cited)], cited[(n * 2 + 1) % len(cited)]]
        facts = list(dict.fromkeys(facts))
        evidence = w.join.join(o.text for o in facts) + " " + w.evidence_tail
        while len(evidence) > evidence_limit and len(facts) > 1:
            facts.pop()
            evidence = w.join.join(o.text for o in facts) + " " + w.evidence_tail
        counter = [shorten(w.counterpoint, point_limit)]
        if against:
            counter.append(shorten(against[(start + n) % len(against)].text, point_limit))
        arguments.append(
            ArgumentDraft(
                claim=shorten(bank[(start + n) % len(bank)], claim_limit),
                evidence=shorten(evidence, evidence_limit),
                confidence=rng.randint(55, 85),
                counterpoints=counter,
            )
        )
    return OpeningReply(arguments=arguments)


def _challenge_types(count: int, rng: random.Random) -> list[ChallengeType]:
    """At least half attacks (refute, question_evidence), the rest concede or partial."""
    attacks = -(-count // 2) + (1 if count > 2 and rng.random() < 0.5 else 0)
    kinds: list[ChallengeType] = [
        rng.choice(("refute", "question_evidence")) for _ in range(attacks)
    ]
    kinds += [rng.choice(("concede", "partial")) for _ in range(count - attacks)]
    rng.shuffle(kinds)
    assert all(k in CHALLENGE_TYPES for k in kinds)  # noqa: S101 - typed literals
    return kinds


def cross_examination(request: DemoRequest) -> CrossExamReply | SourcedCrossExamReply:
    call: CrossExamCall = _data(request, CrossExamCall)
    lang = request.context.lang
    w = _words(lang)
    rng = request.rng()
    mine = _for_side(observations(call.kb_slice, lang), call.agent.stance)
    kinds = _challenge_types(len(call.opposing), rng)
    items = []
    variants = rng.sample(range(3), 3)
    for n, (target, kind) in enumerate(zip(call.opposing, kinds, strict=True)):
        evidence = ""
        if kind in ATTACKS and mine:
            obs = mine[(n + rng.randrange(3)) % len(mine)]
            evidence = shorten(w.new_evidence.format(obs=obs.text), 300)
        template = w.reasoning[call.agent.stance][kind][variants[n % 3]]
        items.append(
            ChallengeItem(
                target_id=target.id,
                challenge_type=kind,
                reasoning=shorten(template.format(target=target.id, claim=target.claim), 400),
                new_evidence=evidence,
            )
        )
    reply = CrossExamReply(challenges=items)
    return demo_sourced_challenges(reply, call.passages) if call.passages else reply


def closing(request: DemoRequest) -> ClosingReply:
    call: ClosingCall = _data(request, ClosingCall)
    lang = request.context.lang
    w = _words(lang)
    rng = request.rng()
    attacked = {c.target_id for c in call.received if c.challenge_type in ATTACKS}
    refined = [
        shorten(w.refined.format(claim=a.claim), 200) for a in call.own if a.id not in attacked
    ] or [shorten(w.refined.format(claim=call.own[0].claim), 200)]
    conceded = [c for c in call.given if c.challenge_type == "concede"]
    concessions = [w.concession.format(target=c.target_id) for c in conceded][:3]
    low, high = call.stance_words
    sentences: list[str] = []
    bank = list(w.stance[call.agent.stance])
    opening_lines, rest = bank[:2], bank[2:]
    rng.shuffle(rest)
    values = {
        "side": _SIDES[lang][call.agent.stance],
        "lens": call.agent.lens.label[lang],
        "n": len(call.own),
        "claims": w.join.join(a.claim for a in call.own),
        "horizon": call.agent.lens.horizon.text(lang),
    }
    for template in [*opening_lines, *rest]:
        sentence = template.format(**values)
        if word_count(" ".join([*sentences, sentence])) > high:
            continue
        sentences.append(sentence)
        if word_count(" ".join(sentences)) >= low and len(sentences) >= 4:
            break
    changed: Any = "weakened" if attacked else rng.choice(("strengthened", "unchanged"))
    reply = ClosingReply(
        refined_claims=refined[:4],
        concessions=concessions,
        final_stance=sentences,
        conviction_change=changed,
    )
    return demo_sourced_closing(reply, call.passages) if call.passages else reply


def synthesis(request: DemoRequest) -> SynthesisReply:
    call: SynthesisCall = _data(request, SynthesisCall)
    lang = request.context.lang
    w = _words(lang)
    cases = {}
    for side in ("bull", "bear"):
        own = [a for a in call.arguments if a.side == side]
        best = _best(own, call)
        cases[side] = shorten(
            w.case.format(side=_SIDES[lang][side], n=len(own), claim=best.claim if best else "-"),
            500,
        )
    return SynthesisReply(
        bull_case=cases["bull"], bear_case=cases["bear"], judge_note=shorten(w.judge_note, 400)
    )


def _best(own: list[MarketArgument], call: SynthesisCall) -> MarketArgument | None:
    """The argument least attacked in cross-examination (the first of equals)."""
    if not own:
        return None
    attacks = {
        a.id: sum(c.challenge_type in ATTACKS for c in call.challenges if c.target_id == a.id)
        for a in own
    }
    return min(own, key=lambda a: attacks[a.id])


def baseline(request: DemoRequest) -> BaselineReply:
    call: BaselineCall = _data(request, BaselineCall)
    lang = request.context.lang
    w = _words(lang)
    found = observations(call.kb, lang)
    score = sum(o.lean for o in found)
    direction: Any = "up" if score > 0 else "down"
    strength = min(40, 5 * abs(score))
    probability = 50 + strength if direction == "up" else 50 - max(1, strength)
    leaning = [o for o in found if o.lean == (1 if direction == "up" else -1)] or found
    reasoning = w.baseline.format(obs=leaning[0].text, direction=_DIRECTIONS[lang][direction])
    return BaselineReply(
        direction=direction, probability_up=probability, reasoning=shorten(reasoning, 400)
    )


# ---- planting wrong numbers (test helper) ---------------------------------------------

_PLANTS: Final[dict[str, tuple[str, ...]]] = {
    # a labelled P/E, a labelled RSI, an unlabelled percentage; {v} is a wrong value
    "en": ("the P/E is {v}", "RSI(14) stands at {v}", "the index gained {v}% last quarter"),
    "zh": ("市盈率为{v}倍", "RSI(14)为{v}", "指数上季度上涨{v}%"),
}


def _plant(arg: ArgumentDraft, phrase: str, lang: str, kb_slice: KnowledgeBase,
           rng: random.Random) -> tuple[ArgumentDraft, str]:  # fmt: skip
    """``arg`` with ``phrase`` (a wrong number in it) put first in its evidence, and the
    planted number as the check reports it. The value has two decimals and is drawn
    again until the check really finds no support for it (not even a derived one)."""
    facts = fact_sheet(kb_slice).numbers
    while True:
        value = rng.randint(1100, 9700) / 100
        if value * 10 == int(value * 10) or any(
            agrees(value, 0.01, f.number, signed=False) for f in facts
        ):
            continue
        text = phrase.format(v=number(value))
        evidence = f"{text}{WORDS[lang].join}{arg.evidence}"
        if len(evidence) > 400:
            evidence = f"{text}{WORDS[lang].join}{WORDS[lang].evidence_tail}"
        planted = arg.model_copy(update={"evidence": evidence})
        checks = verify_numbers(f"{planted.claim}\n{planted.evidence}", kb_slice).checks
        hit = next((c for c in checks if c.text.startswith(number(value))), None)
        if hit is not None and hit.status == "unsupported":
            return planted, hit.text


def planted_opening(request: DemoRequest) -> tuple[OpeningReply, list[str]]:
    """The demo opening with a wrong number planted in every argument's evidence (a
    labelled P/E or RSI, or an unlabelled percentage, in turn), and the planted
    numbers as the evidence check reports them."""
    reply = _kb_opening(request, _data(request, OpeningCall))
    call: OpeningCall = _data(request, OpeningCall)
    lang = request.context.lang
    rng = random.Random(request.rng().random())  # noqa: S311 - a test fixture's choices
    planted: list[str] = []
    arguments = []
    for n, arg in enumerate(reply.arguments):
        phrase = _PLANTS[lang][n % len(_PLANTS[lang])]
        changed, text = _plant(arg, phrase, lang, call.kb_slice, rng)
        arguments.append(changed)
        planted.append(text)
    return OpeningReply(arguments=arguments), planted


# the shared demo judge's scores and standings, with reasons and a synthesis in the
# market's words
_JUDGE: Final[dict[str, dict[str, Any]]] = {
    "en": {
        "reasons": {
            "refute": "The cross-examination exposed a flaw in how it reads its figures,"
            " and it was not repaired.",
            "question_evidence": "Its evidence was questioned as too narrow, and one data"
            " point does not settle it.",
            "concede": "The opposing analyst conceded it, and its figures are in the data.",
            "partial": "Its core was accepted, but its reach over the horizon was disputed.",
            "none": "No challenge was found for this argument, so its standing is uncertain.",
        },
        "key_insight": "The scripted analysts argued {n} points from their own slices;"
        " {u} were upheld, and every cited figure was checked against the data.",
        "unresolved": (
            "Which of the lenses' horizons matters most for this question?",
            "Would a longer price history change the technical readings?",
            "How much weight should valuation carry over a one-month horizon?",
        ),
        "recommendation": "Read the argument trace and the evidence check rather than"
        " the totals: this is a scripted demo on synthetic data, not a forecast.",
    },
    "zh": {
        "reasons": {
            "refute": "质询揭示了它解读数据的缺陷，而这一缺陷没有得到修补。",
            "question_evidence": "它的证据被质疑过于单薄，一个数据点不足以定论。",
            "concede": "对方分析师承认了它，而且它引用的数据确实在知识库中。",
            "partial": "它的核心被接受，但其在时间维度上的适用范围受到质疑。",
            "none": "没有找到针对该论据的质询，因此其地位尚不确定。",
        },
        "key_insight": "脚本演示的分析师依据各自的数据切片提出了{n}条论据，其中{u}条成立，"
        "每个引用的数字都经过了与数据的核对。",
        "unresolved": (
            "对这个问题而言，哪个视角的时间维度最重要？",
            "更长的价格历史会改变技术面的读数吗？",
            "在一个月的时间维度内，估值应当占多大权重？",
        ),
        "recommendation": "请阅读论据追溯表和证据核查，而不只是总分：这是基于合成数据的"
        "脚本演示，不是预测。",
    },
}
_WORST: Final = ("refute", "question_evidence", "partial", "concede")


def judge(request: DemoRequest) -> BaseModel:
    """The shared demo judge, with the market's reasons and synthesis."""
    reply = judge_demo.judge(request)
    call = request.context.data
    if not isinstance(call, JudgeCall):
        raise BackendError("scripted:demo: the judge call carries no JudgeCall")
    words = _JUDGE.get(request.context.lang, _JUDGE["en"])
    data = reply.model_dump()
    responses = {u.id: set(u.responses.values()) for u in call.units}
    claims = {u.id: u.claim for u in call.units}
    for item in data["assessments"]:
        answers = responses.get(item["argument_id"], set())
        worst = next((r for r in _WORST if r in answers), "none")
        claim = claims.get(item["argument_id"], "")
        item["reason"] = judge_demo.about_claim(
            words["reasons"][worst], claim, request.context.lang
        )
    upheld = sum(item["standing"] == call.standings[0] for item in data["assessments"])
    data["key_insight"] = words["key_insight"].format(n=len(call.units), u=upheld)
    data["unresolved_questions"] = list(words["unresolved"])
    data["recommendation"] = words["recommendation"]
    return type(reply).model_validate(data)


WRITERS: Final[dict[str, Callable[[DemoRequest], BaseModel]]] = {
    "judgement": judge,
    "opening": opening,
    "cross_examination": cross_examination,
    "closing": closing,
    "synthesis": synthesis,
    "baseline": baseline,
}


def register() -> None:
    """Let ``scripted:demo`` play the market format (the judge is the shared one, its
    reasons and synthesis in the market's words: see :func:`judge`)."""
    for round_name, writer in WRITERS.items():
        register_demo_writer("market", round_name, writer)
