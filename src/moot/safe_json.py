"""JSON (and TOML) that a user hands moot, read within limits.

Python's ``json`` reads whatever it is given: a device such as ``/dev/zero`` until
memory runs out, a document nested 100,000 deep until the interpreter's recursion
limit, a 5,000-digit number into a ``ValueError`` that is not a ``JSONDecodeError``.
Every JSON reader of user input goes through here instead, and each of those becomes
the caller's own error class (exit code 2 at the command line) with the file named:

- a path that is missing, a directory or a device is refused before reading;
- at most ``max_bytes`` are read (a named pipe included);
- the text must be UTF-8 (a byte-order mark is allowed);
- nesting deeper than ``MAX_DEPTH`` and integers longer than ``MAX_INT_DIGITS``
  digits are refused.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from moot.errors import ConfigError

MAX_DEPTH = 100
"""Deepest nesting of arrays and objects accepted."""
MAX_INT_DIGITS = 100
"""Longest integer accepted, in digits."""
MAX_BYTES = 16 * 1024 * 1024
"""Default size limit of a JSON file, in bytes."""


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _TooLong(f"an integer of {len(text.lstrip('-'))} digits (at most {MAX_INT_DIGITS})")
    return int(text)


class _TooLong(ValueError):
    """An integer over the digit limit (internal; turned into the caller's error)."""


def _depth_over(data: Any, limit: int) -> bool:
    """Whether ``data`` nests arrays and objects deeper than ``limit`` (no recursion)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def loads(text: str, source: str, error: type[ConfigError] = ConfigError) -> Any:
    """The JSON value of ``text``, or ``error`` naming ``source`` and what is wrong:
    invalid JSON, nesting deeper than ``MAX_DEPTH``, an integer over ``MAX_INT_DIGITS``."""
    try:
        data = json.loads(text, parse_int=_bounded_int)
    except _TooLong as exc:
        raise error(f"{source} holds {exc}") from exc
    except RecursionError as exc:
        raise error(f"{source} nests arrays or objects deeper than {MAX_DEPTH} levels") from exc
    except json.JSONDecodeError as exc:
        raise error(
            f"{source} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from exc
    if _depth_over(data, MAX_DEPTH):
        raise error(f"{source} nests arrays or objects deeper than {MAX_DEPTH} levels")
    return data


def toml_loads(text: str, source: str, error: type[ConfigError] = ConfigError) -> dict[str, Any]:
    """The TOML document ``text``, or ``error`` naming ``source``: invalid TOML, an
    integer over Python's digit limit, or nesting deep enough to exhaust the stack
    (``tomllib`` raises ``ValueError`` or ``RecursionError`` for those)."""
    import tomllib

    try:
        return tomllib.loads(text)
    except RecursionError as exc:
        raise error(f"{source} nests arrays or tables too deeply") from exc
    except ValueError as exc:  # TOMLDecodeError, and int()'s digit limit
        raise error(f"{source} is not valid TOML: {exc}") from exc


def read_bytes(
    path: Path, what: str, max_bytes: int = MAX_BYTES, error: type[ConfigError] = ConfigError
) -> bytes:
    """At most ``max_bytes`` of the file ``path`` (``what`` names it in errors), refusing
    a missing path, a directory, a device and a larger file without reading it all."""
    try:
        info = os.stat(path)
    except FileNotFoundError as exc:
        raise error(f"cannot read {what} {path}: no such file") from exc
    except OSError as exc:
        raise error(f"cannot read {what} {path}: {exc.strerror or exc}") from exc
    if stat.S_ISDIR(info.st_mode):
        raise error(f"cannot read {what} {path}: it is a directory, not a file")
    if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode):
        raise error(f"cannot read {what} {path}: it is a device, not a file")
    too_big = f"cannot read {what} {path}: it is larger than the limit of {max_bytes:,} bytes"
    if stat.S_ISREG(info.st_mode) and info.st_size > max_bytes:
        raise error(too_big)
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise error(f"cannot read {what} {path}: {exc.strerror or exc}") from exc
    if len(data) > max_bytes:
        raise error(too_big)
    return data


def decode(raw: bytes, source: str, error: type[ConfigError] = ConfigError) -> str:
    """``raw`` as UTF-8 text (a byte-order mark is dropped), or ``error`` naming the
    byte and line that are not UTF-8."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise error(
            f"{source} is not UTF-8 text (byte {exc.start}, line {line}, cannot be decoded)"
        ) from exc


def read_json(
    path: Path, what: str, max_bytes: int = MAX_BYTES, error: type[ConfigError] = ConfigError
) -> Any:
    """The JSON value in the file ``path``, read within the limits above; every problem
    is ``error`` with the file named."""
    raw = read_bytes(path, what, max_bytes, error)
    return loads(decode(raw, f"{what} {path}", error), f"{what} {path}", error)
