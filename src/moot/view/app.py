"""The viewer's web application (Starlette): the list of debates, a debate's report,
the comparison of two debates and the live progress of a run.

Read-only by construction: the store is opened with ``ReadOnlyStore`` and the guard
lets only GET and HEAD through. Run ids from the path or the query string are
matched in full against ``RUN_ID`` before the store is asked; nothing from a request
ever becomes a file path.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from moot.errors import ConfigError
from moot.report.html import Link, render_report
from moot.report.html.labels import labels
from moot.report.html.page import render
from moot.store import STATUSES, DebateRow, ReadOnlyStore
from moot.view import pages
from moot.view.security import RUN_ID, Guard, allowed_hosts

TEMPLATES = (("moot", "view/templates"),)
MAX_QUERY = 200
MAX_RUNS = 1000


class Viewer:
    """The pages, reading one store opened read-only, in one language for the
    viewer's own words (each debate's report speaks its debate's language)."""

    def __init__(self, store_path: Path, lang: str = "en") -> None:
        self.store = ReadOnlyStore(store_path)
        self.lang = lang
        self.labels = labels(lang)

    def _page(
        self, template: str, status: int = 200, refresh: int | None = None, **context: object
    ) -> HTMLResponse:
        html = render(
            template,
            lang=self.lang,
            extra=TEMPLATES,
            forms=True,
            nav=self._nav(),
            refresh=refresh,
            L=self.labels,
            **context,
        )
        return HTMLResponse(html, status_code=status)

    def _nav(self, *more: Link) -> tuple[Link, ...]:
        return (Link(self.labels["view.all_runs"], "/"), *more)

    def _run_id(self, value: str | None) -> str:
        """A run id from a request, matched in full, else 404."""
        if value is None or RUN_ID.fullmatch(value) is None:
            raise HTTPException(404)
        return value

    def _row(self, value: str | None) -> DebateRow:
        row = self.store.get_debate(self._run_id(value))
        if row is None:
            raise HTTPException(404)
        return row

    def runs(self, request: Request) -> Response:
        params = request.query_params
        query = params.get("q", "")[:MAX_QUERY].strip()
        status = params.get("status", "")
        rows = self.store.list_debates(MAX_RUNS)
        listing = pages.run_list(
            rows,
            self.labels,
            query=query,
            status=status if status in STATUSES else "",
            format=next((f for f in {r.format for r in rows} if f == params.get("format")), ""),
        )
        return self._page("runs.html.j2", title=self.labels["view.title"], runs=listing)

    def debate(self, request: Request) -> Response:
        row = self._row(request.path_params.get("run_id"))
        result, error = pages.parse_result(row)
        live = Link(self.labels["view.live"], pages.run_href(row.id, "live"))
        if result is None or row.status != "done":
            return self._live(row, error)
        try:
            html = render_report(result, nav=self._nav(live), extra=TEMPLATES, forms=True)
        except ConfigError as exc:
            return self._live(row, str(exc))
        return HTMLResponse(html)

    def live(self, request: Request) -> Response:
        row = self._row(request.path_params.get("run_id"))
        return self._live(row, pages.parse_result(row)[1])

    def _live(self, row: DebateRow, error: str | None) -> Response:
        calls = self.store.calls(row.id)
        running = row.status == "running"
        return self._page(
            "live.html.j2",
            title=f"{self.labels['view.live']}: {row.topic}",
            run=pages.run_list([row], self.labels).lines[0],
            row_error=row.error or "",
            unreadable=self.labels["view.unreadable"].format(error=error) if error else "",
            progress=pages.progress(row, calls, labels(self.lang, row.format)),
            refresh=pages.LIVE_REFRESH_S if running else None,
            report_href=pages.run_href(row.id) if row.status == "done" and not error else "",
        )

    def compare(self, request: Request) -> Response:
        params = request.query_params
        pair = []
        for key in ("a", "b"):
            row = self._row(params.get(key))
            result, _ = pages.parse_result(row)
            if result is None:
                raise HTTPException(404)
            pair.append((row, result))
        try:
            comparison = pages.compare(pair, self.labels)
        except ConfigError as exc:
            raise HTTPException(404) from exc
        return self._page(
            "compare.html.j2", title=self.labels["view.compare"], comparison=comparison
        )

    def not_found(self, request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        return self._page(
            "message.html.j2",
            status=status,
            title=self.labels["view.not_found"],
            message=self.labels["view.not_found"],
        )


def create_app(store_path: Path, *, host: str, port: int, lang: str = "en") -> Guard:
    """The viewer for the store at ``store_path``, answering only to ``host:port`` and
    the loopback names."""
    viewer = Viewer(store_path, lang)
    handler: Callable[[Request, Exception], Response] = viewer.not_found
    app = Starlette(
        routes=[
            Route("/", viewer.runs, methods=["GET", "HEAD"]),
            Route("/runs/{run_id}", viewer.debate, methods=["GET", "HEAD"]),
            Route("/runs/{run_id}/live", viewer.live, methods=["GET", "HEAD"]),
            Route("/compare", viewer.compare, methods=["GET", "HEAD"]),
        ],
        exception_handlers={404: handler},
    )
    return Guard(app, hosts=allowed_hosts(host, port))
