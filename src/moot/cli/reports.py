"""``moot report`` (one run as a self-contained HTML file) and ``moot view`` (the run
store in a web browser). The viewer's web stack (the ``view`` extra) is imported only
when ``moot view`` runs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from moot.cli.app import app
from moot.cli.runs import finished_run
from moot.errors import ConfigError
from moot.safe_text import one_line
from moot.terminal import say


@app.command("report")
def report_html(
    debate_id: Annotated[str, typer.Argument(help="Run id.")],
    html_path: Annotated[Path, typer.Option("--html", help="Write the HTML report here.")],
) -> None:
    """Write a finished run's report as one self-contained HTML file."""
    from moot.files import check_output_path, write_output
    from moot.report.html import to_html

    check_output_path(html_path, "--html")
    write_output(html_path, to_html(*finished_run(debate_id, "report")))
    say(f"HTML report written to {html_path}")


def serve_store(*, host: str, port: int, lang: str, say: Callable[[str], object]) -> None:
    """Serve the run store read-only until interrupted (``moot view``)."""
    from moot.store.connection import default_location, is_url

    if lang not in ("en", "zh"):
        raise ConfigError("--lang must be en or zh")
    try:
        from moot.view import serve
        from moot.view.serve import is_loopback
    except ImportError as exc:
        raise ConfigError(
            f"moot view needs the view extra ({exc.name} is missing): pip install 'moot[view]'"
        ) from exc

    def ready(url: str) -> None:
        # once the address is bound: a host the viewer refuses gets no warning
        if not is_loopback(host):
            say(
                f"warning: serving on {one_line(host)}: anyone who can reach it can read"
                " every stored debate"
            )
        say(f"moot view: serving {shown} read-only at {url}  (Ctrl-C to stop)")

    where = default_location()
    if is_url(where):
        from moot.store.postgres import public_url

        shown = public_url(str(where))
    else:
        shown = str(where)
    serve(where, host=host, port=port, lang=lang, on_ready=ready)


@app.command()
def view(
    port: Annotated[int, typer.Option(help="Port (0: any free port).")] = 8765,
    host: Annotated[str, typer.Option(help="Address to listen on (loopback by default).")] = (
        "127.0.0.1"
    ),
    lang: Annotated[str, typer.Option(help="Language of the viewer's pages: en or zh.")] = "en",
) -> None:
    """Browse the run store read-only in a web browser (localhost only by default)."""
    serve_store(host=host, port=port, lang=lang, say=lambda message: say(message))
