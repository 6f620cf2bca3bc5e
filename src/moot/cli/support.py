"""How every ``moot`` command ends: a clean message and a documented exit code.

=====  ==============================================================================
code   meaning
=====  ==============================================================================
0      done
1      a backend failed (server down, timed out, HTTP error), a result could not be
       written, or moot itself failed (an internal error)
2      bad usage or configuration: an option, a model spec, a configuration file, or
       a run store that cannot be used (``MOOT_HOME``)
3      a model's reply never validated, after the allowed re-asks
4      the token or cost budget was reached (before the call that would pass it)
130    interrupted (Ctrl-C or SIGTERM); a stored run is marked ``interrupted``
=====  ==============================================================================

Commands registered on a :class:`GuardedTyper` run inside :func:`guard`, which maps
every exception to one of these codes and prints one message (made safe for the
terminal) on standard error. No traceback reaches the user unless ``--debug`` or the
environment variable ``MOOT_DEBUG=1`` asks for one. While a command runs, SIGTERM is
handled like Ctrl-C, so a run stopped by a service manager is recorded as
``interrupted`` and can be resumed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import os
import signal
import threading
import traceback
from collections.abc import Callable, Iterator
from enum import IntEnum
from types import FrameType
from typing import Any, TypeVar

import typer
from typer.models import ArgumentInfo, OptionInfo

from moot.errors import BudgetExceeded, ConfigError, ModelOutputError, MootError
from moot.terminal import say

F = TypeVar("F", bound=Callable[..., Any])

DEBUG_VARIABLE = "MOOT_DEBUG"


class ExitCode(IntEnum):
    """The exit codes of every ``moot`` command (see the module documentation)."""

    OK = 0
    ERROR = 1
    USAGE = 2
    MODEL_OUTPUT = 3
    BUDGET = 4
    INTERRUPTED = 130


class _State:
    debug = False
    signal: str | None = None


def set_debug(flag: bool) -> None:
    """``--debug``: show tracebacks (also when ``MOOT_DEBUG`` is set to anything but 0)."""
    _State.debug = flag


def debugging() -> bool:
    return _State.debug or os.environ.get(DEBUG_VARIABLE, "").strip() not in ("", "0")


def describe(exc: BaseException) -> tuple[ExitCode, str, str]:
    """The exit code, the message's label and the message for an exception."""
    if isinstance(exc, ConfigError):
        return ExitCode.USAGE, "error:", str(exc)
    if isinstance(exc, ModelOutputError):
        return ExitCode.MODEL_OUTPUT, "the model's reply never validated:", str(exc)
    if isinstance(exc, BudgetExceeded):
        return ExitCode.BUDGET, "budget reached, run stopped before the call:", str(exc)
    if isinstance(exc, MootError):
        return ExitCode.ERROR, "error:", str(exc)
    if isinstance(exc, KeyboardInterrupt | asyncio.CancelledError):
        how = f"by {_State.signal}" if _State.signal else "by Ctrl-C"
        return ExitCode.INTERRUPTED, "interrupted", how
    return (
        ExitCode.ERROR,
        "internal error:",
        f"{type(exc).__name__}: {exc}. This is a bug in moot; run the command again with"
        f" --debug (or {DEBUG_VARIABLE}=1) to see where it happened, and report it.",
    )


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    """SIGTERM does what Ctrl-C does (asyncio's handler cancels the run cleanly)."""
    _State.signal = "SIGTERM"
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler):
        handler(signal.SIGINT, frame)
    else:
        raise KeyboardInterrupt


@contextlib.contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _State.signal = None  # (kept after the block: the message names the signal)
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def guard() -> Iterator[None]:
    """Run a command: every exception becomes a message and its exit code."""
    try:
        with _sigterm_as_interrupt():
            yield
    except (typer.Exit, typer.Abort, typer.BadParameter):
        raise  # typer's own ends (usage errors, --help, Exit(n)) keep their meaning
    except (Exception, KeyboardInterrupt, asyncio.CancelledError) as exc:
        code, label, message = describe(exc)
        if debugging():
            if code == ExitCode.ERROR and not isinstance(exc, MootError):
                raise
            say("".join(traceback.format_exception(exc)).rstrip())
        style = "yellow" if code in (ExitCode.BUDGET, ExitCode.INTERRUPTED) else "red"
        say(message, label=label, style=style)
        for note in getattr(exc, "__notes__", []):
            say(str(note))
        raise typer.Exit(int(code)) from exc


def option_names(function: Callable[..., Any]) -> dict[str, str]:
    """What the user types for each parameter of a typer command: its longest flag
    (``json_path``: ``--json``; an option without declared flags: ``--max-tokens``),
    or an argument's name in capitals (``TOPIC``)."""
    names: dict[str, str] = {}
    for name, parameter in inspect.signature(function, eval_str=True).parameters.items():
        metadata = getattr(parameter.annotation, "__metadata__", ())
        declared = next((m for m in metadata if isinstance(m, OptionInfo | ArgumentInfo)), None)
        if isinstance(declared, ArgumentInfo):
            names[name] = name.upper()
            continue
        # with Annotated, typer takes a first string argument as a flag, not a default
        given = [declared.default, *(declared.param_decls or ())] if declared is not None else []
        flags = [
            flag.split("/")[0] for flag in given if isinstance(flag, str) and flag.startswith("--")
        ]
        names[name] = max(flags, key=len) if flags else "--" + name.replace("_", "-")
    return names


def _check_arguments(names: dict[str, str], values: dict[str, Any]) -> None:
    """Refuse, naming the option, an argument that is not valid text (bytes that are not
    UTF-8 reach Python as lone surrogates). Paths are left alone: a file name may be
    any bytes."""
    from moot.validation import check_text

    for name, value in values.items():
        check_text(value, names.get(name, name))


def guarded(function: F) -> F:
    """``function`` run inside :func:`guard` (same signature, for typer)."""

    names = option_names(function)

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with guard():
            _check_arguments(names, kwargs)
            return function(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


class GuardedTyper(typer.Typer):
    """A ``Typer`` whose every command runs inside :func:`guard`: a command added with
    ``@app.command()`` gets the documented exit codes and clean messages for free."""

    def command(self, *args: Any, **kwargs: Any) -> Callable[[F], F]:
        def decorator(function: F) -> F:
            options = dict(kwargs)
            if "short_help" not in options and "help" not in options:
                options["short_help"] = short_help(function.__doc__)
            typer.Typer.command(self, *args, **options)(guarded(function))
            return function

        return decorator


def short_help(doc: str | None) -> str | None:
    """The line ``moot --help`` lists for a command: the first paragraph of its
    docstring on one line, without reST's double backquotes. Typer's rich help keeps a
    docstring's line breaks, so a wrapped sentence broke mid-line in the list."""
    if not doc or not doc.strip():
        return None
    first = inspect.cleandoc(doc).split("\n\n", 1)[0]
    return " ".join(first.replace("``", "").split())
