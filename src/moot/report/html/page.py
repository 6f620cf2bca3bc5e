"""Rendering HTML pages: one Jinja2 environment with autoescaping on for every
template, the inline stylesheet with its hash, and the Content-Security-Policy.

Pages carry no script. The only inline resource is the stylesheet, allowed by its
SHA-256 hash, so the policy can refuse everything else: no script, no image, no
frame, no font or style from anywhere, no form target but the page's own origin
(and none at all in a saved report).
"""

from __future__ import annotations

import base64
import hashlib
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources

import jinja2
from markupsafe import Markup

from moot.errors import ConfigError
from moot.formats import get_format

TEMPLATES = "report/templates/html"
FORMAT_TEMPLATES = "templates"
"""The folder, beside a format's ``Format`` class, of the templates its view's
sections name ``formats/<format>/<file>``."""
HTML_LANG = {"en": "en", "zh": "zh-Hans"}


@dataclass(frozen=True)
class Stylesheet:
    """The page's CSS (trusted: it ships with moot) and its CSP source expression."""

    text: Markup
    source: str


@cache
def stylesheet(format_name: str = "") -> Stylesheet:
    """moot's stylesheet, followed by the report view's own of format ``format_name``
    (``style.css`` in its templates folder, if it ships one: a format owns the rules of
    what it adds), and ``'sha256-...'`` of exactly that text."""
    text = resources.files("moot").joinpath(f"{TEMPLATES}/style.css").read_text("utf-8")
    if format_name:
        try:
            own, _, _ = FormatTemplates().get_source(
                environment(), f"formats/{format_name}/style.css"
            )
        except jinja2.TemplateNotFound:
            own = ""
        text = f"{text}\n{own}" if own else text
    digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
    return Stylesheet(text=Markup(text), source=f"'sha256-{digest}'")  # noqa: S704 (our files)


def content_security_policy(*, forms: bool = False, format_name: str = "") -> str:
    """The policy of every page: nothing but the inline stylesheet (with the view's of
    format ``format_name``, if any); ``forms`` lets a form submit to the page's own
    origin (the viewer's search)."""
    return "; ".join(
        (
            "default-src 'none'",
            f"style-src {stylesheet(format_name).source}",
            "img-src 'none'",
            "base-uri 'none'",
            "form-action 'self'" if forms else "form-action 'none'",
        )
    )


def number(value: float | None, digits: int = 2) -> str:
    """A number for display; ``-`` for a missing or non-finite one."""
    if value is None or not math.isfinite(value):
        return "-"
    return f"{value:.{digits}f}"


class FormatTemplates(jinja2.BaseLoader):
    """Templates named ``formats/<name>/<file>``: ``<file>`` in the ``templates``
    folder of the package that defines format ``<name>`` (the package of its
    ``Format`` class), so a format, built in or installed, ships the templates of its
    report sections beside its view."""

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool] | None]:
        prefix, _, rest = template.partition("/")
        name, _, file = rest.partition("/")
        if prefix != "formats" or not name or not file:
            raise jinja2.TemplateNotFound(template)
        try:
            fmt = get_format(name)
        except ConfigError:
            raise jinja2.TemplateNotFound(template) from None
        module = sys.modules[type(fmt).__module__]
        package = module.__package__ or module.__name__
        try:
            return _package_loader(package).get_source(environment, file)
        except ValueError:  # the package has no templates folder
            raise jinja2.TemplateNotFound(template) from None


@cache
def _package_loader(package: str) -> jinja2.PackageLoader:
    return jinja2.PackageLoader(package, FORMAT_TEMPLATES)


@cache
def environment(*extra: tuple[str, str]) -> jinja2.Environment:
    """The environment for HTML templates: moot's report templates, the formats'
    (:class:`FormatTemplates`), then the ``(package, folder)`` template folders given;
    autoescaping always on."""
    loaders: list[jinja2.BaseLoader] = [
        jinja2.PackageLoader("moot", TEMPLATES),
        FormatTemplates(),
    ]
    loaders += [jinja2.PackageLoader(package, folder) for package, folder in extra]
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["num"] = number
    return env


def render(
    template: str,
    *,
    lang: str,
    extra: tuple[tuple[str, str], ...] = (),
    forms: bool = False,
    nav: tuple[object, ...] = (),
    refresh: int | None = None,
    format_name: str = "",
    **context: object,
) -> str:
    """Render a page template with the layout's variables: language, policy, CSS (with
    the report view's own of format ``format_name``), navigation links and, for a page
    that follows a run, its refresh interval."""
    page = environment(*extra).get_template(template)
    return page.render(
        html_lang=HTML_LANG.get(lang, "en"),
        csp=content_security_policy(forms=forms, format_name=format_name),
        css=stylesheet(format_name).text,
        nav=nav,
        refresh=refresh,
        **context,
    )
