"""Server-drawn charts as SVG geometry: wins over time and skill ratings over time
(lines) and a score distribution (bars). Pure arithmetic on the statistics; the
templates copy these numbers into SVG attributes, colour them with CSS classes (light
and dark mode) and put a table next to each chart as its text alternative.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.services.stats import Bar, WinsOverTime

WIDTH = 340
HEIGHT = 200
#: Room for the axis labels on the left and bottom.
LEFT = 30
BOTTOM = 24
TOP = 8
RIGHT = 8
#: How many colours the stylesheet defines for lines (``chart-line-0``...).
COLOURS = 6
MAX_TICKS = 5
#: How far apart the end dots of players with the same total sit (a dot's diameter and
#: a pixel), so that each stays visible.
DOT_GAP = 9


@dataclass(frozen=True)
class Tick:
    """A labelled value on an axis, at ``at`` pixels."""

    at: float
    label: str


@dataclass(frozen=True)
class Polyline:
    """One player's line: SVG points and the colour class."""

    name: str
    points: str
    colour: int
    #: Where the last point is (a dot and the player's total sit there).
    end_x: float
    end_y: float
    total: int
    #: Where the dot is drawn: at the last point, or beside it (to the left) when other
    #: players end on the same value, so that no dot hides another.
    dot_x: float = 0.0
    #: What the legend says of the line's last value, when not its total (a rating).
    label: str = ""


@dataclass(frozen=True)
class LineChart:
    """Everything the wins-over-time SVG needs."""

    width: int
    height: int
    lines: tuple[Polyline, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    baseline: float


def _y_ticks(top: int) -> list[int]:
    step = max(1, -(-top // (MAX_TICKS - 1)))
    return list(range(0, top + step, step))


def _x_positions(count: int) -> list[float]:
    span = WIDTH - LEFT - RIGHT
    if count == 1:
        return [LEFT + span / 2]
    return [LEFT + span * i / (count - 1) for i in range(count)]


def wins_chart(data: WinsOverTime) -> LineChart | None:
    """The cumulative wins chart, or ``None`` when nobody has won yet."""
    if not data.series:
        return None
    top = max(s.totals[-1] for s in data.series)
    ticks = _y_ticks(top)
    scale_top = ticks[-1] or 1
    plot = HEIGHT - TOP - BOTTOM
    xs = _x_positions(len(data.months))

    def y_of(value: int) -> float:
        return round(TOP + plot * (1 - value / scale_top), 1)

    lines = []
    sharing: dict[float, int] = {}
    for index, series in enumerate(data.series):
        coords = [(round(x, 1), y_of(v)) for x, v in zip(xs, series.totals, strict=True)]
        points = " ".join(f"{x},{y}" for x, y in coords)
        end_x, end_y = coords[-1]
        before = sharing.get(end_y, 0)
        sharing[end_y] = before + 1
        dot_x = round(end_x - before * DOT_GAP, 1)
        lines.append(
            Polyline(series.name, points, index % COLOURS, end_x, end_y, series.totals[-1], dot_x)
        )
    every = max(1, -(-len(data.months) // MAX_TICKS))
    x_ticks = tuple(
        Tick(round(x, 1), month)
        for i, (x, month) in enumerate(zip(xs, data.months, strict=True))
        if i % every == 0
    )
    y_ticks = tuple(Tick(y_of(value), str(value)) for value in ticks)
    return LineChart(WIDTH, HEIGHT, tuple(lines), x_ticks, y_ticks, y_of(0))


@dataclass(frozen=True)
class Column:
    """One bar: its box and its label."""

    x: float
    y: float
    width: float
    height: float
    label: str
    count: int


@dataclass(frozen=True)
class BarChart:
    """Everything the score distribution SVG needs."""

    width: int
    height: int
    columns: tuple[Column, ...]
    y_ticks: tuple[Tick, ...]
    baseline: float


def distribution_chart(bars: list[Bar]) -> BarChart | None:
    """The score distribution as columns, or ``None`` without scores."""
    if not bars:
        return None
    ticks = _y_ticks(max(b.count for b in bars))
    scale_top = ticks[-1] or 1
    plot = HEIGHT - TOP - BOTTOM
    slot = (WIDTH - LEFT - RIGHT) / len(bars)
    columns = []
    for i, bar in enumerate(bars):
        height = round(plot * bar.count / scale_top, 1)
        columns.append(
            Column(
                x=round(LEFT + i * slot + slot * 0.1, 1),
                y=round(TOP + plot - height, 1),
                width=round(slot * 0.8, 1),
                height=height,
                label=bar.label,
                count=bar.count,
            )
        )
    y_ticks = tuple(
        Tick(round(TOP + plot * (1 - value / scale_top), 1), str(value)) for value in ticks
    )
    return BarChart(WIDTH, HEIGHT, tuple(columns), y_ticks, TOP + plot)


#: Points a rating line has at most (a long history is sampled evenly, its last kept).
MAX_POINTS = 60


@dataclass(frozen=True)
class RatingSeries:
    """One player's rating after each of their plays: (the play's number in the scope,
    from 1; the rating after it)."""

    name: str
    points: tuple[tuple[int, float], ...]


def ratings_chart(
    series: Sequence[RatingSeries], plays: int, months: Sequence[str] = ()
) -> LineChart | None:
    """Each player's rating (the conservative ordinal) over the plays of a scope, or
    ``None`` without a rated play. The x axis counts the scope's plays (``plays`` of
    them); ``months``: each play's month, to label the axis with."""
    drawn = [s for s in series if s.points]
    if not drawn or plays < 1:
        return None
    values = [value for s in drawn for _, value in s.points]
    low, high, ticks = _value_ticks(min(values), max(values))
    plot = HEIGHT - TOP - BOTTOM
    span = WIDTH - LEFT - RIGHT

    def x_of(number: int) -> float:
        if plays == 1:  # one play: in the middle, as the wins chart puts one month
            return round(LEFT + span / 2, 1)
        return round(LEFT + span * (number - 1) / (plays - 1), 1)

    def y_of(value: float) -> float:
        return round(TOP + plot * (1 - (value - low) / (high - low)), 1)

    lines = []
    sharing: dict[float, int] = {}
    for index, one in enumerate(drawn):
        coords = [(x_of(n), y_of(v)) for n, v in sampled(one.points)]
        if len(coords) == 1:  # one play: a short flat stroke, so that a line shows
            coords = [(coords[0][0] - 3, coords[0][1]), coords[0]]
        end_x, end_y = coords[-1]
        before = sharing.get(end_y, 0)
        sharing[end_y] = before + 1
        last = one.points[-1][1]
        lines.append(
            Polyline(
                one.name,
                " ".join(f"{x},{y}" for x, y in coords),
                index % COLOURS,
                end_x,
                end_y,
                round(last),
                round(end_x - before * DOT_GAP, 1),
                f"{last:.1f}",
            )
        )
    y_ticks = tuple(Tick(y_of(value), f"{value:g}") for value in ticks)
    return LineChart(
        WIDTH, HEIGHT, tuple(lines), _play_ticks(plays, months, x_of), y_ticks, y_of(low)
    )


def sampled(points: Sequence[tuple[int, float]]) -> list[tuple[int, float]]:
    """At most :data:`MAX_POINTS` of the points, evenly spread, the last always kept.

    >>> len(sampled([(n, 0.0) for n in range(1, 500)])), sampled([(1, 2.0)])
    (60, [(1, 2.0)])
    """
    if len(points) <= MAX_POINTS:
        return list(points)
    step = (len(points) - 1) / (MAX_POINTS - 1)
    return [points[round(i * step)] for i in range(MAX_POINTS)]


def _value_ticks(low: float, high: float) -> tuple[float, float, list[float]]:
    """A round range covering ``low`` to ``high`` and its ticks (at most ``MAX_TICKS``).

    >>> _value_ticks(-1.3, 7.9)
    (-5.0, 10.0, [-5.0, 0.0, 5.0, 10.0])
    >>> _value_ticks(0.0, 0.0)
    (0.0, 1.0, [0.0, 1.0])
    """
    if high - low < 1:
        high = low + 1
    step = 1.0
    for candidate in (1.0, 2.0, 5.0, 10.0, 20.0, 25.0, 50.0):
        step = candidate
        if math.ceil(high / step) - math.floor(low / step) <= MAX_TICKS - 1:
            break
    start, end = math.floor(low / step) * step, math.ceil(high / step) * step
    count = round((end - start) / step)
    return start, end, [start + i * step for i in range(count + 1)]


def _play_ticks(
    plays: int, months: Sequence[str], x_of: Callable[[int], float]
) -> tuple[Tick, ...]:
    """A few plays along the x axis, labelled with their month when known, else their
    number."""
    every = max(1, -(-plays // MAX_TICKS))
    numbers = list(range(1, plays + 1, every))
    return tuple(Tick(x_of(n), months[n - 1] if len(months) >= n else str(n)) for n in numbers)
