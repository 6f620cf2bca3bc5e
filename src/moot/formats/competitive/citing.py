"""The competitive format's speeches over documents (``--sources``): each speech's
draft cites the passages most relevant to the topic and to the other side's last
speech, within the format's ``source_tokens`` scaled by the speaker's profile, as
``{passage, quote, data_point}`` items (the passage ids offered as the schema's
enum). Every citation is checked by the citation verifier like any format's; one that
does not check out is re-asked once where rules are, then kept, listed and penalised
on the judge's evidence score. The rewrites that fit a speech to its time cite the
same passages the same way (each rewrite's citations checked and re-asked once), and
a speech's citations are those of the text it delivers: the try chosen (or cut), a
continuation adding its own to the text's it continues. The documents also feed the
rehearsal (``moot.formats.competitive.rehearsal``)."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from moot.formats.base import Debate
from moot.formats.competitive.replies import (
    SourcedSpeechDraftReply,
    SourcedSpeechRewriteReply,
    SpeechDraftReply,
    SpeechRewriteReply,
)
from moot.formats.competitive.trees import Stage
from moot.formats.competitive.trees.sides import Side
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
)
from moot.sources.demo import demo_citation
from moot.sources.library import Passage
from moot.sources.retrieval import select


class SpeechSources:
    """The documents of one competitive run: what each speech is given, and its
    checked citations."""

    def __init__(self, debate: Debate) -> None:
        if debate.sources is None:
            raise ValueError("a competitive debate without documents cites nothing")
        self.debate = debate
        self.library = debate.sources

    def passages(self, side: Side, answering: str | None) -> tuple[Passage, ...]:
        """The passages most relevant to the topic, the side and the speech answered."""
        debate = self.debate
        budget = debate.format.source_tokens or 0
        scaled = int(budget * min(1.0, debate.settings.profile(side).chars))
        queries = [debate.topic, debate.name_of(side), answering or ""]
        return tuple(select(self.library, queries, scaled))

    def spec(self, side: Side, base: OutputSpec, passages: Sequence[Passage]) -> OutputSpec:
        """The sourced draft's schema: ``base`` with the evidence items, their passage
        ids limited to the ones offered."""
        choices = self.debate.profile_for(side).quote_choices
        return offer_passages(base, passages, choices=choices)

    def reasker(self, side: Side) -> ReaskOnce:
        return ReaskOnce(self.debate.profile_for(side).rule_reasks != 0)

    def checks(
        self, unit: str, evidence: Sequence[EvidenceDraft], about: str = ""
    ) -> list[SourceCitation]:
        """A draft's or a rewrite's citations checked; each one's numbers are its data
        point's; ``about``: the text they are cited for (for the support score)."""
        lang = self.debate.lang
        items = items_of(self.library, evidence)
        return [check(self.library, unit, i, "", lang, about=about) for i in items]

    def problems(self, reply: BaseModel, once: ReaskOnce) -> list[Problem]:
        """The citations of a sourced draft or rewrite that do not check out, as rule
        problems (sent back once where rules are re-asked)."""
        if not isinstance(reply, SourcedSpeechDraftReply | SourcedSpeechRewriteReply):
            return []
        checks = self.checks("", reply.evidence)
        return once([(f"evidence[{k}]", c) for k, c in enumerate(checks, 1)], self.debate.lang)

    def keep(
        self,
        unit: str,
        stage: Stage,
        side: Side,
        evidence: Sequence[EvidenceDraft],
        text: str = "",
    ) -> list[Cited]:
        """The citations of the text the speech delivers (its last rewrite's, or the
        draft's), their checks added to the debate's (with a warning for each kept
        although it does not check out)."""
        if not evidence:
            return []
        checks = self.checks(unit, evidence, text)
        self.debate.citations += checks
        self.debate.warnings += kept_warnings(stage, {unit: side}, checks)
        return items_of(self.library, evidence)


def by_unit(citations: Sequence[SourceCitation]) -> dict[str, list[SourceCitation]]:
    """Citations grouped by the speech that made them."""
    grouped: dict[str, list[SourceCitation]] = {}
    for c in citations:
        grouped.setdefault(c.unit, []).append(c)
    return grouped


def demo_cited(reply: SpeechDraftReply, passages: Sequence[Passage]) -> SourcedSpeechDraftReply:
    """The offline demo's draft citing the first passage it was given, copied exactly."""
    return SourcedSpeechDraftReply(
        **reply.model_dump(), evidence=[demo_citation(passages[0], QUOTE_CHARS)]
    )


def demo_recited(
    reply: SpeechRewriteReply, passages: Sequence[Passage], attempt: int
) -> SourcedSpeechRewriteReply:
    """The offline demo's rewrite citing one of the passages it was given (in turn,
    by attempt), copied exactly."""
    passage = passages[(attempt - 1) % len(passages)]
    return SourcedSpeechRewriteReply(
        **reply.model_dump(), evidence=[demo_citation(passage, QUOTE_CHARS)]
    )
