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
Cross-examinations and closings cite no passages.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from moot.formats.base import Debate
from moot.formats.market.data.analysts import Agent
from moot.formats.market.replies import MAX_ARGUMENTS, MIN_ARGUMENTS, ArgumentDraft, OpeningReply
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


class MarketSources:
    """The documents of one market debate: what each analyst is given, and every
    citation its arguments make, checked."""

    def __init__(self, debate: Debate) -> None:
        if debate.sources is None:
            raise ValueError("a market debate without documents has no sources hook")
        self.debate = debate
        self.library = debate.sources
        self.citations: dict[str, list[SourceCitation]] = {}
        """Each argument's checked citations, by argument id."""

    def passages(self, agent: Agent, role: str) -> tuple[Passage, ...]:
        """The passages most relevant to the analyst's stance, lens and the topic."""
        debate = self.debate
        budget = debate.format.source_tokens or 0
        scaled = int(budget * min(1.0, debate.settings.profile(role).chars))
        lang = debate.lang
        query = [debate.topic, agent.lens.label[lang], agent.focus[lang]]
        return tuple(select(self.library, query, scaled))

    def spec(self, role: str, passages: Sequence[Passage]) -> OutputSpec:
        """The sourced opening's schema as the role's profile asks for it, its passage
        ids limited to the ones offered."""
        base = self.debate.spec_for(role, output_spec(SourcedOpeningReply))
        choices = self.debate.profile_for(role).quote_choices
        return offer_passages(base, passages, choices=choices)

    def items(self, draft: SourcedArgumentDraft) -> list[Cited]:
        return items_of(self.library, draft.citations)

    def checks(self, unit: str, draft: SourcedArgumentDraft) -> list[SourceCitation]:
        """The argument's citations checked; each one's numbers are its data point's."""
        return [check(self.library, unit, item, "", self.debate.lang) for item in self.items(draft)]

    def documents(self, draft: SourcedArgumentDraft) -> list[str]:
        """The text of the passages the argument cites and that check out: the numbers
        they hold are the documents', not figures the KB must hold."""
        texts = []
        for item, checked in zip(self.items(draft), self.checks("", draft), strict=True):
            found = self.library.passage(item.passage) if item.passage else None
            if checked.status == "verified" and found is not None:
                texts.append(found.text)
        return texts

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
        self.citations[unit] = self.checks(unit, draft)
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
