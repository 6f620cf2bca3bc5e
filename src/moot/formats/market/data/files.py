"""Reading the market format's input files: UTF-8 text and JSON, with errors that
name the file and the place."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from moot.errors import DataError


def read_utf8(path: Path, what: str) -> str:
    """The text of a UTF-8 file (a leading byte-order mark is dropped), or a
    ``DataError`` naming the byte and line that are not UTF-8."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DataError(f"cannot read {what} {path}: {exc.strerror or exc}") from exc
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DataError(
            f"{path} is not UTF-8: byte {raw[exc.start : exc.start + 1]!r} on line {line}"
            " (save the file as UTF-8)"
        ) from exc


def read_json(path: Path, what: str) -> Any:
    """JSON from a UTF-8 file, or a ``DataError`` saying what is wrong with it."""
    text = read_utf8(path, what)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(
            f"{what} {path} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from exc
