"""``moot resume`` may change where a run's files go (``--audio``, ``--json``,
``--html``), and nothing else: a run that failed on an output location is not lost."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moot.cli import app
from moot.debate import resume_debate, run_debate
from moot.errors import ConfigError, OutputError
from moot.events import CallFinished, Event
from moot.store import Store

SMALL = {"embedder": "lexical", "claims": 1, "branching": 1, "depth": 0}
"""A small competitive debate (a rehearsal tree of one claim)."""


def _failed_on_audio(home: Path) -> tuple[Store, Path]:
    """A competitive run stored as failed: its audio folder became a file mid-run."""
    audio = home / "audio"
    audio.mkdir(parents=True)

    def sabotage(event: Event) -> None:
        if isinstance(event, CallFinished) and audio.is_dir():
            shutil.rmtree(audio)
            audio.write_text("a file where the audio folder was\n")

    store = Store(home / "moot.db")
    with pytest.raises(OutputError, match="cannot write"):
        run_debate(
            "Should we adopt x?",
            model="scripted:demo",
            format="competitive",
            format_options={**SMALL, "audio_dir": str(audio)},
            store=store,
            debate_id="c1",
            on_event=sabotage,
        )
    return store, audio


def test_a_run_failed_on_a_bad_audio_folder_resumes_with_a_good_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    store, _ = _failed_on_audio(home)
    row = store.get_debate("c1")
    assert row is not None
    assert row.status == "failed"
    monkeypatch.setenv("MOOT_HOME", str(home))
    runner = CliRunner()
    # the stored folder is still bad: refused before any call, naming the option
    again = runner.invoke(app, ["resume", "c1", "-q"])
    assert again.exit_code == 2, again.output
    assert "--audio" in again.stderr
    good, out, html = tmp_path / "good", tmp_path / "r.json", tmp_path / "r.html"
    args = ["resume", "c1", "-q", "--audio", str(good), "--json", str(out), "--html", str(html)]
    resumed = runner.invoke(app, args)
    assert resumed.exit_code == 0, resumed.output
    speeches = json.loads(out.read_text())["payload"]["competitive"]["speeches"]
    assert sorted(p.name for p in good.iterdir()) == sorted(s["audio"] for s in speeches)
    assert html.read_text().startswith("<!DOCTYPE html>")
    row = store.get_debate("c1")
    assert row is not None
    assert row.status == "done"
    assert row.config["options"]["format_options"]["audio_dir"] == str(good)


def test_resume_changes_output_locations_only(tmp_path: Path) -> None:
    store, _ = _failed_on_audio(tmp_path)
    with pytest.raises(ConfigError, match=r"only output locations may change.*not claims"):
        resume_debate("c1", store=store, format_options={"claims": 2})
    row = store.get_debate("c1")
    assert row is not None
    assert row.status == "failed"


def test_resume_refuses_a_bad_output_path_before_anything_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    store, _ = _failed_on_audio(home)
    calls = len(store.calls("c1"))
    monkeypatch.setenv("MOOT_HOME", str(home))
    for option, value in (("--audio", "/etc/passwd/sub"), ("--html", str(tmp_path))):
        ran = CliRunner().invoke(app, ["resume", "c1", "-q", option, value])
        assert ran.exit_code == 2, ran.output
        assert option in ran.stderr
    assert len(store.calls("c1")) == calls
