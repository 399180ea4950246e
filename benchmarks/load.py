"""Load and crash runs: N live tables of 4 phones against gunicorn with 2 workers.

Each phone (``support/locustfile.py``) polls its play every 2 s and taps a stepper
every 5 s, each from its own moment. Figures count from when every phone has joined.
The run reports locust's p95 and error count, then checks that every tap the server
acknowledged is in the database and that each play's edit log replays to its state.
``--crash`` kills the whole server (``kill -9`` of gunicorn and its workers)
halfway through, starts it again, and checks the same afterwards; taps refused while it
was down do not count as acknowledged.

Run::

    .venv/bin/python benchmarks/load.py --tables 100 --seconds 30
    .venv/bin/python benchmarks/load.py --tables 100 --seconds 30 --postgres --crash
    .venv/bin/python benchmarks/load.py --largest --seconds 30 [--postgres]

``--largest`` searches for the most tables the server holds with p95 under 100 ms, no
error and nothing lost: it doubles the tables from ``--tables`` until a run fails, then
halves the gap between the last good and the first failed count down to ``--step``.

The run itself is ``support/load.py``, which ``tests/deploy/test_load.py`` also uses.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support.load import PHONES_PER_TABLE, Outcome, run


def largest(start: int, step: int, seconds: int, *, postgres: bool) -> int:
    """The most tables a run passes with (0 when even ``start`` fails); prints each run."""
    good, bad = 0, None
    tables = start
    while bad is None or bad - good > step:
        outcome = run(tables, seconds, postgres=postgres, crash_halfway=False)
        report(tables, outcome, postgres=postgres, crashed=False)
        if outcome.ok():
            good = tables
        else:
            bad = tables
        tables = tables * 2 if bad is None else (good + bad) // 2
        if bad is not None and tables <= good:
            break
    return good


def report(tables: int, outcome: Outcome, *, postgres: bool, crashed: bool) -> None:
    """One line per run, then its failures, lost taps and log problems (ten of each)."""
    print(
        f"{tables} tables ({tables * PHONES_PER_TABLE} phones), "
        f"{'PostgreSQL' if postgres else 'SQLite'}"
        f"{', killed halfway' if crashed else ''}: "
        f"{outcome.requests} requests, {outcome.failures} failed, p95 {outcome.p95_ms:.0f} ms; "
        f"{outcome.acknowledged} taps acknowledged, {len(outcome.missing)} lost, "
        f"{len(outcome.log_problems)} log problems -> {'pass' if outcome.ok() else 'FAIL'}",
        flush=True,
    )
    kinds = ", ".join(f"{name} {ms:.0f} ms" for name, ms in outcome.p95_by_request.items())
    print(f"  p95 by request: {kinds}", flush=True)
    for line in outcome.failure_kinds + outcome.missing[:10] + outcome.log_problems[:10]:
        print("  " + line, flush=True)


def main() -> None:
    """Run once (or search for the largest passing run) and print what happened."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--crash", action="store_true")
    parser.add_argument("--largest", action="store_true")
    parser.add_argument("--step", type=int, default=10)
    options = parser.parse_args()
    if options.largest:
        found = largest(options.tables, options.step, options.seconds, postgres=options.postgres)
        print(f"largest passing run: {found} tables ({found * PHONES_PER_TABLE} phones)")
        return
    outcome = run(
        options.tables, options.seconds, postgres=options.postgres, crash_halfway=options.crash
    )
    report(options.tables, outcome, postgres=options.postgres, crashed=options.crash)


if __name__ == "__main__":
    main()
