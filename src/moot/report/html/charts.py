"""Charts as inline SVG: code computes every shape's geometry from the result's
numbers; one template macro draws any ``Chart``. No script, no external file, no
style attribute (the page's Content-Security-Policy allows none)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from moot.report.html.page import number

WIDTH = 720.0
LABEL_WIDTH = 150.0
VALUE_WIDTH = 70.0
ROW = 30.0
BAR = 16.0
AXIS = 24.0
PAD = 8.0


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    css: str
    title: str = ""


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    text: str
    css: str = ""
    anchor: str = "start"


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    css: str


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    css: str
    title: str = ""


@dataclass
class Chart:
    """An SVG drawing: its size, its accessible label, its shapes and, in ``data``,
    what it shows as (name, value) text: a screen reader meets the drawing as one
    image, so the page repeats its numbers in a table only such a reader sees."""

    width: float
    height: float
    label: str
    rects: list[Rect] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    circles: list[Circle] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    data: list[tuple[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class Scale:
    """A linear map from values in ``[low, high]`` to x positions in ``[left, right]``."""

    low: float
    high: float
    left: float
    right: float

    def x(self, value: float) -> float:
        clipped = min(max(value, self.low), self.high)
        span = self.high - self.low
        return self.left + (clipped - self.low) / span * (self.right - self.left)


def score_domain(values: Sequence[float]) -> tuple[float, float]:
    """The axis for scores: 0 to 10, widened to whole numbers that hold every value
    (calibrated scores may fall outside 1-10)."""
    finite = [v for v in values if math.isfinite(v)]
    low = min([0.0, *finite])
    high = max([10.0, *finite])
    return float(math.floor(low)), float(math.ceil(high))


def _axis(chart: Chart, scale: Scale, top: float, bottom: float, step: float) -> None:
    """Vertical grid lines with their values under the plot."""
    value = scale.low
    while value <= scale.high + 1e-9:
        x = scale.x(value)
        chart.lines.append(Line(x, top, x, bottom, "grid"))
        chart.texts.append(Text(x, bottom + 16, f"{value:g}", "tick", "middle"))
        value += step


def _bar(scale: Scale, value: float, y: float, css: str, title: str) -> Rect:
    start = scale.x(max(scale.low, 0.0))
    end = scale.x(value) if math.isfinite(value) else start
    return Rect(min(start, end), y, abs(end - start), BAR, css, title)


LABEL_UNITS = 20
"""How much of a row's label fits left of the plot (a CJK character counts twice)."""


def fit(label: str, units: int = LABEL_UNITS) -> str:
    """``label`` shortened with an ellipsis to fit ``units`` (SVG text cannot wrap; the
    full label stays in the bar's tooltip and on the page)."""
    used = 0
    for index, char in enumerate(label):
        used += 2 if ord(char) >= 0x2E80 else 1
        if used > units:
            return label[: max(index - 1, 1)] + "…"
    return label


@dataclass(frozen=True)
class BarRow:
    """One labelled row: a value, optionally an interval and individual dots."""

    label: str
    label_css: str
    value: float
    css: str
    title: str
    interval: tuple[float, float] | None = None
    dots: tuple[tuple[float, str, str], ...] = ()
    """(value, css class, tooltip) of each dot."""
    note: str = ""
    text: str = ""
    """The value as shown, when not the number itself (a share, a duration)."""


def _step(domain: tuple[float, float], step: float | None) -> float:
    return step if step is not None else (1.0 if domain[1] - domain[0] <= 12 else 2.0)


def bar_chart(
    label: str,
    rows: Sequence[BarRow],
    domain: tuple[float, float],
    step: float | None = None,
) -> Chart:
    """Horizontal bars, one row each, on a shared axis (a grid line every ``step``),
    with whiskers and dots."""
    height = PAD + ROW * len(rows) + AXIS
    chart = Chart(WIDTH, height, label)
    scale = Scale(domain[0], domain[1], LABEL_WIDTH, WIDTH - VALUE_WIDTH)
    bottom = PAD + ROW * len(rows)
    _axis(chart, scale, PAD / 2, bottom, _step(domain, step))
    for index, row in enumerate(rows):
        y = PAD + index * ROW + (ROW - BAR) / 2
        middle = y + BAR / 2
        chart.texts.append(Text(LABEL_WIDTH - 8, middle + 4, fit(row.label), row.label_css, "end"))
        chart.rects.append(_bar(scale, row.value, y, row.css, row.title))
        right = scale.x(row.value) if math.isfinite(row.value) else scale.left
        if row.interval is not None:
            low, high = (scale.x(v) for v in row.interval)
            chart.lines.append(Line(low, middle, high, middle, "whisker"))
            chart.lines.append(Line(low, y + 2, low, y + BAR - 2, "whisker"))
            chart.lines.append(Line(high, y + 2, high, y + BAR - 2, "whisker"))
            right = max(right, high)
        for value, css, title in row.dots:
            if not math.isfinite(value):
                continue
            chart.circles.append(Circle(scale.x(value), middle, 4.5, css, title))
            right = max(right, scale.x(value))
        text = row.text or number(row.value)
        if row.interval is not None:
            text += f"  [{number(row.interval[0])}, {number(row.interval[1])}]"
        if row.note:
            text += f"  {row.note}"
        chart.texts.append(Text(right + 8, middle + 4, text, "value"))
        chart.data.append((row.label, text))
    return chart


@dataclass(frozen=True)
class Group:
    """A labelled group of bars (one per side) in a grouped bar chart."""

    label: str
    bars: tuple[tuple[float, str, str], ...]
    """(value, css class, tooltip) of each bar."""


def grouped_chart(label: str, groups: Sequence[Group], domain: tuple[float, float]) -> Chart:
    """Groups of thin horizontal bars, e.g. one group per dimension, one bar per side."""
    thin = 12.0
    group_heights = [len(g.bars) * (thin + 3) + 12 for g in groups]
    height = PAD + sum(group_heights) + AXIS
    chart = Chart(WIDTH, height, label)
    scale = Scale(domain[0], domain[1], LABEL_WIDTH, WIDTH - VALUE_WIDTH)
    bottom = PAD + sum(group_heights)
    _axis(chart, scale, PAD / 2, bottom, 1.0)
    y = PAD
    for group, group_height in zip(groups, group_heights, strict=True):
        chart.texts.append(
            Text(LABEL_WIDTH - 8, y + group_height / 2, fit(group.label), "dim", "end")
        )
        bar_y = y + 6
        for value, css, title in group.bars:
            start = scale.x(max(domain[0], 0.0))
            end = scale.x(value) if math.isfinite(value) else start
            chart.rects.append(Rect(min(start, end), bar_y, abs(end - start), thin, css, title))
            chart.texts.append(Text(end + 6, bar_y + thin - 2, number(value), "value small"))
            bar_y += thin + 3
        chart.data.append((group.label, "; ".join(title for _, _, title in group.bars)))
        y += group_height
    return chart


AGREEMENT_BANDS = ((0.0, 0.667, "band-bad"), (0.667, 0.8, "band-mixed"), (0.8, 1.0, "band-good"))
"""Krippendorff's thresholds: below 0.667 needs attention, 0.667-0.80 moderate, above high."""


def agreement_meter(label: str, value: float | None) -> Chart:
    """A 0-1 track with the agreement bands and a mark at the value (clipped to the
    track; a negative value sits at 0 and its number is shown beside the chart)."""
    width, height, left, right = 260.0, 34.0, 8.0, 250.0
    chart = Chart(width, height, label)
    scale = Scale(0.0, 1.0, left, right)
    for low, high, css in AGREEMENT_BANDS:
        chart.rects.append(Rect(scale.x(low), 8, scale.x(high) - scale.x(low), 8, css))
    for tick in (0.0, 0.667, 0.8, 1.0):
        chart.texts.append(Text(scale.x(tick), 31, f"{tick:g}", "tick small", "middle"))
    if value is not None:
        x = scale.x(value)
        chart.lines.append(Line(x, 3, x, 21, "marker"))
    chart.data.append((label, number(value, 3)))
    return chart


def progress_bar(label: str, fraction: float) -> Chart:
    """A horizontal bar filled to ``fraction`` (0-1)."""
    width, height = 600.0, 14.0
    chart = Chart(width, height, label)
    chart.rects.append(Rect(0, 0, width, height, "track"))
    chart.rects.append(Rect(0, 0, width * min(max(fraction, 0.0), 1.0), height, "fill"))
    chart.data.append((label, f"{fraction:.0%}"))
    return chart


@dataclass(frozen=True)
class WindowRow:
    """One timed piece (a speech): the time it took, its target and the window it
    had to land in, in seconds."""

    label: str
    label_css: str
    seconds: float
    target: float
    window: tuple[float, float]
    css: str
    text: str
    """The numbers as shown right of the bar (and read to a screen reader)."""


def seconds_domain(rows: Sequence[WindowRow]) -> tuple[float, float, float]:
    """The axis for durations: 0 to a whole number of steps past every value, and the
    step (30 s, or 60 s past ten minutes)."""
    longest = max([60.0, *(max(r.seconds, r.window[1], r.target) for r in rows)])
    step = 30.0 if longest <= 600 else 60.0
    return 0.0, math.ceil(longest / step) * step, step


def window_chart(label: str, rows: Sequence[WindowRow]) -> Chart:
    """One row per timed piece: its window as a band, its target as a mark and the
    time it took as a bar, on a shared axis of seconds."""
    low, high, step = seconds_domain(rows)
    height = PAD + ROW * len(rows) + AXIS
    chart = Chart(WIDTH, height, label)
    scale = Scale(low, high, LABEL_WIDTH, WIDTH - VALUE_WIDTH - 60)
    bottom = PAD + ROW * len(rows)
    _axis(chart, scale, PAD / 2, bottom, step)
    for index, row in enumerate(rows):
        y = PAD + index * ROW + (ROW - BAR) / 2
        middle = y + BAR / 2
        start, end = (scale.x(v) for v in row.window)
        chart.rects.append(Rect(start, y - 4, max(end - start, 1.0), BAR + 8, "window"))
        chart.texts.append(Text(LABEL_WIDTH - 8, middle + 4, fit(row.label), row.label_css, "end"))
        chart.rects.append(_bar(scale, row.seconds, y, row.css, row.text))
        target = scale.x(row.target)
        chart.lines.append(Line(target, y - 4, target, y + BAR + 4, "marker"))
        right = max(scale.x(row.seconds), end, target)
        chart.texts.append(Text(right + 8, middle + 4, row.text, "value"))
        chart.data.append((row.label, row.text))
    return chart


@dataclass(frozen=True)
class Series:
    """One line of a line chart: its label, colour class and a value per step (None
    where it has none)."""

    label: str
    css: str
    values: tuple[float | None, ...]


LINE_HEIGHT = 220.0
LINE_LEFT = 44.0
LEGEND_WIDTH = 170.0
END_GAP = 14.0
"""The least vertical distance between two lines' end labels."""


def line_chart(
    label: str,
    steps: Sequence[str],
    series: Sequence[Series],
    domain: tuple[float, float],
    *,
    step: float | None = None,
    max_ticks: int | None = None,
) -> Chart:
    """A value per step for each series, joined by lines (a trajectory), on a
    vertical axis of ``domain`` with a grid line every ``step`` (default: every whole
    number, every two past twelve); each line's last value is named at its right end.
    With ``max_ticks``, only about that many steps are named under the axis (every
    step keeps its name in the points' tooltips and the hidden table)."""
    height = PAD + LINE_HEIGHT + AXIS
    chart = Chart(WIDTH, height, label)
    top, bottom = PAD, PAD + LINE_HEIGHT
    vertical = Scale(domain[0], domain[1], bottom, top)
    left, right = LINE_LEFT, WIDTH - LEGEND_WIDTH
    grid = _step(domain, step)
    for n in range(math.floor((domain[1] - domain[0]) / grid + 1e-9) + 1):
        value = domain[0] + n * grid
        y = vertical.x(value)
        chart.lines.append(Line(left, y, right, y, "grid"))
        chart.texts.append(Text(left - 6, y + 4, f"{round(value, 9):g}", "tick", "end"))
    gap = (right - left) / max(len(steps) - 1, 1)
    xs = [left + n * gap if len(steps) > 1 else (left + right) / 2 for n in range(len(steps))]
    every = max(1, math.ceil(len(steps) / max_ticks)) if max_ticks else 1
    for n, (x, name) in enumerate(zip(xs, steps, strict=True)):
        if n % every == 0:
            chart.texts.append(Text(x, bottom + 16, name, "tick", "middle"))
    ends: list[tuple[float, float, str]] = []
    for line in series:
        points = [
            (x, vertical.x(v), name, v)
            for x, name, v in zip(xs, steps, line.values, strict=True)
            if v is not None and math.isfinite(v)
        ]
        for (x1, y1, _, _), (x2, y2, _, _) in itertools.pairwise(points):
            chart.lines.append(Line(x1, y1, x2, y2, f"trend {line.css}"))
        for x, y, name, v in points:
            chart.circles.append(
                Circle(x, y, 4.5, f"point {line.css}", f"{line.label}, {name}: {number(v)}")
            )
        if points:
            x, y, _, v = points[-1]
            ends.append((y, x, f"{fit(line.label)} {number(v)}"))
        chart.data.append(
            (
                line.label,
                "; ".join(
                    f"{name}: {'-' if v is None else number(v)}"
                    for name, v in zip(steps, line.values, strict=True)
                ),
            )
        )
    # each line's last value named at its end, the names pushed apart to stay legible
    placed = -math.inf
    for y, x, text in sorted(ends):
        placed = max(y, placed + END_GAP)
        chart.texts.append(Text(x + 10, placed + 4, text, "value"))
    return chart
