"""``scripted:demo`` for the structured format: deterministic, schema-valid,
rule-abiding, topic-aware openings, cross-examinations and closings, in English or
Simplified Chinese. Every figure is labelled as illustrative demo data.

Positions other than pro and con (``--sides``) argue with the pro phrasing, for their
own name in place of the motion.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from typing import Final

from pydantic import BaseModel

from moot.demo_text import QUOTE, Searcher, Weaver, clean, excerpt, fits, shorten
from moot.errors import BackendError
from moot.formats.structured.payload import RESPONSES
from moot.formats.structured.replies import (
    MAX_ARGUMENTS,
    MAX_CONCESSION,
    MIN_ARGUMENTS,
    ArgumentDraft,
    ClosingReply,
    CrossExamItem,
    CrossExamReply,
    OpeningReply,
    SourcedArgumentDraft,
    SourcedOpeningReply,
)
from moot.formats.structured.rounds import ArgumentCall, ClosingCall, CrossExamCall, OpeningCall
from moot.formats.structured.rules import (
    NEW_ARGUMENT_MARKER,
    Needing,
    argument_id_pattern,
    cross_reference_pattern,
)
from moot.judging import demo as judge_demo
from moot.judging.demo import JudgePhrases, register_judge_phrases
from moot.llm.scripted import DemoRequest, register_demo_writer
from moot.sources.citations import EvidenceDraft
from moot.sources.demo import demo_citation
from moot.sources.library import Passage
from moot.text import join_sentences, word_count, word_parts, words_of


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
    cross_again: Mapping[str, tuple[str, str]]
    """The same responses in other words, for a reply that gives one a second time (a
    side saying the same sentence twice is what the repetition detector flags)."""
    opener: Mapping[str, str]  # side -> sentence
    unrefuted: str  # {k} {n}
    conceded: str  # {k}
    body: tuple[str, ...]
    closer: str
    concession_item: str  # {c}
    generic_concession_item: str  # {id}
    changed: str  # {k}
    unchanged: str


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
        cross_again={
            "refute": (
                "{x} reports an outcome without linking the policy to it; a hypothetical"
                " sample shows a correlation at best.",
                "Which comparison group would rule out a coincidence?",
            ),
            "challenge": (
                "{x} leans on one invented sample of cases, which cannot settle a question"
                " this broad.",
                "Where could a reader check the number for themselves?",
            ),
            "concede": (
                "{x} is the most plausible reading of the mechanism on offer, so we accept it.",
                "Should the final weighing give this point full weight?",
            ),
            "partial": (
                "{x} survives in part: the sign of the effect, not its magnitude, which one"
                " small hypothetical sample cannot pin down.",
                "What range would you give for the effect in an ordinary year?",
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
        cross_again={
            "refute": (
                "{x}没有把政策与其报告的结果联系起来；一个假设样本至多显示相关性。",
                "哪一个对照组能够排除巧合？",
            ),
            "challenge": (
                "我们怀疑{x}：一个虚构的案例样本无法回答如此宽泛的问题。",
                "读者可以在哪里自行核对这个数字？",
            ),
            "concede": (
                "我们接受{x}；这是目前对其机制最合理的解读。",
                "最终权衡时，这一点应当得到完全的分量吗？",
            ),
            "partial": (
                "{x}有一部分站得住：影响的方向，而不是幅度，一个很小的假设样本无法确定幅度。",
                "在普通年份，你会给出怎样的效果区间？",
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
    ),
}


def _max_length(model: type[BaseModel], name: str) -> int:
    """The ``max_length`` a reply type sets on a string or list field (limits live
    there only)."""
    for constraint in model.model_fields[name].metadata:
        value = getattr(constraint, "max_length", None)
        if isinstance(value, int):
            return value
    return 10_000


class _Writer(Weaver):
    """The phrase bank of one language, with the motion (or, for a named position,
    the position) woven in."""

    def __init__(self, lang: str, topic: str, prefixes: tuple[str, ...]) -> None:
        self.p = PHRASES[lang]
        super().__init__(
            lang,
            topic,
            motion=self.p.motion,
            generic_motion=self.p.generic_motion,
            topic_max_chars=self.p.topic_max_chars,
            unsafe=_unsafe(prefixes),
        )

    def claim_ref(self, claim: str | None) -> str:
        if claim:
            quoted = QUOTE.split(excerpt(claim, tail=True))[-1].strip()
            ref = self.p.claim_ref.format(c=quoted)
            if len(quoted) >= 3 and fits(ref, self.lang) and self.safe(ref):
                return ref
        return self.p.generic_claim_ref


@cache
def _unsafe(prefixes: tuple[str, ...]) -> tuple[Searcher, ...]:
    """What a phrase must not hold in a debate with these id prefixes (the rule checks'
    patterns), made once: the same objects on every call let ``Weaver`` keep its
    motion."""
    return (
        cross_reference_pattern(prefixes),
        Needing(argument_id_pattern(prefixes), ("-",)),
        Needing(NEW_ARGUMENT_MARKER, (":", "：")),
    )


def _writer(request: DemoRequest, name: str | None = None) -> _Writer:
    context = request.context
    if context.lang not in PHRASES:
        raise BackendError(f"scripted:demo writes {', '.join(PHRASES)}, not {context.lang!r}")
    topic = context.topic if name is None else name
    return _Writer(context.lang, topic, _prefixes(request))


def _prefixes(request: DemoRequest) -> tuple[str, ...]:
    side = (request.context.side or "").upper()
    return ("PRO", "CON") if side in ("PRO", "CON") else ("PRO", "CON", *"ABCDEF")


def _phrasing(side: str) -> str:
    """Pro and con have their own phrasing; any named position argues like pro."""
    return side if side in ("pro", "con") else "pro"


def _data(request: DemoRequest, kind: type) -> object:
    data = request.context.data
    if not isinstance(data, kind):
        raise BackendError(
            f"scripted:demo: the {request.context.round} call carries no {kind.__name__}"
        )
    return data


def _fill_stance(
    head: list[str], body: list[str], closer: str, lang: str, target: int, max_items: int
) -> list[str]:
    """Pick ``head``, body sentences and ``closer`` for a final stance of about
    ``target`` words, never over 195 by ``word_count`` nor over ``max_items`` sentences.
    The body banks are long enough that it always reaches the rule's minimum of 100."""
    chosen: list[str] = []
    for sentence in body:
        if _stance_words([*head, *chosen, closer], lang) >= target:
            break
        candidate = [*head, *chosen, sentence, closer]
        if _stance_words(candidate, lang) <= 195 and len(candidate) <= max_items:
            chosen.append(sentence)
    return [*head, *chosen, closer]


def _stance_words(parts: list[str], lang: str) -> int:
    """``word_count`` of the sentences joined: in English, where a space joins them and
    no word crosses it, from each sentence's counts summed (each counted once);
    Chinese sentences are joined directly, where words may run together."""
    if lang == "zh":
        return word_count(join_sentences(parts, lang))
    counts = [_sentence_parts(p) for p in parts]
    return words_of((sum(c[0] for c in counts), sum(c[1] for c in counts)))


@lru_cache(maxsize=4096)
def _sentence_parts(sentence: str) -> tuple[int, int]:
    return word_parts(sentence)


def _sourced(drafts: list[ArgumentDraft], passages: tuple[Passage, ...]) -> SourcedOpeningReply:
    """The demo's arguments citing the passages it was given, in turn: every quote is
    copied from its passage, so each citation checks out."""
    limit = _max_length(EvidenceDraft, "quote")
    return SourcedOpeningReply(
        arguments=[
            SourcedArgumentDraft(
                claim=d.claim,
                reasoning=d.reasoning,
                evidence=[demo_citation(passages[n % len(passages)], limit)],
            )
            for n, d in enumerate(drafts)
        ]
    )


def _draft(w: _Writer, theme: _Theme, side: str, rng: random.Random) -> ArgumentDraft:
    claim = w.say(
        theme.pro if side == "pro" else theme.con, limit=_max_length(ArgumentDraft, "claim")
    )
    why = theme.pro_why if side == "pro" else theme.con_why
    reasoning = w.say(w.p.reasoning[side], why=why, limit=_max_length(ArgumentDraft, "reasoning"))
    evidence = w.p.evidence.format(
        n=rng.randint(40, 400), metric=theme.metric, p=rng.randint(3, 28), y=rng.randint(2, 6)
    )
    return ArgumentDraft(claim=claim, reasoning=reasoning, evidence=evidence)


def _argument(request: DemoRequest, data: ArgumentCall) -> ArgumentDraft:
    """One argument asked for on its own: the theme in the argument's place (a side's
    arguments take different themes, as its angles differ)."""
    named = data.position not in ("pro", "con")
    w = _writer(request, data.name if named else None)
    theme = w.p.themes[(data.number - 1 + len(data.said)) % len(w.p.themes)]
    rng = request.rng()
    for _ in range(data.number):  # each argument its own figures
        rng.random()
    return _draft(w, theme, _phrasing(data.position), rng)


def opening(request: DemoRequest) -> OpeningReply | SourcedOpeningReply | ArgumentDraft:
    if isinstance(request.context.data, ArgumentCall):
        return _argument(request, request.context.data)
    data = _data(request, OpeningCall)
    assert isinstance(data, OpeningCall)  # noqa: S101 (narrowing for the type checker)
    named = data.position not in ("pro", "con")
    w = _writer(request, data.name if named else None)
    rng = request.rng()
    side = _phrasing(data.position)
    low = max(MIN_ARGUMENTS, data.min_args)
    high = min(MAX_ARGUMENTS, data.max_args, len(w.p.themes))
    themes = rng.sample(w.p.themes, rng.randint(low, high))
    drafts = [_draft(w, theme, side, rng) for theme in themes]
    if data.passages:
        return _sourced(drafts, data.passages)
    return OpeningReply(arguments=drafts)


def cross_examination(request: DemoRequest) -> CrossExamReply:
    data = _data(request, CrossExamCall)
    assert isinstance(data, CrossExamCall)  # noqa: S101
    w = _writer(request)
    rng = request.rng()
    claims = {a.id: a.claim for a in data.opposing}
    order = rng.sample(RESPONSES, len(RESPONSES))
    items = []
    for n, target in enumerate(data.target_ids):
        response = order[n % len(order)]
        # a second pass over the responses says them in other words
        table = (w.p.cross, w.p.cross_again)[(n // len(order)) % 2]
        reasoning, follow_up = table[response]
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


def closing(request: DemoRequest) -> ClosingReply:
    data = _data(request, ClosingCall)
    assert isinstance(data, ClosingCall)  # noqa: S101
    w = _writer(request)
    rng = request.rng()
    side = _phrasing(data.position)
    refuted = {c.target_id for c in data.received if c.response == "refute"}
    # an argument stands unless another position refuted it in cross-examination
    unrefuted = [i for i in data.own_ids if i not in refuted]
    opposing = {a.id: a.claim for a in data.opposing}
    concessions = []
    for c in data.given:
        if c.response != "concede":
            continue
        claim = opposing.get(c.target_id)
        item = ""
        if claim:
            item = w.p.concession_item.format(c=shorten(clean(claim), MAX_CONCESSION - 60))
        if not 3 <= len(item) <= MAX_CONCESSION:
            item = w.p.generic_concession_item.format(id=c.target_id)
        concessions.append(item)
    concessions = concessions[: _max_length(ClosingReply, "concessions")]
    head = [
        w.say(w.p.opener[side]),
        w.p.unrefuted.format(k=len(unrefuted), n=len(data.own_ids)),
    ]
    if concessions:
        head.append(w.p.conceded.format(k=len(concessions)))
    body = [w.say(s) for s in rng.sample(w.p.body, len(w.p.body))]
    low, high = data.stance_words
    target = rng.randint(low + (high - low) // 5, high - (high - low) // 5)
    stance = _fill_stance(
        head, body, w.p.closer, w.lang, target, _max_length(ClosingReply, "final_stance")
    )
    reason = w.p.changed.format(k=len(concessions)) if concessions else w.p.unchanged
    return ClosingReply(
        concessions=concessions,
        unrefuted={i: i in unrefuted for i in data.own_ids},
        final_stance=stance,
        stance_changed=bool(concessions),
        stance_change_reason=reason,
    )


JUDGE_PHRASES: Final[dict[str, JudgePhrases]] = {
    # arguments answered in a cross-examination: refuted, challenged, conceded, partly
    # accepted, or not answered at all
    "en": replace(
        judge_demo.PHRASES["en"],
        reasons={
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
        recommendation="Treat this scripted demo as an illustration of the debate's structure"
        " only: before deciding on {m}, replace the illustrative figures with"
        " real data, starting with the arguments that were refuted or left"
        " uncertain.",
    ),
    "zh": replace(
        judge_demo.PHRASES["zh"],
        reasons={
            "refute": "质询中的反驳揭示了因果链中的缺口，而这一缺口没有得到修补。",
            "challenge": "其证据被质疑为示例性数据，而回应没有消除这一疑问。",
            "concede": "对方在质询中承认了这一点，因此该论据按原样成立。",
            "partial": "对方接受了其核心，但对影响幅度提出了合理的异议。",
            "none": "没有找到针对该论据的质询回应，因此其地位尚不确定。",
        },
        key_insight="关于{m}的辩论取决于证据质量：{n}个论据中有{u}个在质询后得到支持，"
        "而双方提供的所有数据都是示例性的，并非真实数据。",
        recommendation="请仅将本脚本演示视为辩论结构的示例：在就{m}作出决定之前，"
        "应当用真实数据替换示例数据，并优先核实被驳倒或尚不确定的论据。",
    ),
}
"""What the demo judge writes of a structured debate."""


def register() -> None:
    """Let ``scripted:demo`` play the structured format and judge it in its own words
    (arguments and their cross-examination)."""
    register_demo_writer("structured", "opening", opening)
    register_demo_writer("structured", "cross_examination", cross_examination)
    register_demo_writer("structured", "closing", closing)
    register_judge_phrases("structured", JUDGE_PHRASES)
