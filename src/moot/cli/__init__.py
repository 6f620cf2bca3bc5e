"""The ``moot`` command: a thin Typer layer over the public API and the store.

One module per group of commands, each registering on the app of
:mod:`moot.cli.app`: :mod:`~moot.cli.running` (run, resume), :mod:`~moot.cli.runs`
(list, show, export, delete), :mod:`~moot.cli.reports` (report, view),
:mod:`~moot.cli.tools` (version, lint, formats, schema, doctor), :mod:`~moot.cli.cache`,
:mod:`~moot.cli.calibrate`, :mod:`~moot.cli.store` (migrate, copy) and
:mod:`~moot.cli.batch`; :mod:`~moot.cli.mcp` serves the same work to MCP clients
(``moot mcp``). A format adds its own commands
(``Format.command_modules``: ``moot backtest``, ``moot tournament``); ``moot run``'s
format flags are generated from the formats' declared options
(:mod:`moot.cli.format_flags`). Nothing here names a format.

Every command is registered on a :class:`~moot.cli.support.GuardedTyper`, so it ends
with a clean message and a documented exit code whatever goes wrong (see
:mod:`moot.cli.support`); everything it prints goes through :mod:`moot.terminal`,
which never interprets markup and shows control characters as escapes. The command
modules import the engine, the store and the renderers inside the commands, so that
``moot --help`` loads little.
"""

from __future__ import annotations

from moot.cli import batch, cache, calibrate, mcp, reports, running, runs, store, tools
from moot.cli.app import app, main

__all__ = [
    "app",
    "batch",
    "cache",
    "calibrate",
    "main",
    "mcp",
    "reports",
    "running",
    "runs",
    "store",
    "tools",
]
