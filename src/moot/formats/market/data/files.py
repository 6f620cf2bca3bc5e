"""Reading the market format's input files: UTF-8 text and JSON, with errors that
name the file and the place."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from moot.errors import DataError
from moot.safe_json import MAX_BYTES, loads, read_bytes


def read_utf8(path: Path, what: str) -> str:
    """The text of a UTF-8 file (a leading byte-order mark is dropped), or a
    ``DataError`` naming the byte and line that are not UTF-8; a device or a file over
    ``moot.safe_json.MAX_BYTES`` is refused unread."""
    raw = read_bytes(path, what, MAX_BYTES, DataError)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DataError(
            f"{path} is not UTF-8: byte {raw[exc.start : exc.start + 1]!r} on line {line}"
            " (save the file as UTF-8)"
        ) from exc


def read_json(path: Path, what: str) -> Any:
    """JSON from a UTF-8 file, or a ``DataError`` saying what is wrong with it (also
    nesting or a number over the limits of ``moot.safe_json``)."""
    return loads(read_utf8(path, what), f"{what} {path}", DataError)
