"""``moot.safe_json``: hostile JSON input is the caller's error (exit 2), naming the
file, never an internal error; and ``moot lint`` refuses what is over its limits."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from moot.detectors import lint as lint_module
from moot.detectors import transcript as transcript_module
from moot.detectors.lint import lint_file
from moot.errors import ConfigError, DataError, TranscriptError
from moot.formats.market.data.files import read_json as read_market_json
from moot.safe_json import MAX_DEPTH, MAX_INT_DIGITS, loads, read_bytes, read_json


def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_deep_nesting_is_the_callers_error_naming_the_source() -> None:
    with pytest.raises(ConfigError, match=r"x\.json nests arrays or objects deeper"):
        loads(_deep(100_000), "x.json")
    # under the interpreter's recursion limit but over ours
    with pytest.raises(ConfigError, match=f"deeper than {MAX_DEPTH} levels"):
        loads(_deep(MAX_DEPTH + 1), "x.json")
    assert loads(_deep(MAX_DEPTH), "x.json") == json.loads(_deep(MAX_DEPTH))


def test_a_huge_integer_is_the_callers_error() -> None:
    with pytest.raises(ConfigError, match="an integer of 5000 digits"):
        loads('{"n": ' + "9" * 5000 + "}", "x.json")
    assert loads(str(10**MAX_INT_DIGITS - 1), "x.json") == 10**MAX_INT_DIGITS - 1


def test_the_error_class_is_the_callers() -> None:
    with pytest.raises(DataError):
        loads("{", "kb.json", DataError)


def test_a_device_or_directory_is_refused_unread(tmp_path: Path) -> None:
    with pytest.raises(TranscriptError, match="/dev/zero: it is a device"):
        read_bytes(Path("/dev/zero"), "transcript", 1024, TranscriptError)
    with pytest.raises(ConfigError, match="it is a directory"):
        read_bytes(tmp_path, "file")
    with pytest.raises(ConfigError, match="no such file"):
        read_bytes(tmp_path / "absent.json", "file")


def test_a_file_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 2048)
    with pytest.raises(ConfigError, match="larger than the limit of 1,024 bytes"):
        read_bytes(path, "file", 1024)
    assert len(read_bytes(path, "file", 2048)) == 2048


@pytest.mark.process
def test_a_named_pipe_is_read_only_up_to_the_limit(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    pid = os.fork()
    if pid == 0:  # the writer: more than the limit, then exit
        try:
            with open(fifo, "wb") as handle:
                handle.write(b"[" * 4096)
        finally:
            os._exit(0)
    try:
        with pytest.raises(ConfigError, match="larger than the limit"):
            read_bytes(fifo, "file", 1024)
    finally:
        os.waitpid(pid, 0)


def test_not_utf8_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "gbk.json"
    path.write_bytes('{"a": "辩题"}'.encode("gb18030"))
    with pytest.raises(ConfigError, match=r"gbk\.json is not UTF-8"):
        read_json(path, "file")


def test_market_json_reader_uses_the_limits(tmp_path: Path) -> None:
    path = tmp_path / "kb.json"
    path.write_text(_deep(50_000), encoding="utf-8")
    with pytest.raises(DataError, match=r"kb\.json nests"):
        read_market_json(path, "knowledge base")


def _transcript(turns: list[dict[str, str]]) -> dict[str, object]:
    return {"topic": "t", "lang": "en", "sides": {"a": "x", "b": "y"}, "turns": turns}


def test_lint_refuses_deep_nesting_and_huge_integers(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"topic": "t", "x": ' + _deep(100_000) + "}", encoding="utf-8")
    with pytest.raises(TranscriptError, match=r"deep\.json nests"):
        lint_file(deep)
    huge = tmp_path / "huge.json"
    data = _transcript([{"side": "a", "text": "x"}])
    data["judge_scores"] = [{"turn": 0, "score": 1}]
    huge.write_text(json.dumps(data).replace('"score": 1', '"score": ' + "7" * 5000))
    with pytest.raises(TranscriptError, match=r"huge\.json holds an integer"):
        lint_file(huge)


def test_lint_limits_on_turns_turn_length_and_file_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(transcript_module, "MAX_TURNS", 3)
    monkeypatch.setattr(transcript_module, "MAX_TURN_CHARS", 10)
    monkeypatch.setattr(lint_module, "MAX_FILE_BYTES", 400)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(_transcript([{"side": "a", "text": "x"}] * 4)))
    with pytest.raises(TranscriptError, match="4 turns is over the limit of 3"):
        lint_file(path)
    path.write_text(json.dumps(_transcript([{"side": "a", "text": "x" * 11}])))
    with pytest.raises(TranscriptError, match=r"turns\[0\] is 11 characters long"):
        lint_file(path)
    path.write_text(json.dumps(_transcript([{"side": "a", "text": "x" * 10}] * 3)))
    assert len(lint_file(path)[0].turns) == 3
    path.write_text(json.dumps(_transcript([{"side": "a", "text": "x"}])) + " " * 400)
    with pytest.raises(TranscriptError, match="larger than the limit of 400 bytes"):
        lint_file(path)


@pytest.mark.parametrize(
    "text", ["a = " + "[" * 100_000 + "]" * 100_000, "a = " + "9" * 5000], ids=["deep", "huge"]
)
def test_toml_files_turn_deep_nesting_and_huge_integers_into_config_errors(
    tmp_path: Path, text: str
) -> None:
    from moot.formats.market.data.analysts import load_panel
    from moot.judging.profiles import load_profiles
    from moot.llm.budget import PriceTable

    path = tmp_path / "x.toml"
    path.write_text(text, encoding="utf-8")
    for load in (load_profiles, PriceTable.load, load_panel):
        with pytest.raises(ConfigError, match=r"x\.toml"):
            load(path)
