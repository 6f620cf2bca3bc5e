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

# TranscriptError lives in moot.errors with every error a caller can catch
from moot.errors import TranscriptError as TranscriptError
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
Mode = Literal["lexical", "encoder", "model"]
"""Which pass produced a flag: the lexical and statistical rules, the sentence
encoder (``moot.detectors.meaning``), or a model asked to review the flags
(``moot.judging.flag_review``: stance drift the other passes cannot see)."""
ReviewVerdict = Literal["confirmed", "rejected"]
"""What a reviewing model said of a candidate flag (``moot.judging.flag_review``)."""


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
    names: dict[str, str] = Field(default_factory=dict)
    """How a side is named in flag messages (a debate's position names, "Bull", "多头");
    a side without one is named by the language's word for pro and con, or its key."""

    @model_validator(mode="after")
    def _references_exist(self) -> Transcript:
        if not self.sides:
            raise ValueError("sides is empty: name at least one side and its stance")
        unknown = [name for name in self.names if name not in self.sides]
        if unknown:
            known = ", ".join(repr(s) for s in self.sides)
            raise ValueError(f"names gives a name to unknown side {unknown[0]!r} (sides: {known})")
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
    mode: Mode = "lexical"
    """Which pass produced the flag: ``lexical`` rules, the sentence ``encoder``
    (``moot.detectors.meaning``), or the reviewing ``model`` that found it."""
    review: ReviewVerdict | None = None
    """What the reviewing model said of the flag; None when no model reviewed it (the
    default: the model-assisted mode is off, or its call budget ran out)."""
    review_reason: str | None = None
    """The reviewing model's one-sentence reason, with ``review``."""


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


def _message_text(message: dict[str, Any]) -> str | None:
    """A chat message's text: its ``content`` string, or the text parts of a content
    list; None when it has none (a tool call)."""
    content = message.get("content")
    if isinstance(content, list):
        parts = [p.get("text") for p in content if isinstance(p, dict)]
        return "".join(p for p in parts if isinstance(p, str))
    return content if isinstance(content, str) else None


def from_messages(messages: object, header: dict[str, Any] | None = None) -> dict[str, Any]:
    """A transcript document from an OpenAI-style chat list ``[{"role", "name",
    "content"}]``: each message is a turn of the side ``name`` (its ``role`` when it has
    no name); system messages without a name give the topic; messages without text
    (tool calls) are skipped. ``header`` may add ``topic``, ``lang``, ``sides`` (their
    stances) and ``judge_scores``."""
    if not isinstance(messages, list):
        raise TranscriptError(f"messages must be a list, not {type(messages).__name__}")
    header = header or {}
    topic: list[str] = []
    sides: dict[str, str] = {}
    turns: list[dict[str, str]] = []
    for index, item in enumerate(messages):
        if not isinstance(item, dict):
            raise TranscriptError(f"messages[{index}] is not an object")
        text = _message_text(item)
        if text is None:
            continue
        side = item.get("name") or item.get("role")
        if not isinstance(side, str) or not side:
            raise TranscriptError(f"messages[{index}] has neither a name nor a role")
        if item.get("role") == "system" and not item.get("name"):
            topic.append(text)
            continue
        sides.setdefault(side, "")
        turns.append({"side": side, "text": text})
    given = header.get("sides")
    document = {
        **header,
        "topic": header.get("topic") or " ".join(topic),
        "sides": {**sides, **given} if isinstance(given, dict) else sides,
        "turns": turns,
    }
    document.pop("messages", None)
    return document


def _an_object(line: str) -> bool:
    """Whether one line is a JSON object by itself (then the file is JSON Lines)."""
    try:
        return isinstance(loads(line, "line", TranscriptError), dict)
    except TranscriptError:
        return False


def _json_lines(text: str, source: str) -> dict[str, Any]:
    """A transcript document from JSON Lines: one object a line, turns (``{"side",
    "text"}``) or chat messages (``{"role", "name", "content"}``), after an optional
    first line without text that gives ``topic``, ``lang``, ``sides``..."""
    rows: list[Any] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            rows.append(loads(line, f"{source} line {number}", TranscriptError))
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, dict):
            raise TranscriptError(f"{source}: JSON line {number} is not an object")
    header: dict[str, Any] = {}
    if rows and not {"text", "content"} & set(rows[0]):
        header = rows.pop(0)
    if any("content" in row for row in rows):
        return from_messages(rows, header)
    return {**header, "turns": rows}


def read_transcript(raw: bytes, source: str = "transcript") -> Transcript:
    """A transcript from the bytes of a file (UTF-8, with or without a BOM), read within
    the limits of ``moot.safe_json`` on nesting and numbers: a transcript object, an
    OpenAI-style chat list (or an object with ``messages``), or JSON Lines of turns or
    messages."""
    text = decode(raw, source, TranscriptError)
    try:
        data = loads(text, source, TranscriptError)
    except TranscriptError:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) < 2 or not _an_object(lines[0]):
            raise
        data = _json_lines(text, source)
    try:
        if isinstance(data, list) and data and all(isinstance(item, dict) for item in data):
            data = from_messages(data)
        elif isinstance(data, dict) and "messages" in data and "turns" not in data:
            data = from_messages(data["messages"], data)
        return parse_transcript(data)
    except TranscriptError as exc:  # name the file
        raise TranscriptError(f"{source}: {exc}") from exc
