"""The structured format's rounds: opening -> cross-examination -> closing -> judge.

Each round is one wave of concurrent calls: every position's opening together, every
cross-examination together (they depend only on the openings), every closing
together, then the judge. Under a profile with ``argument_calls`` (the compact one) a
position's opening is one call per argument, all sent together, each from its own
angle (``prompts/*/angles.j2``: argument n takes line n, and its claim goes on from
the side's start with that line's first words, "because it would cost"); a claim
that nearly copies an earlier claim of its side (``rules.near_copy``, the side's
shared start left out) is asked for once more, with the side's claims shown as
already said; only then does the round take a further wave.
Each position answers every argument of every other position in cross-examination.
Each agent sees only what its round needs, not the whole history. Ids are assigned
here; every reply is validated before it is used.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from moot.formats.base import Debate, Record, first_wave_with_classification
from moot.formats.structured import rules
from moot.formats.structured.payload import (
    STANDINGS,
    Argument,
    Closing,
    CrossExamination,
    StanceChange,
    StructuredPayload,
)
from moot.formats.structured.replies import (
    MAX_CLAIM,
    ArgumentDraft,
    ClosingReply,
    CrossExamReply,
    OpeningReply,
    SourcedOpeningReply,
    closing_spec,
    cross_exam_spec,
)
from moot.formats.structured.sides import claim_prefix, options
from moot.i18n import labels
from moot.judging.judge import JudgedUnit
from moot.judging.rubric import GENERAL
from moot.llm.bounds import widen
from moot.llm.schemas import output_spec
from moot.llm.structured import Problem
from moot.llm.types import Message, OutputSpec
from moot.llm.waves import gather_wave
from moot.schema import SourceCitation
from moot.sources.citations import (
    NO_SOURCE,
    ReaskOnce,
    check,
    evidence_text,
    items_of,
    kept_warnings,
    offer_passages,
    penalise,
)
from moot.sources.library import Library, Passage
from moot.sources.retrieval import select
from moot.usable import join_usable

LEAD_SPACE = {"en": " ", "zh": ""}
"""What follows an angle's first words in a claim, by language."""


def reasoning_only(reply: SourcedOpeningReply) -> set[str]:
    """Where the evidence of each argument that cites no passage at all is
    (``arguments[2].evidence``): reasoning with no source is allowed and labelled in a
    debate over documents (docs/sources.md), so it is not sent back as vague evidence,
    which would push the model to mis-cite or to put an unchecked figure in it."""
    return {
        f"arguments[{n}].evidence"
        for n, a in enumerate(reply.arguments, start=1)
        if all(d.passage.strip().casefold() in {"", NO_SOURCE} for d in a.evidence)
    }


@dataclass(frozen=True)
class OpeningCall:
    """The ``data`` of an opening call."""

    position: str
    name: str
    min_args: int
    max_args: int
    passages: tuple[Passage, ...] = ()
    """The passages of the documents this side argues from (``--sources``)."""


@dataclass(frozen=True)
class ArgumentCall:
    """The ``data`` of one opening argument's call (a profile with ``argument_calls``)."""

    position: str
    name: str
    number: int
    """The argument's place in its side's opening, from 1."""
    angle: str
    said: tuple[str, ...] = ()
    """The side's earlier claims, shown as already said (asking again for a claim that
    nearly copied one of them)."""


@dataclass(frozen=True)
class CrossExamCall:
    """The ``data`` of a cross-examination call: the arguments to answer."""

    position: str
    opposing: tuple[Argument, ...]
    own: tuple[Argument, ...]
    target_ids: tuple[str, ...]


@dataclass(frozen=True)
class ClosingCall:
    """The ``data`` of a closing call: what happened to the position's arguments."""

    position: str
    own: tuple[Argument, ...]
    opposing: tuple[Argument, ...]
    received: tuple[CrossExamination, ...]
    given: tuple[CrossExamination, ...]
    own_ids: tuple[str, ...]
    stance_words: tuple[int, int]


class StructuredRounds:
    """One run of the structured format over a :class:`Debate`."""

    def __init__(self, debate: Debate) -> None:
        self.debate = debate
        self.prefixes = tuple(p.prefix for p in debate.positions)
        self.two_sided = [p.key for p in debate.positions] == ["pro", "con"]
        self.options = options(debate.topic, debate.lang) if self.two_sided else None
        """An "A or B" topic's options (``sides.options``): pro argues for the first,
        con for the second, and the prompts name them as positions."""
        self.citations: dict[str, list[SourceCitation]] = {}
        """Each argument's checked citations (a debate over documents)."""

    def _passages(self, position: str, queries: list[str]) -> tuple[Passage, ...]:
        """The passages most relevant to ``queries`` within the format's budget, scaled
        like the replies by the side's profile (none without documents)."""
        debate = self.debate
        budget = debate.format.source_tokens
        if debate.sources is None or budget is None:
            return ()
        scaled = int(budget * min(1.0, debate.settings.profile(position).chars))
        return tuple(select(debate.sources, queries, scaled))

    def _messages(self, position: str, prompt: str, **values: object) -> list[Message]:
        debate = self.debate
        profile = debate.settings.profile(position)
        name, other = debate.name_of(position), ""
        if self.options is not None:
            # each side argues for its option, as a position of its own would be
            name, other = self.options if position == "pro" else self.options[::-1]
        common = {
            "side": position,
            "name": name,
            "other": other,
            "two_sided": self.two_sided and self.options is None,
            "topic": debate.topic,
            "examples": profile.examples,
        }
        return [
            Message("system", debate.render("debater_system", **common)),
            Message("user", debate.render(prompt, **common, **values)),
        ]

    def _claim_start(
        self, position: str, spec: OutputSpec, lead: str = ""
    ) -> tuple[str, OutputSpec]:
        """The start every claim of ``position`` takes (empty unless its profile sets
        ``claim_prefix``), followed by ``lead`` (an angle's first words), and ``spec``
        constraining claims to it."""
        debate = self.debate
        if not debate.settings.profile(position).claim_prefix:
            return "", spec
        prefix = claim_prefix(debate.topic, debate.lang, position, self.two_sided) + lead
        prefixed = dataclasses.replace(spec, prefixes=(("claim", prefix),))
        return prefix, widen(prefixed, "claim", len(prefix), MAX_CLAIM)

    async def _opening(self, position: str) -> list[Argument]:
        if self.debate.sources is not None:
            return await self._sourced_opening(position, self.debate.sources)
        debate = self.debate
        if debate.settings.profile(position).argument_calls:
            return await self._opening_by_argument(position)
        prefix, spec = self._claim_start(
            position, debate.spec_for(position, output_spec(OpeningReply))
        )
        count = spec.json_schema["properties"]["arguments"]
        data = OpeningCall(position, debate.name_of(position), count["minItems"], count["maxItems"])
        reply, _ = await debate.ask(
            position,
            "opening",
            self._messages(
                position,
                "opening",
                min_args=data.min_args,
                max_args=data.max_args,
                claim_prefix=prefix,
                passages=(),
            ),
            OpeningReply,
            spec,
            check=lambda r: rules.check_opening(r, debate.lang, self.prefixes),
            data=data,
        )
        return self._numbered(position, reply.arguments)

    def _numbered(self, position: str, drafts: list[ArgumentDraft]) -> list[Argument]:
        """``drafts`` as ``position``'s arguments, with their ids."""
        id_prefix = next(p.prefix for p in self.debate.positions if p.key == position)
        return [
            Argument(
                id=f"{id_prefix}-{n}",
                side=position,
                claim=a.claim,
                reasoning=a.reasoning,
                evidence=a.evidence,
            )
            for n, a in enumerate(drafts, start=1)
        ]

    def _angles(self, position: str) -> list[tuple[str, str]]:
        """The angles of ``position``'s arguments, in order, each with the words its
        claim goes on with after the side's start (``angles.j2``: a line each, the
        angle and those words split by ``|``)."""
        # on an "A or B" topic both sides argue for an option: both from its gains
        two_sided = self.two_sided and self.options is None
        lines = self.debate.render("angles", side=position, two_sided=two_sided).splitlines()
        split = [line.partition("|") for line in lines if line.strip()]
        return [(angle.strip(), lead.strip()) for angle, _, lead in split]

    async def _argument(
        self, position: str, number: int, angle: tuple[str, str], said: tuple[str, ...]
    ) -> ArgumentDraft:
        """One opening argument of ``position``, asked for on its own."""
        debate = self.debate
        about, lead = angle
        prefix, spec = self._claim_start(
            position,
            debate.spec_for(position, output_spec(ArgumentDraft)),
            lead + LEAD_SPACE.get(debate.lang, " ") if lead else "",
        )
        reply, _ = await debate.ask(
            position,
            "opening",
            self._messages(
                position, "argument", claim_prefix=prefix, angle=about, said=said, number=number
            ),
            ArgumentDraft,
            spec,
            check=lambda r: rules.check_argument(r, debate.lang, self.prefixes),
            data=ArgumentCall(position, debate.name_of(position), number, about, said),
            place=f"arguments[{number}]",
        )
        return reply

    async def _opening_by_argument(self, position: str) -> list[Argument]:
        """A position's opening as one call per argument (see the module): as many
        arguments as its profile's opening asks at least, each from its own angle,
        all sent at once; a claim that nearly copies an earlier one of the side is
        asked for again with the earlier claims shown, and the new one kept unless it
        copies them too."""
        debate = self.debate
        spec = debate.spec_for(position, output_spec(OpeningReply))
        count = int(spec.json_schema["properties"]["arguments"]["minItems"])
        angles = self._angles(position)
        drafts = await gather_wave(
            [
                self._argument(position, n, angles[(n - 1) % len(angles)], ())
                for n in range(1, count + 1)
            ]
        )
        start = self._claim_start(position, spec)[0]
        for n in range(1, count):
            earlier = tuple(d.claim for d in drafts[:n])
            if rules.near_copy(drafts[n].claim, earlier, start):
                # a re-ask like any other: counted in the run's usage and its events
                debate.meter.record_reask(
                    debate.context(position, "opening", drafts[n]),
                    2,
                    [f"argument {n + 1} nearly copies an earlier claim of its side"],
                    ["near_copy"],
                )
                again = await self._argument(position, n + 1, angles[n % len(angles)], earlier)
                if not rules.near_copy(again.claim, earlier, start):
                    drafts[n] = again
        return self._numbered(position, drafts)

    async def _sourced_opening(self, position: str, library: Library) -> list[Argument]:
        """The opening of a debate over documents: the side is given the passages most
        relevant to its position, fenced as data, and cites them; every citation is
        checked (and a failing one re-asked where rules are) before it is kept."""
        debate = self.debate
        lang = debate.lang
        name = debate.name_of(position)
        stance = f"{debate.topic} {name}" if not self.two_sided else debate.topic
        passages = self._passages(position, [stance])
        prefix, spec = self._claim_start(
            position,
            offer_passages(
                debate.spec_for(position, output_spec(SourcedOpeningReply)),
                passages,
                choices=debate.profile_for(position).quote_choices,
            ),
        )
        count = spec.json_schema["properties"]["arguments"]
        data = OpeningCall(position, name, count["minItems"], count["maxItems"], passages)
        once = ReaskOnce(debate.profile_for(position).rule_reasks != 0)

        def checked(reply: SourcedOpeningReply) -> list[Problem]:
            drafts = [
                ArgumentDraft.model_construct(
                    claim=a.claim,
                    reasoning=a.reasoning,
                    evidence=evidence_text(items_of(library, a.evidence), lang),
                )
                for a in reply.arguments
            ]
            problems = [
                p
                for p in rules.check_opening(
                    OpeningReply.model_construct(arguments=drafts), lang, self.prefixes
                )
                if p.code != "evidence_vague" or p.where not in reasoning_only(reply)
            ]
            found = [
                (f"arguments[{n}].evidence[{k}]", check(library, "", item, a.claim, lang))
                for n, a in enumerate(reply.arguments, start=1)
                for k, item in enumerate(items_of(library, a.evidence), start=1)
            ]
            return problems + once(found, lang)

        reply, _ = await debate.ask(
            position,
            "opening",
            self._messages(
                position,
                "opening",
                min_args=data.min_args,
                max_args=data.max_args,
                claim_prefix=prefix,
                passages=passages,
            ),
            SourcedOpeningReply,
            spec,
            check=checked,
            data=data,
        )
        id_prefix = next(p.prefix for p in debate.positions if p.key == position)
        arguments = []
        for n, a in enumerate(reply.arguments, start=1):
            ident = f"{id_prefix}-{n}"
            items = items_of(library, a.evidence)
            about = f"{a.claim} {a.reasoning}"
            self.citations[ident] = [
                check(library, ident, item, a.claim, lang, about=about) for item in items
            ]
            arguments.append(
                Argument(
                    id=ident,
                    side=position,
                    claim=a.claim,
                    reasoning=a.reasoning,
                    evidence=evidence_text(items, lang),
                    citations=items,
                )
            )
        return arguments

    async def _cross_examine(
        self, position: str, arguments: list[Argument]
    ) -> list[CrossExamination]:
        debate = self.debate
        opposing = tuple(a for a in arguments if a.side != position)
        own = tuple(a for a in arguments if a.side == position)
        target_ids = tuple(a.id for a in opposing)
        all_ids = [a.id for a in arguments]
        reply, _ = await debate.ask(
            position,
            "cross_examination",
            self._messages(
                position,
                "cross_exam",
                opposing=opposing,
                own=own,
                target_ids=target_ids,
                names={p.key: p.name for p in debate.positions},
                passages=self._passages(position, [a.claim for a in opposing]),
            ),
            CrossExamReply,
            debate.spec_for(
                position, cross_exam_spec(output_spec(CrossExamReply), list(target_ids))
            ),
            check=lambda r: rules.check_cross_exam(
                r, target_ids, all_ids, debate.lang, self.prefixes
            ),
            data=CrossExamCall(position, opposing, own, target_ids),
        )
        by_target = {item.target_id.upper(): item for item in reply.responses}
        return [
            CrossExamination(
                by=position,
                target_id=t,
                response=by_target[t].response,
                reasoning=by_target[t].reasoning,
                follow_up=by_target[t].follow_up,
            )
            for t in target_ids
        ]

    async def _closing(
        self, position: str, arguments: list[Argument], cross: list[CrossExamination]
    ) -> Closing:
        debate = self.debate
        own = tuple(a for a in arguments if a.side == position)
        own_ids = tuple(a.id for a in own)
        received = tuple(c for c in cross if c.by != position and c.target_id in own_ids)
        given = tuple(c for c in cross if c.by == position)
        opposing = tuple(a for a in arguments if a.side != position)
        stance_words = debate.settings.profile(position).stance_words
        reply, _ = await debate.ask(
            position,
            "closing",
            self._messages(
                position,
                "closing",
                own=own,
                received=received,
                given=given,
                own_ids=own_ids,
                stance_words=stance_words,
            ),
            ClosingReply,
            debate.spec_for(position, closing_spec(output_spec(ClosingReply), list(own_ids))),
            check=lambda r: rules.check_closing(r, own_ids, debate.lang, stance_words),
            data=ClosingCall(position, own, opposing, received, given, own_ids, stance_words),
        )
        stood = {ident.upper(): value for ident, value in reply.unrefuted.items()}
        return Closing(
            side=position,
            concessions=list(reply.concessions),
            unrefuted=[i for i in own_ids if stood.get(i, False)],
            final_stance=join_usable(reply.final_stance, debate.lang),
            stance_change=StanceChange(
                changed=reply.stance_changed, reason=reply.stance_change_reason
            ),
        )

    def judge_transcript(
        self,
        arguments: list[Argument],
        cross: list[CrossExamination],
        closings: list[Closing],
        order: list[str],
    ) -> str:
        """The debate as the judge reads it, positions in ``order``."""
        rank = {key: n for n, key in enumerate(order)}
        return self.debate.render(
            "judge_transcript",
            names={p.key: p.name for p in self.debate.positions},
            arguments=sorted(arguments, key=lambda a: rank[a.side]),
            cross=sorted(cross, key=lambda c: rank[c.by]),
            closings=sorted(closings, key=lambda c: rank[c.side]),
            citations=self.citations,
        )

    async def run(self) -> Record:
        debate = self.debate
        keys = debate.position_keys()
        openings = await first_wave_with_classification(
            debate, "opening", [self._opening(k) for k in keys]
        )
        arguments = [a for own in openings for a in own]
        debate.citations = [c for a in arguments for c in self.citations.get(a.id, [])]
        debate.warnings += kept_warnings(
            "opening", {a.id: a.side for a in arguments}, debate.citations
        )
        debate.progress["arguments"] = [a.model_dump() for a in arguments]

        exams = await debate.wave(
            "cross_examination", [self._cross_examine(k, arguments) for k in keys]
        )
        cross = [c for own in exams for c in own]
        debate.progress["cross_examinations"] = [c.model_dump() for c in cross]

        closings = await debate.wave("closing", [self._closing(k, arguments, cross) for k in keys])
        debate.progress["closings"] = [c.model_dump() for c in closings]

        # the swap rerun also reverses the reading order, so a verdict that survives
        # is not an artefact of position either
        order = list(reversed(keys)) if debate.settings.swap_seeds else keys
        units = [
            JudgedUnit(
                id=a.id,
                side=a.side,
                claim=a.claim,
                responses={c.by: c.response for c in cross if c.target_id == a.id},
            )
            for a in arguments
        ]
        judgement, panel = await debate.judge(
            units,
            self.judge_transcript(arguments, cross, closings, order),
            rubric=GENERAL,
            standings=STANDINGS,
            order=order,
            unit=labels(debate.lang)["unit.argument"],
            adjust=penalise(self.citations) if debate.sources is not None else None,
        )
        payload = StructuredPayload(
            arguments=arguments, cross_examinations=cross, closings=closings
        )
        return Record(payload, judgement, panel, list(debate.warnings))
