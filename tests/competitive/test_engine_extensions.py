"""The engine's generic extensions the competitive format uses: calls by extra roles
(the audience) go to the judge's model under their own names, a call can override
the debate's temperature, and a format reads earlier runs of its own from the store."""

from __future__ import annotations

from collections.abc import Sequence

from moot.debate import run_debate
from moot.formats.competitive.rehearsal import ClaimsCall, ExpandCall
from moot.formats.competitive.rounds import VoteCall
from moot.formats.competitive.speeches import RewriteCall, WriteCall
from moot.llm.backend import Backend
from moot.llm.scripted import DemoBackend
from moot.llm.types import CallContext, Completion, GenerationSettings, Message, OutputSpec
from moot.llm.wrapper import Wrapper
from moot.store import Store

TOPIC = "Should cities ban cars from their centres?"
SMALL = {
    "embedder": "lexical",
    "claims": 1,
    "branching": 1,
    "depth": 1,
    "voters": 2,
    "stage_seconds": {"opening": 40, "rebuttal": 40, "closing": 30},
}


class Settings(Wrapper):
    """Keeps each call's context and settings."""

    def __init__(self, inner: Backend, name: str) -> None:
        super().__init__(inner)
        self.name = name
        self.calls: list[tuple[CallContext, GenerationSettings]] = []

    @property
    def spec(self) -> str:
        return self.name

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        schema: OutputSpec | None,
        settings: GenerationSettings,
        context: CallContext | None = None,
    ) -> Completion:
        assert context is not None
        self.calls.append((context, settings))
        return await self._inner.generate(
            messages, schema=schema, settings=settings, context=context
        )


def test_extra_roles_use_the_judges_model_and_ratings_are_at_temperature_zero() -> None:
    debaters = Settings(DemoBackend(seed=1), "scripted:debaters")
    judge = Settings(DemoBackend(seed=1), "scripted:judge")
    result = run_debate(
        TOPIC,
        model=debaters,
        judge_model=judge,
        seed=1,
        temperature=0.6,
        format="competitive",
        format_options=SMALL,
    )
    votes = [(c, s) for c, s in judge.calls if isinstance(c.data, VoteCall)]
    assert sorted({c.role for c, _ in votes}) == ["audience:1", "audience:2"]
    assert len(votes) == 4  # two voters, before and after
    assert not any(isinstance(c.data, VoteCall) for c, _ in debaters.calls)
    # each voter has its own seed; the debate's temperature
    assert len({s.seed for c, s in votes if c.round == "vote_before"}) == 2
    assert {s.temperature for _, s in votes} == {0.6}
    rehearsal = [s for c, s in debaters.calls if isinstance(c.data, ClaimsCall | ExpandCall)]
    speeches = [s for c, s in debaters.calls if isinstance(c.data, WriteCall | RewriteCall)]
    assert rehearsal
    assert {s.temperature for s in rehearsal} == {0.0}
    assert {s.temperature for s in speeches} == {0.6}
    assert result.models["judge"] == "scripted:judge"


def test_a_format_reads_only_its_own_finished_runs() -> None:
    store = Store()
    run_debate(TOPIC, model="scripted:demo", seed=1, store=store, debate_id="structured-one")
    run_debate(
        TOPIC,
        model="scripted:demo",
        seed=1,
        format="competitive",
        format_options=SMALL,
        store=store,
        debate_id="competitive-one",
    )
    assert [run_id for run_id, _ in store.finished_results("competitive")] == ["competitive-one"]
    assert [run_id for run_id, _ in store.finished_results("structured")] == ["structured-one"]
    result = run_debate(
        TOPIC,
        model="scripted:demo",
        seed=2,
        format="competitive",
        format_options=SMALL,
        store=store,
        debate_id="competitive-two",
    )
    priming = result.payload["competitive"]["priming"]
    assert priming is not None
    assert priming["run_id"] == "competitive-one"
