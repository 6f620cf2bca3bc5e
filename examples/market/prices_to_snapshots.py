"""Worked example: turn a CSV of daily prices (and optionally macro series) into a
backtest snapshot set for ``moot backtest``. ``moot snapshots`` does the same and
more (several tickers, a series file); both call
``moot.formats.market.data.snapshotset.build_snapshot_set``.

    python examples/market/prices_to_snapshots.py \\
        examples/market/synthetic-prices.csv snapshots/ \\
        --ticker EXI --name "ExampleIndex" --macro examples/market/synthetic-macro.csv \\
        --every 10 --horizon 10 --synthetic

writes ``snapshots/EXI_<date>/kb.json`` and ``snapshots/EXI_<date>/outcome.json``: one
snapshot every ``--every`` sessions once a year of history (``--warmup`` sessions)
is there, each with the KB as known that day and the index's return over the next
``--horizon`` sessions. ``--macro`` may be given once per file (a FRED download
each, say); ``--macro-lag DAYS`` keeps out of each KB the macro figures not yet
published on its date. The CSVs shipped beside this script are synthetic (made by
moot's demo generator); pass ``--synthetic`` for them so every KB says so. With your
own data, leave ``--synthetic`` out and say where it comes from with ``--source``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from moot.errors import MootError
from moot.formats.market.data.demo import SYNTHETIC_WARNING
from moot.formats.market.data.snapshots import load_snapshots
from moot.formats.market.data.snapshotset import build_snapshot_set


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("prices", type=Path, help="CSV: date,open,high,low,close[,volume]")
    parser.add_argument("out", type=Path, help="directory to write the snapshots into")
    parser.add_argument("--ticker", default="IDX", help="the index's ticker in the KB")
    parser.add_argument("--name", default=None, help="the index's display name")
    parser.add_argument(
        "--macro",
        type=Path,
        action="append",
        default=[],
        help="CSV of macro series (repeat for several files, e.g. one FRED download each)",
    )
    parser.add_argument(
        "--macro-lag",
        type=int,
        default=0,
        help="days from a macro observation's date until it is published (FRED dates a"
        " month's figure by its first day: about 45 for CPI)",
    )
    parser.add_argument("--every", type=int, default=20, help="sessions between snapshots")
    parser.add_argument("--horizon", type=int, default=20, help="sessions to the outcome")
    parser.add_argument(
        "--warmup", type=int, default=None, help="history before the first (default: a year)"
    )
    parser.add_argument("--source", default=None, help="where the data comes from")
    parser.add_argument("--synthetic", action="store_true", help="label the data synthetic")
    args = parser.parse_args(argv)
    try:
        report = build_snapshot_set(
            [args.prices],
            args.out,
            tickers={args.ticker: args.name or args.ticker},
            macro=args.macro,
            macro_lag=args.macro_lag,
            every=args.every,
            horizon=args.horizon,
            warmup=args.warmup,
            source=args.source or f"{args.prices.name} (prices), via moot's worked example",
            warnings=[SYNTHETIC_WARNING] if args.synthetic else [],
            synthetic=args.synthetic,
        )
        loaded = load_snapshots(args.out)  # read back with the loader's checks
    except (MootError, ValueError) as exc:
        parser.exit(2, f"error: {exc}\n")
    for note in report.notes:
        print(f"note: {note}", file=sys.stderr)
    ups = sum(s.outcome.direction == "up" for s in loaded)
    print(
        f"wrote {len(loaded)} snapshots to {args.out} ({loaded[0].id} .. {loaded[-1].id}),"
        f" {ups} up and {len(loaded) - ups} down" + (" [synthetic data]" if args.synthetic else "")
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
