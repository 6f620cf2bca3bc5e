"""The viewer's web application (Starlette): the list of debates, a debate's report
(a partial report for a run that stopped), the comparison of two debates, the live
progress of a run, the call inspector and the downloads.

Read-only by construction: the store is opened with ``ReadOnlyStore`` and the guard
lets only GET and HEAD through. Run ids from the path or the query string are
matched in full against ``RUN_ID`` before the store is asked; nothing from a request
ever becomes a file path. Every page is rendered from autoescaping templates, and
whatever comes from the journal passes through the redactor first.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from moot.errors import ConfigError
from moot.report import to_json, to_markdown
from moot.report.html import Link, render_report, to_html
from moot.report.html.page import render
from moot.store import STATUSES, DebateRow, ReadOnlyStore, owner_alive, this_process
from moot.view import pages
from moot.view.inspector import call_page
from moot.view.labels import view_labels
from moot.view.names import position_names
from moot.view.partial import RESUMABLE, is_partial, partial_report
from moot.view.redact import Redactor
from moot.view.security import RUN_ID, Guard, allowed_hosts

TEMPLATES = (("moot", "view/templates"),)
MAX_QUERY = 200
MAX_RUNS = 1000
MAX_PAGE = 10_000
DOWNLOAD_TYPES = {
    "json": "application/json; charset=utf-8",
    "md": "text/markdown; charset=utf-8",
    "html": "text/html; charset=utf-8",
}
log = logging.getLogger(__name__)


class Viewer:
    """The pages, reading one store opened read-only, in one language for the
    viewer's own words (each debate's report speaks its debate's language)."""

    def __init__(self, store_path: Path | str, lang: str = "en") -> None:
        self.store = ReadOnlyStore(store_path)
        self.lang = lang
        self.labels = view_labels(lang)

    def _page(
        self,
        template: str,
        status: int = 200,
        refresh: int | None = None,
        nav: tuple[Link, ...] = (),
        labels: dict[str, str] | None = None,
        **context: object,
    ) -> HTMLResponse:
        html = render(
            template,
            lang=self.lang,
            extra=TEMPLATES,
            forms=True,
            nav=self._nav(*nav),
            refresh=refresh,
            format_name="",  # the viewer's own pages; a run's report is render_report's
            L=labels or self.labels,
            **context,
        )
        return HTMLResponse(html, status_code=status)

    def _nav(self, *more: Link) -> tuple[Link, ...]:
        return (Link(self.labels["view.all_runs"], "/"), *more)

    def _run_nav(self, row: DebateRow, *, report: bool) -> tuple[Link, ...]:
        live = pages.run_href(row.id, "live")
        links = [
            Link(self.labels["view.live"], live),
            Link(self.labels["view.journal"], f"{live}#calls"),
        ]
        if report:
            links.insert(0, Link(self.labels["view.report"], pages.run_href(row.id)))
        return tuple(links)

    @staticmethod
    def _topic(row: DebateRow) -> str:
        """A run's topic for a page title, redacted like everything else shown."""
        return Redactor.from_environment().text(row.topic)

    def _run_id(self, value: str | None) -> str:
        """A run id from a request, matched in full, else 404."""
        if value is None or RUN_ID.fullmatch(value) is None:
            raise HTTPException(404, "view.not_found.run")
        return value

    def _row(self, value: str | None) -> DebateRow:
        row = self.store.get_debate(self._run_id(value))
        if row is None:
            raise HTTPException(404, "view.not_found.run")
        return row

    def runs(self, request: Request) -> Response:
        params = request.query_params
        query = params.get("q", "")[:MAX_QUERY].strip()
        status = params.get("status", "")
        page = params.get("page", "1")
        rows = self.store.list_debates(MAX_RUNS)
        listing = pages.run_list(
            rows,
            self.labels,
            query=query,
            status=status if status in STATUSES else "",
            format=next((f for f in {r.format for r in rows} if f == params.get("format")), ""),
            sort=params.get("sort", "created"),
            order=params.get("order", "desc"),
            page=min(int(page), MAX_PAGE) if page.isdigit() and len(page) < 6 else 1,
        )
        return self._page("runs.html.j2", title=self.labels["view.title"], runs=listing)

    def debate(self, request: Request) -> Response:
        row = self._row(request.path_params.get("run_id"))
        if is_partial(row):
            return self._partial(row)
        result, error = pages.parse_result(row)
        if result is None or row.status != "done":
            return self._live(row, error)
        try:
            html = render_report(
                result,
                nav=self._nav(*self._run_nav(row, report=False)),
                extra=TEMPLATES,
                forms=True,
            )
        except ConfigError as exc:
            return self._live(row, str(exc))
        return HTMLResponse(html)

    def _partial(self, row: DebateRow) -> Response:
        labels = view_labels(self.lang, row.format)
        calls = self.store.calls(row.id)
        return self._page(
            "partial.html.j2",
            title=f"{labels['view.partial']}: {self._topic(row)}",
            nav=self._run_nav(row, report=False),
            labels=labels,
            run=pages.run_line(row, labels),
            partial=partial_report(row, calls, labels, Redactor.from_environment(), self.lang),
            progress=pages.progress(
                row, calls, labels, redactor=Redactor.from_environment(), lang=self.lang
            ),
        )

    def live(self, request: Request) -> Response:
        row = self._row(request.path_params.get("run_id"))
        return self._live(row, pages.parse_result(row)[1])

    def _live(self, row: DebateRow, error: str | None) -> Response:
        labels = view_labels(self.lang, row.format)
        calls = self.store.calls(row.id)
        running = row.status == "running"
        # a process that died mid-call leaves its calls noted: they are not in flight
        owner = row.owner
        alive = running and (owner is None or owner == this_process() or owner_alive(owner))
        partial = is_partial(row)
        redactor = Redactor.from_environment()
        readable = row.status == "done" and not error
        return self._page(
            "live.html.j2",
            title=f"{labels['view.live']}: {self._topic(row)}",
            nav=self._run_nav(row, report=readable or partial),
            labels=labels,
            run=pages.run_line(row, labels),
            row_error=redactor.text(row.error or ""),
            unreadable=labels["view.unreadable"].format(error=error)
            if error and not partial
            else "",
            progress=pages.progress(
                row,
                calls,
                labels,
                in_flight=self.store.calls_in_flight(row.id) if alive else (),
                redactor=redactor,
                lang=self.lang,
            ),
            refresh=pages.LIVE_REFRESH_S if running else None,
            report_href=pages.run_href(row.id) if readable or partial else "",
            partial=partial,
            resume=f"moot resume {row.id}" if row.status in RESUMABLE else "",
        )

    def call(self, request: Request) -> Response:
        row = self._row(request.path_params.get("run_id"))
        seq = request.path_params.get("seq")
        calls = self.store.calls(row.id)
        found = next((c for c in calls if c.seq == seq), None)
        if found is None:
            raise HTTPException(404, "view.not_found.call")
        labels = view_labels(self.lang, row.format)
        inspected = call_page(
            found,
            calls,
            labels,
            position_names(row.format, row.config, self.lang, row.topic),
            pages.run_href(row.id, "calls/{seq}"),
            Redactor.from_environment(),
        )
        return self._page(
            "call.html.j2",
            title=f"{labels['view.call'].format(seq=found.seq)}: {self._topic(row)}",
            nav=self._run_nav(row, report=row.status == "done" or is_partial(row)),
            labels=labels,
            run=pages.run_line(row, labels),
            call=inspected,
        )

    def download(self, request: Request) -> Response:
        row = self._row(request.path_params.get("run_id"))
        kind = request.path_params.get("kind", "")
        if kind not in DOWNLOAD_TYPES or row.result_json is None:
            raise HTTPException(404, "view.not_found.download")
        result, _ = pages.parse_result(row)
        if kind == "json":
            body = (
                to_json(result) if result is not None and row.status == "done" else row.result_json
            )
        elif result is None or row.status != "done":
            raise HTTPException(404, "view.not_found.download")
        else:
            body = to_markdown(result) if kind == "md" else to_html(result)
        body = Redactor.from_environment().text(body)
        disposition = f'attachment; filename="moot-{row.id}.{kind}"'  # id matched RUN_ID
        return Response(
            body,
            media_type=DOWNLOAD_TYPES[kind],
            headers={"content-disposition": disposition},
        )

    def compare(self, request: Request) -> Response:
        params = request.query_params
        pair = []
        for key in ("a", "b"):
            row = self._row(params.get(key))
            result, _ = pages.parse_result(row)
            if result is None or row.status != "done":
                raise HTTPException(404, "view.not_found.compare")
            pair.append((row, result))
        labels = {
            **view_labels(self.lang, pair[0][0].format),
            **view_labels(self.lang, pair[1][0].format),
        }
        try:
            comparison = pages.compare(pair, labels)
        except ConfigError as exc:
            raise HTTPException(404, "view.not_found.compare") from exc
        return self._page(
            "compare.html.j2", title=labels["view.compare"], labels=labels, comparison=comparison
        )

    def not_found(self, request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 404
        detail = exc.detail if isinstance(exc, HTTPException) else ""
        key = detail if detail in self.labels else "view.not_found.page"
        return self._page(
            "message.html.j2",
            status=status,
            title=self.labels[key],
            heading=self.labels["view.error_title"].format(status=status),
            message=self.labels[key],
            note="",
        )

    def server_error(self, request: Request, exc: Exception) -> Response:
        log.error("moot view: %s %s failed", request.method, request.url.path, exc_info=exc)
        return self._page(
            "message.html.j2",
            status=500,
            title=self.labels["view.server_error"],
            heading=self.labels["view.error_title"].format(status=500),
            message=self.labels["view.server_error"],
            note=self.labels["view.server_error_note"],
        )


def create_app(store_path: Path | str, *, host: str, port: int, lang: str = "en") -> Guard:
    """The viewer for the store at ``store_path``, answering only to ``host:port`` and
    the loopback names."""
    viewer = Viewer(store_path, lang)

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            viewer.store.close()  # a PostgreSQL store's connection too

    missing: Callable[[Request, Exception], Response] = viewer.not_found
    failed: Callable[[Request, Exception], Response] = viewer.server_error
    app = Starlette(
        routes=[
            Route("/", viewer.runs, methods=["GET", "HEAD"]),
            Route("/runs/{run_id}", viewer.debate, methods=["GET", "HEAD"]),
            Route("/runs/{run_id}/live", viewer.live, methods=["GET", "HEAD"]),
            Route("/runs/{run_id}/calls/{seq:int}", viewer.call, methods=["GET", "HEAD"]),
            Route("/runs/{run_id}/download/{kind}", viewer.download, methods=["GET", "HEAD"]),
            Route("/compare", viewer.compare, methods=["GET", "HEAD"]),
        ],
        exception_handlers={HTTPException: missing, Exception: failed},
        lifespan=lifespan,
    )
    return Guard(app, hosts=allowed_hosts(host, port))
