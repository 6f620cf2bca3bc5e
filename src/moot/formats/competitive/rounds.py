"""One run of the competitive format: preparation, six timed speeches, the votes and
the judge.

Waves of model calls, in order:

1. ``rehearsal``: each side's candidate claims for every rehearsal tree still to
   grow, the audience's vote before the debate and, with a panel, the topic's
   classification (they depend only on the motion);
2. ``rehearsal_1`` ... ``rehearsal_D``: one wave per level of each tree grown (none
   when the trees come from the store's cache or no side uses one);
3. six speeches in speaking order (opening, rebuttal, closing; pro then con), each a
   sequence of calls: the writer (re-asked while its moves are illegal), the
   simulated audience, then the duration controller's rewrites;
4. the audience's vote after the debate, together with the judge (or the panel),
   who scores every speech.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from dataclasses import dataclass

from moot.formats.base import Debate, Record, first_wave_with_classification
from moot.formats.competitive.analysis import analyse
from moot.formats.competitive.citing import by_unit
from moot.formats.competitive.options import CompetitiveOptions, SideConfig
from moot.formats.competitive.payload import (
    STANDINGS,
    Clock,
    CompetitivePayload,
    CompetitiveSpeech,
    OxfordVote,
    Priming,
    RehearsalRecord,
    SideSetup,
    Similarity,
    StageResult,
    Vote,
    VoteTally,
)
from moot.formats.competitive.rehearsal import Rehearsal
from moot.formats.competitive.replies import VoteReply, vote_spec
from moot.formats.competitive.similarity import Choice, choose
from moot.formats.competitive.speech import Clock as SpeechClock
from moot.formats.competitive.speech import EstimateClock, default_clock, espeak
from moot.formats.competitive.speeches import Speaker
from moot.formats.competitive.trees import (
    SPEAKING_ORDER,
    STAGES,
    FlowTree,
    RehearsalIndex,
    RehearsalTree,
)
from moot.formats.competitive.trees.retrieval import EmbeddingSimilarity, LexicalSimilarity
from moot.formats.competitive.trees.sides import SIDES, Side
from moot.i18n import labels
from moot.judging.judge import JudgedUnit
from moot.judging.rubric import GENERAL
from moot.llm.types import Message
from moot.llm.waves import gather_wave
from moot.schema import DebateResult, Judgement, Panel, QualityWarning
from moot.sources.citations import penalise

FORMAT = "competitive"
VOTES: tuple[Vote, ...] = ("for", "against", "undecided")


@dataclass(frozen=True)
class VoteCall:
    """The ``data`` of an audience member's vote (``after``: having heard the debate)."""

    voter: int
    after: bool
    speeches: tuple[CompetitiveSpeech, ...]


def tally(votes: list[Vote]) -> VoteTally:
    return VoteTally(votes=votes, share={v: round(votes.count(v) / len(votes), 4) for v in VOTES})


def oxford(before: list[Vote], after: list[Vote]) -> OxfordVote:
    """The votes before and after, each side's gain in share and the side that gained
    more (the Oxford-style winner)."""
    first, second = tally(before), tally(after)
    shift: dict[Side, float] = {
        "pro": round(second.share["for"] - first.share["for"], 4),
        "con": round(second.share["against"] - first.share["against"], 4),
    }
    winner: Side | None = None
    if shift["pro"] != shift["con"]:
        winner = "pro" if shift["pro"] > shift["con"] else "con"
    return OxfordVote(voters=len(before), before=first, after=second, shift=shift, winner=winner)


def head_to_head(
    speeches: list[CompetitiveSpeech], scores: dict[str, float], configs: dict[Side, SideConfig]
) -> list[StageResult]:
    """Each stage's pro and con speech scores (the judge's weighted scores) and the
    side that scored higher."""
    results = []
    for stage in STAGES:
        by_side = {s.side: scores[s.id] for s in speeches if s.stage == stage and s.id in scores}
        if set(by_side) != set(SIDES):
            continue
        winner: Side | None = None
        if by_side["pro"] != by_side["con"]:
            winner = "pro" if by_side["pro"] > by_side["con"] else "con"
        results.append(
            StageResult(
                stage=stage,
                scores=by_side,
                winner=winner,
                configs={side: configs[side].name for side in SIDES},
            )
        )
    return results


class CompetitiveRounds:
    """One run of the competitive format over a :class:`Debate`."""

    def __init__(self, debate: Debate, options: CompetitiveOptions) -> None:
        self.debate = debate
        self.options = options
        swapped = debate.settings.swap_seeds
        self.configs: dict[Side, SideConfig] = {s: options.side(s, swapped) for s in SIDES}
        self.warnings: list[QualityWarning] = []

    # -- votes -------------------------------------------------------------------

    async def _vote(self, voter: int, after: bool, speeches: tuple[CompetitiveSpeech, ...]) -> Vote:
        debate = self.debate
        role = f"audience:{voter}"
        values = {"topic": debate.topic, "voter": voter, "after": after, "speeches": speeches}
        reply, _ = await debate.ask(
            role,
            "vote_after" if after else "vote_before",
            [
                Message("system", debate.render("vote_system", **values)),
                Message("user", debate.render("vote", **values)),
            ],
            VoteReply,
            vote_spec(debate.profile_for(role), debate.lang),
            data=VoteCall(voter, after, speeches),
        )
        return reply.vote

    def _vote_calls(
        self, after: bool, speeches: tuple[CompetitiveSpeech, ...]
    ) -> list[Awaitable[Vote]]:
        return [self._vote(n, after, speeches) for n in range(1, self.options.voters + 1)]

    # -- preparation ---------------------------------------------------------------

    def _note(self, code: str, message: str, round_name: str = "setup") -> None:
        self.warnings.append(
            QualityWarning(round=round_name, side=None, code=code, message=message)
        )

    def _indexes(
        self, rehearsal: Rehearsal, choice: Choice
    ) -> tuple[dict[Side, RehearsalTree | None], dict[Side, RehearsalIndex | None]]:
        trees: dict[Side, RehearsalTree | None] = {s: rehearsal.tree_for(s) for s in SIDES}
        built: dict[int, RehearsalIndex] = {}
        indexes: dict[Side, RehearsalIndex | None] = {}
        for side, tree in trees.items():
            if tree is None:
                indexes[side] = None
                continue
            if id(tree) not in built:
                built[id(tree)] = RehearsalIndex(tree, choice.embedder, self.options.similarity)
            indexes[side] = built[id(tree)]
        return trees, indexes

    def _priming(self, choice: Choice) -> tuple[Priming | None, str | None]:
        """The earlier competitive debate in the store whose motion is most similar to
        this one (at least the threshold), and its flow tree as the audience reads it."""
        debate = self.debate
        earlier = [
            (run_id, result)
            for run_id, result in debate.earlier_results()
            if isinstance(result.payload.get(FORMAT, {}).get("flow_tree"), dict)
        ]
        if not earlier:
            return None, None
        topics = [result.topic for _, result in earlier]
        measure: EmbeddingSimilarity | LexicalSimilarity = (
            LexicalSimilarity(topics)
            if choice.embedder is None
            else EmbeddingSimilarity(choice.embedder, topics)
        )
        scores = measure.scores(debate.topic)
        best = max(range(len(earlier)), key=lambda n: scores[n])
        if scores[best] < self.options.similarity:
            return None, None
        run_id, result = earlier[best]
        tree = FlowTree.model_validate(result.payload[FORMAT]["flow_tree"])
        text = "\n".join("  " * depth + line for depth, line in tree.rows())
        priming = Priming(run_id=run_id, topic=result.topic, similarity=round(scores[best], 4))
        return priming, text

    async def _clock(self) -> SpeechClock:
        clock = await asyncio.to_thread(default_clock)
        if isinstance(clock, EstimateClock):
            self._note("duration_estimate", clock.reason)
        return clock

    # -- the run ---------------------------------------------------------------------

    async def run(self) -> Record:
        debate, options = self.debate, self.options
        clock = await self._clock()
        users = [s for s in SIDES if self.configs[s].rehearsal_tree]
        rehearsal = Rehearsal(debate, options, users)
        rehearsal.read_cached()
        before: list[Vote] = []

        async def votes_before() -> None:
            before.extend(await gather_wave(self._vote_calls(False, ())))

        setup: list[Awaitable[None]] = [*rehearsal.claim_calls(), votes_before()]
        await first_wave_with_classification(debate, "rehearsal", setup)
        await rehearsal.grow()
        debate.progress["rehearsal"] = [
            p.tree.model_dump(mode="json") for p in rehearsal.preparations if p.tree is not None
        ]

        choice = choose(options.embedder)
        if choice.embedder is None and options.embedder == "auto":
            self._note("similarity_fallback", str(choice.fallback_reason))
        trees, indexes = await asyncio.to_thread(self._indexes, rehearsal, choice)
        priming, priming_text = await asyncio.to_thread(self._priming, choice)

        flow = FlowTree(lang=debate.lang)
        speaker = Speaker(debate, options, flow, clock, self.configs, trees, indexes, priming_text)
        for stage, side in SPEAKING_ORDER:
            await debate.wave(f"{stage}_{side}", [speaker.speak(stage, side)])
            debate.progress["speeches"] = [s.model_dump(mode="json") for s in speaker.speeches]
            debate.progress["flow_tree"] = flow.model_dump(mode="json")
        speeches = speaker.speeches
        for speech in speeches:
            if not speech.within:
                low, high = speech.window
                self.warnings.append(
                    QualityWarning(
                        round=speech.stage,
                        side=speech.side,
                        code="speech_outside_window",
                        where=speech.id,
                        message=f"{speech.measured_seconds:.1f} s, outside [{low:g}, {high:g}] s",
                    )
                )
        if options.audio_dir is not None and clock.source != "espeak-ng":
            self._note("audio_unavailable", f"no audio written to {options.audio_dir}")

        after: list[Vote] = []

        async def votes_after() -> None:
            after.extend(await debate.wave("vote_after", self._vote_calls(True, tuple(speeches))))

        # the swap rerun also reverses the reading order (con first in each stage)
        order = list(reversed(SIDES)) if debate.settings.swap_seeds else list(SIDES)
        verdicts: list[tuple[Judgement, Panel | None]] = []

        async def verdict() -> None:
            verdicts.append(await self._judge(speeches, order))

        await gather_wave([verdict(), votes_after()])
        judgement, panel = verdicts[0]
        scores = {s.argument_id: s.weighted for s in judgement.scores}
        payload = CompetitivePayload(
            stage_seconds=dict(options.stage_seconds),
            sides={
                side: SideSetup(
                    config=config.name,
                    rehearsal_tree=config.rehearsal_tree,
                    flow_tree=config.flow_tree,
                )
                for side, config in self.configs.items()
            },
            speeches=speeches,
            flow_tree=flow.model_dump(mode="json"),
            rehearsal=[
                RehearsalRecord(
                    sides=p.sides,
                    model=p.model,
                    from_cache=p.from_cache,
                    calls=p.calls,
                    waves=p.waves,
                    tree=p.tree.model_dump(mode="json"),
                )
                for p in rehearsal.preparations
                if p.tree is not None
            ],
            similarity=Similarity(
                method=choice.method,
                threshold=options.similarity,
                fallback_reason=choice.fallback_reason,
            ),
            clock=Clock(
                source=clock.source,
                detail=(
                    clock.reason
                    if isinstance(clock, EstimateClock)
                    else f"espeak-ng {espeak().version}"
                ),
            ),
            priming=priming,
            vote=oxford(before, after),
            head_to_head=head_to_head(speeches, scores, self.configs),
        )
        payload = payload.model_copy(update={"action_analysis": analyse(payload)})
        return Record(payload, judgement, panel, [*self.warnings, *debate.warnings])

    async def _judge(
        self, speeches: list[CompetitiveSpeech], order: list[Side]
    ) -> tuple[Judgement, Panel | None]:
        debate = self.debate
        made = {s.id: {m.node for m in s.actions if m.action != "reinforce"} for s in speeches}
        units = []
        for s in speeches:
            responses: dict[str, str] = {}
            for later in speeches:
                if later.side == s.side:
                    continue
                for move in later.actions:
                    if move.target in made[s.id] and move.action in ("attack", "rebut"):
                        responses[later.side] = "rebutted" if move.action == "rebut" else "attacked"
            claim = s.actions[0].claim if s.actions else s.text[:200]
            units.append(JudgedUnit(id=s.id, side=s.side, claim=claim, responses=responses))
        rank = {side: n for n, side in enumerate(order)}
        stage_rank = {stage: n for n, stage in enumerate(STAGES)}
        cited = by_unit(debate.citations)
        transcript = debate.render(
            "judge_transcript",
            speeches=sorted(speeches, key=lambda s: (stage_rank[s.stage], rank[s.side])),
            names={p.key: p.name for p in debate.positions},
            citations=cited,
        )
        return await debate.judge(
            units,
            transcript,
            rubric=GENERAL,
            standings=STANDINGS,
            order=order,
            unit=labels(debate.lang)["unit.speech"],
            adjust=penalise(cited) if debate.sources is not None else None,
        )


def payload_of(result: DebateResult) -> CompetitivePayload:
    return CompetitivePayload.model_validate(result.payload[FORMAT])
