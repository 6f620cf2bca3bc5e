"""An independent check of a result's ``sources`` section: every ``verified`` quote is
found again in its document's file (text and Markdown), read afresh and normalised
here (Unicode NFKC, case, white space, quotation marks), without moot's readers or
verifier, and in the passage the result shows."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

PLAIN = (".txt", ".text", ".md", ".markdown")
"""Documents whose file holds the passages' text as it is (the others are checked
against the passage the result shows)."""
_QUOTES = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "「": '"', "」": '"'})


def normalised(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).translate(_QUOTES).casefold()
    return " ".join(re.sub(r"[\x00-\x1f\x7f]", " ", folded).split())


def verification_rate(doc: dict[str, Any]) -> tuple[int, int]:
    """(verified, citations that name a passage) of a result's JSON."""
    named = [c for c in doc["sources"]["citations"] if c["status"] != "no_source"]
    return sum(c["status"] == "verified" for c in named), len(named)


def check_verified_quotes(doc: dict[str, Any]) -> None:
    """Assert every verified quote occurs in its document and its shown passage."""
    sources = doc["sources"]
    files = {
        d["id"]: normalised(Path(d["path"]).read_text(encoding="utf-8"))
        for d in sources["documents"]
    }
    shown = {p["id"]: normalised(p["text"]) for p in sources["passages"]}
    for c in sources["citations"]:
        if c["status"] != "verified":
            continue
        quote = normalised(c["quote"])
        assert quote, c
        assert c["passage"].startswith(c["source"] + ":p"), c
        if c["source"] in files:
            assert quote in files[c["source"]], c
        assert quote in shown[c["passage"]], c
