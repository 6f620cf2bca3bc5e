"""Prompt templates: one Jinja2 file per role and round, per language.

Templates are ``<lang>/<name>.j2`` files in a package's ``prompts`` directory: the
shared ones (the judge, re-asks, the schema instruction, topic classification) beside
this module, each debate format's own in its package (``moot/formats/NAME/prompts``).
They are data: a user can read, diff and translate them. Orchestration code only
calls :func:`render`.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any

import jinja2

from moot.errors import ConfigError

LANGS = ("en", "zh")

# The fences around what users and debaters wrote (``<debate>``, in the judge's
# prompt) and around the passages of the user's documents (``<documents>``, in the
# debaters'). Any value interpolated into any prompt has its look-alikes defused
# (``<debate>`` becomes ``‹debate›``), so no text can close a fence and speak outside it.
_FENCE_TAG = re.compile(r"<(\s*/?\s*(?:debate|documents)\s*)>", re.IGNORECASE)


def _defuse(value: Any) -> Any:
    if isinstance(value, str) and "<" in value:  # a fence tag needs one
        return _FENCE_TAG.sub(r"‹\1›", value)
    return value


@cache
def _environment(package: str) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader(package, "prompts"),
        # Prompts are plain text for a model, never HTML.
        autoescape=False,  # noqa: S701
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        finalize=_defuse,
        # templates are package data: not checked on disk again at every render
        auto_reload=False,
    )


def render(name: str, lang: str, /, *, package: str = "moot", **context: Any) -> str:
    """Render prompt template ``name`` of ``package`` in language ``lang``.

    A context of plain values only (strings, integers, booleans, None and tuples of
    them) is rendered once and the text reused (``_rendered``): a template is a
    function of its context, and every call of a debate repeats its system prompt."""
    if lang not in LANGS:
        raise ConfigError(f"unsupported language {lang!r}; choose one of {', '.join(LANGS)}")
    key = _plain_key(context)
    if key is not None:
        return _rendered(name, lang, package, key)
    return _render(name, lang, package, context)


def _render(name: str, lang: str, package: str, context: dict[str, Any]) -> str:
    try:
        template = _environment(package).get_template(f"{lang}/{name}.j2")
    except (jinja2.TemplateNotFound, ValueError) as exc:
        raise ConfigError(f"no prompt template {name!r} for language {lang!r}") from exc
    return template.render(**context).strip()


_PLAIN = (str, int, bool, type(None))
_OTHER = object()
"""What ``_plain`` answers for a value that is not plain."""


def _plain(value: Any) -> Any:
    """``value`` with its type beside it, all the way down (so ``1``, ``True`` and
    ``1.0``, equal in Python and written differently, never share a key), or
    ``_OTHER`` for a value of any other kind."""
    if type(value) in _PLAIN:
        return (type(value), value)
    if type(value) is tuple:
        items = tuple(_plain(v) for v in value)
        return _OTHER if any(v is _OTHER for v in items) else (tuple, items)
    return _OTHER


def _plain_key(context: dict[str, Any]) -> tuple[tuple[str, Any], ...] | None:
    items = []
    for key in sorted(context):
        value = _plain(context[key])
        if value is _OTHER:
            return None  # a transcript's list of turns, a dict of names: not cached
        items.append((key, value))
    return tuple(items)


def _unplain(value: Any) -> Any:
    kind, inner = value
    return tuple(_unplain(v) for v in inner) if kind is tuple else inner


@lru_cache(maxsize=1024)
def _rendered(name: str, lang: str, package: str, key: tuple[tuple[str, Any], ...]) -> str:
    return _render(name, lang, package, {k: _unplain(v) for k, v in key})
