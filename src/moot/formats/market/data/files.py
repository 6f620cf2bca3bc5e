"""Reading the market format's input files: UTF-8 text and JSON, with errors that
name the file and the place."""

from __future__ import annotations

import codecs
import contextlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

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


@contextlib.contextmanager
def open_text(path: Path, what: str) -> Iterator[Iterator[str]]:
    """The lines of a UTF-8 file, read one at a time whatever the file's size (a file
    or a pipe; a leading byte-order mark is dropped). A line that is not UTF-8 raises
    a ``DataError`` naming its byte and line number where it is read; a missing path,
    a directory or a device is refused first."""
    try:
        info = os.stat(path)
    except OSError as exc:
        reason = "no such file" if isinstance(exc, FileNotFoundError) else exc.strerror or exc
        raise DataError(f"cannot read {what} {path}: {reason}") from exc
    if stat.S_ISDIR(info.st_mode):
        raise DataError(f"cannot read {what} {path}: it is a directory, not a file")
    if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode):
        raise DataError(f"cannot read {what} {path}: it is a device, not a file")
    try:
        handle = open(path, "rb")  # noqa: SIM115
    except OSError as exc:
        raise DataError(f"cannot read {what} {path}: {exc.strerror or exc}") from exc
    with handle:
        yield _decoded(handle, path)


def _decoded(handle: BinaryIO, path: Path) -> Iterator[str]:
    for n, raw in enumerate(handle, start=1):
        if n == 1 and raw.startswith(codecs.BOM_UTF8):
            raw = raw[len(codecs.BOM_UTF8) :]
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DataError(
                f"{path} is not UTF-8: byte {raw[exc.start : exc.start + 1]!r} on line {n}"
                " (save the file as UTF-8)"
            ) from exc


def read_json(path: Path, what: str) -> Any:
    """JSON from a UTF-8 file, or a ``DataError`` saying what is wrong with it (also
    nesting or a number over the limits of ``moot.safe_json``)."""
    return loads(read_utf8(path, what), f"{what} {path}", DataError)
