"""Files a user names: configuration read in, results written out.

Every failure is a moot error that names the path: a configuration file that is
missing, unreadable or not UTF-8 is a ``ConfigError`` (exit 2); an output path is
checked *before* a run starts (:func:`check_output_path`), so a typo costs nothing,
and a write that still fails (a full disk, ``/dev/full``) is an ``OutputError``.
"""

from __future__ import annotations

import os
from pathlib import Path

from moot.errors import ConfigError, OutputError
from moot.safe_json import read_bytes


def read_config_text(path: Path, what: str) -> str:
    """The UTF-8 text of the configuration file ``path`` (``what`` names it in errors);
    a device or a file over ``moot.safe_json.MAX_BYTES`` is refused unread."""
    data = read_bytes(path, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{what} {path} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset"
            f" {exc.start}); save it as UTF-8"
        ) from exc


def check_output_path(path: Path, what: str) -> None:
    """Refuse, before any work, an output path that cannot be written: a directory,
    a path under a regular file, or a place this user may not write. ``what`` is the
    option the user typed (``--html``), named in the error."""
    if path.is_dir():
        raise ConfigError(f"{what} {path} is a directory; give a file path")
    if path.exists():
        if not os.access(path, os.W_OK):
            raise ConfigError(f"{what} {path} is not writable")
        return
    _check_creatable(path, what)


def check_output_dir(path: Path, what: str) -> None:
    """Refuse, before any work, a directory that files cannot be written into: an
    existing file, a path under a regular file, or a place this user may not write."""
    if path.exists():
        if not path.is_dir():
            raise ConfigError(f"{what} {path} exists and is not a directory")
        if not os.access(path, os.W_OK | os.X_OK):
            raise ConfigError(f"{what} {path} is not writable")
        return
    _check_creatable(path, what)


def _check_creatable(path: Path, what: str) -> None:
    """``path`` does not exist: its nearest existing ancestor must be a writable
    directory."""
    ancestor = path.parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise ConfigError(f"{what} {path} cannot be created: {ancestor} is not a directory")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise ConfigError(f"{what} {path} cannot be created: {ancestor} is not writable")


def write_output(path: Path, data: str, what: str = "the result") -> None:
    """Write ``data`` to ``path`` (creating its directories); ``OutputError`` on failure."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8") as handle:
            handle.write(data)
    except OSError as exc:
        raise OutputError(f"cannot write {what} to {path}: {exc.strerror or exc}") from exc
