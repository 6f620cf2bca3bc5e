"""``python tests/sources/crafted_cli.py PLAN.json ARGS...``: the real ``moot`` command
(``moot.cli.main``, as the installed script runs it) with one more model provider,
``crafted:``, answering as the crafted plan in PLAN.json says (``crafted_backend``).
PLAN.json maps a side to a list of ``Crafted`` fields."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from crafted_backend import Crafted, Plan, provider

from moot.cli import main
from moot.llm.backend import register_provider

if __name__ == "__main__":
    sides = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    register_provider(
        "crafted",
        provider(
            Plan(sides={side: [Crafted(**c) for c in cases] for side, cases in sides.items()})
        ),
    )
    sys.argv = ["moot", *sys.argv[2:]]
    main()
