"""The detectors' model-assisted mode: a model reviews the candidate flags.

The detectors (``moot.detectors``) run offline, lexically or with the sentence
encoder; their flags are candidates. When a model is configured for it (a debate's
``--review-flags``, ``moot lint --review MODEL``), this module asks it, one
structured call per candidate, to confirm or reject each flag a reader could judge
from the text (repetition, ad hominem, topic drift, stance drift), and, one call per
side and batch of turns, to name turns that argue the other side's position, which
the lexical pass cannot see. The transcript-wide statistical flags (zero variance,
score inflation, false consensus) are exact or structural and are not reviewed.

What the model said is recorded on each flag (``review``: ``confirmed`` or
``rejected``, with its ``review_reason``); a rejected flag leaves the flags and is
kept in the review's ``rejected`` list; a stance drift the model found is a flag of
``mode`` ``model``. Calls are capped (``max_calls``): candidates beyond the cap, and
those whose call gave no usable answer, stay as the detectors gave them, unreviewed,
and the review counts them. Inside a debate the calls go through the judge's backend,
so they are journaled, cached, budgeted (``--max-tokens``/``--max-cost``) and counted
in the usage like every other call.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from moot.detectors.messages import message, side_name
from moot.detectors.transcript import DetectorName, Flag, Transcript
from moot.errors import BackendError, BudgetExceeded, ModelOutputError
from moot.llm.backend import Backend
from moot.llm.meter import Meter
from moot.llm.schemas import output_spec, register_schemas
from moot.llm.structured import generate_structured
from moot.llm.types import CallContext, GenerationSettings, Message, OutputSpec
from moot.prompts import render

REVIEWED: tuple[DetectorName, ...] = ("repetition", "ad_hominem", "topic_drift", "stance_drift")
"""The detectors whose flags a model reviews (a reader can judge them from the text)."""
DEFAULT_MAX_CALLS = 40
"""Calls a review makes at most unless told otherwise (flag reviews first, in turn
order, then the stance scans)."""
CONTEXT_TURNS = 3
"""Turns before a flagged turn shown to the model (and, for repetition, the earlier
turn the flag names)."""
MAX_TURN_CHARS = 1200
"""A turn is cut to this many characters in a review prompt."""
SCAN_TURNS = 8
"""A side's turns shown in one stance scan."""
SCAN_TURN_CHARS = 500
"""A turn is cut to this many characters in a stance scan."""
ROUND_REVIEW = "flag_review"
ROUND_SCAN = "stance_scan"
_R = TypeVar("_R", bound=BaseModel)


class FlagVerdict(BaseModel):
    """The model's answer on one candidate flag."""

    model_config = ConfigDict(extra="forbid")

    verdict: Literal["confirm", "reject"]
    reason: str = Field(min_length=3, max_length=300)


class DriftingTurn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    turn: int = Field(ge=0)
    reason: str = Field(min_length=3, max_length=300)


class StanceScan(BaseModel):
    """The turns of one side, among those shown, that argue the other side's case."""

    model_config = ConfigDict(extra="forbid")

    drifting: list[DriftingTurn] = Field(max_length=SCAN_TURNS)


def _scan_spec(turns: Sequence[int]) -> OutputSpec:
    """The scan's schema with the legal turn numbers as an enum (a small model cannot
    then name a turn it was not shown)."""
    spec = output_spec(StanceScan)
    item = spec.json_schema["properties"]["drifting"]["items"]
    item["properties"]["turn"] = {"type": "integer", "enum": list(turns)}
    return spec


@register_schemas("detector flag review")
def review_schemas() -> Iterator[OutputSpec]:
    """The schemas the review sends (the scan's with representative turn numbers)."""
    yield output_spec(FlagVerdict)
    yield _scan_spec([1, 3, 5])


@dataclass(frozen=True)
class Review:
    """What a review did: the flags after it (confirmed, unreviewed and found, in the
    detectors' order), the rejected ones, and its counts."""

    model: str
    flags: list[Flag]
    rejected: list[Flag]
    calls: int
    reviewed: int
    unreviewed: int
    found: int


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _context_turns(transcript: Transcript, flag: Flag, at: int) -> list[dict[str, object]]:
    """The turns shown before the flagged one (``at``): the last ``CONTEXT_TURNS``, and
    for a repetition flag also the same side's earlier turns it may repeat."""
    wanted = set(range(max(0, at - CONTEXT_TURNS), at))
    if flag.detector == "repetition":
        wanted |= {i for i in range(at) if transcript.turns[i].side == flag.side}
    return [
        {
            "index": i,
            "side": transcript.turns[i].side,
            "text": _cut(transcript.turns[i].text, MAX_TURN_CHARS),
        }
        for i in sorted(wanted)[-2 * CONTEXT_TURNS :]
    ]


class _Calls:
    """The call budget shared by one review's calls."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.made = 0

    def take(self) -> bool:
        if self.made >= self.limit:
            return False
        self.made += 1
        return True

    def close(self) -> None:
        """No more calls (the run's token or cost budget would be exceeded)."""
        self.limit = self.made


async def _ask(
    backend: Backend,
    prompt: str,
    reply: type[_R],
    *,
    spec: OutputSpec,
    round_name: str,
    transcript: Transcript,
    side: str | None,
    meter: Meter,
    settings: GenerationSettings,
    max_reasks: int,
    budget: _Calls,
) -> _R | None:
    """One structured call; None when the model gives no usable answer. A call the run's
    budget refuses ends the review (``budget`` closed): the debate it reviews is done
    and keeps its result, with the remaining flags unreviewed."""
    try:
        outcome = await generate_structured(
            backend,
            [Message("user", prompt)],
            reply,
            spec=spec,
            settings=settings,
            context=CallContext(
                role="reviewer",
                round=round_name,
                side=side,
                topic=transcript.topic,
                lang=transcript.lang,
            ),
            meter=meter,
            max_reasks=max_reasks,
        )
    except BudgetExceeded:
        budget.close()
        return None
    except (ModelOutputError, BackendError):
        return None
    return outcome.value


async def review_flags(
    transcript: Transcript,
    flags: Sequence[Flag],
    *,
    backend: Backend,
    meter: Meter,
    settings: GenerationSettings | None = None,
    max_reasks: int = 1,
    max_calls: int = DEFAULT_MAX_CALLS,
    scan: bool = True,
) -> Review:
    """Ask ``backend`` to confirm or reject each reviewable flag of ``transcript``
    and (``scan``) to find stance drift the detectors missed, within ``max_calls``
    calls. Flags of other detectors pass through unreviewed."""
    settings = settings or GenerationSettings(temperature=0.0)
    budget = _Calls(max_calls)
    lang = transcript.lang
    sides = [
        {"key": k, "name": side_name(k, lang, transcript.names), "stance": v}
        for k, v in transcript.sides.items()
    ]
    kept: list[Flag] = []
    rejected: list[Flag] = []
    reviewed = unreviewed = 0
    for flag in flags:
        if flag.detector not in REVIEWED or flag.turn is None:
            kept.append(flag)
            continue
        if not budget.take():
            kept.append(flag)
            unreviewed += 1
            continue
        turn = transcript.turns[flag.turn]
        prompt = render(
            "review_flag",
            lang,
            detector=flag.detector,
            topic=transcript.topic,
            sides=sides,
            earlier=_context_turns(transcript, flag, flag.turn),
            index=flag.turn,
            side=turn.side,
            text=_cut(turn.text, MAX_TURN_CHARS),
            evidence=flag.evidence,
        )
        answer = await _ask(
            backend,
            prompt,
            FlagVerdict,
            spec=output_spec(FlagVerdict),
            round_name=ROUND_REVIEW,
            transcript=transcript,
            side=flag.side,
            meter=meter,
            settings=settings,
            max_reasks=max_reasks,
            budget=budget,
        )
        if answer is None:
            kept.append(flag)
            unreviewed += 1
            continue
        reviewed += 1
        verdict: Literal["confirmed", "rejected"] = (
            "confirmed" if answer.verdict == "confirm" else "rejected"
        )
        marked = flag.model_copy(update={"review": verdict, "review_reason": answer.reason})
        (kept if verdict == "confirmed" else rejected).append(marked)
    found: list[Flag] = []
    if scan and len(transcript.sides) >= 2:
        found = await _scan(transcript, kept, backend, meter, settings, max_reasks, budget)
    ordered = sorted([*kept, *found], key=_order)
    return Review(
        model=backend.spec,
        flags=ordered,
        rejected=rejected,
        calls=budget.made,
        reviewed=reviewed,
        unreviewed=unreviewed,
        found=len(found),
    )


def _order(flag: Flag) -> tuple[bool, int]:
    return (flag.turn is None, -1 if flag.turn is None else flag.turn)


async def _scan(
    transcript: Transcript,
    kept: Sequence[Flag],
    backend: Backend,
    meter: Meter,
    settings: GenerationSettings,
    max_reasks: int,
    budget: _Calls,
) -> list[Flag]:
    """Stance drift the detectors did not flag, one call per side and batch of its
    turns (within the budget)."""
    lang = transcript.lang
    flagged = {f.turn for f in kept if f.detector == "stance_drift"}
    found: list[Flag] = []
    for side, stance in transcript.sides.items():
        others = [
            {"name": side_name(k, lang, transcript.names), "stance": v}
            for k, v in transcript.sides.items()
            if k != side
        ]
        own = [
            i
            for i, t in enumerate(transcript.turns)
            if t.side == side and i not in flagged and t.text.strip()
        ]
        for start in range(0, len(own), SCAN_TURNS):
            batch = own[start : start + SCAN_TURNS]
            if not budget.take():
                return found
            prompt = render(
                "scan_stance",
                lang,
                topic=transcript.topic,
                name=side_name(side, lang, transcript.names),
                stance=stance,
                others=others,
                turns=[
                    {"index": i, "text": _cut(transcript.turns[i].text, SCAN_TURN_CHARS)}
                    for i in batch
                ],
            )
            answer = await _ask(
                backend,
                prompt,
                StanceScan,
                spec=_scan_spec(batch),
                round_name=ROUND_SCAN,
                transcript=transcript,
                side=side,
                meter=meter,
                settings=settings,
                max_reasks=max_reasks,
                budget=budget,
            )
            if answer is None:
                continue
            seen: set[int] = set()
            for item in answer.drifting:
                if item.turn not in batch or item.turn in seen:
                    continue  # a turn not shown (a backend without the enum) or twice
                seen.add(item.turn)
                found.append(
                    Flag(
                        detector="stance_drift",
                        turn=item.turn,
                        side=side,
                        evidence=message(lang, "evidence.model_stance", reason=item.reason),
                        mode="model",
                        review="confirmed",
                        review_reason=item.reason,
                    )
                )
    return found
