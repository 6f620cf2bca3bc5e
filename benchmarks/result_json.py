"""The result JSON of scripted debates, one line per debate, for comparing two trees.

A change meant to make the engine cheaper must leave every output as it was. Run this
with each tree first on ``PYTHONPATH`` and compare the two files byte for byte:

    PYTHONPATH=/path/to/main/src python benchmarks/result_json.py /tmp/main.txt
    PYTHONPATH=/path/to/branch/src python benchmarks/result_json.py /tmp/branch.txt
    cmp /tmp/main.txt /tmp/branch.txt

Each line is ``FORMAT LANG SEED JSON``: ``scripted:demo`` debates of the structured,
freeform and market formats (the market on its demo knowledge base), in English and
Chinese, at three seeds, with the detectors and the echo check on. ``wall_seconds``,
the one field that measures the machine, is written as 0. The competitive format is
left out: its speeches' measured seconds, and the word budgets that follow from them,
differ between two runs of the same tree.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
from typing import Any

from moot.debate import arun_debate

TOPICS = {
    "en": "Should a 10-person startup adopt microservices from day one?",
    "zh": "十人创业公司应该从第一天起采用微服务吗？",
}
FORMATS = ("structured", "freeform", "market")
FORMAT_OPTIONS: dict[str, dict[str, Any]] = {"market": {"kb": "demo"}}
SEEDS = (1, 7, 42)
_WALL = re.compile(r'"wall_seconds": [0-9.eE+-]+')


async def lines() -> list[str]:
    """One ``FORMAT LANG SEED JSON`` line per debate (keys sorted, wall time 0)."""
    found = []
    for fmt in FORMATS:
        for lang, topic in TOPICS.items():
            for seed in SEEDS:
                result = await arun_debate(
                    topic,
                    model="scripted:demo",
                    format=fmt,
                    lang=lang,
                    seed=seed,
                    format_options=FORMAT_OPTIONS.get(fmt, {}),
                )
                body = json.loads(result.model_dump_json())
                text = _WALL.sub(
                    '"wall_seconds": 0', json.dumps(body, ensure_ascii=False, sort_keys=True)
                )
                found.append(f"{fmt} {lang} {seed} {text}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="the file to write")
    args = parser.parse_args(argv)
    with open(args.out, "w", encoding="utf-8") as out:
        out.write("\n".join(asyncio.run(lines())) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
