"""The command line's HTML features: writing a report file and starting the viewer.

Kept out of ``cli.py`` so the viewer's web stack (the ``view`` extra) is imported
only when ``moot view`` runs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from moot.errors import ConfigError
from moot.report.html import to_html
from moot.schema import DebateResult
from moot.store import default_path


def check_html_path(path: Path) -> None:
    """Refuse, before a run, an ``--html`` path that cannot be a file."""
    if path.is_dir():
        raise ConfigError(f"--html {path} is a directory; give a file path")


def write_html(result: DebateResult, path: Path) -> None:
    """Write the self-contained HTML report of ``result`` to ``path`` (UTF-8)."""
    check_html_path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(to_html(result), encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot write the HTML report to {path}: {exc.strerror}") from exc


def serve_store(*, host: str, port: int, lang: str, say: Callable[[str], object]) -> None:
    """Serve the run store read-only until interrupted (``moot view``)."""
    if lang not in ("en", "zh"):
        raise ConfigError("--lang must be en or zh")
    try:
        from moot.view import serve
        from moot.view.serve import is_loopback
    except ImportError as exc:
        raise ConfigError(
            f"moot view needs the view extra ({exc.name} is missing): pip install 'moot[view]'"
        ) from exc
    if not is_loopback(host):
        say(f"warning: serving on {host}: anyone who can reach it can read every stored debate")

    def ready(url: str) -> None:
        say(f"moot view: serving {default_path()} read-only at {url}  (Ctrl-C to stop)")

    serve(default_path(), host=host, port=port, lang=lang, on_ready=ready)
