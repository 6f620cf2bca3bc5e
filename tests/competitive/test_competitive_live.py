"""The live page's total for a competitive run: the options do not fix how many calls
a run makes, so the format gives none (the page shows the count alone). Shown on
scripted:demo runs: the same stored configuration makes different numbers of planned
calls (the rehearsal tree read from the cache), and the duration controller's tries
differ from speech to speech."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from competitive_checks import SMALL
from moot.debate import run_debate
from moot.report.html.formats import expected_calls
from moot.store import Store
from moot.view.pages import planned_calls

TOPIC = "Should cities ban cars from their centres?"
DEFAULT_STAGES = {"embedder": "lexical", "claims": 2, "branching": 2, "depth": 2, "voters": 3}
"""The default stage lengths (240, 240, 120 s), where the demo's speeches need
different numbers of tries."""


def test_the_same_configuration_makes_different_numbers_of_calls(tmp_path: Path) -> None:
    store = Store(tmp_path / "moot.db")
    for run in ("grown", "cached"):
        run_debate(
            TOPIC,
            model="scripted:demo",
            seed=5,
            format="competitive",
            format_options=SMALL,
            store=store,
            debate_id=run,
        )
    grown, cached = store.get_debate("grown"), store.get_debate("cached")
    assert grown is not None
    assert cached is not None
    assert grown.config == cached.config
    planned = {run: planned_calls(store.calls(run)) for run in ("grown", "cached")}
    rounds = {run: {c.round for c in store.calls(run)} for run in ("grown", "cached")}
    # the first run grows the rehearsal tree, the second reads it from the cache
    assert {"rehearsal", "rehearsal_1"} <= rounds["grown"]
    assert not any(r.startswith("rehearsal") for r in rounds["cached"])
    assert planned["grown"] > planned["cached"]
    # so no total computed from the configuration is right for both
    assert expected_calls(grown.format, grown.config) is None


def test_the_duration_controller_tries_differ_between_speeches(tmp_path: Path) -> None:
    """Each speech is a writer's call, the simulated audience's and 1 to 10 tries of
    the duration controller, as many as the speech needs to fit its window."""
    store = Store(tmp_path / "moot.db")
    result = run_debate(
        TOPIC,
        model="scripted:demo",
        seed=5,
        format="competitive",
        format_options=DEFAULT_STAGES,
        store=store,
        debate_id="timed",
    )
    row = store.get_debate("timed")
    assert row is not None
    calls = store.calls("timed")
    speech_rounds = {f"{s['stage']}_{s['side']}" for s in result.payload["competitive"]["speeches"]}
    assert len(speech_rounds) == 6
    per_speech = Counter(
        c.round for c in calls if c.validation == "ok" and c.round in speech_rounds
    )
    assert min(per_speech.values()) >= 3
    assert len(set(per_speech.values())) > 1
    assert expected_calls(row.format, row.config) is None
