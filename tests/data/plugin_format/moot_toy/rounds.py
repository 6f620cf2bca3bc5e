"""A toy debate's rounds, through moot's Debate services: the audience votes, each
side makes one opening (one wave), the audience votes again, the judge scores the
two openings."""

from __future__ import annotations

from dataclasses import dataclass

from moot.formats.base import Debate, Record, first_wave_with_classification
from moot.judging.judge import JudgedUnit
from moot.judging.rubric import GENERAL
from moot.llm.schemas import output_spec
from moot.llm.types import Message
from moot.text import join_sentences, sentences
from moot_toy.payload import STANDINGS, Opening, ToyPayload
from moot_toy.replies import OpeningReply, VoteReply

PACKAGE = "moot_toy"
AUDIENCE = "audience"


@dataclass(frozen=True)
class VoteCall:
    """The ``data`` of a vote call: before or after the openings."""

    after: bool
    openings: tuple[Opening, ...]


@dataclass(frozen=True)
class OpeningCall:
    """The ``data`` of an opening call."""

    side: str


async def _vote(debate: Debate, round_name: str, openings: tuple[Opening, ...]) -> VoteReply:
    values = {"topic": debate.topic, "openings": openings, "names": _names(debate)}
    messages = [Message("user", debate.render("vote", **values))]
    spec = debate.spec_for(AUDIENCE, output_spec(VoteReply))
    data = VoteCall(bool(openings), openings)
    reply, _ = await debate.ask(AUDIENCE, round_name, messages, VoteReply, spec, data=data)
    return reply


def _names(debate: Debate) -> dict[str, str]:
    return {p.key: p.name for p in debate.positions}


async def _open(debate: Debate, side: str) -> Opening:
    values = {"topic": debate.topic, "side": side}
    messages = [
        Message("system", debate.render("debater_system", **values)),
        Message("user", debate.render("opening", **values)),
    ]
    spec = debate.spec_for(side, output_spec(OpeningReply))
    data = OpeningCall(side)
    reply, _ = await debate.ask(side, "opening", messages, OpeningReply, spec, data=data)
    prefix = next(p.prefix for p in debate.positions if p.key == side)
    return Opening(id=f"{prefix}-1", side=side, text=join_sentences(reply.speech, debate.lang))


async def run(debate: Debate) -> Record:
    before = await debate.wave("vote_before", [_vote(debate, "vote_before", ())])
    keys = debate.position_keys()
    openings = tuple(
        await first_wave_with_classification(debate, "opening", [_open(debate, k) for k in keys])
    )
    debate.progress["openings"] = [o.model_dump() for o in openings]
    after = await debate.wave("vote_after", [_vote(debate, "vote_after", openings)])
    order = list(reversed(keys)) if debate.settings.swap_seeds else keys
    units = [
        JudgedUnit(id=o.id, side=o.side, claim=(sentences(o.text) or [o.text])[0], responses={})
        for o in openings
    ]
    rank = {key: n for n, key in enumerate(order)}
    transcript = debate.render(
        "judge_transcript",
        openings=sorted(openings, key=lambda o: rank[o.side]),
        names=_names(debate),
    )
    judgement, panel = await debate.judge(
        units, transcript, rubric=GENERAL, standings=STANDINGS, order=order, unit="speech"
    )
    payload = ToyPayload(
        openings=list(openings),
        before=before[0].for_motion,
        after=after[0].for_motion,
        swing=after[0].for_motion - before[0].for_motion,
    )
    return Record(payload, judgement, panel, list(debate.warnings))
