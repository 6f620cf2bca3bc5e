"""The ``moot`` application: the Typer app every command module registers on, its
``--debug`` callback and the console script.

The app's group adds the commands of the registered formats (``moot backtest`` of
the market format, ``moot tournament`` of the competitive one, a plugin's) only when
a command not built in is asked for or the commands are listed, so ``moot version``
or ``moot list`` never imports a format.
"""

from __future__ import annotations

import importlib
import os
import sys
import warnings
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from moot.cli.support import GuardedTyper, debugging, describe, set_debug
from moot.terminal import say, write_stdout


class _FormatCommands:
    """The commands the formats add, read once from the registry."""

    loaded: dict[str, Any] | None = None

    @classmethod
    def get(cls) -> dict[str, Any]:
        if cls.loaded is None:
            from moot.formats import formats

            extra = GuardedTyper()
            for fmt in formats():
                for name in fmt.command_modules:
                    importlib.import_module(name).register(extra)
            # a group of two or more commands lists them; with one, typer makes it the
            # command itself, which is as good
            group = typer.main.get_command(extra) if extra.registered_commands else None
            if isinstance(group, TyperGroup):
                cls.loaded = dict(group.commands)
            elif group is not None and group.name:
                cls.loaded = {group.name: group}
            else:
                cls.loaded = {}
        return cls.loaded


ORDER = (
    *("version", "run", "calibrate", "resume", "list", "show", "export", "report", "view"),
    *("lint", "formats", "schema", "doctor", "delete", "cache", "store", "batch", "mcp"),
)
"""The built-in commands in the order ``moot --help`` lists them (whichever module
registers them)."""


class MootGroup(TyperGroup):
    """The top-level group: the built-in commands, then the formats' own."""

    def list_commands(self, ctx: Any) -> list[str]:
        rank = {name: n for n, name in enumerate(ORDER)}
        built_in = sorted(super().list_commands(ctx), key=lambda n: rank.get(n, len(rank)))
        return [*built_in, *_FormatCommands.get()]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is None:
            command = _FormatCommands.get().get(cmd_name)
        return command


app = GuardedTyper(
    cls=MootGroup,
    add_completion=False,
    no_args_is_help=True,
    # a traceback with local variables could show a key: tracebacks only with --debug
    pretty_exceptions_enable=False,
    help="moot: structured multi-agent LLM debate with an auditable decision briefing.",
)


def _print_version(asked: bool) -> None:
    """``moot --version``: the same line as ``moot version``, before any command runs."""
    if asked:
        from moot import __version__

        write_stdout(__version__ + "\n")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print moot's version."
        ),
    ] = False,
    debug: Annotated[
        bool,
        typer.Option("--debug", help="Show the traceback of an error (also: MOOT_DEBUG=1)."),
    ] = False,
    store: Annotated[
        str | None,
        typer.Option(
            "--store",
            help="The run store: a postgresql://user@host:port/db URL (the password from"
            " PGPASSWORD or ~/.pgpass, never in the URL) or an SQLite file (also:"
            " MOOT_STORE; default: moot.db in MOOT_HOME).",
        ),
    ] = None,
) -> None:
    """moot runs a structured debate between LLM agents and writes a decision briefing.

    Exit codes: 0 done, 1 backend or other error, 2 bad usage or configuration, 3 a
    model reply never validated, 4 budget reached, 130 interrupted.
    """
    set_debug(debug)
    if store is not None:
        from moot.store.connection import STORE_ENV

        # in the environment, so the processes a command starts (batch workers) use it
        os.environ[STORE_ENV] = store


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: Any = None,
    line: str | None = None,
) -> None:
    """A format plugin left out is one line on standard error, like moot's own
    warnings; any other warning as Python shows it."""
    if category.__name__ == "PluginWarning":
        say(str(message), label="warning:", style="yellow")
    else:
        _python_warning(message, category, filename, lineno, file, line)


_python_warning = warnings.showwarning


def main() -> None:
    """The ``moot`` console script: the app, with the same clean end for anything that
    escapes a command (a failure while parsing, say)."""
    warnings.showwarning = _show_warning
    try:
        app(prog_name="moot")
    except SystemExit:
        raise
    except BaseException as exc:  # every exit path gets its message and code
        if debugging():
            raise
        code, label, message = describe(exc)
        say(message, label=label, style="red")
        sys.exit(int(code))
