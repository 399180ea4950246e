"""Group chart dots that share a value stay visible (issue 27: Ben's dot was hidden under
Eve's): players ending on the same total get their dots side by side."""

from __future__ import annotations

from itertools import pairwise

from companion.services.stats import Series, WinsOverTime
from companion.web.charts import DOT_GAP, wins_chart


def test_dots_on_the_same_total_sit_side_by_side() -> None:
    wins = WinsOverTime(
        months=("2026-01", "2026-02"),
        series=(
            Series(1, "Ann", (1, 3)),
            Series(2, "Ben", (1, 2)),
            Series(3, "Eve", (2, 2)),
            Series(4, "Cy", (0, 2)),
        ),
    )
    chart = wins_chart(wins)
    assert chart is not None
    dots = {line.name: (line.dot_x, line.end_y) for line in chart.lines}
    # Ann alone on 3 keeps her dot at the line's end.
    assert dots["Ann"][0] == chart.lines[0].end_x
    # Ben, Eve and Cy end on 2: three dots on one height, none on top of another.
    shared = [dots[name] for name in ("Ben", "Eve", "Cy")]
    assert len({y for _, y in shared}) == 1
    xs = sorted(x for x, _ in shared)
    assert all(b - a >= DOT_GAP for a, b in pairwise(xs))
