"""``moot doctor`` says whether this machine can run moot, and what to fix."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from moot.cli import app
from moot.doctor import build_features, cpu_summary, load_finding, mask, native_features

PORTABLE = (
    "CPU : SSE3 = 1 | SSSE3 = 1 | AVX = 1 | AVX2 = 1 | F16C = 1 | FMA = 1 | BMI2 = 1 |"
    " LLAMAFILE = 1 | OPENMP = 1 | REPACK = 1 |"
)
NATIVE_SPR = PORTABLE + " AVX512 = 1 | AVX512_VNNI = 1 | AVX512_BF16 = 1 | AMX_INT8 = 1 |"


def test_a_native_build_is_told_apart_from_a_portable_one() -> None:
    assert native_features(build_features(PORTABLE)) == []
    assert native_features(build_features(NATIVE_SPR)) == [
        "AMX_INT8",
        "AVX512",
        "AVX512_BF16",
        "AVX512_VNNI",
    ]
    assert "AVX2" in build_features(PORTABLE)
    assert "AVX512" not in build_features("AVX512 = 0 | AVX2 = 1")


def test_cpu_summary_reads_the_model_name_and_flags(tmp_path: Path) -> None:
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nmodel name\t: Test CPU 9000\nflags\t\t: fpu avx2 fma\n")
    assert cpu_summary(info) == ("Test CPU 9000", {"fpu", "avx2", "fma"})


def test_an_oversubscribed_cpu_is_a_warning_with_the_fix() -> None:
    assert load_finding(1.9, 2)[0] == "ok"
    assert load_finding(2.0, 2)[0] == "ok"
    status, detail, fix = load_finding(8.5, 2)
    assert status == "warn"
    assert "8.5" in detail
    assert "2 cores" in detail
    assert "busy CPU" in fix


def test_secrets_are_masked() -> None:
    shown = mask("sk-secret-value")
    assert "secret" not in shown
    assert "15 characters" in shown


def _doctor(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "moot", "doctor", *args],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        check=False,
    )


def _doctor_in_process(*args: str, env: dict[str, str] | None = None) -> Result:
    result = CliRunner(env=env).invoke(app, ["doctor", *args])
    # a clean exit with a status, as a process would end: not an uncaught exception
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.mark.slow
@pytest.mark.process
def test_doctor_passes_on_this_machine_and_reports_what_it_saw() -> None:
    done = _doctor("--json")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["healthy"] is True
    names = {c["name"]: c for c in report["checks"]}
    for name in ("python", "moot", "cpu", "load", "runtime", "model file", "run store"):
        assert name in names, name
    assert "AVX2 = 1" in names["llama.cpp build"]["detail"]
    runtime = names["runtime"]["detail"].split()[0]
    assert runtime in ("xllamacpp", "llama-cpp-python")
    if not os.environ.get("MOOT_LOCAL_RUNTIME"):
        assert runtime == "xllamacpp"  # the default wherever it is installed
    how = "prebuilt wheel" if runtime == "xllamacpp" else "compiled from source"
    assert how in names["runtime"]["detail"]
    assert names["cpu variant"]["detail"].startswith(f"{runtime}: x86-64 AVX2 build")
    assert "SmolLM2-135M-Instruct.Q4_1.gguf" in names["model file"]["detail"]
    assert "tokens/s" in names["generation"]["detail"]
    text = _doctor()
    assert text.returncode == 0
    assert text.stdout.rstrip().endswith("moot can run here")


def test_a_broken_store_fails_with_the_fix(tmp_path: Path) -> None:
    done = _doctor_in_process("--model", "scripted:demo", env={"MOOT_HOME": "/dev/null"})
    assert done.exit_code == 1
    assert "[fail] run store: /dev/null/moot.db" in done.stdout
    assert "fix: set MOOT_HOME" in done.stdout
    assert "Traceback" not in done.stderr


def test_a_bad_spec_fails_and_keys_are_never_printed(tmp_path: Path) -> None:
    env = {"OPENAI_API_KEY": "sk-canary-0123456789"}
    done = _doctor_in_process("--model", "nosuch:model", "--model", "scripted:demo", env=env)
    assert done.exit_code == 1
    assert "[fail] model spec: nosuch:model" in done.stdout
    assert "[ok  ] model spec: scripted:demo" in done.stdout
    assert "OPENAI_API_KEY set (20 characters, not shown)" in done.stdout
    assert "canary" not in done.stdout + done.stderr
