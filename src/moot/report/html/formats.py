"""Which view renders which debate format: the one its ``Format`` names.

A format names its view with ``Format.html_view``, an import path
(``"package.module:ClassName"``) resolved here the first time a result of that
format is shown, so the formats layer never imports the report layer and a format
installed from another package brings its view the same way.

A :class:`FormatView` says how one format is shown: its judged items, its transcript
in speaking order, its own sections, and for the viewer's live page its rounds and
how many calls its positions make. Every method has a default that works for any
registered format (the items from the judge's trace, the transcript the detectors
read, the format's briefing sections), so a format without a view of its own still
renders (:func:`view_of`); a format's view overrides what it can show better. The
rest of the page (verdict, panel, scores, flags, questions, usage) is shared.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from moot.errors import ConfigError
from moot.formats import formats, get_format
from moot.report.html import generic
from moot.report.html.parts import Context, ItemRef, Section, SideView, TurnView
from moot.schema import DebateResult

DEFAULT_POSITIONS = 2


class FormatView:
    """How one debate format is shown. Subclass it, set ``name`` (the format's) and
    ``unit`` (what the judge scores: a label key ``unit.<unit>``), override what the
    defaults do not show well, and name the class in the format's
    ``Format.html_view`` (or :func:`register` an instance). Templates its sections
    name ``formats/<format>/<file>`` are read from the ``templates`` folder beside the
    format's ``Format`` class."""

    name: str = ""
    unit: str = "item"

    def items(self, result: DebateResult, sides: tuple[SideView, ...]) -> list[ItemRef]:
        """The judged items in page order (each with the anchor ``item-N`` code gives it).
        Default: the rows of the judge's trace."""
        return generic.items(result, sides)

    def transcript(self, ctx: Context) -> list[TurnView]:
        """Every statement in speaking order, one per turn of the format's
        ``Format.transcript`` and in its order (detector flags name those turns).
        Default: those turns' text."""
        return generic.transcript(ctx)

    def leading_sections(self, ctx: Context) -> list[Section]:
        """The format's results that belong at the top, right after the verdict (before
        the panel). Default: none."""
        return []

    def sections(self, ctx: Context, turns: list[TurnView]) -> list[Section]:
        """The format's own sections, shown after the verdict and the panel. Default:
        the format's briefing sections (``Format.briefing``) as tables and lists."""
        return generic.sections(ctx)

    def rounds(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        """The journal's round names in the order a run of these stored options reaches
        them (the live page's steps), without ``classification`` and ``judgement``.
        Default: none known (the page shows the rounds the journal has)."""
        return ()

    def debater_calls(self, options: Mapping[str, Any], positions: int) -> int | None:
        """How many validated calls the positions make in one run of these options
        (the judges' are counted by :func:`expected_calls`). Default: unknown."""
        return None


class BriefingView(FormatView):
    """The view of a registered format that has none of its own: every default."""

    def __init__(self, name: str) -> None:
        self.name = name


VIEWS: dict[str, FormatView] = {}


def register(view: FormatView) -> None:
    """Add (or replace) the view of a format."""
    if not view.name:
        raise ConfigError("a format view needs the name of its format")
    VIEWS[view.name] = view


def view_of(format_name: str) -> FormatView:
    """The view of a format: one registered, else the one its ``Format.html_view``
    names, else the briefing view; ``ConfigError`` for a format this installation
    does not know, or a view that cannot be loaded."""
    view = VIEWS.get(format_name)
    if view is not None:
        return view
    try:
        fmt = get_format(format_name)
    except ConfigError:
        known = ", ".join(sorted({*VIEWS, *(f.name for f in formats() if f.html_view)}))
        raise ConfigError(
            f"no HTML view for debate format {format_name!r} (known: {known})"
        ) from None
    if fmt.html_view is None:
        return BriefingView(format_name)
    view = VIEWS[format_name] = load_view(fmt.html_view)
    return view


def load_view(path: str) -> FormatView:
    """The view named by ``"package.module:ClassName"``, made with no arguments."""
    module_name, _, class_name = path.partition(":")
    try:
        found = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"cannot load the HTML view {path!r}: {exc}") from exc
    if not (isinstance(found, type) and issubclass(found, FormatView)):
        raise ConfigError(f"the HTML view {path!r} is not a FormatView")
    view: FormatView = found()
    return view


# ---- the live page ------------------------------------------------------------------


def _count(value: object, default: int) -> int | None:
    """A stored whole number (``default`` when absent); None when it is not one."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return None
    return value


def _names(value: object) -> list[str] | None:
    if value is None:
        return []
    if not isinstance(value, list):
        return None
    return [str(v) for v in value]


def stored_options(config: Mapping[str, Any]) -> Mapping[str, Any]:
    """A stored run's options (``config["options"]``; older runs stored them flat)."""
    options = config.get("options", config)
    return options if isinstance(options, Mapping) else {}


def rounds(format_name: str, config: Mapping[str, Any]) -> tuple[str, ...]:
    """The rounds a run of this stored configuration goes through, in order."""
    try:
        view = view_of(format_name)
    except ConfigError:
        return ()
    options = stored_options(config)
    steps = view.rounds(options)
    deliberation = tuple(f"deliberation_{n}" for n in range(1, _deliberate(options) + 1))
    return ("classification", *steps, "judgement", *deliberation) if steps else ()


def _deliberate(options: Mapping[str, Any]) -> int:
    """The stored ``--panel-deliberate`` rounds (0 when absent or damaged)."""
    value = options.get("panel_deliberate")
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def expected_calls(format_name: str, config: Mapping[str, Any]) -> int | None:
    """How many validated model calls a run of this stored configuration makes: the
    positions' (the format's view says), one judgement per panel judge and run (one
    without a panel) and one per judge and ``--panel-deliberate`` round, the topic
    classification of a panel whose topic type is not given, all but the
    classification twice with ``swap_sides``. ``None`` when the format or the
    configuration does not say."""
    options = stored_options(config)
    sides, panel = _names(options.get("sides")), _names(options.get("panel"))
    runs = _count(options.get("judge_runs"), 1)
    if sides is None or panel is None or runs is None or runs < 1:
        return None
    try:
        view = view_of(format_name)
    except ConfigError:
        return None
    debaters = view.debater_calls(options, len(sides) or DEFAULT_POSITIONS)
    if debaters is None:
        return None
    judges = len(panel) * (runs + _deliberate(options)) if panel else 1
    classify = 1 if panel and options.get("topic_type") is None else 0
    return classify + (debaters + judges) * (2 if options.get("swap_sides") else 1)
