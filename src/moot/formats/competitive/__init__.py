"""The competitive format: a timed pro/con debate in the style of TreeDebater.

Each side speaks an opening (240 s), a rebuttal (240 s) and a closing (120 s), pro
first in each stage. Before the debate, each debater grows a rehearsal tree (its
candidate claims and the rebuttals they invite, rated at temperature 0); during it, a
flow tree records every move and decides which moves are legal. Each speech is
planned as moves, drafted, rated by a simulated audience, revised, and fitted into
its time by rewriting it to word budgets measured with espeak-ng. An Oxford-style
audience votes before and after; the judge (or panel) scores every speech, and the
head-to-head by stage compares the two debaters' configurations (``--baseline``,
``--no-rehearsal-tree``, ``--no-flow-tree``). Always two positions, pro and con.
See docs/competitive.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from moot.briefing import Section
from moot.detectors.transcript import Transcript
from moot.errors import ConfigError
from moot.formats.base import Debate, Format, Record, as_sent, speech_transcript
from moot.formats.competitive.labels import LABELS
from moot.formats.competitive.options import FIELDS, parse_options
from moot.formats.competitive.payload import STANDINGS, CompetitivePayload
from moot.formats.competitive.replies import (
    audience_spec,
    claims_spec,
    draft_spec,
    rebuttals_spec,
    rewrite_spec,
    vote_spec,
    well_formed,
)
from moot.formats.competitive.rounds import CompetitiveRounds
from moot.formats.competitive.sections import sections
from moot.formats.competitive.speeches import speech_id
from moot.formats.competitive.trees import STAGES
from moot.formats.competitive.trees.sides import SIDES
from moot.formats.competitive.words import CATALOG
from moot.i18n import in_language
from moot.judging.judge import judge_spec
from moot.judging.rubric import GENERAL
from moot.judging.verdict import Signal
from moot.llm.types import OutputSpec
from moot.profiles import PROFILES
from moot.schema import DebateResult

REWRITE_WORDS = (30, 261, 522, 2000)
"""Word budgets whose rewrite schemas are registered as representatives."""


class CompetitiveFormat(Format):
    name = "competitive"
    summary: ClassVar[dict[str, str]] = {lang: words["summary"] for lang, words in CATALOG.items()}
    min_positions = 2
    max_positions = 2
    rubric = GENERAL
    standings = STANDINGS
    payload_type = CompetitivePayload
    prompts = "moot.formats.competitive"
    fields = FIELDS
    source_tokens = 1000
    """The documents of ``--sources`` feed the rehearsal (the prepared material)."""
    command_modules = ("moot.formats.competitive.commands",)
    html_view = "moot.formats.competitive.html:CompetitiveView"

    def check_options(self, options: Mapping[str, Any], positions: int) -> list[str]:
        notes = super().check_options(options, positions)
        parse_options(options)
        return notes

    async def run(self, debate: Debate) -> Record:
        if debate.position_keys() != list(SIDES):
            raise ConfigError("the competitive format is a pro/con debate: do not give --sides")
        return await CompetitiveRounds(debate, parse_options(debate.options)).run()

    def schemas(self) -> list[OutputSpec]:
        """Every schema a competitive debate can send, under every profile and language:
        the rehearsal's claims and rebuttals for each size, the writer's for each kind
        of stage, the rewrite, the audience, the vote, and the judge's in both reading
        orders. Two families vary with the debate: the writer's moves (the legal ones,
        sent, are a subset of the well-formed ones registered here) and the rewrite's
        paragraph count and lengths (registered for representative budgets, from a
        one-paragraph continuation to a speech longer than the schema holds)."""
        specs: list[OutputSpec] = []
        for profile in PROFILES.values():
            for lang in ("en", "zh"):
                for count in range(1, 6):
                    specs.append(claims_spec(profile, lang, count))
                    specs.append(rebuttals_spec(profile, lang, 1, count))
                    specs.append(rebuttals_spec(profile, lang, 2, count))
                specs.append(draft_spec(profile, lang, well_formed("opening", True)))
                specs.append(draft_spec(profile, lang, well_formed("opening", False)))
                specs.append(draft_spec(profile, lang, well_formed("rebuttal", False)))
                specs += [rewrite_spec(profile, lang, words) for words in REWRITE_WORDS]
                specs.append(rewrite_spec(profile, lang, sourced=True))
                specs += [
                    rewrite_spec(profile, lang),
                    audience_spec(profile, lang),
                    vote_spec(profile, lang),
                ]
        for sides in (SIDES, SIDES[::-1]):  # the swap rerun reads con first
            order = [speech_id(side, stage) for side in sides for stage in STAGES]
            specs += as_sent([judge_spec(self.rubric, self.standings, order)])
        return specs

    def transcript(self, result: DebateResult) -> tuple[Transcript, list[str | None]]:
        body = CompetitivePayload.model_validate(result.body)
        return speech_transcript(result, [(s.id, s.side, s.text) for s in body.speeches])

    def labels(self, lang: str) -> Mapping[str, str]:
        """The labels of what only this format does (``labels.py``)."""
        return in_language(LABELS, lang)

    def verdict_signals(self, result: DebateResult) -> list[Signal]:
        """The stages won (each stage goes to the side its speech scored higher in)
        and the audience vote (the side whose share grew more)."""
        body = CompetitivePayload.model_validate(result.body)
        won: dict[str, float] = {
            side: float(sum(r.winner == side for r in body.head_to_head)) for side in SIDES
        }
        stages_leader = max(SIDES, key=lambda side: won[side])
        stages = Signal(
            "stages",
            stages_leader if won["pro"] != won["con"] else None,
            won,
            len(body.head_to_head),
        )
        vote = Signal("vote", body.vote.winner, {s: body.vote.shift.get(s, 0.0) for s in SIDES})
        return [stages, vote]

    def briefing(self, result: DebateResult, labels: Mapping[str, str]) -> list[Section]:
        return sections(result, CompetitivePayload.model_validate(result.body), labels)
