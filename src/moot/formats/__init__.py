"""Debate formats, registered by name.

A format is a package under ``moot/formats/`` with a :class:`moot.formats.base.Format`
subclass; adding one means writing that package and one line in ``_BUILT_IN`` below
(or calling :func:`register_format` from outside). Importing this package registers
the built-in formats, their ``scripted:demo`` writers, and the demo judge.
"""

from __future__ import annotations

from moot.errors import ConfigError
from moot.formats.base import Format
from moot.formats.competitive import CompetitiveFormat
from moot.formats.competitive import demo as competitive_demo
from moot.formats.freeform import FreeformFormat
from moot.formats.freeform import demo as freeform_demo
from moot.formats.market import MarketFormat
from moot.formats.market import demo as market_demo
from moot.formats.structured import StructuredFormat
from moot.formats.structured import demo as structured_demo
from moot.judging import demo as judge_demo
from moot.llm.schemas import register_schemas

_FORMATS: dict[str, Format] = {}


def register_format(fmt: Format) -> None:
    """Make a format available by its name (``--format NAME``); its reply schemas join
    the registry the portability checks read (``moot.llm.schemas``)."""
    _FORMATS[fmt.name] = fmt
    register_schemas(f"{fmt.name} format")(fmt.schemas)


def get_format(name: str) -> Format:
    """The format registered under ``name``; ``ConfigError`` names the known ones."""
    try:
        return _FORMATS[name]
    except KeyError:
        known = ", ".join(sorted(_FORMATS))
        raise ConfigError(f"unknown format {name!r}; known: {known}") from None


def formats() -> list[Format]:
    """Every registered format, by name."""
    return [_FORMATS[name] for name in sorted(_FORMATS)]


_BUILT_IN = (
    (StructuredFormat(), structured_demo.register),
    (FreeformFormat(), freeform_demo.register),
    (MarketFormat(), market_demo.register),
    (CompetitiveFormat(), competitive_demo.register),
)
for _format, _register_demo in _BUILT_IN:
    register_format(_format)
    _register_demo()
judge_demo.register()
