"""``moot mcp``: moot as a tool for other agents, an MCP server over stdio or
streamable HTTP (:mod:`~moot.cli.mcp.server`), under the policy its options set
(:mod:`~moot.cli.mcp.policy`: the models, documents and budgets a client may use).

The server needs the ``mcp`` extra (``pip install 'moot[mcp]'``); it is imported
when the command runs, so the rest of the command line works without it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from moot.cli.app import app
from moot.cli.mcp.policy import DEFAULT_TOKEN_CAP
from moot.errors import ConfigError
from moot.terminal import say

DEFAULT_PORT = 8766
"""Beside the viewer's 8765."""


@app.command("mcp")
def mcp_command(
    http: Annotated[
        bool, typer.Option("--http", help="Serve streamable HTTP instead of stdio.")
    ] = False,
    port: Annotated[int, typer.Option(help="The HTTP port (with --http).")] = DEFAULT_PORT,
    host: Annotated[
        str,
        typer.Option(
            help="The HTTP address (with --http): one IP address, loopback by default;"
            " another is served with a warning."
        ),
    ] = "127.0.0.1",
    model: Annotated[
        list[str] | None,
        typer.Option(
            help="A model spec clients may use (repeatable; the first is the default;"
            " default: local)."
        ),
    ] = None,
    sources: Annotated[
        list[Path] | None,
        typer.Option(
            "--sources",
            help="A document or folder clients' debates may argue from (repeatable);"
            " nothing outside them is read.",
        ),
    ] = None,
    budget_cap: Annotated[
        int,
        typer.Option(help="Largest token budget of a client's run, and its default."),
    ] = DEFAULT_TOKEN_CAP,
    cost_cap: Annotated[
        float | None,
        typer.Option(help="Largest cost budget of a client's run in USD, and its default."),
    ] = None,
) -> None:
    """Serve moot's tools (run_debate, get_run, list_runs, lint_transcript,
    resume_run) to an MCP client over stdio, or over HTTP with --http."""
    from moot.cli.mcp.policy import Policy
    from moot.validation import check_number

    check_number(port, "--port", minimum=0, maximum=65535, integer=True)
    if not http and (port != DEFAULT_PORT or host != "127.0.0.1"):
        raise ConfigError("--port and --host need --http")
    policy = Policy.make(model or [], sources or [], budget_cap, cost_cap)
    try:
        from moot.cli.mcp.server import serve
    except ImportError as exc:
        raise ConfigError(
            f"moot mcp needs the mcp package ({exc.name} is missing): pip install 'moot[mcp]'"
        ) from exc
    serve(policy, http=http, host=host, port=port, say=lambda message: say(message))
