"""The structured format: opening -> cross-examination -> closing -> judge.

Each position gives 3-5 numbered arguments (claim, causal reasoning, checkable
evidence); each answers every argument of every other position exactly once
(refute, challenge, concede or partial, with a follow-up question); each closes
with its concessions, which of its arguments stood and its final stance; a judge
scores every opening argument. Two positions (pro and con) by default, up to six.
Four sequential waves of model calls (under the compact profile each opening argument
is its own call, all in the first wave; a claim that nearly copies one of its side's
is asked for again, in a further wave).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from moot.briefing import Bullets, Section, Table
from moot.detectors.false_consensus import Concession, check_concessions
from moot.detectors.transcript import Flag, Transcript, Turn
from moot.formats.base import Debate, Format, Record, as_sent, example_ids
from moot.formats.common.stances import stances
from moot.formats.common.transcripts import unit_transcript
from moot.formats.structured.labels import LABELS
from moot.formats.structured.payload import STANDINGS, StanceChange, StructuredPayload
from moot.formats.structured.replies import (
    MAX_ARGUMENTS,
    MIN_ARGUMENTS,
    ClosingReply,
    CrossExamReply,
    OpeningReply,
    SourcedOpeningReply,
    closing_spec,
    cross_exam_spec,
)
from moot.formats.structured.rounds import StructuredRounds
from moot.formats.structured.sides import options as topic_options
from moot.i18n import in_language
from moot.judging.judge import judge_spec
from moot.judging.rubric import GENERAL
from moot.llm.schemas import output_spec
from moot.llm.types import OutputSpec
from moot.schema import DebateResult, Position


def _stance_change(change: StanceChange, labels: Mapping[str, str], lang: str) -> str:
    """A closing's stance change as the briefing shows it: changed or unchanged with
    the model's reason, or that it gave no usable reason (then no claim of change)."""
    if change.label == "stance.unstated":
        return labels[change.label]
    return labels[change.label] + ("：" if lang == "zh" else ": ") + change.reason


class StructuredFormat(Format):
    name = "structured"
    summary: ClassVar[dict[str, str]] = {
        "en": "opening -> cross-examination -> closing -> judge; 2-6 positions; 4 waves",
        "zh": "开场 -> 交叉质询 -> 总结 -> 裁判；2-6 方；4 轮调用",
    }
    rubric = GENERAL
    standings = STANDINGS
    payload_type = StructuredPayload
    prompts = "moot.formats.structured"
    html_view = "moot.formats.structured.html:StructuredView"
    source_tokens = 1200

    async def run(self, debate: Debate) -> Record:
        return await StructuredRounds(debate).run()

    def widest_wave(
        self,
        positions: Sequence[Position],
        options: Mapping[str, Any],
        *,
        judge_calls: int,
        classifier: bool,
    ) -> int:
        """Room for every opening argument at once where each is its own call (a
        profile with ``argument_calls`` asks for ``MIN_ARGUMENTS`` per position)."""
        return max(len(positions) * MIN_ARGUMENTS + classifier, judge_calls)

    def schemas(self) -> list[OutputSpec]:
        """Every schema a two-sided structured debate can send (either side's
        cross-examination and closing, for each number of arguments a position can
        have, the judge in each reading order), and a three-sided cross-examination."""
        counts = range(MIN_ARGUMENTS, MAX_ARGUMENTS + 1)
        specs = [output_spec(OpeningReply), output_spec(SourcedOpeningReply)]
        for count in counts:
            # two positions: each answers the other's arguments and closes on its own
            for prefix in ("PRO", "CON"):
                specs.append(
                    cross_exam_spec(output_spec(CrossExamReply), example_ids(prefix, count))
                )
                specs.append(closing_spec(output_spec(ClosingReply), example_ids(prefix, count)))
            specs.append(
                cross_exam_spec(
                    output_spec(CrossExamReply), example_ids("B", count) + example_ids("C", count)
                )
            )
        for pro in counts:
            for con in counts:
                ids = example_ids("PRO", pro) + example_ids("CON", con)
                specs.append(judge_spec(self.rubric, self.standings, ids))
                specs.append(judge_spec(self.rubric, self.standings, ids[pro:] + ids[:pro]))
        return as_sent(specs)

    def transcript(self, result: DebateResult) -> tuple[Transcript, list[str | None]]:
        """Arguments, cross-examination answers and closing stances in speaking order;
        the judge's weighted score of an argument is the score of its turn."""
        body = StructuredPayload.model_validate(result.body)
        lang = result.lang
        join = "" if lang == "zh" else " "
        turns: list[Turn] = []
        units: list[str | None] = []
        for a in body.arguments:
            turns.append(Turn(side=a.side, text=join.join([a.claim, a.reasoning, a.evidence])))
            units.append(a.id)
        for c in body.cross_examinations:
            turns.append(Turn(side=c.by, text=join.join([c.reasoning, c.follow_up])))
            units.append(None)
        for closing in body.closings:
            turns.append(Turn(side=closing.side, text=closing.final_stance))
            units.append(None)
        return unit_transcript(result, stances(result.positions, result.topic, lang), turns, units)

    def extra_flags(self, result: DebateResult, transcript: Transcript) -> list[Flag]:
        """A concession in cross-examination that the conceding position's closing
        does not list, or whose target the judge ruled refuted (false consensus)."""
        body = StructuredPayload.model_validate(result.body)
        turn_of = {
            (c.by, c.target_id): len(body.arguments) + n
            for n, c in enumerate(body.cross_examinations)
        }
        concessions = [
            Concession(
                side=c.by, target=c.target_id, text=c.reasoning, turn=turn_of[(c.by, c.target_id)]
            )
            for c in body.cross_examinations
            if c.response == "concede"
        ]
        return check_concessions(
            concessions,
            closing_concessions={c.side: list(c.concessions) for c in body.closings},
            standings={row.argument_id: row.standing for row in result.judgement.trace},
            target_texts={a.id: a.claim for a in body.arguments},
            owners={a.id: a.side for a in body.arguments},
            sides=[p.key for p in result.positions],
            lang=result.lang,
        )

    def named_for(self, positions: list[Position], topic: str, lang: str) -> list[Position]:
        """Pro and con on an "A or B" question (``sides.options``) named with the option
        each argues for: ``Pro (night train)``, ``Con (plane)``, so that every page,
        and the judge, reads which option a claim is for."""
        read = topic_options(topic, lang)
        if read is None or [p.key for p in positions] != ["pro", "con"]:
            return positions
        form = "{name}（{option}）" if lang == "zh" else "{name} ({option})"
        return [
            p.model_copy(update={"name": form.format(name=p.name, option=option)})
            for p, option in zip(positions, read, strict=True)
        ]

    def labels(self, lang: str) -> Mapping[str, str]:
        """The labels of what only this format does (``labels.py``)."""
        return in_language(LABELS, lang)

    def briefing(self, result: DebateResult, labels: Mapping[str, str]) -> list[Section]:
        body = StructuredPayload.model_validate(result.body)
        names = {p.key: p.name for p in result.positions}
        scores = {s.argument_id: s.weighted for s in result.judgement.scores}
        rows = []
        for row in result.judgement.trace:
            answered = "; ".join(
                f"{names.get(side, side)}: {labels.get('response.' + response, response)}"
                for side, response in row.responses.items()
            )
            rows.append(
                [
                    row.argument_id,
                    names.get(row.side, row.side),
                    row.claim,
                    answered or "-",
                    labels.get("standing." + row.standing, row.standing),
                    f"{scores[row.argument_id]:.2f}",
                    row.reason,
                ]
            )
        trace = Table(
            headers=[
                labels["col.id"],
                labels["col.side"],
                labels["col.claim"],
                labels["col.cross"],
                labels["col.standing"],
                labels["col.score"],
                labels["col.reason"],
            ],
            rows=rows,
            anchors=[row.argument_id for row in result.judgement.trace],
        )
        closings = Bullets(
            labels=[names.get(c.side, c.side) for c in body.closings],
            items=[
                f"({_stance_change(c.stance_change, labels, result.lang)}) {c.final_stance}"
                for c in body.closings
            ],
        )
        return [
            Section(labels["arguments"], [trace]),
            Section(labels["closings"], [closings]),
        ]
