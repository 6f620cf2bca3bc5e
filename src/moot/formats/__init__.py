"""Debate formats, registered by name.

A format is a package under ``moot/formats/`` with a :class:`moot.formats.base.Format`
subclass; adding one means writing that package and one line in ``_built_in`` below
(or calling :func:`register_format` from outside). This module is the one place
outside a format's package that names it: the built-in formats and
:data:`DEFAULT_FORMAT`. Reading the registry (:func:`get_format`, :func:`formats`)
first registers the built-in formats, their ``scripted:demo`` writers and the demo
judge, then the formats of other packages, which join through the entry-point group
``moot.formats`` (the contract is in :class:`moot.formats.base.Format`). Importing
this module imports no format, so the command line can read :data:`DEFAULT_FORMAT`
without loading one.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar, Final

from moot.errors import ConfigError

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from moot.formats.base import Format

DEFAULT_FORMAT: Final = "structured"
"""The format of a run that names none (``RunOptions.format``, ``moot run --format``)."""
_FORMATS: dict[str, Format] = {}
ENTRY_POINTS = "moot.formats"
"""The entry-point group through which other packages add formats."""


class PluginWarning(UserWarning):
    """A format plugin that could not be loaded (it is left out)."""


class _Plugins:
    built_in = False
    loaded = False
    failed: ClassVar[dict[str, str]] = {}
    """Plugins left out, by entry-point name: why."""


def register_format(fmt: Format) -> None:
    """Make a format available by its name (``--format NAME``); its reply schemas join
    the registry the portability checks read (``moot.llm.schemas``)."""
    from moot.llm.schemas import register_schemas

    _FORMATS[fmt.name] = fmt
    register_schemas(f"{fmt.name} format")(fmt.schemas)


def _load(entry: EntryPoint) -> Format:
    from moot.formats.base import Format

    target = entry.load()
    fmt = target() if isinstance(target, type) and issubclass(target, Format) else target
    if not isinstance(fmt, Format):
        raise TypeError(f"{entry.value} is neither a Format subclass nor a Format")
    if fmt.name in _FORMATS:
        raise ValueError(f"a format named {fmt.name!r} is already registered")
    return fmt


def load_plugins() -> dict[str, str]:
    """Register the formats of the ``moot.formats`` entry points (once). A plugin that
    fails is left out with a :class:`PluginWarning` naming it and the reason; returns
    the plugins left out."""
    _built_in()
    if _Plugins.loaded:
        return _Plugins.failed
    _Plugins.loaded = True
    from importlib.metadata import entry_points

    for entry in entry_points(group=ENTRY_POINTS):
        fmt: Format | None = None
        try:
            fmt = _load(entry)
            register_format(fmt)
            fmt.register_extras()
        except Exception as exc:  # a broken plugin must not break every command
            if fmt is not None and _FORMATS.get(fmt.name) is fmt:
                del _FORMATS[fmt.name]
            reason = f"{type(exc).__name__}: {exc}"
            _Plugins.failed[entry.name] = reason
            warnings.warn(
                f"format plugin {entry.name!r} ({entry.value}) was not loaded: {reason}",
                PluginWarning,
                stacklevel=2,
            )
    return _Plugins.failed


def get_format(name: str) -> Format:
    """The format registered under ``name``; ``ConfigError`` names the known ones."""
    _built_in()
    if name not in _FORMATS:
        load_plugins()
    failed = _Plugins.failed.get(name)
    if failed is not None and name not in _FORMATS:
        raise ConfigError(f"the format plugin {name!r} could not be loaded: {failed}")
    try:
        return _FORMATS[name]
    except KeyError:
        known = ", ".join(sorted(_FORMATS))
        raise ConfigError(f"unknown format {name!r}; known: {known}") from None


def format_labels(lang: str, name: str | None) -> Mapping[str, str]:
    """The labels format ``name`` adds in ``lang`` (``Format.labels``: its rules, rounds
    and answers), to merge over the shared ones with ``moot.i18n.labels`` wherever a
    result of it is shown; none for no format or one this installation does not know."""
    if name is None:
        return {}
    try:
        return get_format(name).labels(lang)
    except ConfigError:
        return {}


def formats() -> list[Format]:
    """Every registered format, by name."""
    load_plugins()
    return [_FORMATS[name] for name in sorted(_FORMATS)]


def _built_in() -> None:
    """Register the built-in formats, their ``scripted:demo`` writers and the demo
    judge (once)."""
    if _Plugins.built_in:
        return
    _Plugins.built_in = True
    from moot.formats.competitive import CompetitiveFormat
    from moot.formats.competitive import demo as competitive_demo
    from moot.formats.freeform import FreeformFormat
    from moot.formats.freeform import demo as freeform_demo
    from moot.formats.market import MarketFormat
    from moot.formats.market import demo as market_demo
    from moot.formats.structured import StructuredFormat
    from moot.formats.structured import demo as structured_demo
    from moot.judging import demo as judge_demo

    for fmt, register_demo in (
        (StructuredFormat(), structured_demo.register),
        (FreeformFormat(), freeform_demo.register),
        (MarketFormat(), market_demo.register),
        (CompetitiveFormat(), competitive_demo.register),
    ):
        register_format(fmt)
        register_demo()
    judge_demo.register()
