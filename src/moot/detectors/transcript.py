"""The detectors' input and output types, and the liberal reader of transcript JSON.

A transcript is what any debate system can produce: a topic, a language, the sides
with their stances, the turns in speaking order and, optionally, the judge's scores
of some turns. Nothing here knows a debate format. The reader accepts transcripts
from other systems: unknown fields are ignored, ``lang`` may be a locale tag
(``en-US``, ``zh-Hans``) or missing (then it is inferred from the text), and a
score may be an integer or a float. Everything the detectors rely on is checked:
a turn names a side that exists, a score points at a turn that exists.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from moot.errors import TranscriptError as TranscriptError

# TranscriptError lives in moot.errors with every error a caller can catch
from moot.safe_json import decode, loads
from moot.text import cjk_share

MAX_TURNS = 200_000
"""Most turns a transcript given to the detectors may have."""
MAX_TURN_CHARS = 100_000
"""Longest turn text, in characters, that the detectors accept."""

Lang = Literal["en", "zh"]
DetectorName = Literal[
    "repetition",
    "ad_hominem",
    "topic_drift",
    "stance_drift",
    "judge_zero_variance",
    "score_inflation",
    "false_consensus",
]
DETECTOR_NAMES: tuple[DetectorName, ...] = (
    "repetition",
    "ad_hominem",
    "topic_drift",
    "stance_drift",
    "judge_zero_variance",
    "score_inflation",
    "false_consensus",
)
PER_TURN_DETECTORS: tuple[DetectorName, ...] = ("repetition", "topic_drift", "stance_drift")
"""The detectors a debate can run on each new turn before accepting it."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore", str_strip_whitespace=False)


class Turn(_Model):
    """One speech: which side spoke and what it said."""

    side: str
    text: str


class JudgeScore(_Model):
    """A judge's score of one turn (``turn`` is an index into the transcript's turns)."""

    turn: int = Field(ge=0, strict=True)
    score: float = Field(allow_inf_nan=False)

    @field_validator("score", mode="before")
    @classmethod
    def _a_number(cls, value: object) -> object:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"a score is a number, not {value!r}")
        return value


class Transcript(_Model):
    """A debate as a sequence of turns, with the sides' stances and optional scores."""

    topic: str
    lang: Lang
    sides: dict[str, str]
    turns: list[Turn]
    judge_scores: list[JudgeScore] = Field(default_factory=list)

    @model_validator(mode="after")
    def _references_exist(self) -> Transcript:
        if not self.sides:
            raise ValueError("sides is empty: name at least one side and its stance")
        for index, turn in enumerate(self.turns):
            if turn.side not in self.sides:
                known = ", ".join(repr(s) for s in self.sides)
                raise ValueError(
                    f"turns[{index}] is spoken by unknown side {turn.side!r} (sides: {known})"
                )
        for index, score in enumerate(self.judge_scores):
            if score.turn >= len(self.turns):
                raise ValueError(
                    f"judge_scores[{index}] points at turn {score.turn}, but the transcript"
                    f" has {len(self.turns)} turns (indexes 0-{len(self.turns) - 1})"
                )
        return self

    def with_turn(self, turn: Turn) -> Transcript:
        """This transcript with one more turn at the end (scores unchanged)."""
        if turn.side not in self.sides:
            known = ", ".join(repr(s) for s in self.sides)
            raise TranscriptError(f"the new turn is spoken by unknown side {turn.side!r} ({known})")
        return self.model_copy(update={"turns": [*self.turns, turn]})


class Flag(_Model):
    """One detector firing: on a turn (``turn`` and ``side``) or on the whole
    transcript (both None), with the evidence a reader can check."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    detector: DetectorName
    turn: int | None
    side: str | None
    evidence: str


def _lang(value: Any, data: dict[str, Any]) -> str:
    """``en`` or ``zh`` from a language tag, or inferred from the text when absent."""
    if value is None:
        texts = [str(t.get("text", "")) for t in data.get("turns", []) if isinstance(t, dict)]
        return "zh" if cjk_share(str(data.get("topic", "")) + "".join(texts)) > 0.5 else "en"
    if not isinstance(value, str):
        raise TranscriptError(f"lang must be a string, 'en' or 'zh', not {value!r}")
    tag = value.strip().lower().replace("_", "-")
    for lang in ("en", "zh"):
        if tag == lang or tag.startswith(lang + "-"):
            return lang
    raise TranscriptError(f"lang must be 'en' or 'zh' (or a tag such as en-US, zh-CN): {value!r}")


def _check_size(turns: object) -> None:
    """Refuse more than ``MAX_TURNS`` turns or a turn longer than ``MAX_TURN_CHARS``."""
    if not isinstance(turns, list):
        return
    if len(turns) > MAX_TURNS:
        raise TranscriptError(f"{len(turns):,} turns is over the limit of {MAX_TURNS:,}")
    for index, turn in enumerate(turns):
        text = turn.get("text") if isinstance(turn, dict) else None
        if isinstance(text, str) and len(text) > MAX_TURN_CHARS:
            raise TranscriptError(
                f"turns[{index}] is {len(text):,} characters long, over the limit of"
                f" {MAX_TURN_CHARS:,}"
            )


def parse_transcript(data: object) -> Transcript:
    """A transcript from decoded JSON; ``TranscriptError`` names what is wrong."""
    if not isinstance(data, dict):
        raise TranscriptError(f"a transcript is a JSON object, not {type(data).__name__}")
    _check_size(data.get("turns"))
    fields = dict(data)
    fields["lang"] = _lang(fields.get("lang"), fields)
    if fields.get("judge_scores") is None:
        fields.pop("judge_scores", None)
    try:
        return Transcript.model_validate(fields)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'transcript'}: {err['msg']}"
            for err in exc.errors()
        )
        raise TranscriptError(f"not a valid transcript: {problems}") from exc


def read_transcript(raw: bytes, source: str = "transcript") -> Transcript:
    """A transcript from the bytes of a JSON file (UTF-8, with or without a BOM), read
    within the limits of ``moot.safe_json`` on nesting and numbers."""
    text = decode(raw, source, TranscriptError)
    return parse_transcript(loads(text, source, TranscriptError))
