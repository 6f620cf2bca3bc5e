"""The wheel a user installs holds every file the package reads at run time.

Tests run on an editable install, which reads the source tree, so a template left out
of the package data passes every other test and fails only after
``pip install -r requirements/local.txt`` (a format's prompts once were). This builds
the wheel and compares it with the source tree."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "moot"
CODE = {".py", ".pyc"}


@pytest.mark.process
@pytest.mark.slow
def test_the_wheel_holds_every_data_file_of_the_package(tmp_path: Path) -> None:
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
    with zipfile.ZipFile(wheel) as archive:
        packed = {name for name in archive.namelist() if name.startswith("moot/")}
    data = {
        "moot/" + path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*")
        if path.is_file() and path.suffix not in CODE and "__pycache__" not in path.parts
    }
    assert any(name.endswith(".j2") for name in data)
    assert sorted(data - packed) == []
