"""The market format: eight analysts (four lenses x bull and bear) argue from one
knowledge base, code checks every number they cite, a judge scores the arguments.

``moot run TOPIC --format market --kb PATH|demo``. The positions are bull and bear;
each analyst's calls run as its own role (``bull:tech_bull``) on its position's
model. Each analyst sees only its slice of the data. Four sequential waves of model
calls: openings, cross-examinations (each pair, both directions, all at once),
closings, the judge with its market synthesis. Every number an argument or a
challenge cites is checked against the analyst's slice; unsupported ones are flagged
and lower the argument's evidence score by a documented rule. Documented in
docs/market.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from moot.briefing import Section
from moot.detectors.false_consensus import Concession, check_concessions
from moot.detectors.transcript import Flag, Transcript, Turn
from moot.errors import ConfigError
from moot.formats.base import Debate, Format, Record, as_sent
from moot.formats.common.transcripts import unit_transcript
from moot.formats.market import labels as words
from moot.formats.market.briefing import market_sections
from moot.formats.market.inputs import (
    FIELDS,
    analysts_of,
    empty_slices,
    read_inputs,
    role_of,
    stored_options,
)
from moot.formats.market.payload import STANDINGS, MarketPayload
from moot.formats.market.replies import (
    MAX_ARGUMENTS,
    MIN_ARGUMENTS,
    BaselineReply,
    ClosingReply,
    CrossExamReply,
    OpeningReply,
    SynthesisReply,
    cross_exam_spec,
)
from moot.formats.market.rounds import MARKET, MarketRounds
from moot.judging.judge import judge_spec
from moot.llm.schemas import output_spec
from moot.llm.types import OutputSpec
from moot.schema import DebateResult, Position

MAX_JUDGED = 60
"""The most units one judge reply assesses (``moot.judging.replies``)."""
_STANCES = {
    # without the side names: argument ids (TECH_BULL-1) would make them shared terms
    "en": {"bull": "The market will rise. {topic}", "bear": "The market will fall. {topic}"},
    "zh": {"bull": "市场将上涨。{topic}", "bear": "市场将下跌。{topic}"},
}


class MarketFormat(Format):
    name = "market"
    summary: ClassVar[dict[str, str]] = {
        "en": "8 analysts (4 lenses x bull/bear) argue from a knowledge base (--kb);"
        " code checks every cited number; judge + market synthesis; 4 waves",
        "zh": "8 位分析师（4 个视角 x 多/空）依据知识库（--kb）辩论；代码核对每个引用的数字；"
        "裁判 + 市场综合；4 轮调用",
    }
    min_positions = 2
    max_positions = 2
    rubric = MARKET
    standings = STANDINGS
    payload_type = MarketPayload
    prompts = "moot.formats.market"
    html_view = "moot.formats.market.html:MarketView"
    fields = FIELDS
    side_names = ("bull", "bear")
    command_modules = ("moot.formats.market.commands",)
    source_tokens = 600
    """Each analyst's opening is also given passages of the documents of ``--sources``
    (beside its KB slice), and its arguments cite them (``moot.formats.market.sources``)."""

    def positions(self, sides: Sequence[str], lang: str) -> list[Position]:
        if sides:
            raise ConfigError(
                "the market format's positions are bull and bear; --sides does not apply"
            )
        L = words.labels(lang)
        return [
            Position(key="bull", name=L["side.bull"], prefix="BULL"),
            Position(key="bear", name=L["side.bear"], prefix="BEAR"),
        ]

    def roles(self, positions: Sequence[Position], options: Mapping[str, Any]) -> dict[str, str]:
        """Each analyst's role (``bull:tech_bull``) on its side's model, and the
        baseline (when asked for) on the judge's."""
        panel = analysts_of(options)
        roles: dict[str, str] = {role_of(a): a.stance for a in panel.agents.values()}
        if options.get("baseline"):
            roles["baseline"] = "judge"
        return roles

    def stored_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The KB file read into its JSON data, the analysts file into its tables."""
        return stored_options(options)

    def widest_wave(
        self,
        positions: Sequence[Position],
        options: Mapping[str, Any],
        *,
        judge_calls: int,
        classifier: bool,
    ) -> int:
        """Every analyst's opening with the baseline and the panel's classification, or
        the judges with the synthesis."""
        return max(len(self.roles(positions, options)) + classifier, judge_calls + 1)

    def check_options(self, options: Mapping[str, Any], positions: int) -> list[str]:
        notes = super().check_options(options, positions)
        inputs = read_inputs(options)
        if len(inputs.agents) * MAX_ARGUMENTS > MAX_JUDGED:
            raise ConfigError(
                f"the market format judges at most {MAX_JUDGED} arguments: at most"
                f" {MAX_JUDGED // MAX_ARGUMENTS} analysts, not {len(inputs.agents)}"
            )
        empty, more = empty_slices(inputs)
        if empty:
            raise ConfigError(
                f"analyst(s) {', '.join(empty)} would argue from nothing: the knowledge base"
                " has none of their modules"
            )
        return notes + more

    async def run(self, debate: Debate) -> Record:
        return await MarketRounds(debate, read_inputs(debate.options)).run()

    def labels(self, lang: str) -> Mapping[str, str]:
        """The market's sides, rounds, answers, rules, sections and columns."""
        return words.labels(lang)

    def schemas(self) -> list[OutputSpec]:
        """Every shape of schema a market debate of the built-in analysts can send: the
        openings, the closings, the synthesis and the baseline; a cross-examination of
        each number of opposing arguments, from two (one opponent's fewest) to eight
        (two opponents' most); the judge's for each number of arguments eight analysts
        can make (two to four each). The argument ids in them are representative: a
        debate sends the same shapes with its own ids."""
        specs = [
            output_spec(OpeningReply),
            output_spec(ClosingReply),
            output_spec(SynthesisReply),
            output_spec(BaselineReply),
        ]
        for count in range(MIN_ARGUMENTS, 2 * MAX_ARGUMENTS + 1):
            ids = [f"TECH_BEAR-{n}" for n in range(1, count + 1)]
            specs.append(cross_exam_spec(output_spec(CrossExamReply), ids))
        agents = [f"{lens}_{side}" for lens in ("TECH", "FUND", "MACRO", "SENTI")
                  for side in ("BULL", "BEAR")]  # fmt: skip
        for total in range(MIN_ARGUMENTS * len(agents), MAX_ARGUMENTS * len(agents) + 1):
            # the extra arguments go to the first analysts, one each
            extra = total - MIN_ARGUMENTS * len(agents)
            counts = [MIN_ARGUMENTS + extra // len(agents) + (i < extra % len(agents))
                      for i in range(len(agents))]  # fmt: skip
            ids = [f"{a}-{n}" for a, c in zip(agents, counts, strict=True) for n in range(1, c + 1)]
            specs.append(judge_spec(self.rubric, self.standings, ids))
        return as_sent(specs)

    def transcript(self, result: DebateResult) -> tuple[Transcript, list[str | None]]:
        """What the analysts argue, in speaking order, by position: each argument's
        claim, each challenge's reasoning, each closing stance; the judge's weighted
        score of an argument is the score of its turn.

        The data an argument or a challenge cites (``evidence``, ``new_evidence``) is
        left to the code's evidence check: both sides of a lens cite the same fields of
        the same data, and the openings are written at once, so the shared field names
        are no sign of one side taking up the other's case. Counterpoints are
        left out too: the protocol asks each analyst to state the other side's best
        point against itself, which is not stance drift."""
        body = MarketPayload.model_validate(result.body)
        turns: list[Turn] = []
        units: list[str | None] = []
        for a in body.arguments:
            turns.append(Turn(side=a.side, text=a.claim))
            units.append(a.id)
        for c in body.challenges:
            turns.append(Turn(side=c.side, text=c.reasoning))
            units.append(None)
        for closing in body.closings:
            turns.append(Turn(side=closing.side, text=closing.final_stance))
            units.append(None)
        stances = _STANCES[result.lang]
        sides = {p.key: stances[p.key].format(topic=result.topic) for p in result.positions}
        return unit_transcript(result, sides, turns, units)

    def extra_flags(self, result: DebateResult, transcript: Transcript) -> list[Flag]:
        """A concession in cross-examination that the conceding analyst's closing does
        not list, or whose target the judge ruled refuted (false consensus)."""
        body = MarketPayload.model_validate(result.body)
        first = len(body.arguments)
        concessions = [
            Concession(side=c.by, target=c.target_id, text=c.reasoning, turn=first + n)
            for n, c in enumerate(body.challenges)
            if c.challenge_type == "concede"
        ]
        flags = check_concessions(
            concessions,
            closing_concessions={c.agent: list(c.concessions) for c in body.closings},
            standings={row.argument_id: row.standing for row in result.judgement.trace},
            target_texts={a.id: a.claim for a in body.arguments},
            lang=result.lang,
        )
        side = {a.id: a.side for a in body.analysts}
        return [f.model_copy(update={"side": side.get(f.side or "", f.side)}) for f in flags]

    def briefing(self, result: DebateResult, labels: Mapping[str, str]) -> list[Section]:
        return market_sections(result, labels)
