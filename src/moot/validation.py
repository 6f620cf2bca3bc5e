"""Checks shared by every option, configuration file and identifier moot accepts.

Numbers must be finite (``nan`` and ``inf`` pass no comparison a range check is
written with, so they are refused explicitly) and within their range. Identifiers
and names are matched in full (``re.fullmatch``): a pattern's ``$`` also matches
before a trailing newline, so ``abc\\n`` would pass for ``abc``.
"""

from __future__ import annotations

import math
import re

from moot.errors import ConfigError

RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
"""A run id: letters, digits, ``.``, ``_``, ``-``; starts with a letter or digit; 64 at most."""

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")
"""A judge profile's name: letters, digits, ``_``, ``-``; 32 at most."""


def check_number(
    value: object,
    what: str,
    *,
    minimum: float | None = None,
    above: float | None = None,
    maximum: float | None = None,
    integer: bool = False,
) -> float:
    """``value`` as a finite number within the bounds, else a ``ConfigError`` naming
    ``what``: at least ``minimum``, more than ``above``, at most ``maximum``; a whole
    number with ``integer``. Booleans are not numbers."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"{what} must be a number, not {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise ConfigError(f"{what} must be a finite number, not {value!r}")
    if integer and not number.is_integer():
        raise ConfigError(f"{what} must be a whole number, not {value!r}")
    if minimum is not None and number < minimum:
        raise ConfigError(f"{what} must be at least {minimum:g}, not {value!r}")
    if above is not None and number <= above:
        raise ConfigError(f"{what} must be more than {above:g}, not {value!r}")
    if maximum is not None and number > maximum:
        raise ConfigError(f"{what} must be at most {maximum:g}, not {value!r}")
    return number


SURROGATE = re.compile("[\ud800-\udfff]")
"""A lone UTF-16 surrogate: text no UTF-8 file or database can hold."""


def undecodable(value: object) -> str | None:
    """The first text in ``value`` (a string, or strings nested in lists, tuples and
    mappings, keys included) holding a lone UTF-16 surrogate, else None. Python
    decodes bytes that are not UTF-8 in a command line or a file name that way
    (``surrogateescape``), and JSON can escape one (``"\\ud800"``); no UTF-8 file or
    database can hold it."""
    if isinstance(value, str):
        return value if SURROGATE.search(value) else None
    if isinstance(value, dict):
        items: list[object] = [*value.keys(), *value.values()]
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        return None
    for item in items:
        found = undecodable(item)
        if found is not None:
            return found
    return None


def check_text(value: object, what: str) -> None:
    """A ``ConfigError`` naming ``what`` when ``value`` holds text that is not valid
    Unicode (see :func:`undecodable`)."""
    found = undecodable(value)
    if found is not None:
        shown = found.encode("utf-8", "backslashreplace").decode("ascii", "backslashreplace")
        raise ConfigError(
            f"{what} is not valid text: {shown[:60]!r} holds bytes that are not UTF-8"
        )


def check_name(value: str, pattern: re.Pattern[str], what: str, rule: str) -> str:
    """``value`` if ``pattern`` matches all of it, else a ``ConfigError`` saying ``rule``."""
    if not isinstance(value, str) or pattern.fullmatch(value) is None:
        raise ConfigError(f"bad {what} {value!r}: {rule}")
    return value
