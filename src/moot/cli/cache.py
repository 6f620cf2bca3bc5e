"""``moot cache``: inspect or clear the response cache."""

from __future__ import annotations

import json

from moot.cli.app import app
from moot.cli.support import GuardedTyper
from moot.terminal import write_stdout

cache_app = GuardedTyper(no_args_is_help=True, help="Inspect or clear the response cache.")
app.add_typer(cache_app, name="cache")


@cache_app.command("stats")
def cache_stats() -> None:
    """Entries, hits and size of the response cache."""
    from moot.store import Store

    write_stdout(json.dumps(Store().cache_stats()) + "\n")


@cache_app.command("clear")
def cache_clear() -> None:
    """Remove every cached reply."""
    from moot.store import Store

    removed = Store().cache_clear()
    write_stdout(f"removed {removed} cached replies\n")
