"""Everything moot writes to a terminal, made safe for any text it carries.

moot's consoles never interpret rich markup: text is always passed as ``rich.Text``
built from :func:`moot.safe_text.visible` strings, and styles are applied by code,
so a topic, id, model spec, model reply or server error holding ``[/red]`` is
printed as those characters, and one holding ``ESC[2J`` as ``\\x1b[2J``.

Writes to standard output are flushed at once: a full disk, a closed pipe or
``/dev/full`` raise :class:`~moot.errors.OutputError` where they happen (never a
traceback at interpreter exit), and standard output is then pointed at the null
device so nothing fails again on the way out.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys

from rich.console import Console
from rich.text import Text

from moot.errors import OutputError
from moot.safe_text import visible


def console(*, stderr: bool = False) -> Console:
    """A console that interprets neither markup nor emoji codes and highlights nothing."""
    return Console(stderr=stderr, markup=False, emoji=False, highlight=False)


def text(*parts: str | tuple[str, str]) -> Text:
    """``Text`` from plain parts (made :func:`visible`) and ``(part, style)`` pairs."""
    result = Text()
    for part in parts:
        if isinstance(part, tuple):
            result.append(visible(part[0]), style=part[1])
        else:
            result.append(visible(part))
    return result


def say(message: str, *, label: str = "", style: str = "") -> None:
    """One message on standard error: ``label`` (styled) then the message, made
    visible. A standard error that cannot be written is not an error of its own."""
    line = text((label, style), " ", message) if label else text(message)
    with contextlib.suppress(OSError):
        console(stderr=True).print(line, soft_wrap=True)


def _silence_stdout() -> None:
    """Point file descriptor 1 at the null device, so the buffered rest of a failed
    write does not fail once more (and print a traceback) when Python exits."""
    with contextlib.suppress(OSError, ValueError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)


def write_stdout(data: str) -> None:
    """Write ``data`` to standard output and flush it; ``OutputError`` if that fails
    (``/dev/full``, a closed pipe, a full disk)."""
    try:
        sys.stdout.write(data)
        sys.stdout.flush()
    except OSError as exc:
        _silence_stdout()
        if exc.errno == errno.EPIPE:
            raise OutputError("standard output was closed before everything was written") from exc
        raise OutputError(f"cannot write to standard output: {exc.strerror or exc}") from exc


def print_stdout(renderable: Text | object) -> None:
    """Render ``renderable`` with rich on standard output (a terminal), flushed."""
    try:
        console().print(renderable)
        sys.stdout.flush()
    except OSError as exc:
        _silence_stdout()
        raise OutputError(f"cannot write to standard output: {exc.strerror or exc}") from exc
