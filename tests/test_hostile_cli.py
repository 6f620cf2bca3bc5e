"""Hostile and careless input through the ``moot`` command: markup, control characters
and Markdown in every text a user gives; bad numbers in every numeric option and
configuration file; unwritable outputs; broken stores; every exit code.

What is checked every time: the exit code, that no traceback is printed, that
nothing raw reaches the terminal, and what the store holds afterwards. The
catalogue is in tests/hostile.py; servers that misbehave are in
tests/test_hostile_servers.py.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from subprocess import CompletedProcess
from typing import IO

import pytest
from typer.testing import CliRunner, Result

from hostile import (
    BROKEN_STORES,
    CALIBRATION_FILES,
    FORMATS,
    KB_DAMAGE,
    MARKDOWN,
    NUMERIC_OPTIONS,
    OUTPUT_PATHS,
    PANEL_FILES,
    PAYLOADS,
    PRICE_FILES,
    READ_COMMANDS,
    STORE_COMMANDS,
    UNDECODABLE_ARGUMENTS,
    Format,
    broken_home,
    headings,
    raw_controls,
    structure,
)
from moot import report as report_module
from moot.cli import app
from moot.report.escape import markdown_text
from moot.store import Store

TOPIC = "Should we adopt x?"
DEMO = ("--model", "scripted:demo", "--seed", "3")


def moot(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner(env=env).invoke(app, list(args))


def clean(result: Result) -> str:
    """Everything the command printed; fails on a traceback or a raw control character."""
    printed = result.stdout + result.stderr
    assert "Traceback" not in printed, printed
    assert raw_controls(printed) == [], printed
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), repr(result.exception)
    return printed


def fill(command: tuple[str, ...], run_id: str) -> list[str]:
    return [part.replace("{id}", run_id) for part in command]


def debates() -> list[tuple[str, str]]:
    return [(row.id, row.status) for row in Store().list_debates(100)]


# -- text: markup, control characters, Markdown ------------------------------------


@functools.cache
def plain_headings(run_args: tuple[str, ...]) -> tuple[str, ...]:
    """The headings of a plain debate's briefing in a format: the same for every
    payload, so run once per format (not once per payload and format)."""
    plain = moot("run", TOPIC, *DEMO, *run_args, "-q")
    assert plain.exit_code == 0, plain.output
    return tuple(headings(plain.stdout))


@pytest.mark.parametrize("fmt", FORMATS, ids=[f.name for f in FORMATS])
@pytest.mark.parametrize("name", list(PAYLOADS))
def test_a_hostile_topic_is_shown_never_interpreted(name: str, fmt: Format) -> None:
    topic = TOPIC + PAYLOADS[name]
    ran = moot("run", topic, *DEMO, *fmt.run_args, "--id", "hx")
    assert ran.exit_code == 0, ran.output
    clean(ran)
    assert "run id: hx" in ran.stderr
    known = set(plain_headings(fmt.run_args)) | {"Protocol rules not met after rewrites"}
    assert set(headings(ran.stdout)) <= known
    shape = structure(ran.stdout)
    for made_by_text in ("html_inline", "html_block:", "link_open", "image", "fence:code"):
        assert not any(part.startswith(made_by_text) for part in shape)
    for command in READ_COMMANDS:
        shown = moot(*fill(command, "hx"))
        assert shown.exit_code == 0, (command, shown.output)
        clean(shown)
        if name.startswith("markup:") and command[0] != "list" and "--json" not in command:
            assert PAYLOADS[name] in shown.stdout.replace("\\", "")


@pytest.mark.parametrize("name", list(PAYLOADS))
def test_hostile_ids_and_specs_are_refused_cleanly(name: str) -> None:
    payload = PAYLOADS[name]
    for args in (
        ("run", TOPIC, *DEMO, "--id", "x" + payload),
        ("run", TOPIC, "--model", "scripted:demo" + payload),
        ("run", TOPIC, "--model", "scripted:" + payload),
        ("run", TOPIC, *DEMO, "--panel", "general" + payload),
        ("show", "x" + payload),
        ("export", "x" + payload),
        ("resume", "x" + payload),
        ("delete", "x" + payload),
    ):
        result = moot(*args)
        assert result.exit_code == 2, (args, result.output)
        assert result.stdout == ""
        assert "error:" in clean(result)
    assert debates() == []


def test_an_id_with_a_trailing_newline_is_refused() -> None:
    result = moot("run", TOPIC, *DEMO, "--id", "abc\n")
    assert result.exit_code == 2
    assert "bad run id 'abc\\n'" in clean(result)
    assert debates() == []


@pytest.mark.parametrize("name", list(MARKDOWN))
def test_markdown_in_the_topic_stays_on_the_topic_line(name: str) -> None:
    topic = MARKDOWN[name] + " " + TOPIC
    ran = moot("run", *DEMO, "-q", "--", topic)  # "--": a topic may start with "-"
    assert ran.exit_code == 0
    lines = [line for line in ran.stdout.splitlines() if line.startswith("**Topic:**")]
    assert lines == ["**Topic:** " + markdown_text(topic.strip())]


# -- numbers -------------------------------------------------------------------------


def _numeric_cases() -> list[tuple[str, str, str]]:
    return [(cmd, option, value) for cmd, option, values in NUMERIC_OPTIONS for value in values]


@pytest.mark.parametrize(("command", "option", "value"), _numeric_cases())
def test_bad_numbers_are_refused_before_anything_is_stored(
    command: str, option: str, value: str
) -> None:
    before: list[tuple[str, str]] = []
    config: dict[str, object] = {}
    if command == "resume":
        stopped = moot("run", TOPIC, *DEMO, "--id", "r", "--max-tokens", "3000", "-q")
        assert stopped.exit_code == 4
        before = debates()
        row = Store().get_debate("r")
        assert row is not None
        config = row.config
        args = ["resume", "r", option, value, "-q"]
    elif command == "run":
        args = ["run", TOPIC, *DEMO, option, value, "-q"]
    elif command == "backtest":
        args = ["backtest", "demo", *DEMO, option, value, "-q"]
    else:
        args = [command, option, value]
    result = moot(*args)
    assert result.exit_code == 2, result.output
    assert "error:" in clean(result)
    assert debates() == before
    if command == "resume":
        row = Store().get_debate("r")
        assert row is not None
        assert row.config == config


@pytest.mark.parametrize("name", list(PANEL_FILES))
def test_bad_panel_files_are_refused(name: str, tmp_path: Path) -> None:
    path = tmp_path / "judges.toml"
    path.write_bytes(PANEL_FILES[name])
    result = moot("run", TOPIC, *DEMO, "--panel", "j", "--panel-file", str(path), "-q")
    assert result.exit_code == 2, result.output
    assert "error:" in clean(result)
    assert debates() == []


@pytest.mark.parametrize("option", ["--panel-file", "--calibration", "--topic-type"])
def test_panel_options_without_a_panel_are_refused(option: str, tmp_path: Path) -> None:
    value = {"--panel-file": str(tmp_path / "missing.toml"), "--calibration": "minmax"}.get(
        option, "risk"
    )
    result = moot("run", TOPIC, *DEMO, option, value, "-q")
    assert result.exit_code == 2
    assert f"{option} needs a --panel" in clean(result)
    assert debates() == []


@pytest.mark.parametrize("name", list(PRICE_FILES))
def test_bad_price_files_are_refused(name: str) -> None:
    home = Path(os.environ["MOOT_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    (home / "prices.toml").write_bytes(PRICE_FILES[name])
    result = moot("run", TOPIC, *DEMO, "-q")
    assert result.exit_code == 2, result.output
    assert "prices.toml" in clean(result)
    assert debates() == []


@pytest.mark.parametrize("name", list(CALIBRATION_FILES))
def test_bad_calibration_files_are_refused(name: str, tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_bytes(CALIBRATION_FILES[name])
    result = moot("calibrate", str(path), "--model", "scripted:demo", "-q")
    assert result.exit_code == 2, result.output
    assert str(path) in " ".join(clean(result).split())
    assert debates() == []


def test_config_files_that_are_not_files(tmp_path: Path) -> None:
    for args in (
        ("run", TOPIC, *DEMO, "--panel", "j", "--panel-file", str(tmp_path)),
        ("run", TOPIC, *DEMO, "--panel", "j", "--panel-file", str(tmp_path / "missing")),
        ("calibrate", str(tmp_path)),
        ("calibrate", "/dev/null"),
    ):
        result = moot(*args)
        assert result.exit_code == 2, (args, result.output)
        clean(result)
    assert debates() == []


@pytest.mark.parametrize("name", list(KB_DAMAGE))
def test_impossible_market_data_is_refused_naming_the_file_and_field(
    name: str, tmp_path: Path
) -> None:
    from moot.formats.market.data import demo_kb
    from moot.formats.market.data.kb import kb_to_data

    (module, _, field), value = KB_DAMAGE[name]
    data = kb_to_data(demo_kb())
    key = next(iter(data[module]))
    data[module][key][field] = value
    path = tmp_path / "kb.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = moot("run", TOPIC, *DEMO, "--format", "market", "--kb", str(path), "-q")
    assert result.exit_code == 2, result.output
    printed = " ".join(clean(result).split())
    assert str(path) in printed
    assert f"{module}.{key}.{field}" in printed or "digits" in printed
    assert debates() == []


@pytest.mark.parametrize("name", list(OUTPUT_PATHS))
def test_unwritable_outputs_are_refused_naming_the_option(name: str, tmp_path: Path) -> None:
    args = [a.replace("{tmp}", str(tmp_path)) for a in OUTPUT_PATHS[name]]
    result = moot("run", TOPIC, *DEMO, *args, "-q")
    assert result.exit_code == 2, result.output
    assert f"error: {args[-2]} {args[-1]}" in " ".join(clean(result).split())
    assert debates() == []


def test_report_names_the_html_option(tmp_path: Path) -> None:
    """It used to say ``--json /tmp is a directory``."""
    assert moot("run", TOPIC, *DEMO, "--id", "r1", "-q").exit_code == 0
    result = moot("report", "r1", "--html", str(tmp_path))
    assert result.exit_code == 2
    assert f"--html {tmp_path} is a directory" in " ".join(clean(result).split())


@pytest.mark.parametrize("args", UNDECODABLE_ARGUMENTS, ids=lambda args: " ".join(args[:3]))
def test_an_argument_that_is_not_utf8_is_refused_naming_it(args: tuple[str, ...]) -> None:
    """It used to be an internal error (UnicodeEncodeError when the run was stored)."""
    result = moot(*args, "-q") if args[0] == "run" else moot(*args)
    assert result.exit_code == 2, result.output
    printed = " ".join(clean(result).split())
    where = next(i for i, arg in enumerate(args) if "\udcff" in arg)
    named = args[where - 1] if args[where - 1].startswith("--") else None
    assert "is not valid text" in printed
    if named is not None:
        assert f"error: {named} is not valid text" in printed
    assert debates() == []


# -- outputs that cannot be written ------------------------------------------------


@pytest.mark.parametrize("where", ["directory", "under-a-file", "under-dev-null"])
def test_an_unwritable_json_path_is_refused_before_the_run(where: str, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    path = {
        "directory": tmp_path,
        "under-a-file": tmp_path / "file" / "result.json",
        "under-dev-null": Path("/dev/null/result.json"),
    }[where]
    result = moot("run", TOPIC, *DEMO, "--json", str(path), "-q")
    assert result.exit_code == 2, result.output
    assert "--json" in clean(result)
    assert debates() == []


def _subprocess(*args: str, stdout: IO[str] | int = subprocess.PIPE) -> CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "moot", *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.process
def test_json_to_dev_full_still_prints_the_briefing() -> None:
    result = _subprocess("run", TOPIC, *DEMO, "--id", "full", "--json", "/dev/full", "-q")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout.startswith("# Decision briefing")
    assert "cannot write the result to /dev/full" in result.stderr
    assert "moot export full --format json" in result.stderr
    assert debates() == [("full", "done")]


@pytest.mark.process
@pytest.mark.parametrize("command", [*READ_COMMANDS, ("run", TOPIC, *DEMO, "-q")], ids=" ".join)
def test_standard_output_on_dev_full(command: tuple[str, ...]) -> None:
    assert moot("run", TOPIC, *DEMO, "--id", "e", "-q").exit_code == 0
    with open("/dev/full", "w") as full:
        result = _subprocess(*fill(command, "e"), stdout=full)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert "Exception ignored" not in result.stderr
    assert "cannot write to standard output" in result.stderr


# -- broken stores -------------------------------------------------------------------


@pytest.mark.parametrize("command", STORE_COMMANDS, ids=" ".join)
@pytest.mark.parametrize("kind", list(BROKEN_STORES))
def test_a_broken_store_is_a_clean_error(
    kind: str, command: tuple[str, ...], tmp_path: Path
) -> None:
    home = broken_home(kind, tmp_path)
    result = moot(*fill(command, "x"), env={"MOOT_HOME": home})
    assert result.exit_code == 2, result.output
    message = " ".join(clean(result).split())
    assert f"cannot use the run store {home}/moot.db" in message
    assert "MOOT_HOME" in message


# -- exit codes, messages and tracebacks -----------------------------------------------


def test_run_id_is_announced_only_for_stored_runs() -> None:
    refused = moot("run", TOPIC, *DEMO, "--max-tokens", "0")
    assert refused.exit_code == 2
    assert "run id" not in refused.stderr
    stored = moot("run", TOPIC, *DEMO, "--id", "seen")
    assert stored.exit_code == 0
    assert "run id: seen  (resume with: moot resume seen)" in stored.stderr


def test_budget_stop_exits_4_with_a_resume_hint_and_lists_only_sent_calls() -> None:
    stopped = moot("run", TOPIC, *DEMO, "--id", "b", "--max-tokens", "3000", "-q")
    assert stopped.exit_code == 4
    assert "continue it with  moot resume b" in clean(stopped)
    listed = json.loads(moot("list", "--json").stdout)
    row = Store().get_debate("b")
    assert row is not None
    assert listed[0]["calls"] == len(Store().calls("b")) == row.calls
    assert all(call.reply is not None for call in Store().calls("b"))


def test_an_internal_error_is_a_message_unless_debugging(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: object, **__: object) -> str:
        raise RuntimeError("boom [/red] \x1b[2J")

    # the command line imports the renderers when it prints the briefing
    monkeypatch.setattr(report_module, "to_markdown", broken)
    result = moot("run", TOPIC, *DEMO, "-q")
    assert result.exit_code == 1
    message = clean(result)
    assert "internal error: RuntimeError: boom [/red] \\x1b[2J" in " ".join(message.split())
    assert "--debug" in message
    debugged = moot("--debug", "run", TOPIC, *DEMO, "-q")
    assert isinstance(debugged.exception, RuntimeError)  # the traceback is the user's
    monkeypatch.setenv("MOOT_DEBUG", "1")
    assert isinstance(moot("run", TOPIC, *DEMO, "-q").exception, RuntimeError)


def test_debug_shows_the_traceback_of_a_moot_error_too() -> None:
    result = moot("--debug", "run", TOPIC, "--model", "nosuch:x", "-q")
    assert result.exit_code == 2
    assert "Traceback" in result.stderr
    assert "error: unknown model provider" in result.stderr


@pytest.mark.process
@pytest.mark.timing
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_marks_the_run_interrupted_and_resume_finishes_it(sig: signal.Signals) -> None:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "moot",
            "run",
            TOPIC,
            "--model",
            # slow enough that the signal lands while the cross-examinations are out
            "scripted:demo?latency_ms=3000",
            "--seed",
            "3",
            "--id",
            "sig",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # the progress lines on stderr say when the cross-examination round has begun (the
    # journal alone does not: the openings are stored a moment before the round starts)
    assert process.stderr is not None
    seen = []
    stuck = threading.Timer(300, process.kill)  # a run that never gets there ends the wait
    stuck.start()
    for line in process.stderr:
        seen.append(line)
        if "round: cross_examination" in line:
            break
    stuck.cancel()
    assert "round: cross_examination" in "".join(seen), "".join(seen)
    assert len(Store().completed_calls("sig")) == 2  # both openings are journaled
    process.send_signal(sig)
    _, rest = process.communicate(timeout=300)
    stderr = "".join(seen) + rest
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    name = "SIGTERM" if sig == signal.SIGTERM else "Ctrl-C"
    assert f"interrupted by {name}" in stderr
    assert "moot resume sig" in stderr
    row = Store().get_debate("sig")
    assert row is not None
    assert row.status == "interrupted"
    assert "interrupted during the cross_examination round" in (row.error or "")
    resumed = moot("resume", "sig", "-q")
    assert resumed.exit_code == 0, resumed.output
    assert Store().get_debate("sig").status == "done"  # type: ignore[union-attr]
