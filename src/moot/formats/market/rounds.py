"""The market format's rounds: openings -> cross-examinations -> closings -> judge.

Four sequential waves of concurrent calls:

1. every analyst's opening (with the single-agent baseline when asked for, and a
   panel's topic classification);
2. every cross-examination: within each pair, both directions, all pairs at once
   (each depends only on the openings);
3. every closing;
4. the judge (or the panel) and the judge's market synthesis, together.

Each analyst's prompt carries its slice of the knowledge base once (in the data layer
of its system prompt) and only what its round needs: its opponent's arguments to
cross-examine, or the challenges it received and gave to close. Never the whole KB,
never its whole history. Every number an argument or a challenge cites is checked by
code against the analyst's slice (``checks``); after the judge's integer scores, each
argument's evidence score is lowered for its unsupported numbers
(``moot.formats.market.data.penalised_evidence``), both scores kept.
"""

from __future__ import annotations

from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

from pydantic import BaseModel

from moot.formats.base import Debate, Record, first_wave_with_classification
from moot.formats.market.checks import Checked, check_fields, unsupported_texts
from moot.formats.market.data.analysts import Agent
from moot.formats.market.data.backtest import contradicts
from moot.formats.market.data.evidence import (
    ALL_UNSUPPORTED_CAP,
    SCORE_FLOOR,
    UNSUPPORTED_PENALTY,
    EvidenceReport,
    penalised_evidence,
)
from moot.formats.market.data.kb import KnowledgeBase
from moot.formats.market.data.slices import agent_slice, render_slice
from moot.formats.market.data.words import module_descriptions
from moot.formats.market.inputs import MarketInputs, argument_id, role_of
from moot.formats.market.payload import (
    STANDINGS,
    MarketAnalyst,
    MarketArgument,
    MarketBaseline,
    MarketChallenge,
    MarketClosing,
    MarketEvidenceCheck,
    MarketEvidenceRule,
    MarketEvidenceScore,
    MarketKBInfo,
    MarketPayload,
    MarketSynthesis,
)
from moot.formats.market.replies import (
    MAX_ARGUMENTS,
    MAX_CLAIM,
    BaselineReply,
    ClosingReply,
    CrossExamReply,
    OpeningReply,
    SynthesisReply,
    cross_exam_spec,
)
from moot.formats.market.rules import (
    check_baseline,
    check_closing,
    check_cross_exam,
    check_opening,
    market_stance_words,
    min_attacks,
)
from moot.formats.market.sources import (
    MarketSources,
    SourcedArgumentDraft,
    SourcedChallengeItem,
    SourcedClosingReply,
    SourcedCrossExamReply,
    SourcedOpeningReply,
    challenge_unit,
    closing_unit,
)
from moot.i18n import labels
from moot.judging.judge import JudgedUnit
from moot.judging.rubric import Rubric
from moot.llm.schemas import output_spec as build_spec
from moot.llm.types import Message, OutputSpec
from moot.llm.waves import gather_wave
from moot.sources.library import Passage
from moot.text import join_sentences


@cache
def output_spec(reply_type: type[BaseModel]) -> OutputSpec:
    """A reply type's schema, built once (the specs a call sends are copies of it)."""
    return build_spec(reply_type)


MARKET = Rubric(
    "market", {"logic": 0.30, "evidence": 0.30, "clarity": 0.20, "persuasiveness": 0.20}
)
RULE = MarketEvidenceRule(
    per_unsupported=UNSUPPORTED_PENALTY,
    cap_when_all_unsupported=ALL_UNSUPPORTED_CAP,
    floor=SCORE_FLOOR,
)


@dataclass(frozen=True)
class OpeningCall:
    """The ``data`` of an opening call."""

    agent: Agent
    kb_slice: KnowledgeBase
    min_args: int
    max_args: int
    passages: tuple[Passage, ...] = ()
    """The passages of the documents the analyst cites (``--sources``)."""


@dataclass(frozen=True)
class CrossExamCall:
    """The ``data`` of a cross-examination call: the opponent's arguments to answer."""

    agent: Agent
    kb_slice: KnowledgeBase
    opposing: tuple[MarketArgument, ...]
    target_ids: tuple[str, ...]
    min_attacks: int
    passages: tuple[Passage, ...] = ()
    """The passages of the documents the answers cite (``--sources``)."""


@dataclass(frozen=True)
class ClosingCall:
    """The ``data`` of a closing call: what happened to the analyst's arguments."""

    agent: Agent
    kb_slice: KnowledgeBase
    own: tuple[MarketArgument, ...]
    received: tuple[MarketChallenge, ...]
    given: tuple[MarketChallenge, ...]
    stance_words: tuple[int, int]
    passages: tuple[Passage, ...] = ()
    """The passages of the documents the closing cites (``--sources``)."""


@dataclass(frozen=True)
class SynthesisCall:
    """The ``data`` of the judge's synthesis call."""

    kb: KnowledgeBase
    arguments: tuple[MarketArgument, ...]
    challenges: tuple[MarketChallenge, ...]
    closings: tuple[MarketClosing, ...]


@dataclass(frozen=True)
class BaselineCall:
    """The ``data`` of the single-agent baseline call."""

    kb: KnowledgeBase


def kb_info(kb: KnowledgeBase) -> MarketKBInfo:
    meta = kb.meta
    return MarketKBInfo(
        as_of=meta.as_of.isoformat(),
        source=meta.source,
        synthetic=meta.synthetic,
        warnings=list(meta.warnings),
        modules=list(kb.present_modules()),
    )


class MarketRounds:
    """One run of the market format over a :class:`Debate`."""

    def __init__(self, debate: Debate, inputs: MarketInputs) -> None:
        self.debate = debate
        self.inputs = inputs
        self.agents = inputs.agents
        self.slices = {a.id: agent_slice(inputs.kb, a) for a in self.agents}
        self.data = {a.id: render_slice(self.slices[a.id]) for a in self.agents}
        self.reports: dict[str, EvidenceReport] = {}
        self.evidence_scores: list[MarketEvidenceScore] = []
        self.names = {p.key: p.name for p in debate.positions}
        self.sources = MarketSources(debate) if debate.sources is not None else None
        """The documents beside the KB (``--sources``; ``moot.formats.market.sources``)."""

    # ---- prompts --------------------------------------------------------------------

    def _messages(self, agent: Agent, round_name: str, prompt: str, **values: Any) -> list[Message]:
        debate = self.debate
        lang = debate.lang
        common = {
            "round": round_name,
            "stance": agent.stance,
            "topic": debate.topic,
            "lens_label": agent.lens.label[lang],
            "focus": agent.focus[lang],
            "horizon": agent.lens.horizon.text(lang),
            "modules": list(agent.modules),
            "descriptions": module_descriptions(lang, self.inputs.kb.meta.bar),
            "as_of": self.inputs.kb.meta.as_of.isoformat(),
            "synthetic": self.inputs.kb.meta.synthetic,
            "data": self.data[agent.id],
            **values,
        }
        return [
            Message("system", debate.render("analyst_system", **common)),
            Message("user", debate.render(prompt, **common)),
        ]

    # ---- round 1: openings ----------------------------------------------------------

    async def _opening(self, index: int, agent: Agent) -> list[MarketArgument]:
        debate = self.debate
        role = role_of(agent)
        sources = self.sources
        passages = sources.passages(agent, role) if sources is not None else ()
        reply_type: type[OpeningReply] | type[SourcedOpeningReply] = OpeningReply
        spec = debate.spec_for(role, output_spec(OpeningReply))
        if sources is not None and passages:
            reply_type, spec = SourcedOpeningReply, sources.spec(role, passages)
        once = sources.reasker(role) if sources is not None else None
        count = spec.json_schema["properties"]["arguments"]
        claim = count["items"]["properties"]["claim"]["maxLength"]
        kb_slice = self.slices[agent.id]
        offered = passages if reply_type is SourcedOpeningReply else ()
        data = OpeningCall(agent, kb_slice, count["minItems"], count["maxItems"], offered)

        memo: dict[int, tuple[OpeningReply | SourcedOpeningReply, list[Checked]]] = {}

        def checked(reply: OpeningReply | SourcedOpeningReply) -> list[Checked]:
            if id(reply) in memo and memo[id(reply)][0] is reply:
                return memo[id(reply)][1]
            found = [
                check_fields(
                    [
                        ("claim", a.claim),
                        ("evidence", a.evidence),
                        *((f"counterpoints[{n}]", c) for n, c in enumerate(a.counterpoints, 1)),
                    ],
                    kb_slice,
                    self.inputs.kb,
                    documents=sources.documents(a)
                    if sources is not None and isinstance(a, SourcedArgumentDraft)
                    else (),
                )
                for a in reply.arguments
            ]
            memo[id(reply)] = (reply, found)
            return found

        def rules(reply: OpeningReply | SourcedOpeningReply) -> list[Any]:
            drafts = list(reply.arguments)  # a sourced argument is an argument draft
            plain = reply if isinstance(reply, OpeningReply) else OpeningReply(arguments=drafts)
            problems: list[Any] = check_opening(
                plain, [c.record.checked for c in checked(reply)], debate.lang
            )
            if sources is not None and once is not None and isinstance(reply, SourcedOpeningReply):
                problems += sources.problems(reply, once)
            return problems

        reply, _ = await debate.ask(
            role,
            "opening",
            self._messages(
                agent,
                "opening",
                "opening",
                min_args=data.min_args,
                max_args=data.max_args,
                max_claim=claim,
                passages=offered,
            ),
            reply_type,
            spec,
            check=rules,
            data=data,
        )
        arguments = []
        for n, (draft, check) in enumerate(zip(reply.arguments, checked(reply), strict=True), 1):
            ident = argument_id(agent, index, n)
            self.reports[ident] = check.report
            cited = (
                sources.keep(ident, draft)
                if sources is not None and isinstance(draft, SourcedArgumentDraft)
                else []
            )
            arguments.append(
                MarketArgument(
                    id=ident,
                    agent=agent.id,
                    side=agent.stance,
                    lens=agent.lens.name,
                    claim=draft.claim,
                    evidence=draft.evidence,
                    confidence=draft.confidence / 100,
                    counterpoints=list(draft.counterpoints),
                    check=check.record,
                    citations=cited,
                )
            )
        return arguments

    # ---- round 2: cross-examinations ------------------------------------------------

    async def _cross_examine(
        self, agent: Agent, arguments: list[MarketArgument]
    ) -> list[MarketChallenge]:
        debate = self.debate
        role = role_of(agent)
        opponents = self.inputs.panel.opponents(agent.id)
        opposing = tuple(a for a in arguments if a.agent in opponents)
        target_ids = tuple(a.id for a in opposing)
        by_id = {a.id: a for a in opposing}
        kb_slice = self.slices[agent.id]
        sources = self.sources
        about = [a.claim for a in opposing]
        passages = sources.passages(agent, role, about) if sources is not None else ()
        sourced = sources if sources is not None and passages else None
        once = sourced.reasker(role) if sourced is not None else None
        data = CrossExamCall(
            agent, kb_slice, opposing, target_ids, min_attacks(len(target_ids)), passages
        )
        reply_type: type[CrossExamReply] | type[SourcedCrossExamReply] = (
            SourcedCrossExamReply if sourced is not None else CrossExamReply
        )
        spec = debate.spec_for(role, cross_exam_spec(output_spec(reply_type), list(target_ids)))
        if sourced is not None:
            spec = sourced.offer(role, spec, passages)

        def answers(target: str) -> list[str]:
            a = by_id.get(target.upper())
            return [a.claim, a.evidence, *a.counterpoints] if a else []

        memo: dict[int, tuple[CrossExamReply | SourcedCrossExamReply, list[Checked]]] = {}

        def checked(reply: CrossExamReply | SourcedCrossExamReply) -> list[Checked]:
            if id(reply) in memo and memo[id(reply)][0] is reply:
                return memo[id(reply)][1]
            found = [
                check_fields(
                    [("reasoning", c.reasoning), ("new_evidence", c.new_evidence)],
                    kb_slice,
                    self.inputs.kb,
                    answers=answers(c.target_id),
                    documents=sourced.documents_of(c.citations)
                    if sourced is not None and isinstance(c, SourcedChallengeItem)
                    else (),
                )
                for c in reply.challenges
            ]
            memo[id(reply)] = (reply, found)
            return found

        def check(reply: CrossExamReply | SourcedCrossExamReply) -> list[Any]:
            flagged = {
                n: unsupported_texts(c.record, "new_evidence") for n, c in enumerate(checked(reply))
            }
            if isinstance(reply, SourcedCrossExamReply):
                problems: list[Any] = check_cross_exam(
                    reply.plain(), target_ids, flagged, debate.lang
                )
                if sourced is not None and once is not None:
                    where = [
                        (f"challenges[{n}]", c.citations) for n, c in enumerate(reply.challenges, 1)
                    ]
                    problems += sourced.round_problems(where, once)
                return problems
            return check_cross_exam(reply, target_ids, flagged, debate.lang)

        reply, _ = await debate.ask(
            role,
            "cross_examination",
            self._messages(
                agent,
                "cross_examination",
                "cross_exam",
                opposing=opposing,
                target_ids=target_ids,
                opponents=list(opponents),
                min_attacks=data.min_attacks,
                passages=passages if sourced is not None else (),
            ),
            reply_type,
            spec,
            check=check,
            data=data,
        )
        results = dict(
            zip(
                (c.target_id.upper() for c in reply.challenges),
                zip(reply.challenges, checked(reply), strict=True),
                strict=True,
            )
        )
        challenges = []
        for n, target in enumerate(target_ids, 1):
            item, record = results[target]
            unit, cited = None, []
            if sourced is not None and isinstance(item, SourcedChallengeItem):
                unit = challenge_unit(agent, n)
                said = f"{item.reasoning} {item.new_evidence}"
                cited = sourced.keep_round(
                    unit, item.citations, "cross_examination", agent.stance, said
                )
            challenges.append(
                MarketChallenge(
                    by=agent.id,
                    side=agent.stance,
                    target_id=target,
                    target_agent=by_id[target].agent,
                    challenge_type=item.challenge_type,
                    reasoning=item.reasoning,
                    new_evidence=item.new_evidence,
                    check=record.record,
                    unit=unit,
                    citations=cited,
                )
            )
        return challenges

    # ---- round 3: closings ----------------------------------------------------------

    async def _closing(
        self, agent: Agent, arguments: list[MarketArgument], challenges: list[MarketChallenge]
    ) -> MarketClosing:
        debate = self.debate
        role = role_of(agent)
        own = tuple(a for a in arguments if a.agent == agent.id)
        own_ids = {a.id for a in own}
        received = tuple(c for c in challenges if c.target_id in own_ids)
        given = tuple(c for c in challenges if c.by == agent.id)
        stance_words = market_stance_words(debate.settings.profile(role).stance_words)
        kb_slice = self.slices[agent.id]
        sources = self.sources
        about = [a.claim for a in own] + [c.reasoning for c in received]
        passages = sources.passages(agent, role, about) if sources is not None else ()
        sourced = sources if sources is not None and passages else None
        once = sourced.reasker(role) if sourced is not None else None
        data = ClosingCall(agent, kb_slice, own, received, given, stance_words, passages)
        reply_type: type[ClosingReply] = (
            SourcedClosingReply if sourced is not None else ClosingReply
        )
        spec = debate.spec_for(role, output_spec(reply_type))
        if sourced is not None:
            spec = sourced.offer(role, spec, passages)

        def rules(reply: ClosingReply) -> list[Any]:
            problems: list[Any] = check_closing(reply, debate.lang, stance_words)
            if sourced is not None and once is not None and isinstance(reply, SourcedClosingReply):
                problems += sourced.round_problems([("closing", reply.citations)], once)
            return problems

        reply, _ = await debate.ask(
            role,
            "closing",
            self._messages(
                agent,
                "closing",
                "closing",
                data="",  # the closing cites what its arguments cited: no slice again
                own=own,
                received=received,
                given=given,
                stance_words=stance_words,
                passages=passages if sourced is not None else (),
            ),
            reply_type,
            spec,
            check=rules,
            data=data,
        )
        stance = join_sentences(list(reply.final_stance), debate.lang)
        answered = [text for c in received for text in (c.reasoning, c.new_evidence) if text]
        check = check_fields(
            [
                *((f"refined_claims[{n}]", t) for n, t in enumerate(reply.refined_claims, 1)),
                *((f"concessions[{n}]", t) for n, t in enumerate(reply.concessions, 1)),
                ("final_stance", stance),
            ],
            kb_slice,
            self.inputs.kb,
            answers=answered,
            documents=sourced.documents_of(reply.citations)
            if sourced is not None and isinstance(reply, SourcedClosingReply)
            else (),
        )
        unit, cited = None, []
        if sourced is not None and isinstance(reply, SourcedClosingReply):
            unit = closing_unit(agent)
            closing_text = " ".join([*reply.refined_claims, stance])
            cited = sourced.keep_round(unit, reply.citations, "closing", agent.stance, closing_text)
        return MarketClosing(
            agent=agent.id,
            side=agent.stance,
            refined_claims=list(reply.refined_claims),
            concessions=list(reply.concessions),
            final_stance=stance,
            conviction_change=reply.conviction_change,
            check=check.record,
            unit=unit,
            citations=cited,
        )

    # ---- the baseline and the judge -------------------------------------------------

    async def _baseline(self) -> MarketBaseline:
        debate = self.debate
        kb = self.inputs.kb
        values = {
            "topic": debate.topic,
            "kb": render_slice(kb),
            "synthetic": kb.meta.synthetic,
        }
        reply, _ = await debate.ask(
            "baseline",
            "baseline",
            [
                Message("system", debate.render("baseline_system", **values)),
                Message("user", debate.render("baseline", **values)),
            ],
            BaselineReply,
            debate.spec_for("baseline", output_spec(BaselineReply)),
            check=lambda r: check_baseline(r, debate.lang),
            data=BaselineCall(kb),
        )
        check = check_fields([("reasoning", reply.reasoning)], kb)
        probability = reply.probability_up / 100
        allowed = debate.profile_for("baseline").rule_reasks
        max_reasks = debate.settings.max_reasks
        return MarketBaseline(
            direction=reply.direction,
            probability_up=probability,
            reasoning=reply.reasoning,
            check=check.record,
            contradicts=contradicts(reply.direction, probability),
            reasks_allowed=max_reasks
            if allowed is None or debate.settings.strict_rules
            else min(allowed, max_reasks),
        )

    def judge_transcript(
        self,
        arguments: list[MarketArgument],
        challenges: list[MarketChallenge],
        closings: list[MarketClosing],
        order: list[str],
    ) -> str:
        """The debate as the judge reads it: the whole KB, then every round, the
        positions in ``order``."""
        rank = {key: n for n, key in enumerate(order)}
        return self.debate.render(
            "judge_transcript",
            kb=render_slice(self.inputs.kb),
            names=self.names,
            arguments=sorted(arguments, key=lambda a: rank[a.side]),
            unsupported={a.id: unsupported_texts(a.check) for a in arguments},
            citations=self.sources.citations if self.sources is not None else {},
            challenges=sorted(challenges, key=lambda c: rank[c.side]),
            closings=sorted(closings, key=lambda c: rank[c.side]),
        )

    async def _synthesis(self, call: SynthesisCall, order: list[str]) -> MarketSynthesis:
        """The bull and bear cases and the judge's note, from the claims, the challenge
        types and the closings (the cases as they stood; the judge has the detail)."""
        debate = self.debate
        rank = {key: n for n, key in enumerate(order)}
        transcript = debate.render(
            "synthesis_transcript",
            names=self.names,
            arguments=sorted(call.arguments, key=lambda a: rank[a.side]),
            challenges=sorted(call.challenges, key=lambda c: rank[c.side]),
            closings=sorted(call.closings, key=lambda c: rank[c.side]),
        )
        values = {"topic": debate.topic, "transcript": transcript}
        reply, _ = await debate.ask(
            "judge",
            "synthesis",
            [
                Message("system", debate.render("synthesis_system", **values)),
                Message("user", debate.render("synthesis", **values)),
            ],
            SynthesisReply,
            debate.spec_for("judge", output_spec(SynthesisReply)),
            data=call,
        )
        check = check_fields(
            [
                ("bull_case", reply.bull_case),
                ("bear_case", reply.bear_case),
                ("judge_note", reply.judge_note),
            ],
            self.inputs.kb,
        )
        return MarketSynthesis(
            bull_case=reply.bull_case,
            bear_case=reply.bear_case,
            judge_note=reply.judge_note,
            check=check.record,
        )

    def _penalise(self, judge: str, unit: str, scores: Mapping[str, int]) -> dict[str, int]:
        """The unsupported-number rule on one judge run's scores of one argument."""
        report = self.reports.get(unit)
        if report is None or "evidence" not in scores:
            return dict(scores)
        raw = scores["evidence"]
        penalised = int(penalised_evidence(raw, report))
        if self.sources is not None:
            penalised = self.sources.penalised(unit, penalised)
        self.evidence_scores.append(
            MarketEvidenceScore(
                judge=judge,
                argument_id=unit,
                raw=raw,
                penalised=penalised,
                unsupported=len(report.unsupported),
            )
        )
        return {**scores, "evidence": penalised}

    def _analysts(self) -> list[MarketAnalyst]:
        lang = self.debate.lang
        return [
            MarketAnalyst(
                id=a.id,
                role=role_of(a),
                side=a.stance,
                lens=a.lens.name,
                lens_label=a.lens.label[lang],
                modules=list(a.modules),
                horizon=a.lens.horizon.text(lang),
                opponents=list(self.inputs.panel.opponents(a.id)),
            )
            for a in self.agents
        ]

    # ---- the run --------------------------------------------------------------------

    async def run(self) -> Record:
        debate = self.debate
        openings_wave = first_wave_with_classification(
            debate, "opening", [self._opening(n, a) for n, a in enumerate(self.agents, 1)]
        )
        first: list[Awaitable[Any]] = [openings_wave]
        if self.inputs.baseline:
            first.append(debate.wave("baseline", [self._baseline()]))
        done = await gather_wave(first)
        arguments = [a for own in cast(list[list[MarketArgument]], done[0]) for a in own]
        baseline = cast(list[MarketBaseline], done[1])[0] if self.inputs.baseline else None
        debate.progress["arguments"] = [a.model_dump(mode="json") for a in arguments]
        if self.sources is not None:
            self.sources.finish({a.id: a.side for a in arguments})
        if baseline is not None:
            debate.progress["baseline"] = baseline.model_dump(mode="json")

        exams = await debate.wave(
            "cross_examination", [self._cross_examine(a, arguments) for a in self.agents]
        )
        challenges = [c for own in exams for c in own]
        if self.sources is not None:
            self.sources.finish_round([c.unit for c in challenges])
        debate.progress["challenges"] = [c.model_dump(mode="json") for c in challenges]

        closings = await debate.wave(
            "closing", [self._closing(a, arguments, challenges) for a in self.agents]
        )
        if self.sources is not None:
            self.sources.finish_round([c.unit for c in closings])
        debate.progress["closings"] = [c.model_dump(mode="json") for c in closings]

        keys = debate.position_keys()
        # the swap rerun also reverses the reading order
        order = list(reversed(keys)) if debate.settings.swap_seeds else keys
        units = [
            JudgedUnit(
                id=a.id,
                side=a.side,
                claim=a.claim,
                responses={c.by: c.challenge_type for c in challenges if c.target_id == a.id},
            )
            for a in arguments
        ]
        call = SynthesisCall(self.inputs.kb, tuple(arguments), tuple(challenges), tuple(closings))
        verdict, synthesis = await gather_wave(
            [
                debate.judge(
                    units,
                    self.judge_transcript(arguments, challenges, closings, order),
                    rubric=MARKET,
                    standings=STANDINGS,
                    order=order,
                    unit=labels(debate.lang)["unit.argument"],
                    adjust=self._penalise,
                ),
                debate.wave("synthesis", [self._synthesis(call, order)]),
            ]
        )
        judgement, panel = cast(tuple[Any, Any], verdict)
        rank = {a.id: n for n, a in enumerate(arguments)}
        scores = sorted(self.evidence_scores, key=lambda s: (s.judge, rank[s.argument_id]))
        payload = MarketPayload(
            kb=kb_info(self.inputs.kb),
            analysts=self._analysts(),
            arguments=arguments,
            challenges=challenges,
            closings=closings,
            evidence_rule=RULE,
            evidence_scores=scores,
            synthesis=cast(list[MarketSynthesis], synthesis)[0],
            baseline=baseline,
        )
        return Record(payload, judgement, panel, list(debate.warnings))


def checks_of(payload: MarketPayload) -> list[tuple[str, MarketEvidenceCheck]]:
    """Every checked text of a debate, labelled: arguments, challenges, closings, the
    synthesis and the baseline."""
    found: list[tuple[str, MarketEvidenceCheck]] = [(a.id, a.check) for a in payload.arguments]
    found += [(f"{c.by} -> {c.target_id}", c.check) for c in payload.challenges]
    found += [(f"{c.agent} (closing)", c.check) for c in payload.closings]
    found.append(("synthesis", payload.synthesis.check))
    if payload.baseline is not None:
        found.append(("baseline", payload.baseline.check))
    return found


__all__ = ["MARKET", "MAX_ARGUMENTS", "MAX_CLAIM", "MarketRounds", "checks_of"]
