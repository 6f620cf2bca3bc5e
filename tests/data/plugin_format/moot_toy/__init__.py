"""A toy fifth debate format for moot, installed as a plugin (entry-point group
``moot.formats``): pro and con make one opening each, and an audience votes on the
motion before and after them; the judge scores the two openings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from moot.briefing import Section, Table
from moot.detectors.transcript import Transcript
from moot.errors import ConfigError
from moot.formats.base import Debate, Format, Record, as_sent, speech_transcript
from moot.formats.fields import FormatOption
from moot.judging.judge import judge_spec
from moot.judging.rubric import GENERAL
from moot.llm.schemas import output_spec
from moot.llm.types import OutputSpec
from moot.schema import DebateResult, Position
from moot_toy import rounds
from moot_toy.payload import STANDINGS, ToyPayload, labels
from moot_toy.replies import OpeningReply, VoteReply


class ToyFormat(Format):
    name = "toy"
    summary: ClassVar[dict[str, str]] = {
        "en": "one opening per side, an audience vote before and after (a plugin)",
        "zh": "每方一次开篇陈词，辩论前后各一次观众投票（插件）",
    }
    min_positions = 2
    max_positions = 2
    rubric = GENERAL
    standings = STANDINGS
    payload_type = ToyPayload
    prompts = rounds.PACKAGE
    html_view = "moot_toy.view:ToyView"
    fields = (
        FormatOption(
            "motion_note",
            "Toy: a note the audience reads before voting (unused by the demo).",
            flag="--toy-note",
        ),
    )

    def positions(self, sides: Sequence[str], lang: str) -> list[Position]:
        if sides:
            raise ConfigError("the toy format's positions are pro and con; --sides does not apply")
        return super().positions(sides, lang)

    def roles(self, positions: Sequence[Position], options: Mapping[str, Any]) -> dict[str, str]:
        return {rounds.AUDIENCE: "judge"}

    def register_extras(self) -> None:
        from moot_toy import demo

        demo.register()

    def labels(self, lang: str) -> Mapping[str, str]:
        return labels(lang)

    async def run(self, debate: Debate) -> Record:
        return await rounds.run(debate)

    def schemas(self) -> list[OutputSpec]:
        specs = [output_spec(OpeningReply), output_spec(VoteReply)]
        specs += [
            judge_spec(self.rubric, self.standings, ids)
            for ids in (["PRO-1", "CON-1"], ["CON-1", "PRO-1"])
        ]
        return as_sent(specs)

    def transcript(self, result: DebateResult) -> tuple[Transcript, list[str | None]]:
        body = ToyPayload.model_validate(result.body)
        return speech_transcript(result, [(o.id, o.side, o.text) for o in body.openings])

    def briefing(self, result: DebateResult, labels_: Mapping[str, str]) -> list[Section]:
        body = ToyPayload.model_validate(result.body)
        words = self.labels(result.lang)
        names = {p.key: p.name for p in result.positions}
        scores = {s.argument_id: s.weighted for s in result.judgement.scores}
        openings = Table(
            headers=[words["col.id"], words["col.side"], words["col.speech"], words["col.score"]],
            rows=[
                [o.id, names.get(o.side, o.side), o.text, f"{scores.get(o.id, 0.0):.2f}"]
                for o in body.openings
            ],
            anchors=[o.id for o in body.openings],
        )
        vote = Table(
            headers=[words["before"], words["after"], words["swing"]],
            rows=[[f"{body.before}%", f"{body.after}%", f"{body.swing:+d}"]],
        )
        return [Section(words["openings"], [openings]), Section(words["vote"], [vote])]
