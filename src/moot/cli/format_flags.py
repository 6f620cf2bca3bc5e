"""The ``moot run`` flags of the formats, generated from their declared options.

Each registered format declares its options once (``Format.fields``, see
:mod:`moot.formats.fields`); a field with a ``flag`` becomes a ``moot run`` option.
The flags are made when ``run`` is first parsed or its help shown, not when the
command line loads: :class:`FormatFlagsCommand` adds them to the command's parameters
then, so ``moot --help`` or ``moot list`` never imports a format.

Why parameters added to the click command rather than a generated function
signature: typer turns every command's signature into parameters when the app
starts, so a signature built from the registry would import every format (and load
every plugin) for every command. The parameters are still made by typer itself, from
a signature of ``typer.Option`` annotations (:func:`_flag_params`), so they parse,
convert and print their help exactly as the hand-written ones did; only the moment
they are attached is ours. Their values are taken out of the command's keyword
arguments before the callback runs and handed to it in ``ctx.meta``.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperCommand

if TYPE_CHECKING:
    from moot.formats.base import Format
    from moot.formats.fields import FormatOption

FLAGS_KEY = "moot.format_flags"
"""Where ``ctx.meta`` holds the format flags' values, by parameter name."""
BEFORE = "format_option"
"""The generated flags go before this parameter of ``run`` (``--format-option``)."""
SIDE_HELP = {"pro_model": 0, "con_model": 1}


def declared_flags(
    formats: Sequence[Format], *, outputs_only: bool = False
) -> dict[str, list[tuple[Format, FormatOption]]]:
    """Every flag the formats declare (``outputs_only``: of output locations), with
    the formats declaring it (in order)."""
    flags: dict[str, list[tuple[Format, FormatOption]]] = {}
    for fmt in formats:
        for field in fmt.fields:
            if field.flag is not None and (field.output or not outputs_only):
                flags.setdefault(field.flag, []).append((fmt, field))
    return flags


def _flag_params(formats: Sequence[Format], outputs_only: bool) -> list[Any]:
    """The click parameters of the formats' flags, made by typer from a signature."""
    parameters = []
    for flag, owners in declared_flags(formats, outputs_only=outputs_only).items():
        field = owners[0][1]
        helps = dict.fromkeys(f.help for _, f in owners)  # one help per text, in order
        kind = bool if field.type is bool else field.type | None
        parameters.append(
            inspect.Parameter(
                field.param,
                inspect.Parameter.KEYWORD_ONLY,
                default=False if field.type is bool else None,
                annotation=Annotated[kind, typer.Option(flag, help=" ".join(helps))],
            )
        )

    def flags(**values: Any) -> None:
        """(the formats' flags)"""

    flags.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    probe = typer.Typer(add_completion=False)
    probe.command()(flags)
    return list(typer.main.get_command(probe).params)


def _side_help(base: str, index: int, formats: Sequence[Format]) -> str:
    """``--pro-model``'s help, naming what the pro side is in formats with sides of
    their own (market: the bull side)."""
    others = [f"{f.name}: the {f.side_names[index]} side" for f in formats if f.side_names]
    return f"{base} ({'; '.join(others)})." if others else f"{base}."


def _option_help(formats: Sequence[Format]) -> str:
    """The options each format takes, for ``--format-option``'s help."""
    named = [f"{f.name}: {', '.join(f.option_names)}" for f in formats if f.option_names]
    return f"Options: {'; '.join(named)}." if named else ""


class FormatFlagsCommand(TyperCommand):
    """``moot run``: a command whose format flags are added on first use."""

    generated: tuple[str, ...] | None = None
    outputs_only = False
    """Only the flags of output locations (``moot resume``)."""

    def _add_flags(self) -> None:
        if self.generated is not None:
            return
        from moot.formats import formats

        registered = formats()
        params = _flag_params(registered, self.outputs_only)
        self.generated = tuple(str(p.name) for p in params)
        names = [p.name for p in self.params]
        at = names.index(BEFORE) if BEFORE in names else len(self.params)
        self.params[at:at] = params
        for param in self.params:
            index = SIDE_HELP.get(str(param.name))
            if index is not None:
                base = str(getattr(param, "help", "") or "").rstrip(".")
                param.help = _side_help(base, index, registered)  # type: ignore[attr-defined]
            elif param.name == BEFORE:
                base = str(getattr(param, "help", "") or "")
                param.help = f"{base} {_option_help(registered)}"  # type: ignore[attr-defined]

    def get_params(self, ctx: Any) -> list[Any]:
        self._add_flags()
        return list(super().get_params(ctx))

    def invoke(self, ctx: Any) -> Any:
        self._add_flags()
        ctx.meta[FLAGS_KEY] = {name: ctx.params.pop(name, None) for name in self.generated or ()}
        return super().invoke(ctx)


class OutputFlagsCommand(FormatFlagsCommand):
    """``moot resume``: the formats' output-location flags (``--audio``), which a
    resumed run may change."""

    outputs_only = True


def output_options(values: Mapping[str, Any]) -> dict[str, Any]:
    """The format options the output-location flags given in ``values`` set."""
    from moot.formats import formats
    from moot.formats.fields import flag_options

    owners = declared_flags(formats(), outputs_only=True).values()
    return flag_options([fields[0][1] for fields in owners], values)


def run_format_options(
    fmt: Format, formats: Sequence[Format], values: Mapping[str, Any], extra: Sequence[str]
) -> dict[str, Any]:
    """The format options of ``moot run --format fmt``: its flags and the
    ``--format-option`` values. A flag of another format is read by that format's
    field, so ``fmt`` refuses its option by name (``Format.check_options``)."""
    from moot.formats.fields import flag_options

    own = {field.flag for field in fmt.fields}
    fields = list(fmt.fields)
    for flag, owners in declared_flags(formats).items():
        if flag not in own:
            fields.append(owners[0][1])
    return flag_options(fields, values, extra)
