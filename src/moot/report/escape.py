"""Markdown that text from users and models can never restructure.

Every value a briefing template interpolates is escaped on the way out (the
environment's ``finalize`` hook, :func:`markdown_environment`), not field by field:
a topic, a claim, a model spec or a judge's name cannot add a heading, a table row,
a list, a block quote, a code block or fence, a link, an image, emphasis or raw
HTML (``<script>``) to the briefing, wherever the template puts it. Only values the
template itself marks as Markdown (:class:`Markdown`, e.g. from the ``code`` filter)
pass unescaped.

What :func:`markdown_text` does:

* control characters become visible escapes (:func:`moot.safe_text.visible`);
* all white space, newlines included, folds to single spaces: a value is one line,
  so it can start no block of its own (and a table cell stays one cell);
* the inline syntax characters ``\\ ` * _ [ ] < > | ~`` get a backslash; ``#``,
  ``+``, ``-``, ``=`` and ``1.`` / ``1)`` are escaped where they start the value, where
  they could open a heading, a list item or a thematic break;
* ``://`` and a leading ``www.`` are escaped so no bare link is recognised.

Escaped text reads the same in any CommonMark or GitHub renderer, and stays readable
as plain text.
"""

from __future__ import annotations

import re
from typing import Any

import jinja2

from moot.safe_text import one_line

_INLINE = re.compile(r"([\\`*_\[\]<>|~])")
_BLOCK_START = re.compile(r"^(?:(#)|([-+=])(?=[\s\-+=]|$)|(\d{1,9})([.)])(?=\s|$))")
_LINK = re.compile(r"(?<=[A-Za-z0-9])(:)(?=//)|\b(www)(\.)", re.IGNORECASE)


class Markdown(str):
    """Text that already is Markdown: the briefing templates print it unescaped."""

    __slots__ = ()


def markdown_text(value: object) -> str:
    """``value`` as one line of Markdown that renders as exactly its text."""
    if isinstance(value, Markdown):
        return value
    text = _INLINE.sub(r"\\\1", one_line(value))
    text = _LINK.sub(lambda m: "\\:" if m.group(1) else f"{m.group(2)}\\.", text)
    match = _BLOCK_START.match(text)
    if match:
        if match.group(1) or match.group(2):
            text = "\\" + text
        else:
            digits = match.group(3)
            text = f"{digits}\\{text[len(digits) :]}"
    return text


def markdown_code(value: object) -> Markdown:
    """``value`` as an inline code span (one line), delimited by more backticks than
    it contains anywhere, so it cannot close the span early. ``|`` is written ``\\|``
    so the span is safe in a table cell too (where GitHub renders it as ``|``)."""
    text = one_line(value).replace("|", "\\|")
    runs = [len(run) for run in re.findall(r"`+", text)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return Markdown(f"{fence}{pad}{text}{pad}{fence}")


def _finalize(value: Any) -> str:
    if value is None:
        return ""
    return markdown_text(value)


def markdown_environment(loader: jinja2.BaseLoader) -> jinja2.Environment:
    """A Jinja2 environment for Markdown templates: every ``{{ value }}`` is escaped
    with :func:`markdown_text` unless it is :class:`Markdown`; ``code`` renders a code
    span. Every briefing template (of any format) is rendered through one of these."""
    env = jinja2.Environment(
        loader=loader,
        # Markdown, not HTML: values are escaped by ``finalize`` (markdown_text).
        autoescape=False,  # noqa: S701
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_finalize,
    )
    env.filters["code"] = markdown_code
    return env
