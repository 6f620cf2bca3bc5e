"""The free-form format: ``--rounds N`` rounds (default 3) in which every position
speaks, answering the previous round's speeches; the judge scores every speech and
the positions' totals give the verdict. Two positions by default, up to six. The
positions of a round speak concurrently: ``N + 1`` sequential waves of model calls.
A speech that trips the repetition, topic-drift or stance-drift detector is asked
for once more, with the reason."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from moot.briefing import Bullets, Paragraph, Section, Table
from moot.detectors.transcript import Transcript
from moot.errors import ConfigError
from moot.formats.base import Debate, Format, Record, as_sent, speech_transcript
from moot.formats.fields import FormatOption
from moot.formats.freeform.labels import LABELS
from moot.formats.freeform.payload import STANDINGS, FreeformPayload, RoundScore
from moot.formats.freeform.replies import SourcedSpeechReply, SpeechReply, speech_spec
from moot.formats.freeform.rounds import FreeformRounds
from moot.i18n import in_language
from moot.judging.judge import judge_spec
from moot.judging.rubric import GENERAL
from moot.llm.schemas import output_spec
from moot.llm.types import OutputSpec
from moot.schema import DebateResult, Position

DEFAULT_ROUNDS = 3
ADVISED_ROUNDS = 4
MAX_ROUNDS = 10


class FreeformFormat(Format):
    name = "freeform"
    summary: ClassVar[dict[str, str]] = {
        "en": "N rounds (--rounds, default 3) where every position answers the last round;"
        " the judge scores every speech; 2-6 positions; N + 1 waves",
        "zh": "N 轮（--rounds，默认 3）：每方回应上一轮发言；裁判为每次发言打分；"
        "2-6 方；N + 1 轮调用",
    }
    fields: ClassVar[tuple[FormatOption, ...]] = (
        FormatOption(
            "rounds",
            "Rounds of the free-form format (default 3).",
            type=int,
            default=DEFAULT_ROUNDS,
            flag="--rounds",
            integer=True,
            minimum=1,
            maximum=MAX_ROUNDS,
        ),
        FormatOption(
            "judge_each_round",
            "The judge also scores every round's speeches after that round (a score"
            " trajectory); the verdict is still the final judgement.",
            type=bool,
            default=False,
            flag="--judge-each-round",
        ),
    )
    rubric = GENERAL
    standings = STANDINGS
    payload_type = FreeformPayload
    prompts = "moot.formats.freeform"
    html_view = "moot.formats.freeform.html:FreeformView"
    source_tokens = 800

    @staticmethod
    def rounds(options: Mapping[str, Any]) -> int:
        value = options.get("rounds")
        return DEFAULT_ROUNDS if value is None else int(value)

    @staticmethod
    def each_round(options: Mapping[str, Any]) -> bool:
        """Whether the judge scores every round (``--judge-each-round``)."""
        return options.get("judge_each_round") is True

    def check_options(self, options: Mapping[str, Any], positions: int) -> list[str]:
        notes = super().check_options(options, positions)
        value = options.get("judge_each_round")
        if value is not None and not isinstance(value, bool):
            raise ConfigError(
                "--judge-each-round (the freeform format's option judge_each_round) is"
                f" true or false, not {value!r}"
            )
        if self.rounds(options) > ADVISED_ROUNDS:
            notes.append(
                f"{self.rounds(options)} rounds: over {ADVISED_ROUNDS}, debates mostly repeat"
                " themselves and cost more"
            )
        return notes

    def widest_wave(
        self,
        positions: Sequence[Position],
        options: Mapping[str, Any],
        *,
        judge_calls: int,
        classifier: bool,
    ) -> int:
        """With ``--judge-each-round`` the previous round's score joins each round's
        speeches (and the last round's the final judgement): one call more."""
        widest = super().widest_wave(
            positions, options, judge_calls=judge_calls, classifier=classifier
        )
        if not self.each_round(options):
            return widest
        return max(widest, len(positions) + 1, judge_calls + 1)

    async def run(self, debate: Debate) -> Record:
        options = debate.options
        return await FreeformRounds(debate, self.rounds(options), self.each_round(options)).run()

    def schemas(self) -> list[OutputSpec]:
        """Every schema a free-form debate of the default length can send with two
        positions (each speech, the judge in each reading order) or with two to six
        named ones (reading in position order), and a speech answering one to five
        others. The judge reads each position's speeches together, in round order; with
        ``--judge-each-round`` it also scores one round's speeches at a time."""
        base = output_spec(SpeechReply)
        rounds = range(1, DEFAULT_ROUNDS + 1)
        sourced = output_spec(SourcedSpeechReply)
        specs = [speech_spec(base, []), speech_spec(sourced, []), speech_spec(sourced, ["CON-R1"])]
        for n in rounds[:-1]:
            specs += [speech_spec(base, [f"{prefix}-R{n}"]) for prefix in ("PRO", "CON")]
        specs += [speech_spec(base, [f"{p}-R1" for p in "BCDEF"[:n]]) for n in range(1, 6)]
        for order in (("PRO", "CON"), ("CON", "PRO")):
            ids = [f"{prefix}-R{n}" for prefix in order for n in rounds]
            specs.append(judge_spec(self.rubric, self.standings, ids))
        for positions in range(2, 7):
            ids = [f"{p}-R{n}" for p in "ABCDEF"[:positions] for n in rounds]
            specs.append(judge_spec(self.rubric, self.standings, ids))
            # --judge-each-round: one round's speeches
            specs.append(
                judge_spec(self.rubric, self.standings, [f"{p}-R1" for p in "ABCDEF"[:positions]])
            )
        specs.append(judge_spec(self.rubric, self.standings, ["PRO-R1", "CON-R1"]))
        return as_sent(specs)

    def transcript(self, result: DebateResult) -> tuple[Transcript, list[str | None]]:
        body = FreeformPayload.model_validate(result.body)
        return speech_transcript(result, [(s.id, s.side, s.text) for s in body.speeches])

    def labels(self, lang: str) -> Mapping[str, str]:
        """The labels of what only this format does (``labels.py``)."""
        return in_language(LABELS, lang)

    def briefing(self, result: DebateResult, labels: Mapping[str, str]) -> list[Section]:
        body = FreeformPayload.model_validate(result.body)
        names = {p.key: p.name for p in result.positions}
        scores = {s.argument_id: s.weighted for s in result.judgement.scores}
        standing = {row.argument_id: row.standing for row in result.judgement.trace}
        table = Table(
            headers=[
                labels["col.id"],
                labels["col.round"],
                labels["col.side"],
                labels["col.speech"],
                labels["col.standing"],
                labels["col.score"],
            ],
            rows=[
                [
                    s.id,
                    str(s.round),
                    names.get(s.side, s.side),
                    s.text,
                    labels.get("standing." + standing[s.id], standing[s.id]),
                    f"{scores[s.id]:.2f}",
                ]
                for s in body.speeches
            ],
            anchors=[s.id for s in body.speeches],
        )
        sections = [Section(labels["speeches"], [table])]
        if body.round_scores:
            sections.append(trajectory_section(body, names, labels))
        if body.detector_reasks:
            sections.append(
                Section(
                    labels["detector_reasks"],
                    [
                        Bullets(
                            labels=[r.speech_id for r in body.detector_reasks],
                            items=[
                                f"{', '.join(r.detectors)}: "
                                f"{labels['reask.fixed'] if r.fixed else labels['reask.not_fixed']}"
                                for r in body.detector_reasks
                            ],
                        )
                    ],
                )
            )
        return sections


def trajectory_section(
    body: FreeformPayload, names: Mapping[str, str], labels: Mapping[str, str]
) -> Section:
    """The judge's score after each round (``--judge-each-round``): a row per round,
    a column per position, who was ahead, and each position's change from the first
    round to the last."""
    keys = list(dict.fromkeys(k for r in body.round_scores for k in r.scores))

    def row(r: RoundScore) -> list[str]:
        ahead = names.get(r.leader, r.leader) if r.leader else labels["leader.none"]
        return [str(r.round), *(_score(r.scores.get(k)) for k in keys), ahead]

    first, last = body.round_scores[0], body.round_scores[-1]
    change = [
        labels["trajectory.change"],
        *(_change(first.scores.get(k), last.scores.get(k)) for k in keys),
        "",
    ]
    table = Table(
        headers=[labels["col.round"], *(names.get(k, k) for k in keys), labels["col.leader"]],
        rows=[*(row(r) for r in body.round_scores), change],
    )
    return Section(labels["trajectory"], [Paragraph(labels["trajectory.note"]), table])


def _score(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _change(first: float | None, last: float | None) -> str:
    return "-" if first is None or last is None else f"{last - first:+.2f}"
