"""``scripted:demo`` for the free-form format: deterministic speeches, in English or
Simplified Chinese, that make a different point each round, answer the previous
round's speeches by id, and name the motion. Pro and con never speak each other's
sentences, so the detectors have nothing to flag on a clean two-sided demo of up to
four rounds; named positions share one bank of five points, so with three or more a
speech takes up another position's earlier point (no flag: the opponents' words alone
are not stance drift), and from the sixth round a position comes back to its own first
point and the repetition re-ask shows. Every figure is labelled as illustrative demo
data."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from moot.demo_text import Weaver
from moot.errors import BackendError
from moot.formats.freeform import MAX_ROUNDS
from moot.formats.freeform.replies import SourcedSpeechReply, SpeechReply
from moot.formats.freeform.rounds import SpeechCall
from moot.judging import demo as judge_demo
from moot.judging.demo import JudgePhrases, register_judge_phrases
from moot.llm.scripted import DemoRequest, register_demo_writer
from moot.sources.citations import QUOTE_CHARS
from moot.sources.demo import demo_citation


@dataclass(frozen=True)
class _Phrases:
    motion: str
    generic_motion: str
    topic_max_chars: int
    claims: dict[str, tuple[str, ...]]  # "pro" | "con" | "named" -> one point per round
    evidence: tuple[str, ...]  # {n} {p}; one per round, in turn
    answer: tuple[str, ...]  # {ids}
    close: tuple[str, ...]


PHRASES: Final[dict[str, _Phrases]] = {
    "en": _Phrases(
        motion='the motion "{topic}"',
        generic_motion="the motion",
        topic_max_chars=90,
        claims={
            "pro": (
                "We support {m} because it lowers the total cost for the people it affects.",
                "On {m}, the early evidence from pilots points to gains that grow over time.",
                "Adopting {m} spreads its benefits more evenly than the status quo does.",
                "The risks of {m} can be contained cheaply with a phased rollout.",
                "Existing institutions can carry {m} without building a new agency.",
            ),
            "con": (
                "We oppose {m} because its transition costs arrive early and keep recurring.",
                "On {m}, pilot gains shrink once early adopters' self-selection is counted.",
                "Under {m}, the heaviest burden falls on those least able to carry it.",
                "Reversing {m} becomes expensive once contracts and habits adjust to it.",
                "Carrying out {m} needs administrative capacity most implementers lack.",
            ),
            "named": (
                "{name} is the best answer here because it costs less for what it delivers.",
                "The experience of past visitors and planners favours {name} over the rest.",
                "{name} spreads its benefits more evenly than any other option on the table.",
                "The downside of {name} is the easiest to contain, should things go wrong.",
                "{name} can rely on what already exists, which the alternatives cannot.",
            ),
        },
        evidence=(
            "Illustrative figure (scripted demo, not real data): in a hypothetical sample"
            " of {n} cases the main indicator moved {p}% in our favour.",
            "A made-up survey of {n} households (demo data) puts satisfaction {p} points higher.",
            "In an invented comparison of {n} projects, costs fell {p}% (synthetic demo figure).",
            "Demo numbers only: {p} of every {n} pilot sites reported fewer complaints.",
        ),
        answer=(
            "In reply to {ids}: their figure is as illustrative as ours, so it cannot"
            " settle the size of the effect.",
            "To {ids}: a single sample proves little, and theirs is no larger than ours.",
            "Against {ids}, note that their case assumes costs stay flat, which nobody showed.",
            "On {ids}: the benefit they describe is real but smaller than they claim.",
        ),
        close=(
            "Real, dated data would decide this point, and we would accept it either way.",
            "A short pilot would test this claim cheaply before anyone commits.",
            "Until better numbers arrive, the burden of proof stays with the others.",
            "We ask the judges to weigh the size of each effect, not only its direction.",
        ),
    ),
    "zh": _Phrases(
        motion="“{topic}”这一动议",
        generic_motion="该动议",
        topic_max_chars=40,
        claims={
            "pro": (
                "我方支持{m}，因为它降低了受影响群体的总体成本。",
                "关于{m}，试点的早期证据显示收益会随时间增长。",
                "采纳{m}会比现状更均衡地分配收益。",
                "{m}的风险可以通过分阶段推行以低成本加以控制。",
                "现有机构就能承担{m}，无需新建机构。",
            ),
            "con": (
                "我方反对{m}，因为其转型成本来得早而且反复出现。",
                "关于{m}，扣除早期采用者的自我选择后，试点收益明显缩小。",
                "在{m}之下，最重的负担落在最无力承担的人身上。",
                "一旦合同和习惯适应了{m}，再要逆转就代价高昂。",
                "落实{m}需要大多数执行者并不具备的管理能力。",
            ),
            "named": (
                "{name}是最好的答案，因为它以更低的成本带来同样的效果。",
                "以往游客和规划者的经验更支持{name}而不是其他选项。",
                "在所有选项中，{name}的收益分配最为均衡。",
                "万一出了问题，{name}的风险最容易控制。",
                "{name}可以依托现有条件，而其他选项做不到。",
            ),
        },
        evidence=(
            "示例数据（脚本演示，并非真实数据）：在一个包含{n}个案例的假设样本中，"
            "主要指标向有利于我方的方向变化了{p}%。",
            "一项虚构的{n}户家庭调查（演示数据）显示满意度高出{p}个百分点。",
            "在一组虚构的{n}个项目对比中，成本下降了{p}%（合成的演示数据）。",
            "仅为演示数据：每{n}个试点中有{p}个报告投诉减少。",
        ),
        answer=(
            "回应{ids}：对方的数据和我方的一样只是示例，无法确定效果的大小。",
            "针对{ids}：单一样本说明不了什么，对方的样本并不比我方的大。",
            "反驳{ids}：对方的论证假定成本不变，而这一点没有人证明过。",
            "关于{ids}：对方所说的好处确实存在，但比他们声称的要小。",
        ),
        close=(
            "真实且注明日期的数据才能决定这一点，无论结果如何我方都会接受。",
            "一次短期试点就能以低成本检验这一论断。",
            "在更好的数据出现之前，举证责任仍在对方。",
            "我们请裁判衡量每种效果的大小，而不仅是方向。",
        ),
    ),
}


_CODES: Final = ((0, 0, 0), (0, 1, 1), (1, 0, 1), (1, 1, 0))
"""Which of its two phrasings a pro or con speech takes for its evidence, answer and
close, by turn: any two codes differ in two places."""


def speech(request: DemoRequest) -> SpeechReply | SourcedSpeechReply:
    data = request.context.data
    if not isinstance(data, SpeechCall):
        raise BackendError("scripted:demo: the speech call carries no SpeechCall")
    lang = request.context.lang
    if lang not in PHRASES:
        raise BackendError(f"scripted:demo writes {', '.join(PHRASES)}, not {lang!r}")
    p = PHRASES[lang]
    w = Weaver(
        lang,
        request.context.topic,
        motion=p.motion,
        generic_motion=p.generic_motion,
        topic_max_chars=p.topic_max_chars,
    )
    rng = request.rng()
    kind = data.position if data.position in ("pro", "con") else "named"
    bank = p.claims[kind]
    # a different point each round (and on a re-ask), and no two positions making the
    # same point in one round
    retries = sum(1 for m in request.messages if m.role == "assistant")
    offset = "ABCDEF".find(data.position) + 1 if kind == "named" else 0
    point = (offset + data.round - 1 + retries * data.rounds) % len(bank)
    claim = w.say(bank[point], name=data.name, limit=220)
    turn = offset + data.round - 1 + retries
    evidence_at = answer_at = close_at = turn
    if kind != "named":
        # pro and con keep to two phrasings each of the evidence, the answer and the
        # close (neither speaks the other's sentences), combined so that any two of a
        # side's first four speeches differ in at least two of the three; a rewrite
        # skips a combination, so that it does not take the next round's
        lane = 2 if kind == "con" else 0
        bits = _CODES[(turn + retries) % len(_CODES)]
        evidence_at, answer_at, close_at = (lane + bit for bit in bits)
    evidence = p.evidence[evidence_at % len(p.evidence)]
    sentences = [claim, evidence.format(n=rng.randint(40, 400), p=rng.randint(3, 28))]
    answered = [s.id for s in data.previous]
    if answered:
        sentences.append(p.answer[answer_at % len(p.answer)].format(ids=", ".join(answered)))
    sentences.append(p.close[close_at % len(p.close)])
    if data.passages:
        cited = data.passages[(data.round - 1) % len(data.passages)]
        return SourcedSpeechReply(
            responds_to=answered,
            speech=sentences[: data.max_sentences],
            evidence=[demo_citation(cited, QUOTE_CHARS)],
        )
    return SpeechReply(responds_to=answered, speech=sentences[: data.max_sentences])


JUDGE_PHRASES: Final[dict[str, JudgePhrases]] = {
    # the judged units are speeches, answered (or not) by the next round's: there is
    # no cross-examination, so no argument is refuted or conceded in one
    "en": replace(
        judge_demo.PHRASES["en"],
        reasons={
            "answered": "A speech of the next round answered it; the answer weakened it"
            " without settling the point.",
            "none": "No speech of the next round answered it, so its standing is uncertain.",
        },
        key_insight="The debate on {m} turned on evidence quality: {u} of {n} speeches held"
        " their ground through the later rounds, and every figure offered was"
        " illustrative rather than real.",
        recommendation="Treat this scripted demo as an illustration of the debate's structure"
        " only: before deciding on {m}, replace the illustrative figures with"
        " real data, starting with the speeches whose standing is uncertain.",
    ),
    "zh": replace(
        judge_demo.PHRASES["zh"],
        reasons={
            "answered": "下一轮的发言回应了它；回应削弱了它，但没有定论。",
            "none": "下一轮没有发言回应它，因此其地位尚不确定。",
        },
        key_insight="关于{m}的辩论取决于证据质量：{n}篇发言中有{u}篇在后续轮次中站住了脚，"
        "而双方提供的所有数据都是示例性的，并非真实数据。",
        recommendation="请仅将本脚本演示视为辩论结构的示例：在就{m}作出决定之前，"
        "应当用真实数据替换示例数据，并优先核实地位尚不确定的发言。",
    ),
}
"""What the demo judge writes of a free-form debate."""


def register() -> None:
    """Let ``scripted:demo`` play the free-form format (every round is a speech) and
    judge it in its own words, after every round too (``--judge-each-round``)."""
    register_demo_writer("freeform", "*", speech)
    for number in range(1, MAX_ROUNDS + 1):
        register_demo_writer("freeform", f"judge_round_{number}", judge_demo.judge)
    register_judge_phrases("freeform", JUDGE_PHRASES)
