"""The engine's generic extensions the competitive format uses: calls by extra roles
(the audience) go to the judge's model under their own names, a call can override
the debate's temperature, and a format reads earlier runs of its own from the store."""

from __future__ import annotations

from competitive_checks import Recorder
from moot.debate import run_debate
from moot.formats.competitive.rehearsal import ClaimsCall, ExpandCall
from moot.formats.competitive.rounds import VoteCall
from moot.formats.competitive.speeches import RewriteCall, WriteCall
from moot.llm.scripted import DemoBackend
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


def test_extra_roles_use_the_judges_model_and_ratings_are_at_temperature_zero() -> None:
    debaters = Recorder(DemoBackend(seed=1), "scripted:debaters")
    judge = Recorder(DemoBackend(seed=1), "scripted:judge")
    result = run_debate(
        TOPIC,
        model=debaters,
        judge_model=judge,
        seed=1,
        temperature=0.6,
        format="competitive",
        format_options=SMALL,
    )
    votes = [(c.context, c.settings) for c in judge.calls if isinstance(c.context.data, VoteCall)]
    assert sorted({c.role for c, _ in votes}) == ["audience:1", "audience:2"]
    assert len(votes) == 4  # two voters, before and after
    assert not any(isinstance(c.context.data, VoteCall) for c in debaters.calls)
    # each voter has its own seed; the debate's temperature
    assert len({s.seed for c, s in votes if c.round == "vote_before"}) == 2
    assert {s.temperature for _, s in votes} == {0.6}
    kinds = [(c.context.data, c.settings) for c in debaters.calls]
    rehearsal = [s for data, s in kinds if isinstance(data, ClaimsCall | ExpandCall)]
    speeches = [s for data, s in kinds if isinstance(data, WriteCall | RewriteCall)]
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
