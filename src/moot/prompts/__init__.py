"""Prompt templates: one Jinja2 file per role and round, per language.

Templates are ``<lang>/<name>.j2`` files in a package's ``prompts`` directory: the
shared ones (the judge, re-asks, the schema instruction, topic classification) beside
this module, each debate format's own in its package (``moot/formats/NAME/prompts``).
They are data: a user can read, diff and translate them. Orchestration code only
calls :func:`render`.
"""

from __future__ import annotations

import re
from functools import cache
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
    """Render prompt template ``name`` of ``package`` in language ``lang``."""
    if lang not in LANGS:
        raise ConfigError(f"unsupported language {lang!r}; choose one of {', '.join(LANGS)}")
    try:
        template = _environment(package).get_template(f"{lang}/{name}.j2")
    except (jinja2.TemplateNotFound, ValueError) as exc:
        raise ConfigError(f"no prompt template {name!r} for language {lang!r}") from exc
    return template.render(**context).strip()
