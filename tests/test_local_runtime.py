"""The local backend's two runtimes: xllamacpp (prebuilt llama.cpp server, in process)
and llama-cpp-python (built from source), how one is chosen, and that the xllamacpp
worker leaves no TCP port open: its server's listener is a keyed Unix socket in a
private directory.

The slow tests load the real SmolLM2 GGUF.
"""

from __future__ import annotations

import asyncio
import http.client
import importlib.util
import json
import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import HAS_LLAMA_CPP, LLAMA_CPP_PYTHON_ABSENT
from moot import ConfigError
from moot.llm import local
from moot.llm.local import LocalBackend, choose_runtime
from moot.llm.local_xllamacpp import SOCKET_NAME, lark_grammar
from moot.llm.types import GenerationSettings, Message, OutputSpec

HAS_XLLAMACPP = importlib.util.find_spec("xllamacpp") is not None
RUNTIMES = [
    pytest.param("xllamacpp", marks=pytest.mark.skipif(not HAS_XLLAMACPP, reason="no xllamacpp")),
    pytest.param(
        "llama-cpp-python",
        marks=pytest.mark.skipif(not HAS_LLAMA_CPP, reason=LLAMA_CPP_PYTHON_ABSENT),
    ),
]
REPLY = OutputSpec(
    name="reply",
    json_schema={
        "type": "object",
        "properties": {
            "zeta": {"type": "string", "minLength": 3, "maxLength": 40},
            "alpha": {"type": "integer", "minimum": 1, "maximum": 5},
            "kind": {"type": "string", "enum": ["cat-7", "dog-9"]},
        },
        "required": ["zeta", "alpha", "kind"],
        "additionalProperties": False,
    },
)
PROMPT = [Message("user", "Write a very long paragraph about your favourite animal.")]


def test_an_unknown_runtime_is_a_config_error_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MOOT_LOCAL_RUNTIME", "llamafile")
    with pytest.raises(ConfigError, match="MOOT_LOCAL_RUNTIME='llamafile'"):
        choose_runtime()


def test_a_runtime_that_is_not_installed_is_a_config_error_with_the_install_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    monkeypatch.setenv("MOOT_LOCAL_RUNTIME", "llama-cpp-python")
    with pytest.raises(ConfigError, match=r"llama-portable\.txt"):
        choose_runtime()
    monkeypatch.delenv("MOOT_LOCAL_RUNTIME")
    with pytest.raises(ConfigError, match=r"requirements/local\.txt"):
        choose_runtime()


def test_xllamacpp_is_the_default_and_the_variable_picks_llama_cpp_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("MOOT_LOCAL_RUNTIME", raising=False)
    installed = {"xllamacpp", "llama_cpp"}
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name: object() if name in installed else None
    )
    assert choose_runtime() == "xllamacpp"
    assert choose_runtime("llama-cpp-python") == "llama-cpp-python"
    monkeypatch.setenv("MOOT_LOCAL_RUNTIME", "llama-cpp-python")
    assert choose_runtime() == "llama-cpp-python"
    monkeypatch.delenv("MOOT_LOCAL_RUNTIME")
    installed.discard("xllamacpp")  # built llama-cpp-python alone: it runs
    assert choose_runtime() == "llama-cpp-python"
    assert LocalBackend(runtime="llama-cpp-python").runtime == "llama-cpp-python"


def test_the_grammar_keeps_the_schema_and_its_property_order() -> None:
    grammar = lark_grammar(json.dumps(REPLY.json_schema))
    head, _, schema_text = grammar.partition("start: %json ")
    assert head.startswith("%llguidance {}")
    schema = json.loads(schema_text)
    assert list(schema["properties"]) == ["zeta", "alpha", "kind"]
    assert schema["properties"]["zeta"]["maxLength"] == 40
    assert schema["x-guidance"]["whitespace_flexible"] is False


def _listening_tcp_inodes() -> set[str]:
    """The inodes of every listening TCP socket on this machine (IPv4 and IPv6)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 9 and fields[3] == "0A":  # 0A: TCP_LISTEN
                inodes.add(fields[9])
    return inodes


def _socket_inodes(pid: int) -> set[str]:
    """The inodes of the sockets process ``pid`` holds open."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    return inodes


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux /proc")
@pytest.mark.skipif(not HAS_XLLAMACPP, reason="no xllamacpp")
@pytest.mark.slow
@pytest.mark.process
def test_the_xllamacpp_worker_opens_no_tcp_port_and_its_socket_is_private_and_keyed() -> None:
    backend = LocalBackend(seed=1, runtime="xllamacpp")
    try:
        info = backend.info()
        pid = backend.worker_pid
        assert pid is not None
        assert info["runtime"] == "xllamacpp"
        # the worker's sockets: none of them is a listening TCP socket
        held = _socket_inodes(pid)
        assert held, "the worker holds no socket at all: the check would prove nothing"
        assert not held & _listening_tcp_inodes()
        # its listener is a Unix socket in a directory only this user may enter
        listening = str(info["listening"])
        assert listening.startswith("unix://")
        path = Path(listening.removeprefix("unix://"))
        assert path.name == SOCKET_NAME
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        # and it refuses a request without the worker's key
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(str(path))
        connection = http.client.HTTPConnection("localhost", timeout=30)
        connection.sock = sock
        connection.request("GET", "/v1/models")
        assert connection.getresponse().status == 401
        connection.close()
    finally:
        backend.stop()
    assert not path.parent.exists()  # the socket's directory goes with the worker


@pytest.mark.parametrize("runtime", RUNTIMES)
@pytest.mark.slow
@pytest.mark.process
def test_each_runtime_constrains_replies_to_the_schema(runtime: local.Runtime) -> None:
    backend = LocalBackend(seed=1, runtime=runtime)
    try:
        for seed in (1, 2, 3):
            settings = GenerationSettings(temperature=1.0, max_tokens=200, seed=seed)
            reply = asyncio.run(backend.generate(PROMPT, schema=REPLY, settings=settings))
            value = json.loads(reply.text)
            assert list(value) == ["zeta", "alpha", "kind"]
            assert 3 <= len(value["zeta"]) <= 40
            assert isinstance(value["alpha"], int)
            if runtime == "xllamacpp":
                # LLGuidance enforces an integer's bounds; llama-cpp-python 0.3's own
                # JSON-schema converter drops minimum/maximum (any integer passes its
                # grammar), so there the bounds are moot's validation's to enforce
                assert 1 <= value["alpha"] <= 5
            assert value["kind"] in ("cat-7", "dog-9")
            assert reply.usage.prompt_tokens > 0
            assert reply.usage.completion_tokens > 0
            assert reply.timings is not None
            assert reply.timings["generated_tokens"] > 0
        assert backend.count_tokens(["Hello world"]) == [2]
    finally:
        backend.stop()


@pytest.mark.skipif(not HAS_XLLAMACPP, reason="no xllamacpp")
@pytest.mark.slow
@pytest.mark.process
def test_llguidance_json_has_no_whitespace_to_loop_in_even_when_the_model_wants_it(
    tmp_path: Path,
) -> None:
    """Whitespace tokens pushed up by a logit bias (``tests/whitespace_probe.py``, a
    worker of its own since llama.cpp's server cannot be stopped in process): the compact
    JSON layout leaves the model no place for them outside strings. With LLGuidance's
    ``whitespace_pattern`` (a space, or a newline and 20 spaces or tabs) this runtime let
    SmolLM2 write tabs and newlines until the token limit, the judge failure seen in CI."""
    socket_dir = tmp_path / "socket"
    socket_dir.mkdir(mode=0o700)
    probe = Path(__file__).with_name("whitespace_probe.py")
    done = subprocess.run(
        [sys.executable, str(probe), str(socket_dir), json.dumps(REPLY.json_schema)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    replies = json.loads(done.stdout)
    assert len(replies) == 2
    for reply in replies:
        assert reply["finish_reason"] == "stop", reply
        value = json.loads(reply["text"])
        assert list(value) == ["zeta", "alpha", "kind"]
        # compact: the only whitespace outside strings is the separators'
        assert reply["text"] == json.dumps(value, ensure_ascii=False), reply
