"""One speech of a competitive debate: writer, simulated audience, revision, timing.

1. The **writer** plans the speech as moves (action, claim, argument, target) and
   writes a first draft. With the flow tree it sees the tree and the moves legal now;
   without it, the earlier speeches and the ids of the claims made so far. With the
   rehearsal tree it sees prepared material: its candidate claims (in the opening),
   the prepared attacks on the other side's claims and the rebuttals expected against
   its own, each with its k-step strength, found by claim similarity. Whatever the
   configuration, the reply's schema offers only the legal moves (so a
   grammar-constrained model makes no other); the flow tree checks the moves; an
   illegal move is a hard problem, re-asked with the reason, and never accepted. The
   legal moves are then applied to the flow tree.
2. The **simulated audience** (the speaker's own model) rates the draft for clarity,
   engagement, evidence presentation and persuasion, and says what would improve it;
   it is primed with the flow tree of the most similar earlier debate in the store.
3. The **revision** rewrites the draft with that feedback to the first word budget,
   and is the duration controller's first try; every further try is a model call for
   the controller's next budget
   (``moot.formats.competitive.speech.acontrol_duration``): a speech that
   fell short of it is continued by the missing words (what a small model can do:
   it keeps what it wrote), a longer one is rewritten shorter. Each try is measured
   with espeak-ng, until the speech lasts between T - 15 s and T + 1 s (10 tries at
   most, then the controller's sentence cut).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import takewhile
from pathlib import Path
from typing import Literal

from moot.errors import OutputError
from moot.formats.base import Debate
from moot.formats.competitive.citing import SpeechSources
from moot.formats.competitive.options import CompetitiveOptions, SideConfig
from moot.formats.competitive.payload import (
    AudienceRating,
    BudgetTry,
    CompetitiveSpeech,
    PreparedReply,
    RefusedPlan,
    Retrieval,
    SpeechMove,
)
from moot.formats.competitive.replies import (
    AudienceReply,
    MoveItem,
    SourcedSpeechDraftReply,
    SourcedSpeechRewriteReply,
    SpeechDraftReply,
    SpeechRewriteReply,
    audience_spec,
    chars_per_word,
    draft_spec,
    move_label,
    rewrite_spec,
)
from moot.formats.competitive.speech import (
    SECONDS_PER_WORD,
    Clock,
    DurationSource,
    TimedSpeech,
    acontrol_duration,
    espeak,
    write_wav,
)
from moot.formats.competitive.trees import (
    Candidate,
    FlowTree,
    Move,
    RehearsalIndex,
    RehearsalTree,
    Stage,
)
from moot.formats.competitive.trees import strength_steps as steps_left
from moot.formats.competitive.trees.sides import Side
from moot.llm.structured import Problem
from moot.llm.types import Message
from moot.sources.citations import EvidenceDraft
from moot.sources.library import Passage
from moot.text import word_count

RewriteMode = Literal["revise", "extend", "shorten"]
MAX_RETRIEVALS = 6
REPLIES_SHOWN = 2


@dataclass(frozen=True)
class WriteCall:
    """The ``data`` of a writer call: what the speaker faces (the demo writer plays
    from it; the prompt shows what the speaker's configuration allows)."""

    side: Side
    stage: Stage
    budget: int
    flow: FlowTree
    candidates: tuple[Candidate, ...]
    prepared: tuple[Retrieval, ...]
    passages: tuple[Passage, ...] = ()
    """The passages of the documents the speech cites (``--sources``)."""


@dataclass(frozen=True)
class AudienceCall:
    """The ``data`` of a simulated audience call."""

    side: Side
    stage: Stage
    draft: str


@dataclass(frozen=True)
class RewriteCall:
    """The ``data`` of a rewrite: the duration controller's try ``attempt`` with its
    word budget. ``mode``: ``revise`` (the first try: the draft rewritten with the
    audience's feedback), ``extend`` (the last try fell short of the budget: ``words``
    more words continue it) or ``shorten`` (the last try had more words than the
    budget: it is rewritten in ``words`` words)."""

    side: Side
    stage: Stage
    attempt: int
    budget: int
    mode: RewriteMode
    words: int
    previous: str
    moves: tuple[Move, ...]
    passages: tuple[Passage, ...] = ()
    """The passages the rewrite cites, the draft's (``--sources``)."""


def speech_id(side: Side, stage: Stage) -> str:
    return f"{side.upper()}-{stage.upper()}"


def join_paragraphs(paragraphs: Sequence[str]) -> str:
    return "\n\n".join(p.strip() for p in paragraphs if p.strip())


def as_move(item: MoveItem) -> Move:
    """A planned move as the flow tree reads it."""
    return Move(action=item.action, claim=item.claim, argument=item.argument, target=item.target)


class MemoClock:
    """A clock that remembers the seconds of the texts it measured (the controller and
    the rewrite prompt ask for the same text's duration)."""

    def __init__(self, clock: Clock) -> None:
        self.inner = clock
        self._seen: dict[tuple[str, str], float] = {}

    @property
    def source(self) -> DurationSource:
        return self.inner.source

    def seconds(self, text: str, lang: str) -> float:
        key = (text, lang)
        if key not in self._seen:
            self._seen[key] = self.inner.seconds(text, lang)
        return self._seen[key]


@dataclass
class _Tries:
    """The latest text of a speech being timed and what it measured."""

    text: str
    attempt: int = 0
    seconds: float = 0.0
    evidence: tuple[EvidenceDraft, ...] = ()
    """The citations of ``text`` (``--sources``): the draft's, then each rewrite's (a
    continuation adds its own to the text's it continues)."""
    cited: dict[str, tuple[EvidenceDraft, ...]] = field(default_factory=dict)
    """Each text tried, with its citations."""

    def cited_by(self, delivered: str) -> tuple[EvidenceDraft, ...]:
        """The citations of the text delivered: the try it is, or was cut from."""
        if not self.cited:
            return self.evidence

        def shared(text: str) -> int:
            pairs = zip(text, delivered, strict=False)
            return sum(1 for _ in takewhile(lambda pair: pair[0] == pair[1], pairs))

        return self.cited[max(self.cited, key=shared)]


class Speaker:
    """Writes the speeches of one debate run, in speaking order."""

    def __init__(
        self,
        debate: Debate,
        options: CompetitiveOptions,
        flow: FlowTree,
        clock: Clock,
        configs: dict[Side, SideConfig],
        trees: dict[Side, RehearsalTree | None],
        indexes: dict[Side, RehearsalIndex | None],
        priming: str | None,
    ) -> None:
        self.debate = debate
        self.options = options
        self.flow = flow
        self.clock = MemoClock(clock)
        self.configs = configs
        self.trees = trees
        self.indexes = indexes
        self.priming = priming
        self.speeches: list[CompetitiveSpeech] = []
        self.sources = SpeechSources(debate) if debate.sources is not None else None
        """The documents the speeches cite (``--sources``)."""

    # -- prepared material ---------------------------------------------------------

    def _retrieve(
        self, side: Side, stage: Stage, candidates: Sequence[Candidate]
    ) -> list[Retrieval]:
        """Prepared material from ``side``'s rehearsal tree for this speech."""
        tree, index = self.trees.get(side), self.indexes.get(side)
        if tree is None or index is None:
            return []
        k = steps_left(stage, side)
        found: list[Retrieval] = []
        if any(c.action == "propose" for c in candidates):
            own = [c.root for c in tree.claims if c.side == side]
            ranked = sorted(own, key=lambda node: -node.strength(k))
            for node in ranked[: self.options.claims]:
                replies = sorted(
                    ((child.claim, child.strength(max(k - 1, 0))) for child in node.children),
                    key=lambda pair: -pair[1],
                )
                found.append(
                    Retrieval(
                        target=None,
                        claim=node.claim,
                        owner=side,
                        matched=node.claim,
                        similarity=1.0,
                        k=k,
                        strength=round(node.strength(k), 4),
                        replies=[PreparedReply(claim=c, strength=round(s, 4)) for c, s in replies],
                    )
                )
        targets = list(dict.fromkeys(c.target for c in candidates if c.target is not None))
        for target in targets:
            if len(found) >= MAX_RETRIEVALS:
                break
            made = self.flow.node(target)
            prepared = index.prepared(made.claim, made.side, k)
            if prepared is None:
                continue
            found.append(
                Retrieval(
                    target=made.id,
                    claim=made.claim,
                    owner=made.side,
                    matched=prepared.match.located.node.claim,
                    similarity=round(prepared.match.similarity, 4),
                    k=k,
                    strength=round(prepared.strength, 4),
                    replies=[
                        PreparedReply(claim=r.node.claim, strength=round(r.strength, 4))
                        for r in prepared.replies
                    ],
                )
            )
        return found

    # -- the calls ----------------------------------------------------------------------

    def _values(self, side: Side, stage: Stage) -> dict[str, object]:
        debate = self.debate
        return {
            "topic": debate.topic,
            "side": side,
            "stage": stage,
            "seconds": round(self.options.stage_seconds[stage]),
        }

    def _system(self, side: Side, stage: Stage) -> Message:
        return Message("system", self.debate.render("debater_system", **self._values(side, stage)))

    async def _draft(
        self, side: Side, stage: Stage, budget: int, refused: list[RefusedPlan]
    ) -> tuple[SpeechDraftReply, list[Move], list[Retrieval], tuple[Passage, ...]]:
        debate, flow, config = self.debate, self.flow, self.configs[side]
        candidates = flow.candidates(side, stage)
        prepared = await asyncio.to_thread(self._retrieve, side, stage, candidates)
        previous = list(self.speeches)
        last = next((s for s in reversed(previous) if s.side != side), None)
        sources = self.sources
        passages = sources.passages(side, last.text if last else None) if sources else ()
        prompt = debate.render(
            "write",
            **self._values(side, stage),
            budget=budget,
            show_flow=config.flow_tree,
            flow=flow.render(),
            candidates=candidates,
            previous=previous,
            last=last,
            nodes=flow.nodes,
            prepared=prepared,
            replies_shown=REPLIES_SHOWN,
            passages=passages,
        )
        once = sources.reasker(side) if sources is not None else None

        def check(reply: SpeechDraftReply) -> list[Problem]:
            illegal = flow.check(side, stage, [as_move(m) for m in reply.moves])
            if illegal:
                refused.append(
                    RefusedPlan(
                        attempt=len(refused) + 1,
                        problems=[f"moves[{p.index}]: {p.reason}" for p in illegal],
                        codes=[p.code for p in illegal],
                    )
                )
            return [
                Problem(
                    f"moves[{p.index}] ({move_label(p.move.action, p.move.target)}): {p.reason}",
                    hard=True,
                    code=p.code,
                    where=f"moves[{p.index}]",
                )
                for p in illegal
            ] + (sources.problems(reply, once) if sources and once else [])

        # every configuration's schema lists the legal moves: without the flow tree a
        # debater is not shown them, but a grammar-constrained model is held to them
        spec = draft_spec(debate.profile_for(side), debate.lang, candidates, sourced=bool(passages))
        reply, _ = await debate.ask(
            side,
            f"{stage}_{side}",
            [self._system(side, stage), Message("user", prompt)],
            SourcedSpeechDraftReply if passages else SpeechDraftReply,
            sources.spec(side, spec, passages) if sources and passages else spec,
            check=check,
            data=WriteCall(
                side,
                stage,
                budget,
                flow.model_copy(deep=True),
                tuple(candidates),
                tuple(prepared),
                passages,
            ),
        )
        return reply, [as_move(m) for m in reply.moves], prepared, passages

    async def _audience(self, side: Side, stage: Stage, draft: str) -> AudienceReply:
        debate = self.debate
        reply, _ = await debate.ask(
            side,
            f"{stage}_{side}",
            [
                Message("system", debate.render("audience_system", **self._values(side, stage))),
                Message(
                    "user",
                    debate.render(
                        "audience", **self._values(side, stage), draft=draft, priming=self.priming
                    ),
                ),
            ],
            AudienceReply,
            audience_spec(debate.profile_for(side), debate.lang),
            data=AudienceCall(side, stage, draft),
        )
        return reply

    async def _timed(
        self,
        side: Side,
        stage: Stage,
        draft: SpeechDraftReply,
        moves: list[Move],
        rating: AudienceReply,
        passages: tuple[Passage, ...],
    ) -> tuple[TimedSpeech, tuple[EvidenceDraft, ...]]:
        """The speech fitted to its time, and the citations of the text delivered:
        over documents each rewrite cites them as the draft does, checked and re-asked
        once the same way."""
        debate = self.debate
        target = self.options.stage_seconds[stage]
        evidence = tuple(draft.evidence) if isinstance(draft, SourcedSpeechDraftReply) else ()
        state = _Tries(join_paragraphs(draft.speech), evidence=evidence)
        sources = self.sources if passages else None

        async def rewrite(budget: int) -> str:
            state.attempt += 1
            attempt = state.attempt
            previous = state.text
            written = word_count(previous)
            mode: RewriteMode = "revise"
            words = budget
            if attempt > 1 and written < budget:
                mode, words = "extend", budget - written
            elif attempt > 1:
                mode = "shorten"
            prompt = debate.render(
                "rewrite",
                **self._values(side, stage),
                mode=mode,
                words=words,
                previous=previous,
                moves=moves,
                feedback=list(rating.feedback) if mode == "revise" else [],
                last_words=written,
                last_seconds=round(state.seconds, 1),
                passages=passages if sources is not None else (),
            )
            profile = debate.profile_for(side)
            spec = rewrite_spec(
                profile,
                debate.lang,
                words,
                chars_per_word(previous, debate.lang),
                sourced=sources is not None,
            )
            once = sources.reasker(side) if sources is not None else None
            reply, _ = await debate.ask(
                side,
                f"{stage}_{side}",
                [self._system(side, stage), Message("user", prompt)],
                SourcedSpeechRewriteReply if sources is not None else SpeechRewriteReply,
                sources.spec(side, spec, passages) if sources is not None else spec,
                check=lambda r: sources.problems(r, once) if sources and once else [],
                data=RewriteCall(
                    side, stage, attempt, budget, mode, words, previous, tuple(moves), passages
                ),
            )
            text = join_paragraphs(reply.speech)
            state.text = join_paragraphs([previous, text]) if mode == "extend" else text
            if isinstance(reply, SourcedSpeechRewriteReply):
                cites = tuple(reply.evidence)
                state.evidence = (*state.evidence, *cites) if mode == "extend" else cites
                state.cited[state.text] = state.evidence
            state.seconds = await asyncio.to_thread(self.clock.seconds, state.text, debate.lang)
            return state.text

        timed = await acontrol_duration(rewrite, target, debate.lang, clock=self.clock)
        return timed, state.cited_by(timed.text)

    def _audio(self, number: int, side: Side, stage: Stage, text: str) -> str | None:
        """Write the speech as a WAV file when ``--audio`` asks and espeak-ng measures."""
        if self.options.audio_dir is None or self.clock.source != "espeak-ng":
            return None
        name = f"{number:02d}-{stage}-{side}.wav"
        try:
            write_wav(
                Path(self.options.audio_dir) / name,
                espeak().synthesise(text, self.debate.lang, keep_audio=True),
            )
        except OSError as exc:
            raise OutputError(f"cannot write {name} to {self.options.audio_dir}: {exc}") from exc
        return name

    async def speak(self, stage: Stage, side: Side) -> CompetitiveSpeech:
        """Write, rate, revise and time one speech; its moves join the flow tree."""
        target = self.options.stage_seconds[stage]
        budget = max(1, round(target / SECONDS_PER_WORD))
        refused: list[RefusedPlan] = []
        draft_reply, moves, prepared, passages = await self._draft(side, stage, budget, refused)
        nodes = self.flow.apply(side, stage, moves)
        draft = join_paragraphs(draft_reply.speech)
        ident = speech_id(side, stage)
        rating = await self._audience(side, stage, draft)
        timed, evidence = await self._timed(side, stage, draft_reply, moves, rating, passages)
        cited = self.sources.keep(ident, stage, side, evidence, timed.text) if self.sources else []
        audio = await asyncio.to_thread(
            self._audio, len(self.speeches) + 1, side, stage, timed.text
        )
        speech = CompetitiveSpeech(
            id=ident,
            stage=stage,
            side=side,
            text=timed.text,
            actions=[
                SpeechMove(
                    action=m.action,
                    claim=m.claim,
                    argument=m.argument,
                    target=m.target,
                    node=node,
                )
                for m, node in zip(moves, nodes, strict=True)
            ],
            target_seconds=target,
            window=timed.window,
            measured_seconds=round(timed.measured_seconds, 3),
            duration_source=timed.duration_source,
            budget_steps=[
                BudgetTry(budget=s.budget, words=s.words, seconds=round(s.seconds, 3))
                for s in timed.steps
            ],
            cut=timed.cut,
            within=timed.within,
            draft=draft,
            audience=AudienceRating(
                clarity=rating.clarity,
                engagement=rating.engagement,
                evidence=rating.evidence,
                persuasion=rating.persuasion,
                feedback=list(rating.feedback),
            ),
            refused_plans=refused,
            prepared=prepared,
            audio=audio,
            citations=cited,
        )
        self.speeches.append(speech)
        return speech
