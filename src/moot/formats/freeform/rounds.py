"""The free-form format's rounds: in each round every position speaks, answering the
previous round's speeches; then the judge scores every speech.

Within a round the positions speak concurrently (one wave per round, the judge one
more: ``rounds + 1`` sequential waves). Before a speech is accepted, the per-turn
detectors (repetition, topic drift, stance drift) read it against the debate so far;
if one fires, the speaker is asked once more with the reason, and the result records
the re-ask and whether the rewrite fixed it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar, cast

from moot.detectors.core import TurnIssue, check_turn
from moot.detectors.transcript import Transcript, Turn
from moot.formats.base import Debate, Record, first_wave_with_classification
from moot.formats.common.stances import stances as common_stances
from moot.formats.freeform.payload import (
    STANDINGS,
    DetectorReask,
    FreeformPayload,
    RoundScore,
    Speech,
)
from moot.formats.freeform.replies import SourcedSpeechReply, SpeechReply, speech_spec
from moot.i18n import labels
from moot.judging.judge import JudgedUnit
from moot.judging.rubric import GENERAL, mean
from moot.llm.schemas import output_spec
from moot.llm.structured import Problem
from moot.llm.types import Message
from moot.llm.waves import gather_wave
from moot.schema import ArgumentScore, QualityWarning, SourceCitation
from moot.sources.citations import (
    ReaskOnce,
    check,
    items_of,
    kept_warnings,
    offer_passages,
    penalise,
)
from moot.sources.library import Passage
from moot.sources.retrieval import select
from moot.text import join_sentences, sentences

T = TypeVar("T")


@dataclass(frozen=True)
class SpeechCall:
    """The ``data`` of a speech call: the round and what the speaker has heard."""

    position: str
    name: str
    round: int
    rounds: int
    previous: tuple[Speech, ...]
    own: tuple[Speech, ...]
    min_sentences: int
    max_sentences: int
    passages: tuple[Passage, ...] = ()
    """The passages of the documents the speaker argues from (``--sources``)."""


def stances(debate: Debate) -> dict[str, str]:
    """Each position's stance as the detectors read it."""
    return common_stances(debate.positions, debate.topic, debate.lang)


class FreeformRounds:
    """One run of the free-form format over a :class:`Debate`."""

    def __init__(self, debate: Debate, rounds: int, each_round: bool = False) -> None:
        self.debate = debate
        self.rounds = rounds
        self.each_round = each_round
        """``--judge-each-round``: the judge scores every round's speeches after it."""
        self.round_scores: list[RoundScore] = []
        self.round_warnings: dict[int, list[QualityWarning]] = {}
        self.two_sided = debate.position_keys() == ["pro", "con"]
        self.speeches: list[Speech] = []
        self.reasks: list[DetectorReask] = []
        self.citations: dict[str, list[SourceCitation]] = {}
        """Each speech's checked citations (a debate over documents)."""

    def _passages(self, position: str, previous: tuple[Speech, ...]) -> tuple[Passage, ...]:
        """The passages most relevant to the position and the speeches it answers,
        within the format's budget scaled by the speaker's profile."""
        debate = self.debate
        budget = debate.format.source_tokens
        if debate.sources is None or budget is None:
            return ()
        scaled = int(budget * min(1.0, debate.settings.profile(position).chars))
        stance = debate.topic if self.two_sided else f"{debate.topic} {debate.name_of(position)}"
        return tuple(select(debate.sources, [stance, *(s.text for s in previous)], scaled))

    def _sourced_check(self, position: str) -> Callable[[SpeechReply], list[Problem]]:
        """A citation that does not check out, as a rule problem of the speech's first
        checked reply (re-asked once where rules are). A speech's numbers are checked
        through its data points."""
        debate = self.debate
        once = ReaskOnce(debate.profile_for(position).rule_reasks != 0)

        def checked(reply: SpeechReply) -> list[Problem]:
            library = debate.sources
            if library is None or not isinstance(reply, SourcedSpeechReply):
                return []
            found = [
                (f"evidence[{k}]", check(library, "", item, "", debate.lang))
                for k, item in enumerate(items_of(library, reply.evidence), start=1)
            ]
            return once(found, debate.lang)

        return checked

    def _check(self, round_number: int, position: str, text: str) -> list[TurnIssue]:
        """The per-turn detectors on a speech of ``round_number``, read against the
        speeches of the rounds before it (the ones its speaker heard)."""
        heard = [s for s in self.speeches if s.round < round_number]
        transcript = Transcript(
            topic=self.debate.topic,
            lang=self.debate.lang,
            sides=stances(self.debate),
            turns=[Turn(side=s.side, text=s.text) for s in heard],
            names={p.key: p.name for p in self.debate.positions},
        )
        return check_turn(transcript, Turn(side=position, text=text), [s.id for s in heard])

    async def _speak(self, position: str, round_number: int) -> Speech:
        debate = self.debate
        prefix = next(p.prefix for p in debate.positions if p.key == position)
        speech_id = f"{prefix}-R{round_number}"
        previous = tuple(
            s for s in self.speeches if s.round == round_number - 1 and s.side != position
        )
        own = tuple(s for s in self.speeches if s.side == position)
        spec = debate.spec_for(
            position, speech_spec(output_spec(SpeechReply), [s.id for s in previous])
        )
        passages = self._passages(position, previous)
        reply_type: type[SpeechReply] = SourcedSpeechReply if passages else SpeechReply
        if passages:
            spec = offer_passages(
                debate.spec_for(
                    position,
                    speech_spec(output_spec(SourcedSpeechReply), [s.id for s in previous]),
                ),
                passages,
                choices=debate.profile_for(position).quote_choices,
            )
        count = spec.json_schema["properties"]["speech"]
        data = SpeechCall(
            position,
            debate.name_of(position),
            round_number,
            self.rounds,
            previous,
            own,
            count["minItems"],
            count["maxItems"],
            passages,
        )
        values = {
            "side": position,
            "name": data.name,
            "two_sided": self.two_sided,
            "topic": debate.topic,
            "round": round_number,
            "rounds": self.rounds,
            "previous": previous,
            "own": own,
            "names": {p.key: p.name for p in debate.positions},
            "min_sentences": data.min_sentences,
            "max_sentences": data.max_sentences,
            "passages": passages,
        }
        messages = [
            Message("system", debate.render("debater_system", **values)),
            Message("user", debate.render("speech", **values)),
        ]
        round_name = f"round_{round_number}"
        check_citations = self._sourced_check(position)
        reply, _ = await debate.ask(
            position, round_name, messages, reply_type, spec, check=check_citations, data=data
        )
        text = join_sentences(list(reply.speech), debate.lang)
        issues = self._check(round_number, position, text)
        if issues:
            reasons = [issue.reason for issue in issues]
            retry = [
                *messages,
                Message("assistant", reply.model_dump_json()),
                Message("user", debate.render("detector_reask", reasons=reasons)),
            ]
            debate.meter.record_reask(
                debate.context(position, round_name, data),
                2,
                reasons,
                [issue.flag.detector for issue in issues],
            )
            reply, _ = await debate.ask(
                position, round_name, retry, reply_type, spec, check=check_citations, data=data
            )
            text = join_sentences(list(reply.speech), debate.lang)
            still = self._check(round_number, position, text)
            detectors: list[str] = [issue.flag.detector for issue in issues]
            self.reasks.append(
                DetectorReask(
                    speech_id=speech_id,
                    detectors=detectors,
                    reason=" ".join(reasons),
                    fixed=not {i.flag.detector for i in still} & set(detectors),
                )
            )
        answered = [i.upper() for i in reply.responds_to if i.upper() in {s.id for s in previous}]
        items = []
        if debate.sources is not None and isinstance(reply, SourcedSpeechReply):
            items = items_of(debate.sources, reply.evidence)
            self.citations[speech_id] = [
                check(debate.sources, speech_id, item, "", debate.lang, about=text)
                for item in items
            ]
        return Speech(
            id=speech_id,
            side=position,
            round=round_number,
            text=text,
            responds_to=list(dict.fromkeys(answered)),
            citations=items,
        )

    def _units(self, speeches: Sequence[Speech]) -> list[JudgedUnit]:
        """The judged units of ``speeches``: each with its first sentence as the claim
        and the positions whose next-round speech answered it (so far)."""
        return [
            JudgedUnit(
                id=s.id,
                side=s.side,
                claim=(sentences(s.text) or [s.text])[0],
                responses={
                    later.side: "answered"
                    for later in self.speeches
                    if later.round == s.round + 1 and s.id in later.responds_to
                },
            )
            for s in speeches
        ]

    def _transcript(self, upto: int, order: Sequence[str]) -> str:
        """The debate as the judge reads it, rounds 1 to ``upto``."""
        rank = {key: n for n, key in enumerate(order)}
        return self.debate.render(
            "judge_transcript",
            rounds=upto,
            speeches=sorted(
                (s for s in self.speeches if s.round <= upto), key=lambda s: (s.round, rank[s.side])
            ),
            names={p.key: p.name for p in self.debate.positions},
            citations=self.citations,
        )

    async def _score_round(self, number: int, order: Sequence[str]) -> None:
        """The judge's interim score of round ``number``'s speeches, read with the
        rounds before it (``--judge-each-round``), in its own round
        ``judge_round_N``; kept with its warnings for the result."""
        debate = self.debate
        judgement, warnings = await debate.score_round(
            f"judge_round_{number}",
            self._units([s for s in self.speeches if s.round == number]),
            self._transcript(number, order),
            rubric=GENERAL,
            standings=STANDINGS,
            order=order,
            unit=labels(debate.lang)["unit.speech"],
            adjust=penalise(self.citations) if debate.sources is not None else None,
        )
        self.round_warnings[number] = warnings
        self.round_scores.append(round_score(number, judgement.scores, debate.position_keys()))
        self.round_scores.sort(key=lambda r: r.round)
        debate.progress["round_scores"] = [r.model_dump() for r in self.round_scores]

    async def _alongside(self, main: Awaitable[T], number: int, order: Sequence[str]) -> T:
        """``main`` and the interim score of round ``number`` as one wave (nothing in
        ``main`` depends on that score); either failing cancels the other."""
        if not self.each_round or number < 1:
            return await main
        done = await gather_wave([main, self._score_round(number, order)])
        return cast(T, done[0])

    async def run(self) -> Record:
        debate = self.debate
        keys = debate.position_keys()
        order = list(reversed(keys)) if debate.settings.swap_seeds else keys
        for n in range(1, self.rounds + 1):
            calls = [self._speak(k, n) for k in keys]
            if n == 1:
                wave = first_wave_with_classification(debate, f"round_{n}", calls)
            else:
                wave = debate.wave(f"round_{n}", calls)
            # the previous round's interim score joins this round's wave
            spoken = await self._alongside(wave, n - 1, order)
            self.speeches += spoken
            debate.progress["speeches"] = [s.model_dump() for s in self.speeches]
        for number in range(1, self.rounds):
            debate.warnings += self.round_warnings.get(number, [])
        debate.citations = [c for s in self.speeches for c in self.citations.get(s.id, [])]
        debate.warnings += kept_warnings(
            "speech", {s.id: s.side for s in self.speeches}, debate.citations
        )
        for reask in self.reasks:
            debate.warnings.append(
                QualityWarning(
                    round="speech",
                    side=next(s.side for s in self.speeches if s.id == reask.speech_id),
                    code="detector_reask",
                    where=reask.speech_id,
                    message=reask.reason,
                )
            )
        verdict = debate.judge(
            self._units(self.speeches),
            self._transcript(self.rounds, order),
            rubric=GENERAL,
            standings=STANDINGS,
            order=order,
            unit=labels(debate.lang)["unit.speech"],
            adjust=penalise(self.citations) if debate.sources is not None else None,
        )
        # the last round's interim score joins the final judgement's wave
        judgement, panel = await self._alongside(verdict, self.rounds, order)
        debate.warnings += self.round_warnings.get(self.rounds, [])
        payload = FreeformPayload(
            rounds=self.rounds,
            speeches=self.speeches,
            detector_reasks=self.reasks,
            round_scores=self.round_scores,
        )
        return Record(payload, judgement, panel, list(debate.warnings))


def round_score(number: int, scores: Sequence[ArgumentScore], keys: Sequence[str]) -> RoundScore:
    """A round's interim score: each speech's weighted score and each position's mean
    over its speeches of the round (positions in ``keys`` order), and the leader."""
    by_side = {
        k: mean([s.weighted for s in scores if s.side == k])
        for k in keys
        if any(s.side == k for s in scores)
    }
    top = max(by_side.values(), default=0.0)
    leaders = [k for k, v in by_side.items() if v == top]
    return RoundScore(
        round=number,
        scores=by_side,
        speeches=list(scores),
        leader=leaders[0] if len(leaders) == 1 else None,
    )
