"""Checks every competitive debate result must pass, whatever model produced it:
recomputed from the JSON alone (plus moot.formats.competitive.trees to replay the moves)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from moot.formats.competitive.trees import SPEAKING_ORDER, FlowTree, Move, RehearsalTree
from moot.formats.competitive.trees.sides import SIDES
from moot.llm.backend import Backend
from moot.llm.scripted import DemoBackend, ScriptedBackend, ScriptReply
from moot.llm.types import CallContext, Completion, GenerationSettings, Message, OutputSpec
from moot.llm.wrapper import Wrapper
from moot.schema import DebateResult

TOLERANCE, OVERRUN, MAX_TRIES = 15.0, 1.0, 10
SMALL: dict[str, Any] = {
    "embedder": "lexical",
    "claims": 2,
    "branching": 2,
    "depth": 1,
    "voters": 3,
    "stage_seconds": {"opening": 45, "rebuttal": 45, "closing": 30},
}
"""A small competitive debate: a few seconds on the demo."""


@dataclass(frozen=True)
class Recorded:
    """One call a :class:`Recorder` passed on."""

    messages: list[Message]
    schema: OutputSpec | None
    settings: GenerationSettings
    context: CallContext

    @property
    def prompt(self) -> str:
        return self.messages[-1].content


class Recorder(Wrapper):
    """Passes calls through and keeps what each carried (``name``: its model spec)."""

    def __init__(self, inner: Backend, name: str | None = None) -> None:
        super().__init__(inner)
        self.name = name
        self.calls: list[Recorded] = []

    @property
    def spec(self) -> str:
        return self.name or self._inner.spec

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        assert context is not None
        self.calls.append(Recorded(list(messages), schema, settings, context))
        return await self._inner.generate(
            messages, schema=schema, settings=settings, context=context
        )


def demo_except(
    seed: int, name: str, answer: Callable[[CallContext], ScriptReply | None]
) -> ScriptedBackend:
    """``scripted:demo`` with seed ``seed``, except the calls ``answer`` replies to (it
    returns None for the calls the demo should play)."""
    demo = DemoBackend(seed=seed)

    def reply(
        messages: Sequence[Message],
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None,
    ) -> ScriptReply:
        assert context is not None
        own = answer(context)
        return own if own is not None else demo.reply(context, messages, schema=schema, seed=seed)

    return ScriptedBackend(reply, name=name)


def replay(speeches: list[dict[str, Any]], lang: str) -> FlowTree:
    """Every speech's moves applied to a fresh flow tree in speaking order: apply()
    raises on the first illegal move, and each move must have made (or reinforced)
    the node the payload names."""
    tree = FlowTree(lang=lang)  # type: ignore[arg-type]
    for speech in speeches:
        moves = [
            Move(action=m["action"], claim=m["claim"], argument=m["argument"], target=m["target"])
            for m in speech["actions"]
        ]
        assert moves, f"{speech['id']} made no move"
        touched = tree.apply(speech["side"], speech["stage"], moves)
        assert touched == [m["node"] for m in speech["actions"]], speech["id"]
    return tree


def check_competitive(result: DebateResult, *, inside: bool = True) -> dict[str, Any]:
    """Assert the competitive invariants; ``inside``: every speech also fits its
    window (else each speech outside it has a warning). Returns the payload."""
    assert result.format == "competitive"
    body: dict[str, Any] = result.payload["competitive"]
    speeches = body["speeches"]
    assert [(s["stage"], s["side"]) for s in speeches] == list(SPEAKING_ORDER)
    assert [s["id"] for s in speeches] == [
        f"{side.upper()}-{stage.upper()}" for stage, side in SPEAKING_ORDER
    ]
    for s in speeches:
        target = body["stage_seconds"][s["stage"]]
        assert s["target_seconds"] == target
        low, high = target - TOLERANCE, target + OVERRUN
        assert tuple(s["window"]) == (low, high)
        assert s["duration_source"] == body["clock"]["source"]
        steps = s["budget_steps"]
        assert 1 <= len(steps) <= MAX_TRIES
        assert all(step["budget"] >= 1 and step["seconds"] > 0 for step in steps)
        assert s["within"] == (low <= s["measured_seconds"] <= high)
        if not s["cut"]:
            assert s["measured_seconds"] in [step["seconds"] for step in steps]
        if inside:
            assert s["within"], (s["id"], s["measured_seconds"], steps)
        elif not s["within"]:
            assert any(
                w.code == "speech_outside_window" and w.where == s["id"] for w in result.warnings
            )
        assert s["text"].strip()
    tree = replay(speeches, result.lang)
    assert tree.model_dump(mode="json") == body["flow_tree"]

    scores = {a.argument_id: a for a in result.judgement.scores}
    assert set(scores) == {s["id"] for s in speeches}
    for score in scores.values():
        weights = result.judgement.weights  # the lead judge's, with a panel
        expected = round(sum(weights[d] * v for d, v in score.scores.items()), 4)
        assert abs(score.weighted - expected) < 1e-9
    for side in SIDES:
        own = [scores[s["id"]].weighted for s in speeches if s["side"] == side]
        assert abs(result.judgement.totals[side] - round(sum(own) / len(own), 4)) < 1e-9
    for row in body["head_to_head"]:
        pair = {s["side"]: scores[s["id"]].weighted for s in speeches if s["stage"] == row["stage"]}
        assert row["scores"] == pair
        best = max(pair, key=lambda k: pair[k]) if pair["pro"] != pair["con"] else None
        assert row["winner"] == best

    vote = body["vote"]
    for when in ("before", "after"):
        votes = vote[when]["votes"]
        assert len(votes) == vote["voters"]
        for choice in ("for", "against", "undecided"):
            assert vote[when]["share"][choice] == round(votes.count(choice) / len(votes), 4)
    shift = {
        "pro": round(vote["after"]["share"]["for"] - vote["before"]["share"]["for"], 4),
        "con": round(vote["after"]["share"]["against"] - vote["before"]["share"]["against"], 4),
    }
    assert vote["shift"] == shift
    if shift["pro"] == shift["con"]:
        assert vote["winner"] is None
    else:
        assert vote["winner"] == ("pro" if shift["pro"] > shift["con"] else "con")

    for record in body["rehearsal"]:
        RehearsalTree.model_validate(record["tree"])
    return body
