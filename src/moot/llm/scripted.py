"""Scripted backends: a programmable test double and a deterministic offline demo.

* :class:`ScriptedBackend` answers from a script: a sequence of replies consumed in
  order, or a function of the call. It records every call, so tests can assert on
  what moot sent. Like ``mockllm`` in inspect_ai or ``FunctionModel`` in pydantic-ai,
  it ships in the product so that users can test code built on moot.
* :class:`DemoBackend` (model spec ``scripted:demo``, optionally
  ``scripted:demo?latency_ms=200``) writes schema-valid, rule-abiding, topic-aware
  replies for every role and round of the structured format, in English or
  Simplified Chinese, from a seed. It reads the call's ``CallContext`` to know what
  to write. It is for offline demos, reproducible examples and benchmarks, and its
  text says that it is synthetic: every figure is labelled as illustrative.

Token usage reported by both is an *estimate*, not a tokenizer count: one token per
run of non-space characters outside CJK text plus one per CJK character (see
:func:`estimate_tokens`).
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import json
import random
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import parse_qsl

from pydantic import BaseModel

from moot.errors import BackendError, ConfigError
from moot.formats.replies import (
    MAX_ARGUMENTS,
    MIN_ARGUMENTS,
    ArgumentDraft,
    ClosingReply,
    CrossExamItem,
    CrossExamReply,
    OpeningReply,
)
from moot.formats.rules import ARGUMENT_ID, CROSS_REFERENCE, NEW_ARGUMENT_MARKER
from moot.judging.replies import Assessment, FallacyFlag, JudgeReply
from moot.llm.types import (
    CallContext,
    Completion,
    GenerationSettings,
    Message,
    OutputSpec,
    Usage,
)
from moot.schema import Argument, CrossExamination, FallacyType, ResponseType, Standing
from moot.text import cjk_share, join_sentences, word_count

__all__ = [
    "DemoBackend",
    "DemoCall",
    "ReplyFunction",
    "ScriptReply",
    "ScriptedBackend",
    "ScriptedCall",
    "estimate_tokens",
]

_CJK_RANGES = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(f"[{_CJK_RANGES}]|[^\\s{_CJK_RANGES}]+")


def estimate_tokens(text: str) -> int:
    """A deterministic token *estimate*: each CJK character counts one, and so does
    each run of other non-space characters (roughly one per English word)."""
    return len(_TOKEN.findall(text))


def _usage(messages: Sequence[Message], text: str) -> Usage:
    return Usage(
        prompt_tokens=sum(estimate_tokens(m.content) for m in messages),
        completion_tokens=estimate_tokens(text),
    )


# --------------------------------------------------------------------------------------
# ScriptedBackend: the programmable test double
# --------------------------------------------------------------------------------------

ScriptReply = str | BaseModel | Mapping[str, Any] | Completion
"""One scripted reply: text as is, a pydantic model or mapping serialised to JSON, or
a ``Completion`` returned unchanged (for full control, e.g. ``finish_reason="length"``)."""

ReplyFunction = Callable[
    [Sequence[Message], OutputSpec | None, GenerationSettings, CallContext | None],
    ScriptReply | Awaitable[ScriptReply],
]
"""A function of ``(messages, schema, settings, context)``, sync or async."""


@dataclass(frozen=True)
class ScriptedCall:
    """One call a :class:`ScriptedBackend` received."""

    messages: tuple[Message, ...]
    schema: OutputSpec | None
    settings: GenerationSettings
    context: CallContext | None


def _is_reply(value: object) -> bool:
    return isinstance(value, str | BaseModel | Mapping | Completion)


class ScriptedBackend:
    """A backend that answers from a script, for tests.

    ``script`` is either a sequence of replies, consumed one per call in order (a
    single reply is taken as a one-reply script), or a function
    ``(messages, schema, settings, context) -> reply`` that may be async. When the
    sequence runs out, the call raises ``BackendError``. Every call, including one
    that finds the script exhausted, is appended to :attr:`calls`.
    """

    def __init__(
        self,
        script: Iterable[ScriptReply] | ScriptReply | ReplyFunction,
        *,
        name: str = "scripted",
        latency_ms: float = 0.0,
    ) -> None:
        if latency_ms < 0:
            raise ConfigError(f"latency_ms must not be negative (got {latency_ms})")
        self._name = name
        self._latency = latency_ms / 1000
        self._function: ReplyFunction | None = None
        self._queue: list[ScriptReply] = []
        if _is_reply(script):
            self._queue = [script]  # type: ignore[list-item]
        elif callable(script):
            self._function = script
        else:
            self._queue = list(script)  # type: ignore[arg-type]
            for n, reply in enumerate(self._queue):
                if not _is_reply(reply):
                    raise ConfigError(
                        f"script item {n} is a {type(reply).__name__}; expected str,"
                        " pydantic model, mapping or Completion"
                    )
        self._used = 0
        self.calls: list[ScriptedCall] = []

    @property
    def spec(self) -> str:
        return self._name

    @property
    def remaining(self) -> int | None:
        """Replies left in a sequence script (``None`` for a function script)."""
        return None if self._function is not None else len(self._queue) - self._used

    def _completion(self, reply: ScriptReply, messages: Sequence[Message]) -> Completion:
        if isinstance(reply, Completion):
            return reply
        if isinstance(reply, BaseModel):
            text = reply.model_dump_json()
        elif isinstance(reply, str):
            text = reply
        elif isinstance(reply, Mapping):
            text = json.dumps(dict(reply), ensure_ascii=False)
        else:
            raise BackendError(
                f"scripted reply is a {type(reply).__name__}; expected str, pydantic model,"
                " mapping or Completion",
                spec=self.spec,
            )
        return Completion(
            text=text, finish_reason="stop", usage=_usage(messages, text), model=self.spec
        )

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        self.calls.append(ScriptedCall(tuple(messages), schema, settings, context))
        reply: ScriptReply
        if self._function is not None:
            result = self._function(messages, schema, settings, context)
            reply = await result if inspect.isawaitable(result) else result
        else:
            if self._used >= len(self._queue):
                what = f" ({context.role}, {context.round})" if context else ""
                raise BackendError(
                    f"script exhausted after {self._used} calls: no reply left for call"
                    f" {len(self.calls)}{what}",
                    spec=self.spec,
                )
            reply = self._queue[self._used]
            self._used += 1
        completion = self._completion(reply, messages)
        if self._latency:
            await asyncio.sleep(self._latency)
        return completion


# --------------------------------------------------------------------------------------
# DemoBackend: deterministic, topic-aware demo replies
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Theme:
    """One line of argument, as a pro claim and a con claim with their 'why'."""

    pro: str
    con: str
    pro_why: str
    con_why: str
    metric: str


@dataclass(frozen=True)
class _Phrases:
    """Everything the demo writes in one language. ``{m}`` is the motion."""

    motion: str  # with {topic}
    generic_motion: str
    topic_max_chars: int
    themes: tuple[_Theme, ...]
    reasoning: Mapping[str, str]  # side -> template with {why}
    evidence: str  # {n} {metric} {y} {p}
    claim_ref: str  # {c}: an excerpt of the target claim
    generic_claim_ref: str
    cross: Mapping[str, tuple[str, str]]  # response -> (reasoning with {x}, follow-up)
    opener: Mapping[str, str]  # side -> sentence
    unrefuted: str  # {k} {n}
    conceded: str  # {k}
    body: tuple[str, ...]
    closer: str
    concession_item: str  # {c}
    generic_concession_item: str  # {id}
    changed: str  # {k}
    unchanged: str
    judge_reason: Mapping[str, str]  # response (or "none") -> reason
    key_insight: str  # {u} {n}
    unresolved: tuple[str, ...]
    recommendation: str


PHRASES: Final[dict[str, _Phrases]] = {
    "en": _Phrases(
        motion='the motion "{topic}"',
        generic_motion="the motion",
        topic_max_chars=90,
        themes=(
            _Theme(
                "Adopting {m} would lower total costs for the people it affects within"
                " three years.",
                "Adopting {m} would raise total costs for the people it affects within"
                " three years.",
                "the largest recurring expenses fall once the change is in place",
                "transition and compliance costs arrive early and recur every year",
                "average annual cost per household",
            ),
            _Theme(
                "Under {m}, benefits would be spread more evenly than under the status quo.",
                "Under {m}, most of the burden would fall on the groups least able to carry it.",
                "the status quo favours those who already have the most options",
                "the people with the fewest alternatives cannot avoid the new costs",
                "gap between the top and bottom income quintiles",
            ),
            _Theme(
                "Organisations that have already tried {m} show measurable gains in their"
                " main outcome.",
                "Organisations that have already tried {m} show gains too small to"
                " justify the disruption.",
                "early adopters report better results once the first year of adjustment has passed",
                "the reported gains shrink once the self-selection of early adopters is"
                " taken into account",
                "main outcome indicator",
            ),
            _Theme(
                "Putting {m} into practice can rely on existing institutions rather than a"
                " new agency.",
                "Putting {m} into practice would demand administrative capacity that most"
                " implementers lack.",
                "the required processes already exist and only need new targets",
                "each new rule needs staff, monitoring and appeals that take years to build",
                "time to full implementation",
            ),
            _Theme(
                "The incentives created by {m} would favour long-term investment and innovation.",
                "The rules created by {m} would weaken long-term incentives by locking in"
                " one approach too early.",
                "clear rules make the returns on long-term investment easier to predict",
                "fixed rules reward compliance over experimentation",
                "share of budgets spent on new projects",
            ),
            _Theme(
                "The risks of {m} can be contained at low cost through a phased rollout.",
                "The risks of {m} become expensive to reverse once habits and contracts adjust.",
                "problems show up in the first phase before they can spread",
                "contracts, habits and infrastructure adapt to the new rules and resist"
                " later change",
                "cost of reversing the change",
            ),
        ),
        reasoning={
            "pro": "This holds because {why}, which leads to gains that grow over time instead"
            " of fading after the first year.",
            "con": "This holds because {why}, which leads to costs that outlast any early gains.",
        },
        evidence="Illustrative figure (scripted demo, not real data): in a hypothetical sample"
        " of {n} cases, the {metric} moved {p}% in the predicted direction within"
        " {y} years.",
        claim_ref='The claim "...{c}"',
        generic_claim_ref="This claim",
        cross={
            "refute": (
                "{x} does not follow, because the causal chain skips the step where the"
                " change actually alters behaviour, and an illustrative figure cannot"
                " fill that gap.",
                "What evidence would show that the effect comes from {m} rather than"
                " from other changes?",
            ),
            "challenge": (
                "{x} rests on an illustrative figure from a hypothetical sample, so"
                " the evidence is too thin to carry a firm conclusion.",
                "Which real data source, with dates and sample size, would you cite instead?",
            ),
            "concede": (
                "{x} holds as stated, because the mechanism is plausible and we have"
                " no better figure to set against it.",
                "Does accepting this point change how large the overall effect would be?",
            ),
            "partial": (
                "{x} is right about the direction of the effect but overstates its"
                " size, because the figure comes from a single hypothetical sample.",
                "How large do you expect the effect to be outside the most favourable cases?",
            ),
        },
        opener={"pro": "We remain in favour of {m}.", "con": "We remain opposed to {m}."},
        unrefuted="{k} of our {n} opening arguments were not refuted in cross-examination.",
        conceded="We conceded {k} point(s) where the other side made the stronger case, and"
        " our position is narrower as a result.",
        body=(
            "The strongest part of our case is its causal chain, because each step can be"
            " checked against real data once it is collected.",
            "The other side raised fair questions about evidence, but doubts about the size"
            " of an effect are not proof that it is absent.",
            "A careful decision on this motion should weigh costs and benefits over several"
            " years, not only the first months.",
            "Each of our arguments stands on its own, so the case does not collapse if one of"
            " them is weakened.",
            "Where the two sides disagree, the disagreement is mostly about magnitude, which"
            " better measurement can settle.",
            "We tried to answer every challenge directly rather than change the subject.",
            "The burden of proof should fall on whoever claims the status quo is free of"
            " cost, and neither side has shown that.",
            "Decision makers should test the competing claims in a small pilot and revisit"
            " the question with real numbers.",
            "Nothing said in cross-examination showed that our main mechanism is impossible,"
            " only that it needs better evidence.",
        ),
        closer="All figures in this debate are illustrative demo data, not real measurements,"
        " so they show the shape of the argument rather than its truth.",
        concession_item="We accept this point from the other side: {c}.",
        generic_concession_item="We accept {id} as argued.",
        changed="We conceded {k} point(s) in cross-examination, so our stance is now qualified.",
        unchanged="No opposing argument forced a concession, so our stance is unchanged.",
        judge_reason={
            "refute": "The rebuttal in cross-examination exposed a gap in the causal chain"
            " that was not repaired.",
            "challenge": "Its evidence was challenged as illustrative, and the reply did not"
            " settle the doubt.",
            "concede": "The other side conceded this point in cross-examination, so it stands"
            " as argued.",
            "partial": "The other side accepted its core but raised a fair dispute about the"
            " size of the effect.",
            "none": "No cross-examination answer was found for this argument, so its standing"
            " is uncertain.",
        },
        key_insight="The debate on {m} turned on evidence quality: {u} of {n} arguments were"
        " upheld after cross-examination, and every figure offered was"
        " illustrative rather than real.",
        unresolved=(
            "What would real, dated data show about the size of the effects claimed here?",
            "Who bears the transition costs of {m}, and for how long?",
            "Would a phased pilot change either side's conclusions?",
            "Which effects of {m} could be reversed if the results disappoint?",
        ),
        recommendation="Treat this scripted demo as an illustration of the debate's structure"
        " only: before deciding on {m}, replace the illustrative figures with"
        " real data, starting with the arguments that were refuted or left"
        " uncertain.",
    ),
    "zh": _Phrases(
        motion="“{topic}”这一动议",
        generic_motion="该动议",
        topic_max_chars=40,
        themes=(
            _Theme(
                "采纳{m}将在三年内降低受影响群体的总体成本。",
                "采纳{m}将在三年内提高受影响群体的总体成本。",
                "变化落实后最大的经常性开支会随之下降",
                "转型和合规成本会提前出现并且每年重复发生",
                "每户年均成本",
            ),
            _Theme(
                "在{m}之下，收益的分配将比现状更加均衡。",
                "在{m}之下，主要负担将落在最无力承担的群体身上。",
                "现状偏向本来就拥有更多选择的人",
                "选择最少的人无法回避新增的成本",
                "最高与最低收入五分位之间的差距",
            ),
            _Theme(
                "已经尝试{m}的机构在主要指标上取得了可衡量的进步。",
                "已经尝试{m}的机构所获得的进步太小，不足以抵消其带来的扰动。",
                "早期采用者在第一年的调整期过后报告了更好的结果",
                "剔除早期采用者的自选择效应后，报告的收益明显缩小",
                "主要结果指标",
            ),
            _Theme(
                "落实{m}可以依靠现有机构，而无需设立新的部门。",
                "落实{m}需要大多数执行方并不具备的管理能力。",
                "所需的流程已经存在，只需要设定新的目标",
                "每条新规则都需要人员、监督和申诉机制，而这些需要数年才能建立",
                "全面实施所需的时间",
            ),
            _Theme(
                "{m}所形成的激励将有利于长期投资和创新。",
                "{m}所确立的规则会过早锁定单一方案，从而削弱长期激励。",
                "清晰的规则使长期投资的回报更容易预测",
                "固定的规则奖励合规而不是探索",
                "预算中用于新项目的比例",
            ),
            _Theme(
                "{m}的风险可以通过分阶段推行以较低成本加以控制。",
                "{m}的风险在合同和习惯随之调整后就很难逆转。",
                "问题会在第一阶段暴露，而不会迅速扩散",
                "合同、习惯和基础设施会随新规则调整，并抗拒日后的改变",
                "撤销这一变化的成本",
            ),
        ),
        reasoning={
            "pro": "这是因为{why}，从而使收益随时间累积，而不是在第一年后消退。",
            "con": "这是因为{why}，从而导致其成本比任何早期收益都更持久。",
        },
        evidence="示例数据（脚本演示，非真实数据）：在一个包含{n}个案例的假设样本中，"
        "{metric}在{y}年内朝预测的方向变化了{p}%。",
        claim_ref="“……{c}”这一论断",
        generic_claim_ref="该论断",
        cross={
            "refute": (
                "{x}并不成立，因为其因果链跳过了这一变化实际改变行为的环节，"
                "而示例数据无法弥补这一缺口。",
                "有什么证据能表明这一效果来自{m}，而不是其他变化？",
            ),
            "challenge": (
                "{x}依赖于假设样本中的示例数据，因此证据过于薄弱，不足以得出确定结论。",
                "你会引用哪一个注明日期和样本量的真实数据来源来代替它？",
            ),
            "concede": (
                "{x}按其表述可以成立，因为其机制是合理的，而我们也没有更好的数据与之对照。",
                "接受这一点会改变整体效果的大小吗？",
            ),
            "partial": (
                "{x}对影响方向的判断是对的，但夸大了影响的幅度，因为其数据只来自一个假设样本。",
                "在最有利的情形之外，你预计这一效果有多大？",
            ),
        },
        opener={"pro": "我方仍然支持{m}。", "con": "我方仍然反对{m}。"},
        unrefuted="我方的{n}个开场论据中有{k}个在交叉质询中未被驳倒。",
        conceded="我方承认了{k}个对方更有说服力的观点，因此立场有所收窄。",
        body=(
            "我方论证最有力的部分是因果链，因为每一个环节都可以在收集到真实数据后加以检验。",
            "对方对证据提出了合理的质疑，但质疑效果的大小并不能证明效果不存在。",
            "对这一动议作出审慎决定，应当权衡多年的成本与收益，而不仅仅是最初几个月。",
            "我方的每个论据都独立成立，因此即使其中一个被削弱，整体论证也不会崩溃。",
            "双方的分歧主要在于影响的幅度，而更好的测量可以解决这一分歧。",
            "我方尽量直接回应每一个质疑，而不是转移话题。",
            "举证责任应当由声称现状没有代价的一方承担，而双方都没有证明这一点。",
            "决策者应当先用小规模试点检验双方的说法，再用真实数据重新审视这个问题。",
            "质询中没有任何内容表明我方的核心机制不可能成立，只表明它需要更好的证据。",
        ),
        closer="本场辩论中的所有数据都是示例性的演示数据，并非真实测量，只能展示论证的结构，"
        "而不能证明其真假。",
        concession_item="我方接受对方的这一观点：{c}。",
        generic_concession_item="我方接受{id}的论证。",
        changed="我方在交叉质询中承认了{k}个观点，因此立场现在有所保留。",
        unchanged="对方的论据没有迫使我方作出让步，因此立场保持不变。",
        judge_reason={
            "refute": "质询中的反驳揭示了因果链中的缺口，而这一缺口没有得到修补。",
            "challenge": "其证据被质疑为示例性数据，而回应没有消除这一疑问。",
            "concede": "对方在质询中承认了这一点，因此该论据按原样成立。",
            "partial": "对方接受了其核心，但对影响幅度提出了合理的异议。",
            "none": "没有找到针对该论据的质询回应，因此其地位尚不确定。",
        },
        key_insight="关于{m}的辩论取决于证据质量：{n}个论据中有{u}个在质询后得到支持，"
        "而双方提供的所有数据都是示例性的，并非真实数据。",
        unresolved=(
            "真实且注明日期的数据会如何显示这些效果的大小？",
            "{m}的转型成本由谁承担，持续多久？",
            "分阶段试点会改变任何一方的结论吗？",
            "如果结果令人失望，{m}的哪些影响可以逆转？",
        ),
        recommendation="请仅将本脚本演示视为辩论结构的示例：在就{m}作出决定之前，"
        "应当用真实数据替换示例数据，并优先核实被驳倒或尚不确定的论据。",
    ),
}

RESPONSES: Final[tuple[ResponseType, ...]] = ("refute", "challenge", "concede", "partial")
FALLACY_TYPES: Final[tuple[FallacyType, ...]] = (
    "slippery_slope",
    "appeal_to_authority",
    "anecdotal_evidence",
    "false_dilemma",
    "circular_reasoning",
)
# Base scores (logic, evidence, responsiveness, honesty) by standing; jittered per argument.
_BASE_SCORES: Final[dict[str, tuple[int, int, int, int]]] = {
    "UPHELD": (8, 6, 8, 8),
    "PARTIALLY_UPHELD": (7, 5, 6, 7),
    "UNCERTAIN": (5, 4, 5, 6),
    "REFUTED": (4, 3, 4, 5),
}
_CHALLENGED: Final[tuple[Standing, ...]] = ("UNCERTAIN", "PARTIALLY_UPHELD")
_RESPONSE_WORDS: Final[dict[str, ResponseType]] = {
    **{r: r for r in RESPONSES},
    "反驳": "refute",
    "质疑": "challenge",
    "承认": "concede",
    "让步": "concede",
    "部分": "partial",
}
_SENTENCE_BREAK = re.compile(r"[.!?]+(?=\s)|[。！？]+")
_TRAILING = re.compile(r"[\s.!?。！？,，;；:：]+$")
_CJK_CHAR = re.compile(f"[{_CJK_RANGES}]")
_QUOTE = re.compile(r"[\"“”]")


def _fits(text: str, lang: str) -> bool:
    """True when ``text`` passes the rule checks' language test for ``lang``."""
    share = cjk_share(text)
    return share > 0.3 if lang == "zh" else share < 0.3


def _clean(text: str) -> str:
    """Text safe to weave into another sentence: no sentence breaks, no end punctuation."""
    text = " ".join(text.split())
    text = _SENTENCE_BREAK.sub(lambda m: "" if m.group().isascii() else "，", text)
    return _TRAILING.sub("", text)


def _safe(text: str) -> bool:
    """True when ``text`` trips none of the rule checks' reference patterns."""
    return not any(p.search(text) for p in (CROSS_REFERENCE, ARGUMENT_ID, NEW_ARGUMENT_MARKER))


def _shorten(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit]
    if " " in cut and not _CJK_CHAR.search(cut[-1]):
        cut = cut[: cut.rfind(" ")]
    return _TRAILING.sub("", cut)


def _excerpt(claim: str, rng: random.Random | None = None, *, tail: bool = False) -> str:
    """A verbatim run of a claim: a few words (English) or characters (Chinese), from a
    random position when ``rng`` is given, else from the end (``tail``) or the start."""
    body = _TRAILING.sub("", claim.strip())
    chinese = cjk_share(body) > 0.3
    units = list(body) if chinese else body.split()
    size = min(len(units), 14 if chinese else 8)
    last = len(units) - size
    start = rng.randint(0, last) if rng else (last if tail else 0)
    run = ("" if chinese else " ").join(units[start : start + size])
    return _TRAILING.sub("", run).lstrip(" ,，、;；:：")[:120]


def _seed_for(seed: int, *parts: object) -> int:
    key = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")


@dataclass(frozen=True)
class DemoCall:
    """One call a :class:`DemoBackend` answered, with ``time.perf_counter`` stamps."""

    context: CallContext
    started: float
    finished: float


class _Writer:
    """Fills one language's phrase templates with the motion woven in.

    If the topic would break a rule (wrong language for the field, an argument id,
    a cross-reference), the generic "the motion" is used instead.
    """

    def __init__(self, lang: str, topic: str) -> None:
        self.lang = lang
        self.p = PHRASES[lang]
        ref = _shorten(_clean(topic), self.p.topic_max_chars)
        usable = len(ref) >= 2 and _safe(ref)
        self.motion = self.p.motion.format(topic=ref) if usable else self.p.generic_motion

    def say(self, template: str, *, limit: int = 300, **values: object) -> str:
        """``template`` with the motion filled in, or with the generic motion when the
        topic would break the language or reference rules or make it over ``limit``."""
        text = template.format(m=self.motion, **values)
        if _fits(text, self.lang) and _safe(text) and len(text) <= limit:
            return text
        return template.format(m=self.p.generic_motion, **values)

    def claim_ref(self, claim: str | None) -> str:
        if claim:
            excerpt = _QUOTE.split(_excerpt(claim, tail=True))[-1].strip()
            ref = self.p.claim_ref.format(c=excerpt)
            if len(excerpt) >= 3 and _fits(ref, self.lang) and _safe(ref):
                return ref
        return self.p.generic_claim_ref


def _max_length(model: type[BaseModel], name: str) -> int:
    """The ``max_length`` a reply type sets on a string field (limits live there only)."""
    for constraint in model.model_fields[name].metadata:
        value = getattr(constraint, "max_length", None)
        if isinstance(value, int):
            return value
    return 10_000


def _arguments_from(extra: Mapping[str, Any], key: str) -> list[Argument]:
    return [a for a in extra.get(key, ()) if isinstance(a, Argument)]


def _cross_from(extra: Mapping[str, Any], key: str) -> list[CrossExamination]:
    return [c for c in extra.get(key, ()) if isinstance(c, CrossExamination)]


def _fill_stance(
    head: list[str], body: list[str], closer: str, lang: str, target: int, max_items: int
) -> list[str]:
    """Pick ``head``, body sentences and ``closer`` for a final stance of about
    ``target`` words, never over 195 by ``word_count`` nor over ``max_items`` sentences.
    The body banks are long enough that it always reaches the rule's minimum of 100."""
    chosen: list[str] = []
    for sentence in body:
        if word_count(join_sentences([*head, *chosen, closer], lang)) >= target:
            break
        candidate = [*head, *chosen, sentence, closer]
        if word_count(join_sentences(candidate, lang)) <= 195 and len(candidate) <= max_items:
            chosen.append(sentence)
    return [*head, *chosen, closer]


class DemoBackend:
    """``scripted:demo``: deterministic, schema-valid demo replies for every round.

    Choices come from ``random.Random`` seeded by a SHA-256 of (seed, role, round,
    side), so the same seed and context always give the same reply, whatever the
    order of calls. The seed is the one given here, else the call's settings seed,
    else 0. ``latency_ms`` adds an ``asyncio.sleep`` to each call (concurrent calls
    overlap), for benchmarks; :attr:`calls` records each call's start and end.
    """

    def __init__(
        self, seed: int | None = None, *, latency_ms: float = 0.0, timeout: float | None = None
    ) -> None:
        if latency_ms < 0:
            raise ConfigError(f"latency_ms must not be negative (got {latency_ms})")
        self.seed = seed
        self.latency_ms = latency_ms
        self.timeout = timeout
        """Seconds a call may take: a ``latency_ms`` above it fails as a timeout."""
        self.calls: list[DemoCall] = []

    @classmethod
    def from_spec(
        cls, rest: str, *, seed: int | None = None, timeout: float | None = None
    ) -> DemoBackend:
        """Build from the part of a spec after ``scripted:``, e.g. ``demo?latency_ms=200``."""
        name, sep, query = rest.partition("?")
        if name != "demo":
            raise ConfigError(
                f"unknown scripted model {name!r} in 'scripted:{rest}'; known: demo"
                " (e.g. scripted:demo or scripted:demo?latency_ms=200)"
            )
        latency = 0.0
        if sep:
            try:
                params = parse_qsl(query, keep_blank_values=True, strict_parsing=True)
            except ValueError as exc:
                raise ConfigError(f"bad query {query!r} in 'scripted:{rest}'") from exc
            seen: set[str] = set()
            for key, value in params:
                if key != "latency_ms":
                    raise ConfigError(
                        f"unknown parameter {key!r} in 'scripted:{rest}'; known: latency_ms"
                    )
                if key in seen:
                    raise ConfigError(f"parameter {key!r} given twice in 'scripted:{rest}'")
                seen.add(key)
                try:
                    latency = float(value)
                except ValueError:
                    latency = -1.0
                if not 0 <= latency < float("inf"):
                    raise ConfigError(
                        f"latency_ms must be a non-negative number of milliseconds (got {value!r})"
                    )
        return cls(seed, latency_ms=latency, timeout=timeout)

    @property
    def spec(self) -> str:
        if not self.latency_ms:
            return "scripted:demo"
        value = self.latency_ms
        shown = str(int(value)) if value == int(value) else str(value)
        return f"scripted:demo?latency_ms={shown}"

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        started = time.perf_counter()
        if context is None:
            raise BackendError(
                "scripted:demo needs the call's CallContext to know what to write", spec=self.spec
            )
        seed = self.seed if self.seed is not None else (settings.seed or 0)
        text = self.reply(context, messages, seed=seed).model_dump_json()
        if self.latency_ms:
            delay = self.latency_ms / 1000
            if self.timeout is not None and delay > self.timeout:
                await asyncio.sleep(self.timeout)
                raise BackendError(
                    f"timed out: {self.spec} takes {delay:g} s per call, more than the"
                    f" {self.timeout:g} s timeout",
                    spec=self.spec,
                )
            await asyncio.sleep(delay)
        self.calls.append(DemoCall(context, started, time.perf_counter()))
        return Completion(
            text=text, finish_reason="stop", usage=_usage(messages, text), model=self.spec
        )

    def reply(
        self, context: CallContext, messages: Sequence[Message] = (), *, seed: int = 0
    ) -> BaseModel:
        """The validated reply for one call (what :meth:`generate` serialises)."""
        if context.lang not in PHRASES:
            raise BackendError(
                f"scripted:demo writes {', '.join(PHRASES)}, not {context.lang!r}", spec=self.spec
            )
        # not for security: a reproducible stream of demo choices
        rng = random.Random(_seed_for(seed, context.role, context.round, context.side))  # noqa: S311
        writer = _Writer(context.lang, context.topic)
        if context.round == "judgement":
            return self._judge(context, messages, rng, writer)
        if context.round == "classification":
            from moot.judging.topic import TopicTypeReply, classify_by_keywords

            kind = classify_by_keywords(context.topic)
            reason = (
                "脚本演示：按关键词分类。"
                if context.lang == "zh"
                else "Scripted demo: keyword rule."
            )
            return TopicTypeReply(topic_type=kind, reason=reason)
        side = context.side or context.role
        if side not in ("pro", "con"):
            raise BackendError(
                f"scripted:demo: no side for {context.role!r} in {context.round!r}", spec=self.spec
            )
        if context.round == "opening":
            return self._opening(side, rng, writer)
        if context.round == "cross_examination":
            return self._cross(context, rng, writer)
        if context.round == "closing":
            return self._closing(context, side, rng, writer)
        raise BackendError(
            f"scripted:demo does not know the round {context.round!r}", spec=self.spec
        )

    # ---- rounds -------------------------------------------------------------------

    @staticmethod
    def _opening(side: str, rng: random.Random, w: _Writer) -> OpeningReply:
        count = rng.randint(MIN_ARGUMENTS, MAX_ARGUMENTS)
        themes = rng.sample(w.p.themes, count)
        drafts = []
        for theme in themes:
            claim = w.say(
                theme.pro if side == "pro" else theme.con, limit=_max_length(ArgumentDraft, "claim")
            )
            why = theme.pro_why if side == "pro" else theme.con_why
            reasoning = w.say(
                w.p.reasoning[side], why=why, limit=_max_length(ArgumentDraft, "reasoning")
            )
            evidence = w.p.evidence.format(
                n=rng.randint(40, 400),
                metric=theme.metric,
                p=rng.randint(3, 28),
                y=rng.randint(2, 6),
            )
            drafts.append(ArgumentDraft(claim=claim, reasoning=reasoning, evidence=evidence))
        return OpeningReply(arguments=drafts)

    @staticmethod
    def _cross(context: CallContext, rng: random.Random, w: _Writer) -> CrossExamReply:
        target_ids = [str(t) for t in context.extra.get("target_ids", ())]
        if not target_ids:
            raise BackendError(
                "scripted:demo: cross-examination context has no target_ids", spec="scripted:demo"
            )
        claims = {a.id: a.claim for a in _arguments_from(context.extra, "opposing")}
        order = rng.sample(RESPONSES, len(RESPONSES))
        items = []
        for n, target in enumerate(target_ids):
            response = order[n % len(order)]
            reasoning, follow_up = w.p.cross[response]
            items.append(
                CrossExamItem(
                    target_id=target,
                    response=response,
                    reasoning=w.say(
                        reasoning,
                        x=w.claim_ref(claims.get(target)),
                        limit=_max_length(CrossExamItem, "reasoning"),
                    ),
                    follow_up=w.say(follow_up, limit=_max_length(CrossExamItem, "follow_up")),
                )
            )
        return CrossExamReply(responses=items)

    @staticmethod
    def _closing(context: CallContext, side: str, rng: random.Random, w: _Writer) -> ClosingReply:
        extra = context.extra
        own = _arguments_from(extra, "own")
        own_ids = [str(i) for i in extra.get("own_ids", ())] or [a.id for a in own]
        received = {c.target_id: c.response for c in _cross_from(extra, "received")}
        # An argument stands unless the other side refuted it in cross-examination.
        unrefuted = [i for i in own_ids if received.get(i) != "refute"]
        opposing = {a.id: a.claim for a in _arguments_from(extra, "opposing")}
        conceded = [c.target_id for c in _cross_from(extra, "given") if c.response == "concede"]
        concessions = []
        for ident in conceded:
            claim = opposing.get(ident)
            item = ""
            if claim:
                item = w.p.concession_item.format(c=_shorten(_clean(claim), 240))
            if not 3 <= len(item) <= 300:
                item = w.p.generic_concession_item.format(id=ident)
            concessions.append(item)

        head = [w.say(w.p.opener[side]), w.p.unrefuted.format(k=len(unrefuted), n=len(own_ids))]
        if concessions:
            head.append(w.p.conceded.format(k=len(concessions)))
        body = [w.say(s) for s in rng.sample(w.p.body, len(w.p.body))]
        stance = _fill_stance(
            head,
            body,
            w.p.closer,
            w.lang,
            rng.randint(120, 170),
            _max_length(ClosingReply, "final_stance"),
        )
        reason = w.p.changed.format(k=len(concessions)) if concessions else w.p.unchanged
        return ClosingReply(
            concessions=concessions,
            unrefuted=unrefuted,
            final_stance=stance,
            stance_changed=bool(concessions),
            stance_change_reason=reason,
        )

    @staticmethod
    def _judge(
        context: CallContext, messages: Sequence[Message], rng: random.Random, w: _Writer
    ) -> JudgeReply:
        ids = [str(i) for i in context.extra.get("argument_ids", ())]
        if not ids:
            raise BackendError(
                "scripted:demo: judge context has no argument_ids", spec="scripted:demo"
            )
        claims, responses = _read_debate(context.extra, messages, ids)
        assessments = []
        rows: set[tuple[int, int, int, int]] = set()
        upheld = 0
        for n, ident in enumerate(ids):
            response = responses.get(ident)
            standing: Standing
            if response == "refute":
                standing = "REFUTED"
            elif response == "concede":
                standing = "UPHELD"
            elif response == "partial":
                standing = "PARTIALLY_UPHELD"
            elif response == "challenge":
                standing = rng.choice(_CHALLENGED)
            else:
                standing = "UNCERTAIN"
            upheld += standing == "UPHELD"
            scores = [
                max(1, min(10, s + rng.choice((-1, 0, 0, 1)))) for s in _BASE_SCORES[standing]
            ]
            if n == len(ids) - 1 and n > 0 and rows == {tuple(scores)}:
                # never identical scores everywhere (a judge-bias signal)
                scores[1] = scores[1] + 1 if scores[1] < 10 else scores[1] - 1
            rows.add((scores[0], scores[1], scores[2], scores[3]))
            assessments.append(
                Assessment(
                    argument_id=ident,
                    reason=w.p.judge_reason[response or "none"],
                    standing=standing,
                    logic=scores[0],
                    evidence=scores[1],
                    responsiveness=scores[2],
                    honesty=scores[3],
                )
            )
        quotable = [i for i in ids if i in claims]
        fallacies = [
            FallacyFlag(
                argument_id=ident,
                type=rng.choice(FALLACY_TYPES),
                quote=_excerpt(claims[ident], rng),
            )
            for ident in rng.sample(quotable, min(len(quotable), rng.randint(0, 2)))
        ]
        fallacies = [f for f in fallacies if len(f.quote) >= 3]
        questions = rng.sample(w.p.unresolved, rng.randint(2, 3))
        return JudgeReply(
            assessments=assessments,
            fallacies=fallacies,
            key_insight=w.say(
                w.p.key_insight, u=upheld, n=len(ids), limit=_max_length(JudgeReply, "key_insight")
            ),
            unresolved_questions=[w.say(q) for q in questions],
            recommendation=w.say(
                w.p.recommendation, limit=_max_length(JudgeReply, "recommendation")
            ),
        )


def _read_debate(
    extra: Mapping[str, Any], messages: Sequence[Message], ids: Sequence[str]
) -> tuple[dict[str, str], dict[str, ResponseType]]:
    """Claims and cross-examination responses per argument id for the judge.

    Taken from ``extra["arguments"]`` / ``extra["cross"]`` when the caller supplies
    them, otherwise read from the judge prompt's lines ``ID (SIDE): claim`` and
    ``... ID: response - ...`` (English or Chinese template).
    """
    claims = {a.id: a.claim for a in _arguments_from(extra, "arguments")}
    responses: dict[str, ResponseType] = {
        c.target_id: c.response for c in _cross_from(extra, "cross")
    }
    prompt = "\n".join(m.content for m in messages if m.role == "user")
    words = "|".join(_RESPONSE_WORDS)
    for ident in ids:
        key = rf"(?<![\w-]){re.escape(ident)}(?![\w-])"
        if ident not in claims:
            found = re.search(
                rf"^\s*{key}\s*[(（][^)）\n]*[)）]\s*[:：]\s*(.+?)\s*$", prompt, re.MULTILINE
            )
            if found:
                claims[ident] = found.group(1)
        if ident not in responses:
            said = re.search(rf"{key}\s*[:：]\s*({words})", prompt)
            if said:
                responses[ident] = _RESPONSE_WORDS[said.group(1)]
    return claims, responses
