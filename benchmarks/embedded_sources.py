"""Grounded debates on the embedded model (SmolLM2 on the local backend, ``--model
local``) over the two example documents of ``examples/sources``: how many of its
citations code verifies.

For each topic it runs one structured debate with ``--sources examples/sources`` and
prints the citations' statuses, the verification rate (verified / citations that
name a passage; "none" is reasoning with no source and not counted), and whether
every verified quote occurs in its document's file (read afresh here, normalised
for white space, case, width and quotation marks only: an independent re-check of
the verifier's ``verified``). The load average is printed beside the wall time.

    python benchmarks/embedded_sources.py [--topics 3] [--seed 7] [--lang en]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import time
import unicodedata
from pathlib import Path
from typing import Any

from moot import run_debate

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "sources"
TOPICS = (
    "Should we migrate the billing service to Rust?",
    "Should the billing team fix the Go worker instead of rewriting it?",
    "Should the tax rules be rewritten before the invoice renderer?",
    "Is the memory leak a reason to change the billing service's language?",
)
_QUOTES = str.maketrans(dict.fromkeys("\"'“”‘’「」『』", ""))


def plain(text: str) -> str:
    """Text as the independent re-check compares it: NFKC, no quotation marks, case
    folded, white space collapsed."""
    folded = unicodedata.normalize("NFKC", text).translate(_QUOTES).casefold()
    return " ".join(re.sub(r"[\x00-\x1f\x7f]", " ", folded).split())


def refound(doc: dict[str, Any]) -> tuple[int, int]:
    """(verified quotes found again in their document's file, verified quotes)."""
    files = {
        d["id"]: plain(Path(d["path"]).read_text(encoding="utf-8"))
        for d in doc["sources"]["documents"]
    }
    verified = [c for c in doc["sources"]["citations"] if c["status"] == "verified"]
    found = sum(plain(c["quote"]).strip(" .,;:") in files[c["source"]] for c in verified)
    return found, len(verified)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--topics", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    totals = {"verified": 0, "named": 0, "none": 0, "refound": 0}
    for topic in TOPICS[: args.topics]:
        load = os.getloadavg()[0]
        started = time.perf_counter()
        result = run_debate(
            topic,
            model="local",
            seed=args.seed,
            lang=args.lang,
            sources=[str(EXAMPLES)],
            timeout=3600.0,
        )
        seconds = time.perf_counter() - started
        doc = json.loads(result.model_dump_json())
        citations = doc["sources"]["citations"]
        named = [c for c in citations if c["status"] != "no_source"]
        verified = sum(c["status"] == "verified" for c in named)
        again, _ = refound(doc)
        totals["verified"] += verified
        totals["named"] += len(named)
        totals["none"] += len(citations) - len(named)
        totals["refound"] += again
        print(f"\n{topic}\n  {seconds:.0f} s (load average {load:.1f} at the start)")
        print(f"  {verified} of {len(named)} citations of a passage verified;", end=" ")
        print(f"{len(citations) - len(named)} 'none'; {again} of {verified} re-found in files")
        for c in citations:
            print(
                f"  {c['unit']:7} {c['passage'] or 'none':7} {c['status']:16} {c['quote'][:70]!r}"
            )
    share = totals["verified"] / totals["named"] if totals["named"] else 0.0
    print(
        f"\nall: {totals['verified']} of {totals['named']} citations of a passage verified"
        f" ({share:.0%}); {totals['none']} 'none'; {totals['refound']} of"
        f" {totals['verified']} verified quotes re-found in their files"
    )


if __name__ == "__main__":
    main()
