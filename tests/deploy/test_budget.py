"""The budget under attack: while two clients loop the most expensive requests there are
(``support/budget.py``), live tables keep being served and every answer is right.

How fast the polls stay is a speed target, measured by ``benchmarks/budget.py`` (20
tables, p95 under 100 ms on a quiet machine); this test runs a smaller load in CI and
checks what must hold on any machine: each expensive request gets its answer, none is a
5xx, no phone's request fails. Bounded: 4 s of load, every request has a timeout.
"""

from __future__ import annotations

from pathlib import Path

from support import budget


def test_live_tables_are_served_while_the_most_expensive_requests_loop(tmp_path: Path) -> None:
    outcome = budget.run(tmp_path, live_tables=5, seconds=4)
    assert not outcome.problems(), (outcome.problems(), outcome.slowest_ms)
