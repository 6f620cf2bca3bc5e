"""Run the fast tests on the newest versions the requirements allow, pins ignored.

requirements/constraints.txt pins what the quick start installs, so a new release of
a dependency cannot break a user's install, nor CI, on the day it appears. This
check shows such a release before the pins are moved on to it: it installs
requirements/dev.txt without its constraints into a fresh venv (in a temporary
directory, removed afterwards), lists the packages whose newest allowed version
differs from their pin, and runs the fast tests there.

    python tools/check_latest.py                 # pytest -m "not slow and ..." -q
    python tools/check_latest.py -- tests/llm -x # other pytest arguments

It exits with pytest's status. If the tests pass, ``python tools/lock.py`` moves the
pins on to these versions. It needs the package index and takes as long as an
install plus the fast tests (llama-cpp-python compiles unless pip has its wheel
cached); it is not part of CI, whose result must not depend on the day it runs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from lock import CONSTRAINTS, ROOT, UNPINNED, canonical, unconstrained_copy

FAST = ["-m", "not slow and not timing and not browser", "-q", "-p", "no:cacheprovider"]


def pins() -> dict[str, str]:
    """The versions requirements/constraints.txt pins, by canonical name."""
    found = {}
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        name, sep, version = line.partition("==")
        if sep and not line.startswith("#"):
            found[canonical(name.strip())] = version.strip()
    return found


def installed(python: Path) -> dict[str, str]:
    """The distributions in the venv of ``python``, by canonical name."""
    listed = subprocess.run(
        [python, "-m", "pip", "list", "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    return {canonical(item["name"]): item["version"] for item in json.loads(listed.stdout)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("pytest", nargs="*", help="pytest arguments (after --)")
    arguments = parser.parse_args(argv).pytest or FAST
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    with tempfile.TemporaryDirectory(prefix="moot-latest-") as name:
        work = Path(name)
        requirements = unconstrained_copy(work)
        venv = work / "venv"
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        python = venv / "bin" / "python"
        print(f"installing the newest allowed versions of requirements/dev.txt in {venv}")
        subprocess.run(
            [python, "-m", "pip", "install", "-q", "-r", requirements / "dev.txt"],
            cwd=ROOT,  # the file names moot as "." (relative to the cwd)
            env=env,
            check=True,
        )
        pinned, newest = pins(), installed(python)
        moved = sorted(name for name, pin in pinned.items() if newest.get(name, pin) != pin)
        added = sorted(newest.keys() - pinned.keys() - UNPINNED)
        for name in moved:
            print(f"  {name}: pinned {pinned[name]}, newest allowed {newest[name]}")
        for name in added:
            print(f"  {name}: not pinned, installed {newest[name]}")
        if not moved and not added:
            print("  every package is at its pinned version")
        print(f"running pytest {' '.join(arguments)}")
        return subprocess.run([python, "-m", "pytest", *arguments], cwd=ROOT, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
