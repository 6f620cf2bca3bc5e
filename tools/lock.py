"""Write requirements/constraints.txt: the pinned versions the quick start installs.

requirements/dev.txt, local.txt and llama-portable.txt read ``-c constraints.txt``, so
the README's install commands get the same versions on any day. This resolves both
files afresh against the package index, without installing anything, and writes
every distribution they would install (all extras, transitively; not moot itself,
nor pip and setuptools) as sorted ``name==version`` lines:

    python tools/lock.py           # rewrite requirements/constraints.txt
    python tools/lock.py --check   # exit 1 if a fresh resolution differs from it

Run it with the Python that the pins are for (CPython 3.11 on Linux x86-64 here):
the resolution follows that interpreter's environment markers. It uses pip's own
resolver (``pip install --dry-run --ignore-installed --report``, pip >= 23.0) with
pip's usual configuration. The constraints files' own ``-c`` lines are left out of
the resolution, so each run picks the newest versions the requirements allow.
``tools/check_latest.py`` tests those newest versions without writing them down.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REQUIREMENTS = ROOT / "requirements"
CONSTRAINTS = REQUIREMENTS / "constraints.txt"
#: resolved in this order; each later one within the pins of those before it, so the
#: versions agree across the files
LOCKED = ("dev.txt", "local.txt", "llama-portable.txt")
CONSTRAINT_LINE = re.compile(r"^\s*(-c|--constraint)\b")
#: not pinned: moot itself, and the installer's own tools (llm requires pip and
#: setuptools; a pin would make ``pip install -r`` replace the running pip), as
#: pip-tools leaves them out
UNPINNED = frozenset({"moot", "pip", "setuptools"})


def canonical(name: str) -> str:
    """A distribution name as PEP 503 normalises it (``Jinja2`` -> ``jinja2``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def unconstrained_copy(destination: Path) -> Path:
    """The requirements files copied to ``destination`` without their ``-c`` lines."""
    copy = destination / "requirements"
    copy.mkdir()
    for path in REQUIREMENTS.glob("*.txt"):
        if path.name == CONSTRAINTS.name:
            continue
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        kept = [line for line in lines if not CONSTRAINT_LINE.match(line)]
        (copy / path.name).write_text("".join(kept), encoding="utf-8")
    return copy


def resolve(requirements: Path, constraints: dict[str, str], work: Path) -> dict[str, str]:
    """What ``pip install -r requirements`` would install into an empty environment,
    within ``constraints``, as ``{canonical name: version}``."""
    report = work / "report.json"
    pinned = work / "pinned.txt"
    pinned.write_text("".join(f"{n}=={v}\n" for n, v in sorted(constraints.items())))
    command = [
        sys.executable,
        *("-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet"),
        *("--report", str(report), "-c", str(pinned), "-r", str(requirements)),
    ]
    # from the repository root: the files name moot as "." (relative to the cwd)
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"pip could not resolve {requirements.name}:\n{done.stderr[-4000:]}")
    installed = json.loads(report.read_text(encoding="utf-8"))["install"]
    return {
        canonical(item["metadata"]["name"]): item["metadata"]["version"]
        for item in installed
        if canonical(item["metadata"]["name"]) not in UNPINNED
    }


def lock() -> dict[str, str]:
    """The pins of every file in ``LOCKED``, together."""
    pins: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as name:
        work = Path(name)
        copy = unconstrained_copy(work)
        for file in LOCKED:
            pins.update(resolve(copy / file, pins, work))
    return pins


def render(pins: dict[str, str]) -> str:
    version = ".".join(map(str, sys.version_info[:2]))
    header = (
        "# Pinned versions of everything requirements/dev.txt, local.txt and\n"
        "# llama-portable.txt install (moot's extras and their dependencies; not moot, pip\n"
        "# or setuptools), read by each through '-c constraints.txt'. Generated: do not\n"
        "# edit by hand.\n"
        "# To update it:  python tools/lock.py\n"
        f"# Resolved by pip for CPython {version} on {sys.platform}: a package needed only\n"
        "# on another platform or Python is not pinned here.\n"
    )
    return header + "".join(f"{name}=={pins[name]}\n" for name in sorted(pins))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="compare with constraints.txt; write nothing"
    )
    check = parser.parse_args(argv).check
    pins = lock()
    text = render(pins)
    if check:
        current = CONSTRAINTS.read_text(encoding="utf-8") if CONSTRAINTS.exists() else ""
        if current != text:
            print(f"{CONSTRAINTS.relative_to(ROOT)} is out of date: run python tools/lock.py")
            return 1
        print(f"{CONSTRAINTS.relative_to(ROOT)} is current")
        return 0
    CONSTRAINTS.write_text(text, encoding="utf-8")
    print(f"wrote {len(pins)} pins to {CONSTRAINTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
