"""A format's options, declared once.

Each :class:`~moot.formats.base.Format` lists its options as :class:`FormatOption`
fields (``Format.fields``). From that one list come the names the format accepts in
``RunOptions.format_options`` (``Format.option_names``), the ``moot run`` flags of
every registered format (the command line builds them at start-up), the parsing of a
flag's text (``--stage-seconds 240,240,120``), the ``--format-option KEY=VALUE``
values, and the help text. A field with no ``key`` is a flag only: it sets other
options (the competitive format's ``--baseline`` sets which sides use its trees).

This module imports nothing of moot but the errors and the number check, so the
command line can read the declarations cheaply.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from moot import safe_json
from moot.errors import ConfigError
from moot.validation import check_number

FlagType = type[int] | type[float] | type[str] | type[bool] | type[Any]


@dataclass(frozen=True)
class FormatOption:
    """One option of a format, or one command-line flag that sets its options.

    ``type`` is the type of the value the command line reads (``bool`` makes an on/off
    flag such as ``--no-flow-tree``; ``pathlib.Path`` a path); ``parse`` turns that
    value into the option's value (default: the value as it is); ``apply`` writes it
    into the options when one flag sets several (default: ``options[key] = parse(value)``).
    Flags are applied in the order the format declares them, after the
    ``--format-option`` values; a flag that sets an option ``KEY=VALUE`` already set
    to something else is refused (:func:`flag_options`)."""

    key: str | None
    """The name in ``RunOptions.format_options``; None for a flag that only sets
    other options."""
    help: str
    """English help text of the flag (and of the option in ``--format-option``)."""
    type: FlagType = str
    default: Any = None
    """The value the format runs with when the option is not given (for the help)."""
    flag: str | None = None
    """The ``moot run`` flag (``--stage-seconds``); None: only ``--format-option``."""
    parse: Callable[[Any], Any] | None = None
    apply: Callable[[Any, dict[str, Any]], None] | None = None
    integer: bool = False
    """The option is a whole number (checked, with the bounds, by :meth:`check`)."""
    minimum: float | None = None
    maximum: float | None = None
    above: float | None = None
    """The option is a number more than this."""
    output: bool = False
    """The option only says where files go (``--audio``): it changes no model call,
    so ``moot resume`` may change it (see :func:`output_fields`)."""

    def __post_init__(self) -> None:
        if self.key is None and (self.flag is None or self.apply is None):
            raise ValueError("a field without a key is a flag that applies itself")
        if self.flag is not None and not self.flag.startswith("--"):
            raise ValueError(f"flag {self.flag!r} must start with --")

    @property
    def bounded(self) -> bool:
        """Whether the option is a number the field's constraints check."""
        return self.integer or (self.minimum, self.maximum, self.above) != (None, None, None)

    def check(self, value: Any, format_name: str) -> None:
        """Refuse a value outside the declared constraints: a ``ConfigError`` naming
        the option (by its flag when it has one) and the format."""
        if value is None or not self.bounded:
            return
        label = self.flag or str(self.key)
        where = f" (the {format_name} format's option {self.key})"
        low, high = self.minimum, self.maximum
        if self.integer and low is not None and high is not None:
            whole = isinstance(value, int) and not isinstance(value, bool)
            if not whole or not low <= value <= high:
                raise ConfigError(
                    f"{label} must be a whole number from {low:g} to {high:g}, not {value!r}{where}"
                )
            return
        try:
            check_number(
                value, label, minimum=low, maximum=high, above=self.above, integer=self.integer
            )
        except ConfigError as exc:
            raise ConfigError(f"{exc}{where}") from None

    @property
    def param(self) -> str:
        """The flag's Python parameter name (``--no-flow-tree``: ``no_flow_tree``)."""
        if self.flag is None:
            raise ValueError(f"option {self.key!r} has no flag")
        return self.flag.removeprefix("--").replace("-", "_")

    def given(self, value: Any) -> bool:
        """Whether the command line gave the flag (an on/off flag: when it is on)."""
        return bool(value) if self.type is bool else value is not None

    def set(self, value: Any, options: dict[str, Any]) -> None:
        """Write the flag's ``value`` into ``options``."""
        if self.apply is not None:
            self.apply(value, options)
            return
        if self.key is None:  # (refused by __post_init__)
            raise ValueError("a flag without a key must apply itself")
        options[self.key] = value if self.parse is None else self.parse(value)


def check_fields(fields: Iterable[FormatOption], options: Mapping[str, Any], name: str) -> None:
    """Check every option given against its field's declared constraints."""
    for field in fields:
        if field.key is not None:
            field.check(options.get(field.key), name)


def output_fields(fields: Iterable[FormatOption]) -> tuple[FormatOption, ...]:
    """The fields that are output locations, which a resumed run may change."""
    return tuple(f for f in fields if f.output and f.key is not None)


def option_names(fields: Iterable[FormatOption]) -> tuple[str, ...]:
    """The option names ``fields`` declare, in order."""
    return tuple(f.key for f in fields if f.key is not None)


def parse_pairs(items: Sequence[str], fields: Iterable[FormatOption] = ()) -> dict[str, Any]:
    """``--format-option KEY=VALUE``: the value as JSON (``2``, ``0.85``, ``true``,
    ``["pro"]``), else as text, read by the parser of the option's field when it has
    one (``stage_seconds=closing=90`` as ``--stage-seconds closing=90``)."""
    parsers = {f.key: f.parse for f in fields if f.key is not None and f.parse is not None}
    options: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(f"--format-option takes KEY=VALUE, not {item!r}")
        parsed: Any
        try:
            parsed = safe_json.loads(value, f"--format-option {key}")
        except ConfigError as exc:
            # text that is not JSON is a text value; JSON past the limits is refused
            if not isinstance(exc.__cause__, json.JSONDecodeError):
                raise
            parse = parsers.get(key)
            parsed = value if parse is None else parse(value)
        if key in options and options[key] != parsed:
            raise ConfigError(
                f"--format-option {key} is given twice with different values"
                f" ({_shown(options[key])} and {_shown(parsed)}): give it once"
            )
        options[key] = parsed
    return options


def flag_options(
    fields: Iterable[FormatOption],
    values: Mapping[str, Any],
    extra: Sequence[str] = (),
) -> dict[str, Any]:
    """The format options that the flags' ``values`` (by parameter name; a flag
    missing from ``values`` was not given) and the ``--format-option`` items ask for.
    Only the options given are set, so a format refuses another format's flag by its
    option's name (``Format.check_options``)."""
    fields = tuple(fields)
    options = parse_pairs(extra, fields)
    paired = dict(options)
    for field in fields:
        if field.flag is None:
            continue
        value = values.get(field.param)
        if field.given(value):
            field.set(value, options)
            for key, before in paired.items():
                if options.get(key) != before:
                    raise ConfigError(
                        f"{field.flag} and --format-option {key}={_shown(before)} disagree"
                        f" (the flag sets {key} to {_shown(options.get(key))}): give one of them"
                    )
    return options


def _shown(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)[:60]
