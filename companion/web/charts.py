"""Server-drawn charts as SVG geometry: wins over time (lines) and a score distribution
(bars). Pure arithmetic on the statistics; the templates copy these numbers into SVG
attributes, colour them with CSS classes (light and dark mode) and put a table next to
each chart as its text alternative.
"""

from __future__ import annotations

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
