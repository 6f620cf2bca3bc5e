"""tools/llama_server.py's cache: keyed by version and flags, used only when complete,
built once when several test processes ask at the same time, and a missing build
tool is named. (The real build runs in the fixture of tests/test_llama_server.py; the
compile steps are replaced here by a quick fake so the cache logic runs in seconds.)"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import llama_server as tool

TOOLS = Path(tool.__file__).resolve().parent

FAKE_BUILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    sys.path.insert(0, {tools!r})
    import llama_server as tool

    counter = Path({counter!r})

    def fake_run(command, log, cwd=None):
        if "--build" in command:
            with counter.open("a") as out:
                out.write("build\\n")
            time.sleep(1.5)  # long enough for the other process to arrive meanwhile
            binary = Path(command[command.index("--build") + 1]) / "bin" / "llama-server"
            binary.parent.mkdir(parents=True)
            binary.write_text("#!/bin/sh\\n")
            binary.chmod(0o755)

    def fake_sources(sdist, into):
        into.mkdir(parents=True)
        return into

    tool._run = fake_run
    tool._download_sdist = lambda into, log: into / "sdist.tar.gz"
    tool._extract_llama_cpp = fake_sources
    tool.check_toolchain = lambda: tool.Toolchain("cmake", [], 1)
    print(tool.build(quiet=True))
    """
)


@pytest.mark.process
def test_concurrent_builds_build_once_and_leave_one_complete_entry(tmp_path: Path) -> None:
    counter = tmp_path / "builds.txt"
    script = tmp_path / "fake_build.py"
    script.write_text(FAKE_BUILD.format(tools=str(TOOLS), counter=str(counter)))
    env = {**os.environ, "MOOT_DEV_CACHE": str(tmp_path / "cache")}
    processes = [
        subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=env)
        for _ in range(3)
    ]
    paths = {process.communicate(timeout=120)[0].strip() for process in processes}
    assert all(process.returncode == 0 for process in processes)
    assert counter.read_text().splitlines() == ["build"]  # one build, the others waited
    entry = tmp_path / "cache" / "llama-server" / tool.build_key()
    assert paths == {str(entry / "bin" / "llama-server")}
    assert (entry / tool.BUILD_INFO).is_file()
    # the temporary build directory is gone: only the entry and the lock remain
    assert sorted(p.name for p in entry.parent.iterdir()) == [".build.lock", entry.name]


def test_an_incomplete_entry_is_never_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MOOT_DEV_CACHE", str(tmp_path))
    binary = tool.entry_dir() / "bin" / tool.TARGET
    binary.parent.mkdir(parents=True)
    binary.write_text("#!/bin/sh\n")
    binary.chmod(0o755)
    assert tool.cached_binary() is None  # no build.json: a build that did not finish
    (tool.entry_dir() / tool.BUILD_INFO).write_text("{}")
    assert tool.cached_binary() == binary


def test_the_cache_key_covers_the_version_and_the_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    key = tool.build_key()
    assert key.startswith(f"{tool.VERSION}-")
    monkeypatch.setattr(tool, "CMAKE_FLAGS", (*tool.CMAKE_FLAGS, "-DGGML_AVX512=ON"))
    assert tool.build_key() != key


def test_a_missing_build_tool_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty directory: no cmake, no compiler
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.delenv("CXX", raising=False)
    with pytest.raises(tool.BuildError) as caught:
        tool.check_toolchain()
    message = str(caught.value)
    for missing in ("cmake (3.14 or newer)", "a C++17 compiler", "a C compiler", "make"):
        assert missing in message
    assert "apt-get install cmake g++ make" in message


@pytest.mark.process
def test_the_toolchain_of_this_machine_is_complete() -> None:
    # the README's test command builds llama-server here: say now if it cannot
    toolchain = tool.check_toolchain()
    assert Path(toolchain.cmake).is_file()
