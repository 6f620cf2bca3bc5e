"""The market format over documents (``--sources``): documents beside the knowledge
base.

The KB gives the numbers, the documents the narrative (an earnings call, a
central-bank statement). Each analyst's opening is given, besides its slice of the
KB, the passages most relevant to its stance, lens and the topic (within the
format's ``source_tokens``, scaled by its model profile), and each argument cites 1
to :data:`MAX_CITATIONS` of them (or ``none``: reasoning with no source) as
``{passage, quote, data_point}``, the passage ids offered as the schema's enum.

Every citation is checked by the citation verifier like any format's
(``moot.sources.citations.check``; the numbers of its data point must be in the
passage). The KB check of the argument's claim, evidence and counterpoints is
unchanged, the binding of numbers to their index and period included; only a number
the KB does not hold at all (``unsupported``) that a verified citation's passage
holds counts as the document's (``quoted``), not as an invented figure. A citation
that does not check out is re-asked once where rules are, then kept, listed and
penalised by the sources rule (``moot.sources.penalty``) after the KB's rule.

Cross-examinations and closings cite the same way: each challenge cites 1 to
:data:`MAX_CITATIONS` passages (the analyst's passages for the opposing arguments it
answers), a closing 1 to :data:`MAX_CITATIONS` (those for its own arguments and the
challenges it received); each citation checked, re-asked once, kept and listed under
the challenge's unit (``TECH_BULL-X2``: the analyst's answer to the second opposing
argument) or the closing's (``TECH_BULL-CLOSING``), its numbers counting as the
document's in the KB check as an opening's do. The penalty rule scores arguments
only: an unverified citation of a challenge or closing is listed, warned about and
shown to the judge, and costs no argument points.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from moot.formats.base import Debate
from moot.formats.market.data.analysts import Agent
from moot.formats.market.replies import (
    MAX_ARGUMENTS,
    MIN_ARGUMENTS,
    ArgumentDraft,
    ChallengeItem,
    ClosingReply,
    CrossExamReply,
    OpeningReply,
)
from moot.llm.schemas import output_spec
from moot.llm.structured import Problem
from moot.llm.types import OutputSpec
from moot.schema import SourceCitation
from moot.sources.citations import (
    QUOTE_CHARS,
    Cited,
    EvidenceDraft,
    ReaskOnce,
    check,
    items_of,
    kept_warnings,
    offer_passages,
    penalised_evidence,
)
from moot.sources.demo import demo_citation
from moot.sources.library import Passage
from moot.sources.retrieval import select

MAX_CITATIONS = 2
"""The most passages one market argument cites (its numbers come from the KB)."""


class SourcedArgumentDraft(ArgumentDraft):
    """An opening argument in a debate over documents: it also cites them."""

    citations: list[EvidenceDraft] = Field(min_length=1, max_length=MAX_CITATIONS)


class SourcedOpeningReply(BaseModel):
    model_config = ConfigDict(extra="forbid")

    arguments: list[SourcedArgumentDraft] = Field(
        min_length=MIN_ARGUMENTS, max_length=MAX_ARGUMENTS
    )


class SourcedChallengeItem(ChallengeItem):
    """A cross-examination answer in a debate over documents: it also cites them."""

    citations: list[EvidenceDraft] = Field(min_length=1, max_length=MAX_CITATIONS)


class SourcedCrossExamReply(BaseModel):
    model_config = ConfigDict(extra="forbid")

    challenges: list[SourcedChallengeItem] = Field(min_length=1, max_length=4 * MAX_ARGUMENTS)

    def plain(self) -> CrossExamReply:
        """The reply without its citations (what the cross-examination rules check)."""
        return CrossExamReply(
            challenges=[
                ChallengeItem(**c.model_dump(exclude={"citations"})) for c in self.challenges
            ]
        )


class SourcedClosingReply(ClosingReply):
    """A closing in a debate over documents: it also cites them."""

    citations: list[EvidenceDraft] = Field(min_length=1, max_length=MAX_CITATIONS)


def challenge_unit(agent: Agent, n: int) -> str:
    """The unit a challenge's citations are kept under: ``TECH_BULL-X2``, the analyst's
    answer to the ``n``-th opposing argument."""
    return f"{agent.id.upper()}-X{n}"


def closing_unit(agent: Agent) -> str:
    """The unit a closing's citations are kept under: ``TECH_BULL-CLOSING``."""
    return f"{agent.id.upper()}-CLOSING"


class MarketSources:
    """The documents of one market debate: what each analyst is given, and every
    citation its arguments make, checked."""

    def __init__(self, debate: Debate) -> None:
        if debate.sources is None:
            raise ValueError("a market debate without documents has no sources hook")
        self.debate = debate
        self.library = debate.sources
        self.citations: dict[str, list[SourceCitation]] = {}
        """Each unit's checked citations, by argument, challenge or closing unit."""
        self.rounds: dict[str, tuple[str, str]] = {}
        """The round and side of each challenge's and closing's unit."""

    def passages(self, agent: Agent, role: str, about: Sequence[str] = ()) -> tuple[Passage, ...]:
        """The passages most relevant to the analyst's stance, lens and the topic, and
        to ``about`` (the arguments a cross-examination or closing speaks to)."""
        debate = self.debate
        budget = debate.format.source_tokens or 0
        scaled = int(budget * min(1.0, debate.settings.profile(role).chars))
        lang = debate.lang
        query = [debate.topic, agent.lens.label[lang], agent.focus[lang], *about]
        return tuple(select(self.library, query, scaled))

    def offer(self, role: str, spec: OutputSpec, passages: Sequence[Passage]) -> OutputSpec:
        """``spec`` with its citations' passage ids limited to the ones offered."""
        choices = self.debate.profile_for(role).quote_choices
        return offer_passages(spec, passages, choices=choices)

    def spec(self, role: str, passages: Sequence[Passage]) -> OutputSpec:
        """The sourced opening's schema as the role's profile asks for it, its passage
        ids limited to the ones offered."""
        return self.offer(
            role, self.debate.spec_for(role, output_spec(SourcedOpeningReply)), passages
        )

    def items(self, draft: SourcedArgumentDraft) -> list[Cited]:
        return items_of(self.library, draft.citations)

    def checks_of(
        self, unit: str, drafts: Sequence[EvidenceDraft], about: str = ""
    ) -> list[SourceCitation]:
        """Citations checked; each one's numbers are its data point's; ``about``: what
        they are cited for (for the support score)."""
        lang = self.debate.lang
        items = items_of(self.library, drafts)
        return [check(self.library, unit, i, "", lang, about=about) for i in items]

    def checks(self, unit: str, draft: SourcedArgumentDraft) -> list[SourceCitation]:
        """The argument's citations checked; each one's numbers are its data point's."""
        return self.checks_of(unit, draft.citations)

    def documents_of(self, drafts: Sequence[EvidenceDraft]) -> list[str]:
        """The text of the cited passages that check out: the numbers they hold are
        the documents', not figures the KB must hold."""
        texts = []
        for item, checked in zip(
            items_of(self.library, drafts), self.checks_of("", drafts), strict=True
        ):
            found = self.library.passage(item.passage) if item.passage else None
            if checked.status == "verified" and found is not None:
                texts.append(found.text)
        return texts

    def documents(self, draft: SourcedArgumentDraft) -> list[str]:
        """The text of the passages the argument cites and that check out."""
        return self.documents_of(draft.citations)

    def round_problems(
        self, found: Sequence[tuple[str, Sequence[EvidenceDraft]]], once: ReaskOnce
    ) -> list[Problem]:
        """The citations of a challenge or closing reply that do not check out (``found``:
        where each list of citations sits), as rule problems sent back once."""
        checks = [
            (f"{where}.citations[{k}]", c)
            for where, drafts in found
            for k, c in enumerate(self.checks_of("", drafts), start=1)
        ]
        return once(checks, self.debate.lang)

    def keep_round(
        self, unit: str, drafts: Sequence[EvidenceDraft], round_name: str, side: str, about: str
    ) -> list[Cited]:
        """A challenge's or closing's citations, kept checked under its unit (``about``:
        its text, for the support score)."""
        self.citations[unit] = self.checks_of(unit, drafts, about)
        self.rounds[unit] = (round_name, side)
        return items_of(self.library, drafts)

    def reasker(self, role: str) -> ReaskOnce:
        return ReaskOnce(self.debate.profile_for(role).rule_reasks != 0)

    def problems(self, reply: SourcedOpeningReply, once: ReaskOnce) -> list[Problem]:
        """The citations of a reply that do not check out, as rule problems (sent back
        once where rules are re-asked)."""
        found = [
            (f"arguments[{n}].citations[{k}]", c)
            for n, a in enumerate(reply.arguments, start=1)
            for k, c in enumerate(self.checks("", a), start=1)
        ]
        return once(found, self.debate.lang)

    def keep(self, unit: str, draft: SourcedArgumentDraft) -> list[Cited]:
        """The argument's citations, kept checked under its id."""
        about = f"{draft.claim} {draft.evidence}"
        self.citations[unit] = self.checks_of(unit, draft.citations, about)
        return self.items(draft)

    def penalised(self, unit: str, evidence: int) -> int:
        """An argument's evidence score (after the KB's rule) under the sources rule."""
        citations = self.citations.get(unit, [])
        return penalised_evidence(evidence, citations) if citations else evidence

    def finish(self, sides: dict[str, str]) -> None:
        """Every citation into the debate's ``sources`` section, in argument order, and
        a warning for each kept although it does not check out."""
        debate = self.debate
        debate.citations = [c for unit in sides for c in self.citations.get(unit, [])]
        debate.warnings += kept_warnings("opening", sides, debate.citations)

    def finish_round(self, units: Sequence[str | None]) -> None:
        """The citations of a round's challenges or closings (``units``, in the order
        of the result) into the ``sources`` section, and a warning for each kept
        although it does not check out."""
        debate = self.debate
        for unit in units:
            if unit is None or unit not in self.rounds:
                continue
            round_name, side = self.rounds[unit]
            kept = self.citations.get(unit, [])
            debate.citations += kept
            debate.warnings += kept_warnings(round_name, {unit: side}, kept)


def demo_sourced(reply: OpeningReply, passages: Sequence[Passage]) -> SourcedOpeningReply:
    """The offline demo's opening over documents: each argument also cites one of the
    passages it was given, in turn, copied exactly (so its citations check out)."""
    return SourcedOpeningReply(
        arguments=[
            SourcedArgumentDraft(
                **draft.model_dump(),
                citations=[demo_citation(passages[n % len(passages)], QUOTE_CHARS)],
            )
            for n, draft in enumerate(reply.arguments)
        ]
    )


def demo_sourced_challenges(
    reply: CrossExamReply, passages: Sequence[Passage]
) -> SourcedCrossExamReply:
    """The offline demo's cross-examination over documents: each answer cites one of
    the passages it was given, in turn, copied exactly."""
    return SourcedCrossExamReply(
        challenges=[
            SourcedChallengeItem(
                **item.model_dump(),
                citations=[demo_citation(passages[n % len(passages)], QUOTE_CHARS)],
            )
            for n, item in enumerate(reply.challenges)
        ]
    )


def demo_sourced_closing(reply: ClosingReply, passages: Sequence[Passage]) -> SourcedClosingReply:
    """The offline demo's closing over documents, citing the first passage it was
    given, copied exactly."""
    return SourcedClosingReply(
        **reply.model_dump(), citations=[demo_citation(passages[0], QUOTE_CHARS)]
    )
