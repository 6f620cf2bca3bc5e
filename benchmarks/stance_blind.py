"""A blind reading of opening arguments: are they on their side, read one by one?

``sheet`` takes the results ``benchmarks/stance.py --save DIR`` kept for two or more
versions (``LABEL=DIR``), draws the same number of arguments from each, and writes them
shuffled to a sheet that names neither the version nor the file: each row has an id,
the English topic, the side (``for`` / ``against``) and the model's own words (the
claim without what the grammar wrote, ``stance.own_words``, then the reasoning). The
version of each id goes to a separate key file, which the reader does not open.

The reader marks each id ``on`` (the reason given supports its side), or ``off`` (it
supports the other side, is beside the point, or is empty) in a JSON file
``{"id": "on" | "off"}``. ``score`` then joins marks and key, prints each version's
share on side, and appends every marked row, with its version, to a record
(``benchmarks/data/stance_blind_readings.json`` by default).

    python benchmarks/stance_blind.py sheet A=DIR B=DIR --out SHEET --key KEY [--per-label 30]
    python benchmarks/stance_blind.py score --sheet SHEET --key KEY --marks MARKS [--record FILE]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
RECORD = HERE / "data" / "stance_blind_readings.json"


def stance() -> ModuleType:
    """``benchmarks/stance.py`` as a module (benchmarks are scripts, not a package)."""
    spec = importlib.util.spec_from_file_location("stance_bench", HERE / "stance.py")
    if spec is None or spec.loader is None:
        raise SystemExit("benchmarks/stance.py not found")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def rows_of(folder: Path, module: ModuleType) -> list[dict[str, str]]:
    """Every opening argument of the results in ``folder``, as a sheet row without id."""
    rows = []
    for path in sorted(folder.glob("*-*.json")):  # results, not a report
        data = json.loads(path.read_text(encoding="utf-8"))
        if "payload" not in data:  # not a result (the benchmark's own --json report)
            continue
        first = data["positions"][0]["key"]
        for argument in data["payload"][data["format"]]["arguments"]:
            side = argument["side"]
            words = module.own_words(argument["claim"], data["topic"], data["lang"], side)
            rows.append(
                {
                    "topic": module.english_topic(data["topic"]),
                    "side": "for" if side == first else "against",
                    "words": f"{words} / {argument['reasoning']}",
                    "file": path.name,
                }
            )
    return rows


def make_sheet(sources: list[str], per_label: int, seed: int) -> tuple[list[Any], dict[str, Any]]:
    """The shuffled sheet and its key (``LABEL=DIR`` sources)."""
    module = stance()
    rng = random.Random(seed)  # noqa: S311 (a reproducible shuffle, not a secret)
    drawn = []
    for source in sources:
        label, _, folder = source.partition("=")
        if not folder or not Path(folder).is_dir():
            raise SystemExit(f"{source!r}: give LABEL=DIR with a --save directory")
        rows = rows_of(Path(folder), module)
        drawn += [(label, row) for row in rng.sample(rows, min(per_label, len(rows)))]
    rng.shuffle(drawn)
    sheet, key = [], {}
    for n, (label, row) in enumerate(drawn, start=1):
        ident = f"r{n:03d}"
        sheet.append({"id": ident, **{k: row[k] for k in ("topic", "side", "words")}})
        key[ident] = {"label": label, "file": row["file"]}
    return sheet, key


def score(sheet: list[Any], key: dict[str, Any], marks: dict[str, str]) -> dict[str, str]:
    """Each version's arguments marked on side, of those marked."""
    counts: dict[str, list[int]] = {}
    for row in sheet:
        mark = marks.get(row["id"])
        if mark is None:
            continue
        if mark not in ("on", "off"):
            raise SystemExit(f"mark of {row['id']} is {mark!r}: use 'on' or 'off'")
        label = key[row["id"]]["label"]
        count = counts.setdefault(label, [0, 0])
        count[0] += mark == "on"
        count[1] += 1
    return {label: f"{on}/{total}" for label, (on, total) in sorted(counts.items())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("sheet")
    make.add_argument("sources", nargs="+", metavar="LABEL=DIR")
    make.add_argument("--out", required=True)
    make.add_argument("--key", required=True)
    make.add_argument("--per-label", type=int, default=30)
    make.add_argument("--seed", type=int, default=0)
    read = commands.add_parser("score")
    read.add_argument("--sheet", required=True)
    read.add_argument("--key", required=True)
    read.add_argument("--marks", required=True)
    read.add_argument("--record", default=str(RECORD))
    read.add_argument("--note", default="", help="what was read, when, by whom")
    args = parser.parse_args(argv)
    if args.command == "sheet":
        sheet, key = make_sheet(args.sources, args.per_label, args.seed)
        Path(args.out).write_text(json.dumps(sheet, indent=1, ensure_ascii=False), "utf-8")
        Path(args.key).write_text(json.dumps(key, indent=1), "utf-8")
        print(f"{len(sheet)} rows to {args.out}; key in {args.key}")
        return 0
    sheet = json.loads(Path(args.sheet).read_text("utf-8"))
    key = json.loads(Path(args.key).read_text("utf-8"))
    marks = json.loads(Path(args.marks).read_text("utf-8"))
    print(json.dumps(score(sheet, key, marks), indent=1))
    record = Path(args.record)
    kept = json.loads(record.read_text("utf-8")) if record.exists() else []
    kept += [
        {**row, **key[row["id"]], "on_side": marks[row["id"]] == "on", "note": args.note}
        for row in sheet
        if row["id"] in marks
    ]
    record.write_text(json.dumps(kept, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
