"""Re-find every ``verified`` quote of a result in its document, independently of moot.

Written from docs/citation-verification.md ("Quote normalisation") and
docs/sources.md ("Documents") alone, without moot's reader or normaliser: the
document is read again from its file with the libraries the docs name (Beautiful
Soup with ``html.parser``, pypdf page by page, the ``csv`` module, rows shown as
``column: value | column: value``), and quote and text are normalised only as the
docs say. A verified quote this cannot find in its file is a verifier defect.

    python tests/sources/refind.py result.json
"""

from __future__ import annotations

import csv
import io
import json
import re
import sys
import unicodedata
from pathlib import Path
from typing import Any

_QUOTES = (
    "\"'\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u300c\u300d\u300e\u300f"
    "\u00ab\u00bb\u2039\u203a\u301d\u301e\u2032\u2033\uff02\uff07"
)
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2212\uff0d"
_SOFT = "\u200b\u200c\u200d\u2060\u00ad\ufeff"
_DIRECTION = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_MARKS = '"[]{}<>\u3010\u3011\u3014\u3015\u3008\u3009\u300a\u300b\u3016\u3017'
_CJK = r"\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_ENDS = " \"'.,;:!?\u3002\uff0c\uff1b\uff1a\uff01\uff1f\u3001()"


def document_text(path: Path) -> str:
    """The text of a document, read as docs/sources.md says each kind is read."""
    suffix = path.suffix.lower()
    if suffix in {".txt", ".text", ".md", ".markdown"}:
        return path.read_text(encoding="utf-8")
    if suffix in {".html", ".htm"}:
        from bs4 import BeautifulSoup

        soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        for tag in soup(["script", "style"]):
            tag.decompose()
        return str(soup.get_text("\n"))
    if suffix == ".pdf":
        import pypdf

        reader = pypdf.PdfReader(io.BytesIO(path.read_bytes()))
        return "\n\n".join(page.extract_text() for page in reader.pages)
    if suffix == ".csv":
        rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
        header, body = rows[0], rows[1:]
        return "\n".join(
            " | ".join(f"{name}: {value}" for name, value in zip(header, row, strict=False))
            for row in body
        )
    raise ValueError(f"no reader for {path}")


def normalise(text: str) -> str:
    """Steps 1-6 of "Quote normalisation": width, case, quotation marks, dashes,
    whitespace, soft characters (and the control characters the readers drop)."""
    text = "".join(c for c in text if c not in _SOFT + _DIRECTION)
    text = "".join(c for c in text if c in "\n\t" or unicodedata.category(c) != "Cc")
    text = unicodedata.normalize("NFKC", text).casefold()
    text = "".join('"' if c in _QUOTES else "-" if c in _DASHES else c for c in text)
    text = re.sub(r"(?<=\w)-\n\s*(?=\w)", "-", text)
    text = re.sub(r"\s+", " ", text)
    text = re.sub(rf"\s+(?=[{_CJK}])|(?<=[{_CJK}])\s+", "", text)
    return text


def _pieces(quote: str) -> list[str]:
    parts = re.split(r"\[\s*\.\.\.\s*\]|\.\.\.", normalise(quote))
    return [p.strip(_ENDS) for p in parts if p.strip(_ENDS)]


def _occurs(piece: str, text: str, start: int) -> int:
    """Where ``piece`` occurs in ``text`` from ``start`` without cutting a number
    ("by 5" is not in "by 50"); -1 if nowhere."""
    at = text.find(piece, start)
    while at >= 0:
        end = at + len(piece)
        cut_before = piece[0].isdigit() and at > 0 and text[at - 1].isdigit()
        cut_after = piece[-1].isdigit() and end < len(text) and text[end].isdigit()
        if not (cut_before or cut_after):
            return at
        at = text.find(piece, at + 1)
    return -1


def _in_order(pieces: list[str], text: str) -> bool:
    at = 0
    for piece in pieces:
        found = _occurs(piece, text, at)
        if found < 0:
            return False
        at = found + len(piece)
    return bool(pieces)


def found_in(quote: str, document: str) -> bool:
    """Whether ``quote`` occurs in ``document`` as the docs' normalisation allows
    (step 9: looked for once more with quotation marks and brackets left out)."""
    text = normalise(document)
    if _in_order(_pieces(quote), text):
        return True
    strip = str.maketrans("", "", _MARKS)
    return _in_order(
        [p.translate(strip).strip(_ENDS) for p in _pieces(quote)], text.translate(strip)
    )


def unfound_verified(result: dict[str, Any]) -> list[str]:
    """Every verified quote of ``result`` (the result JSON) not found in its file."""
    section = result.get("sources") or {}
    paths = {d["id"]: Path(d["path"]) for d in section.get("documents", [])}
    texts = {ident: document_text(path) for ident, path in paths.items()}
    return [
        f"{c['unit']} {c['passage']}: {c['quote']!r}"
        for c in section.get("citations", [])
        if c["status"] == "verified" and not found_in(c["quote"], texts[c["source"]])
    ]


def main(argv: list[str]) -> int:
    result = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    missing = unfound_verified(result)
    for line in missing:
        print(f"not found: {line}")
    verified = sum(
        1 for c in (result.get("sources") or {}).get("citations", []) if c["status"] == "verified"
    )
    print(f"{verified - len(missing)}/{verified} verified quotes found in their files")
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
