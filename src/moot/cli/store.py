"""``moot store``: upgrade a store's schema, or copy runs between stores (SQLite and
PostgreSQL, either way). A store is a file path or a ``postgresql://`` URL (with no
password in it: libpq takes it from PGPASSWORD or ~/.pgpass)."""

from __future__ import annotations

from typing import Annotated

import typer

from moot.cli.app import app
from moot.cli.support import GuardedTyper
from moot.terminal import write_stdout

store_app = GuardedTyper(
    no_args_is_help=True,
    help="Upgrade a run store, or copy runs between stores (SQLite, PostgreSQL).",
)
app.add_typer(store_app, name="store")


@store_app.command("migrate")
def migrate() -> None:
    """Apply the schema migrations the store (--store / MOOT_STORE, else the SQLite
    file) has not had yet, and list them all."""
    from moot.store import Store

    with Store() as store:
        for name, applied_at in store.migrations():
            write_stdout(f"{name}  {applied_at}\n")
        write_stdout(f"the store {store.location} is at the current schema\n")


@store_app.command("copy")
def copy(
    source: Annotated[str, typer.Argument(help="The store to copy from (path or URL).")],
    target: Annotated[str, typer.Argument(help="The store to copy to (path or URL).")],
    run_id: Annotated[
        list[str] | None, typer.Option("--id", help="Copy only this run; repeatable.")
    ] = None,
) -> None:
    """Copy runs (with their journals and judge history), the response cache and the
    source index from SOURCE to TARGET, losslessly; runs TARGET has are skipped."""
    from moot.errors import ConfigError
    from moot.store import ReadOnlyStore, Store
    from moot.store.copy import copy_store

    if source == target:
        raise ConfigError("moot store copy: SOURCE and TARGET are the same store")
    with ReadOnlyStore(source) as src, Store(target) as dst:
        report = copy_store(src, dst, run_id)
        write_stdout(
            f"copied {report.copied} runs ({report.calls} calls) from {src.location}"
            f" to {dst.location}; {len(report.skipped)} skipped (already there or unknown)\n"
        )
