"""``scripted:demo`` for the competitive format: deterministic replies for every call,
in English or Simplified Chinese.

- The rehearsal writes distinct claims and rebuttals woven with the motion, rated
  from the call's seed.
- The writer plays by the rules: it picks its moves from the flow tree the call
  carries (``WriteCall``: propose its strongest prepared claims in the opening, rebut
  the attacks on it, attack the other side, reinforce its own claims), adding a move
  only when the flow tree accepts it, and proposes prepared claims word for word, so
  retrieval finds them.
- Every rewrite is exactly as many words as its budget (as ``moot.text.word_count``
  counts them), so the duration controller converges, split into as many
  paragraphs of about equal length as its schema asks for.
- The audience and the voters answer from the seed.

Every figure in a demo speech is labelled as illustrative demo data.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Final

from pydantic import BaseModel

from moot.demo_text import Weaver
from moot.errors import BackendError
from moot.formats.competitive.citing import demo_cited, demo_recited
from moot.formats.competitive.rehearsal import ClaimsCall, ExpandCall
from moot.formats.competitive.replies import (
    AudienceReply,
    RehearsalAnswersReply,
    RehearsalClaimsReply,
    RehearsalRebuttalsReply,
    SpeechDraftReply,
    SpeechRewriteReply,
    VoteReply,
    move_label,
)
from moot.formats.competitive.rounds import VoteCall
from moot.formats.competitive.speeches import AudienceCall, RewriteCall, WriteCall
from moot.formats.competitive.trees import Move, Stage
from moot.formats.competitive.trees.sides import Side
from moot.judging import demo as judge_demo
from moot.judging.demo import JudgePhrases, register_judge_phrases
from moot.llm.scripted import DemoRequest, demo_seed, register_demo_writer
from moot.text import sentences, word_count


@dataclass(frozen=True)
class _Phrases:
    motion: str
    generic_motion: str
    topic_max_chars: int
    claims: dict[str, tuple[str, ...]]
    rebuttals: dict[str, tuple[str, ...]]
    arguments: dict[str, tuple[str, ...]]  # per side; {n} {p}
    filler: dict[str, tuple[str, ...]]  # per stage, split between the sides; {m}
    opening: dict[str, str]
    feedback: tuple[str, ...]
    reasons: dict[str, str]
    end: str
    space: str


PHRASES: Final[dict[str, _Phrases]] = {
    "en": _Phrases(
        motion='the motion "{topic}"',
        generic_motion="the motion",
        topic_max_chars=80,
        claims={
            "pro": (
                "Adopting {m} lowers the total cost for the people it affects.",
                "Pilots of {m} show gains that grow over the years.",
                "Under {m} the benefits are spread more evenly than today.",
                "The risks of {m} can be contained cheaply with a phased rollout.",
                "Existing institutions can carry {m} without a new agency.",
            ),
            "con": (
                "The transition costs of {m} arrive early and keep recurring.",
                "Pilot gains for {m} shrink once self-selection is counted.",
                "Under {m} the heaviest burden falls on those least able to carry it.",
                "Reversing {m} becomes expensive once habits adjust to it.",
                "Carrying out {m} needs administrative capacity most places lack.",
            ),
        },
        rebuttals={
            "pro": (
                "That objection ignores the savings that follow in later years.",
                "That objection rests on one small sample, and larger ones point the other way.",
                "Even granting that point, a phased rollout removes most of the harm.",
                "The cost they cite is paid once, while the benefit recurs every year.",
                "Their comparison leaves out the people who gain the most.",
                "The failures they describe came from poor design, not from the idea itself.",
            ),
            "con": (
                "That argument counts the benefits but not the transition costs.",
                "That evidence comes from early adopters who are not typical.",
                "Even granting that point, the gains fade once the novelty wears off.",
                "The savings they promise depend on assumptions nobody has tested.",
                "Their figures leave out who pays while the change is under way.",
                "A success in one place says little about a place with other habits.",
            ),
        },
        arguments={
            "pro": (
                "Illustrative figure (scripted demo, not real data): in a hypothetical sample"
                " of {n} cases the main indicator improved {p}%.",
                "A made-up survey of {n} households (demo data) puts the benefit at {p} points.",
            ),
            "con": (
                "In an invented comparison of {n} projects, overruns reached {p}% (synthetic"
                " figure).",
                "Demo numbers only: {p} of every {n} fictional pilot sites reported new"
                " complaints.",
            ),
        },
        filler={
            "opening": (
                "Consider what this means for the people who live with {m} every day.",
                "Our first task tonight is to show why the status quo is not good enough.",
                "Picture a household budget stretched a little thinner every single month.",
                "We begin with principles, because principles decide the hard cases later.",
                "A motion like this is a choice about who carries risk, and for how long.",
                "Let us set out what we must prove, so you can hold us to it at the end.",
                "Think of the small shop owner, the commuter and the student in turn.",
                "Good policy starts from a clear picture of the problem it claims to solve.",
            ),
            "rebuttal": (
                "Now look at what our opponents actually offered, and what they left out.",
                "They asked you to trust a single study; we ask you to look at the pattern.",
                "Notice how often their case depends on everything going exactly to plan.",
                "Their strongest point deserves a direct answer, so here it is.",
                "Numbers without a baseline tell you nothing, and theirs had none.",
                "Listen for what was never answered, because silence is an answer too.",
                "A rebuttal should meet the argument where it is strongest, not weakest.",
                "Ask yourself who bears the cost when their forecast turns out wrong.",
            ),
            "closing": (
                "So where does this debate leave you as you decide how to vote?",
                "Weigh the lasting effects, not the loudest claims of the evening.",
                "Our case has stood up to every attack made on it tonight.",
                "Remember the people behind the figures when you cast your vote.",
                "In the end, the burden of proof was theirs, and it was not met.",
                "Vote for the side whose claims survived the hardest questions.",
            ),
        },
        opening={
            "pro": "We speak for {m}, and our case rests on a few simple points.",
            "con": "We speak against {m}, and we ask you to look closely at its costs.",
        },
        feedback=(
            "Lead with the strongest claim and state it in one plain sentence.",
            "Give the source of each figure as you say it.",
            "Answer the other side's best point directly, by its number.",
            "End with one sentence the audience can remember.",
        ),
        reasons={
            "for": "The case for the motion sounded stronger to me.",
            "against": "The case against the motion sounded stronger to me.",
            "undecided": "I have not heard enough to decide.",
        },
        end=".",
        space=" ",
    ),
    "zh": _Phrases(
        motion="“{topic}”这一动议",
        generic_motion="该动议",
        topic_max_chars=30,
        claims={
            "pro": (
                "采纳{m}会降低受影响群体的总体成本。",
                "{m}的试点显示收益会逐年增长。",
                "在{m}之下，收益的分配比现在更均衡。",
                "{m}的风险可以通过分阶段推行以低成本控制。",
                "现有机构就能承担{m}，无需新建机构。",
            ),
            "con": (
                "{m}的转型成本来得早而且反复出现。",
                "扣除自我选择后，{m}的试点收益明显缩小。",
                "在{m}之下，最重的负担落在最无力承担的人身上。",
                "一旦习惯适应了{m}，再要逆转就代价高昂。",
                "落实{m}需要多数地方并不具备的管理能力。",
            ),
        },
        rebuttals={
            "pro": (
                "这个反驳忽视了之后几年的节省。",
                "这个反驳只依据一个小样本，更大的样本结论相反。",
                "即使承认这一点，分阶段推行也能消除大部分损害。",
                "他们说的成本只付一次，而收益年年都有。",
                "他们的比较漏掉了受益最多的人。",
                "他们描述的失败源于设计不当，而不是这个想法本身。",
            ),
            "con": (
                "这个论证只算了收益，没算转型成本。",
                "这个证据来自并不典型的早期采用者。",
                "即使承认这一点，新鲜感过去后收益也会消退。",
                "他们承诺的节省依赖于没人检验过的假设。",
                "他们的数字漏掉了转型期间由谁买单。",
                "一个地方的成功，说明不了习惯不同的另一个地方。",
            ),
        },
        arguments={
            "pro": (
                "示例数据（脚本演示，并非真实数据）：在一个包含{n}个案例的假设样本中，主要指标改善了{p}%。",
                "一项虚构的{n}户家庭调查（演示数据）显示收益为{p}个百分点。",
            ),
            "con": (
                "在一组虚构的{n}个项目对比中，超支达到{p}%（合成数据）。",
                "仅为演示数据：每{n}个虚构的试点中有{p}个报告了新的投诉。",
            ),
        },
        filler={
            "opening": (
                "请想一想这对每天生活在{m}之下的人意味着什么。",
                "我们今晚的第一项任务，是说明现状为什么不够好。",
                "想象一个家庭的预算每个月都更紧一点。",
                "我们从原则讲起，因为原则决定了之后的难题。",
                "这样的动议，是在选择由谁承担风险、承担多久。",
                "我们先讲清楚需要证明什么，方便大家最后检验我们。",
                "请依次想一想小店店主、通勤者和学生。",
                "好的政策，始于对所要解决问题的清楚认识。",
            ),
            "rebuttal": (
                "现在看看对方实际给出了什么，又漏掉了什么。",
                "他们让大家相信一项研究，我们请大家看整体规律。",
                "请注意，他们的立论多么依赖一切都按计划进行。",
                "他们最有力的观点值得正面回应，下面就是回应。",
                "没有基准的数字什么也说明不了，而他们的数字没有基准。",
                "请留意哪些问题从未得到回答，沉默本身也是一种回答。",
                "反驳应当针对论证最强的地方，而不是最弱的地方。",
                "问问自己：当他们的预测落空时，代价由谁承担？",
            ),
            "closing": (
                "那么，这场辩论让大家在投票时站在哪里？",
                "请衡量长远的影响，而不是今晚最响亮的说法。",
                "我方的立论经受住了今晚的每一次攻击。",
                "投票时，请记住数字背后的人。",
                "归根结底，举证责任在对方，而他们没有完成。",
                "请把票投给主张经受住最难问题的一方。",
            ),
        },
        opening={
            "pro": "我方支持{m}，我们的立论建立在几个简单的要点上。",
            "con": "我方反对{m}，请大家仔细看看它的代价。",
        },
        feedback=(
            "先讲最有力的主张，用一句平实的话说清楚。",
            "每给出一个数字，就说明它的来源。",
            "直接按编号回应对方最有力的观点。",
            "用一句让听众记得住的话收尾。",
        ),
        reasons={
            "for": "我觉得支持方的论证更有力。",
            "against": "我觉得反对方的论证更有力。",
            "undecided": "我听到的还不足以让我做决定。",
        },
        end="。",
        space="",
    ),
}


def _phrases(request: DemoRequest) -> tuple[_Phrases, Weaver]:
    lang = request.context.lang
    if lang not in PHRASES:
        raise BackendError(f"scripted:demo writes {', '.join(PHRASES)}, not {lang!r}")
    p = PHRASES[lang]
    weaver = Weaver(
        lang,
        request.context.topic,
        motion=p.motion,
        generic_motion=p.generic_motion,
        topic_max_chars=p.topic_max_chars,
    )
    return p, weaver


def _rng(request: DemoRequest, *parts: object) -> random.Random:
    context = request.context
    return random.Random(demo_seed(request.seed, context.role, context.round, *parts))  # noqa: S311


def _claim(weaver: Weaver, template: str, **values: object) -> str:
    return weaver.say(template, limit=240, **values)


# -- the rehearsal ----------------------------------------------------------------------


def claims(request: DemoRequest, call: ClaimsCall) -> RehearsalClaimsReply:
    p, w = _phrases(request)
    rng = _rng(request, "claims", call.side)
    bank = p.claims[call.side]
    return RehearsalClaimsReply.model_validate(
        {
            "claims": [
                {"claim": _claim(w, bank[n % len(bank)]), "support": rng.randint(1, 3)}
                for n in range(call.count)
            ]
        }
    )


def rebuttals(request: DemoRequest, call: ExpandCall) -> BaseModel:
    p, _ = _phrases(request)
    rng = _rng(request, "expand", *call.line)
    bank = p.rebuttals[call.side]
    offset = rng.randrange(len(bank))
    items: list[dict[str, Any]] = []
    for n in range(call.count):
        item: dict[str, Any] = {
            "claim": bank[(offset + n) % len(bank)],
            "attack": rng.randint(1, 3),
        }
        if call.level >= 2:
            item["support"] = rng.randint(1, 3)
        items.append(item)
    reply = RehearsalRebuttalsReply if call.level == 1 else RehearsalAnswersReply
    return reply.model_validate({"rebuttals": items})


# -- speeches ---------------------------------------------------------------------------


def _plan(call: WriteCall, p: _Phrases, w: Weaver, rng: random.Random) -> list[Move]:
    """Legal moves for the speech: each is kept only if the flow tree accepts it."""
    flow, side, stage = call.flow, call.side, call.stage
    moves: list[Move] = []

    def add(action: str, target: str | None, claim: str) -> None:
        template = rng.choice(p.arguments[side])
        argument = template.format(n=rng.randint(40, 400), p=rng.randint(3, 28))
        move = Move.model_validate(
            {"action": action, "claim": claim, "argument": argument, "target": target}
        )
        if len(moves) < 3 and not flow.check(side, stage, [*moves, move]):
            moves.append(move)

    def answer(target: str) -> str:
        prepared = next((r for r in call.prepared if r.target == target and r.replies), None)
        if prepared is not None:
            return prepared.replies[0].claim
        bank = p.rebuttals[side]
        return bank[rng.randrange(len(bank))]

    if any(c.action == "propose" for c in call.candidates):
        own = [r.claim for r in call.prepared if r.target is None]
        bank = [_claim(w, t) for t in p.claims[side]]
        for claim in [*own, *bank][:2]:
            add("propose", None, claim)
    for c in call.candidates:
        if c.action == "rebut" and c.target is not None:
            add("rebut", c.target, answer(c.target))
    attacked = False
    for c in call.candidates:
        if c.action == "attack" and c.target is not None and not attacked:
            before = len(moves)
            add("attack", c.target, answer(c.target))
            attacked = len(moves) > before
    if not moves or stage == "closing":
        for c in call.candidates:
            if c.action == "reinforce" and c.target is not None:
                add("reinforce", c.target, flow.node(c.target).claim)
                break
    return moves


def _text(
    p: _Phrases,
    w: Weaver,
    rng: random.Random,
    stage: Stage,
    side: Side,
    moves: list[Move],
    words: int,
    opening: bool = True,
) -> str:
    """A speech of exactly ``words`` words (as ``word_count`` counts them) that delivers
    ``moves``: the opening line (in the opening stage, unless ``opening`` is false),
    each move's claim and argument, then commentary."""
    sentences = [w.say(p.opening[side], limit=300)] if stage == "opening" and opening else []
    for move in moves:
        sentences += [move.claim, move.argument]
    # each side its own half of the stage's sentences: no side echoes the other's words
    filler = p.filler[stage][0 if side == "pro" else 1 :: 2]
    offset = rng.randrange(len(filler))
    n = 0
    while word_count(p.space.join(sentences)) < words:
        sentences.append(w.say(filler[(offset + n) % len(filler)], limit=300))
        n += 1
    text = p.space.join(sentences)
    if p.space:
        tokens = text.split()
        kept: list[str] = []
        for token in tokens:
            if word_count(" ".join([*kept, token])) > words:
                break
            kept.append(token)
        text = " ".join(kept).rstrip(",;:")
    else:
        chars = round(words * 1.5)
        cut, seen = 0, 0
        for index, char in enumerate(text):
            seen += "\u4e00" <= char <= "\u9fff" or "\u3400" <= char <= "\u4dbf"
            if seen > chars:
                break
            cut = index + 1
        text = text[:cut].rstrip("，、；：")
    return text if text.endswith(("。", ".", "!", "?", "！", "？")) else text + p.end


def _balanced(text: str, count: int, space: str) -> list[str]:
    """``text`` in ``count`` pieces of about equal length, cut between words (between
    characters in Chinese)."""
    units = text.split() if space else list(text)
    pieces: list[str] = []
    start, length = 0, len(text)
    for n in range(1, count + 1):
        end, seen = start, sum(len(u) + len(space) for u in units[:start])
        while end < len(units) and (n == count or seen + len(units[end]) <= length * n / count):
            seen += len(units[end]) + len(space)
            end += 1
        pieces.append(space.join(units[start:end]))
        start = end
    return pieces


def _paragraphs(text: str, request: DemoRequest, space: str) -> list[str]:
    """``text`` split into paragraphs the reply's schema allows: as many pieces of about
    equal length as a schema with a fixed paragraph count asks for, else at sentence
    ends."""
    schema = request.schema.json_schema if request.schema else {}
    items = schema.get("properties", {}).get("speech", {})
    limit = int(items.get("items", {}).get("maxLength", 700))
    most = int(items.get("maxItems", 12))
    if items.get("minItems") == most and most > 1:
        pieces = _balanced(text, most, space)
        if all(pieces):
            return pieces
    paragraphs: list[str] = []
    current = ""
    for sentence in sentences(text):
        joined = f"{current}{space}{sentence}" if current else sentence
        if len(joined) <= limit:
            current = joined
            continue
        if current:
            paragraphs.append(current)
        current = sentence[:limit]
    if current:
        paragraphs.append(current)
    if len(paragraphs) > most:
        raise BackendError(f"scripted:demo: a speech of {len(text)} characters does not fit")
    return paragraphs


def draft(request: DemoRequest, call: WriteCall) -> SpeechDraftReply:
    p, w = _phrases(request)
    rng = _rng(request, "write", call.stage, call.side)
    moves = _plan(call, p, w, rng)
    text = _text(p, w, rng, call.stage, call.side, moves, max(20, call.budget * 9 // 10))
    return SpeechDraftReply.model_validate(
        {
            "moves": [
                {"move": move_label(m.action, m.target), "claim": m.claim, "argument": m.argument}
                for m in moves
            ],
            "speech": _paragraphs(text, request, p.space),
        }
    )


def rewrite(request: DemoRequest, call: RewriteCall) -> SpeechRewriteReply:
    """Exactly the words asked for: the whole speech, or the continuation of a speech
    that fell short (commentary only: its moves were delivered already)."""
    p, w = _phrases(request)
    rng = _rng(request, "rewrite", call.stage, call.side, call.attempt)
    moves = [] if call.mode == "extend" else list(call.moves)
    text = _text(p, w, rng, call.stage, call.side, moves, call.words, opening=call.mode != "extend")
    return SpeechRewriteReply(speech=_paragraphs(text, request, p.space))


def audience(request: DemoRequest, call: AudienceCall) -> AudienceReply:
    p, _ = _phrases(request)
    rng = _rng(request, "audience", call.stage, call.side)
    items = request.schema.json_schema["properties"]["feedback"] if request.schema else {}
    count = min(2, int(items.get("maxItems", 2)))
    return AudienceReply(
        clarity=rng.randint(5, 9),
        engagement=rng.randint(5, 9),
        evidence=rng.randint(4, 8),
        persuasion=rng.randint(5, 9),
        feedback=rng.sample(p.feedback, count),
    )


def vote(request: DemoRequest, call: VoteCall) -> VoteReply:
    p, _ = _phrases(request)
    rng = _rng(request, "vote", call.voter, call.after)
    weights = (3, 3, 2) if call.after else (2, 2, 4)
    choice = rng.choices(("for", "against", "undecided"), weights=weights)[0]
    return VoteReply.model_validate({"vote": choice, "reason": p.reasons[choice]})


def reply(request: DemoRequest) -> BaseModel:
    """Every call of the format, by the type of the call's data."""
    data = request.context.data
    if isinstance(data, ClaimsCall):
        return claims(request, data)
    if isinstance(data, ExpandCall):
        return rebuttals(request, data)
    if isinstance(data, WriteCall):
        written = draft(request, data)
        return demo_cited(written, data.passages) if data.passages else written
    if isinstance(data, RewriteCall):
        rewritten = rewrite(request, data)
        return demo_recited(rewritten, data.passages, data.attempt) if data.passages else rewritten
    if isinstance(data, AudienceCall):
        return audience(request, data)
    if isinstance(data, VoteCall):
        return vote(request, data)
    raise BackendError(
        f"scripted:demo: no competitive writer for a call carrying {type(data).__name__}"
    )


JUDGE_PHRASES: Final[dict[str, JudgePhrases]] = {
    # the judged units are the six timed speeches (opening, rebuttal, closing of each
    # side), rebutted or attacked (or not answered) by the other side's later speeches
    "en": replace(
        judge_demo.PHRASES["en"],
        reasons={
            "rebutted": "A later speech of the other side rebutted it, and the rebuttal left"
            " the point open.",
            "attacked": "A later speech of the other side attacked it without settling the point.",
            "none": "No later speech of the other side answered it, so its standing is uncertain.",
        },
        key_insight="The debate on {m} ran through its timed stages (opening, rebuttal,"
        " closing): {u} of {n} speeches came out strong, and every figure offered was"
        " illustrative rather than real.",
        recommendation="Treat this scripted demo as an illustration of a timed debate's"
        " structure only: before deciding on {m}, replace the illustrative figures with"
        " real data, starting with the speeches the other side rebutted.",
    ),
    "zh": replace(
        judge_demo.PHRASES["zh"],
        reasons={
            "rebutted": "对方此后的一篇发言反驳了它，但反驳没有定论。",
            "attacked": "对方此后的一篇发言攻击了它，但没有定论。",
            "none": "对方此后没有发言回应它，因此其地位尚不确定。",
        },
        key_insight="关于{m}的辩论经历了各个计时阶段（开篇、反驳、结辩）：{n}篇发言中有{u}篇"
        "表现有力，而双方提供的所有数据都是示例性的，并非真实数据。",
        recommendation="请仅将本脚本演示视为计时辩论结构的示例：在就{m}作出决定之前，"
        "应当用真实数据替换示例数据，并优先核实被对方反驳的发言。",
    ),
}
"""What the demo judge writes of a competitive debate."""


def register() -> None:
    """Let ``scripted:demo`` play every call of the competitive format and judge it in
    its own words (timed speeches and rebuttals)."""
    register_demo_writer("competitive", "*", reply)
    register_judge_phrases("competitive", JUDGE_PHRASES)
