"""What a user installs works on its own.

Tests run on an editable install, which reads the source tree and whatever this
environment happens to hold, so a template left out of the package data, or a package
imported but not declared, passes every other test and fails only for a user (a
format's prompts once were left out; click was imported but not declared). So:

* every package the code imports is the standard library's or declared in
  pyproject.toml (an ast walk of src/moot, fast);
* the wheel holds every data file of the source tree (slow: builds the wheel);
* the wheel alone, installed in a fresh venv from the package index under
  requirements/constraints.txt, runs ``moot --help`` and a scripted debate (slow and
  process: needs the package index, about a minute).
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import pytest

from test_layers import imports_of

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "moot"
CODE = {".py", ".pyc"}


def _build_wheel(tmp_path: Path) -> Path:
    """moot's wheel, built from a copy of the source tree as pip builds it for a user."""
    # from a copy: setuptools reuses a ``build/`` directory left in the tree, which can
    # hold files an earlier configuration packaged
    source = tmp_path / "source"
    shutil.copytree(
        ROOT / "src", source / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
    )
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    wheels = tmp_path / "wheels"
    # built as pip builds it for a user: in an isolated environment with the build
    # requirements of pyproject.toml (fetched from the package index, or pip's cache)
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps"]
    built = subprocess.run(
        [*command, "-q", "-w", str(wheels), str(source)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = wheels.glob("moot-*.whl")
    return wheel


@pytest.mark.process
@pytest.mark.slow
def test_the_wheel_holds_every_data_file_of_the_package(tmp_path: Path) -> None:
    wheel = _build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        packed = {name for name in archive.namelist() if name.startswith("moot/")}
    data = {
        "moot/" + path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*")
        if path.is_file() and path.suffix not in CODE and "__pycache__" not in path.parts
    }
    assert any(name.endswith(".j2") for name in data)
    assert sorted(data - packed) == []


@pytest.mark.slow
@pytest.mark.process
def test_the_wheel_alone_installs_and_runs_a_debate_in_a_fresh_venv(tmp_path: Path) -> None:
    # what a user gets from the wheel: its declared dependencies from the package index
    # (pinned by the constraints file) and nothing from this checkout. An undeclared
    # import (click, before typer 0.29 stopped pulling it in) fails here.
    wheel = _build_wheel(tmp_path)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python, moot = venv / "bin" / "python", venv / "bin" / "moot"
    elsewhere = tmp_path / "elsewhere"  # the cwd: no src/ or moot/ beside it
    elsewhere.mkdir()
    hidden = {"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "PYTHONSAFEPATH"}
    env = {key: value for key, value in os.environ.items() if key not in hidden}
    env["MOOT_HOME"] = str(tmp_path / "home")

    def run(*command: str | Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [str(part) for part in command],
            cwd=elsewhere,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        assert done.returncode == 0, (command, done.stdout[-2000:], done.stderr[-3000:])
        return done

    constraints = ROOT / "requirements" / "constraints.txt"
    run(python, "-m", "pip", "install", "-q", "-c", constraints, wheel, timeout=900)
    located = run(python, "-c", "import moot, sys; print(moot.__file__); print(sys.path)")
    assert located.stdout.startswith(str(venv)), located.stdout
    assert str(ROOT) not in located.stdout
    assert "Usage" in run(moot, "--help").stdout
    topic = "Cities should charge cars a congestion fee"
    debate = run(moot, "run", topic, "--model", "scripted:demo", "--seed", "1")
    assert debate.stdout.startswith("# Decision briefing\n"), debate.stdout[:500]
    assert f"**Topic:** {topic}" in debate.stdout


# ---------------------------------------------------------------------------
# Every package the code imports is declared


def _imported_top_level_names(package: Path) -> dict[str, set[str]]:
    """Top-level module names imported anywhere under ``package`` (at module level or in
    a function, ``importlib.import_module("x")`` too), each with the files importing it."""
    found: dict[str, set[str]] = {}
    for path in sorted(package.rglob("*.py")):
        for imported in imports_of(path, package.parent):
            where = path.relative_to(package.parent).as_posix()
            found.setdefault(imported.target.partition(".")[0], set()).add(where)
    return found


def _normalise(distribution: str) -> str:
    return re.sub(r"[-_.]+", "-", distribution).lower()


def _declared(pyproject: dict[str, Any]) -> tuple[set[str], set[str]]:
    """The distributions pyproject.toml declares: (required, in an extra)."""

    def names(requirements: list[str]) -> set[str]:
        found = set()
        for requirement in requirements:
            match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
            assert match, requirement
            found.add(_normalise(match.group()))
        return found - {"moot"}

    project = pyproject["project"]
    extras: set[str] = set()
    for requirements in project.get("optional-dependencies", {}).values():
        extras |= names(requirements)
    return names(project["dependencies"]), extras


OPTIONAL_RUNTIMES = {"llama_cpp": "llama-cpp-python"}
"""Modules of an optional runtime that the test environment does not install
(llama-cpp-python compiles llama.cpp; requirements/dev.txt leaves it out), with the
distribution that provides each: where it is not installed, that distribution must
still be declared (in an extra)."""


def _undeclared(package: Path, pyproject: dict[str, Any]) -> list[str]:
    """The imports of ``package`` that neither the standard library, moot itself, nor a
    distribution pyproject.toml declares provides, as ``"module (files): why"``."""
    required, extras = _declared(pyproject)
    providers = importlib.metadata.packages_distributions()
    problems = []
    for module, files in sorted(_imported_top_level_names(package).items()):
        if module in sys.stdlib_module_names or module == "moot":
            continue
        installed = providers.get(module, [])
        if not installed and module in OPTIONAL_RUNTIMES:
            installed = [OPTIONAL_RUNTIMES[module]]
        distributions = {_normalise(name) for name in installed}
        where = f"{module} ({', '.join(sorted(files))})"
        if not distributions:
            problems.append(f"{where}: no installed distribution provides it")
        elif not distributions & (required | extras):
            problems.append(f"{where}: from {sorted(distributions)}, declared nowhere")
    return problems


def _pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_every_imported_package_is_a_declared_dependency() -> None:
    # a package that only comes in as another's dependency can vanish with its next
    # release (typer 0.29 stopped depending on click while moot's CLI imported it)
    assert _undeclared(PACKAGE, _pyproject()) == []


def test_an_undeclared_import_is_found() -> None:
    # the check above fails when a package moot imports is no longer declared (click,
    # before the CLI stopped importing it: typer >= 0.29 vendors its own)
    pyproject = _pyproject()
    pyproject["project"]["dependencies"] = [
        requirement
        for requirement in pyproject["project"]["dependencies"]
        if not requirement.startswith("jinja2")
    ]
    assert [problem.partition(" ")[0] for problem in _undeclared(PACKAGE, pyproject)] == ["jinja2"]


def test_an_optional_runtime_that_is_not_installed_must_still_be_declared() -> None:
    # llama_cpp is not installed by the test command; dropping its extra is still caught
    pyproject = _pyproject()
    extras = pyproject["project"]["optional-dependencies"]
    extras["llama-cpp-python"] = [
        requirement
        for requirement in extras["llama-cpp-python"]
        if not requirement.startswith("llama-cpp-python")
    ]
    assert [problem.partition(" ")[0] for problem in _undeclared(PACKAGE, pyproject)] == [
        "llama_cpp"
    ]
