"""How long moot takes to start: ``import moot`` and ``moot --help``.

Every sample runs in a fresh subprocess, so nothing is imported beforehand; the
median of ``--runs`` samples is printed (with the fastest and slowest):

* ``import moot`` (importtime): the cumulative microseconds that
  ``python -X importtime -c "import moot"`` reports for the ``moot`` package. Target:
  under 0.3 s on two idle cores.
* ``python -c "import moot"``: the wall time of the whole interpreter start and import.
* ``moot --help``: the wall time of the command a user types first. Target: under 1 s
  on two idle cores.

The targets are stated, not enforced: times depend on the machine and its load (a
busy machine shows it in the load average printed above the table). Which modules
``import moot`` loads is tested instead (tests/test_public_api.py).

    python benchmarks/startup.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence

TARGETS = {"import moot (importtime)": 0.3, "moot --help": 1.0}


def import_time() -> float:
    """Seconds that ``-X importtime`` reports for ``import moot``, cumulative."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import moot"],
        capture_output=True,
        text=True,
        check=True,
    )
    # lines read "import time: self [us] | cumulative | imported package"
    for line in done.stderr.splitlines():
        fields = [field.strip() for field in line.removeprefix("import time:").split("|")]
        if len(fields) == 3 and fields[2] == "moot":
            return int(fields[1]) / 1e6
    raise RuntimeError(f"no line for moot in -X importtime's output:\n{done.stderr[-2000:]}")


def wall_time(command: Sequence[str]) -> float:
    """Seconds from starting ``command`` to its exit (which must be 0)."""
    start = time.perf_counter()
    subprocess.run(command, capture_output=True, check=True)  # noqa: S603 (our own commands)
    return time.perf_counter() - start


def moot_command() -> list[str]:
    """The ``moot`` script beside this interpreter, else the one on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), "moot")
    found = beside if os.path.exists(beside) else shutil.which("moot")
    if found is None:
        raise SystemExit("no moot command found: install moot (pip install -e .)")
    return [found]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=5, help="samples per measure (default 5)")
    runs = parser.parse_args(argv).runs
    measures: dict[str, Callable[[], float]] = {
        "import moot (importtime)": import_time,
        'python -c "import moot"': lambda: wall_time([sys.executable, "-c", "import moot"]),
        "moot --help": lambda: wall_time([*moot_command(), "--help"]),
    }
    print(f"{runs} runs each, fresh processes; load average {os.getloadavg()[0]:.2f}")
    print(f"{'measure (ms)':<26} {'median':>8} {'min':>8} {'max':>8} {'target':>8}")
    for name, measure in measures.items():
        samples = [measure() * 1000 for _ in range(runs)]
        target = TARGETS.get(name)
        print(
            f"{name:<26} {statistics.median(samples):>8.1f} {min(samples):>8.1f}"
            f" {max(samples):>8.1f} {f'{target * 1000:.0f}' if target else '':>8}"
        )


if __name__ == "__main__":
    main()
