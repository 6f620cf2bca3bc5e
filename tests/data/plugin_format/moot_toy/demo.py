"""``scripted:demo`` for the toy format: two openings and two votes, in English or
Chinese, deterministic for a seed. Every figure is labelled as demo data."""

from __future__ import annotations

from typing import Final

from moot.errors import BackendError
from moot.llm.scripted import DemoRequest, register_demo_writer
from moot_toy.replies import OpeningReply, VoteReply
from moot_toy.rounds import OpeningCall, VoteCall

SPEECHES: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "en": {
        "pro": (
            "We back the motion because its benefits reach people within a year.",
            "A made-up pilot of {n} towns (demo data) saw costs fall {p}%.",
            "The risks are small and a phased start contains them.",
        ),
        "con": (
            "We oppose the motion because its costs arrive first and stay.",
            "An invented survey of {n} firms (demo data) found {p}% expect losses.",
            "The status quo can be improved without a leap in the dark.",
        ),
        "reason": (
            "Before the debate the room leans on habit and first impressions.",
            "After the openings the room weighs the figures each side gave.",
        ),
    },
    "zh": {
        "pro": (
            "我方支持该动议，因为它的好处一年内就能惠及大众。",
            "一项虚构的{n}个城镇试点（演示数据）显示成本下降了{p}%。",
            "风险很小，分阶段推行即可控制。",
        ),
        "con": (
            "我方反对该动议，因为它的成本先到且持续存在。",
            "一项虚构的{n}家企业调查（演示数据）发现{p}%预计亏损。",
            "现状可以改进，无需冒险一跃。",
        ),
        "reason": (
            "辩论之前，观众凭习惯和第一印象判断。",
            "开篇陈词之后，观众权衡双方给出的数字。",
        ),
    },
}


def _bank(request: DemoRequest) -> dict[str, tuple[str, ...]]:
    lang = request.context.lang
    if lang not in SPEECHES:
        raise BackendError(f"scripted:demo writes {', '.join(SPEECHES)}, not {lang!r}")
    return SPEECHES[lang]


def opening(request: DemoRequest) -> OpeningReply:
    data = request.context.data
    if not isinstance(data, OpeningCall):
        raise BackendError("scripted:demo: the opening call carries no OpeningCall")
    rng = request.rng()
    lines = _bank(request)["pro" if data.side == "pro" else "con"]
    figures = {"n": rng.randint(20, 200), "p": rng.randint(3, 30)}
    return OpeningReply(speech=[line.format(**figures) for line in lines])


def vote(request: DemoRequest) -> VoteReply:
    data = request.context.data
    if not isinstance(data, VoteCall):
        raise BackendError("scripted:demo: the vote call carries no VoteCall")
    share = request.rng().randint(35, 65)
    return VoteReply(for_motion=share, reason=_bank(request)["reason"][int(data.after)])


def register() -> None:
    """Let ``scripted:demo`` play the toy format (the judge's demo writer is moot's)."""
    register_demo_writer("toy", "opening", opening)
    register_demo_writer("toy", "vote_before", vote)
    register_demo_writer("toy", "vote_after", vote)
