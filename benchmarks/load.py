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

``--cpu`` also prints the CPU seconds each process of the run used (gunicorn's workers,
locust: read from ``/proc``, so Linux only): on a machine the load generator shares, it
says how the cores were split. ``--spy FILE`` records the busiest gunicorn worker with
py-spy (``pip install py-spy``; it must be allowed to trace the process) for 10 s from
10 s after locust started, as folded stacks (``-f raw``) for a flame graph.

The run itself is ``support/load.py``, which ``tests/deploy/test_load.py`` also uses.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import threading
import time
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


#: How long after locust starts the py-spy recording begins (the phones join first), and
#: how long it lasts.
SPY_AFTER_SECONDS = 10
SPY_SECONDS = 10


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def _descendants(pid: int) -> list[int]:
    return [d for child in _children(pid) for d in (child, *_descendants(child))]


def _cpu_seconds(pid: int) -> tuple[float, str] | None:
    """CPU seconds (user + system) the process used so far, and its command line."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        command = Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ").strip()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), command


class Watch:
    """Follows the CPU time of this run's processes; may start py-spy on a worker."""

    def __init__(self, spy_to: str | None) -> None:
        self.used: dict[int, tuple[float, str]] = {}
        self.spy_to = spy_to
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._follow, daemon=True)
        self.thread.start()

    def _follow(self) -> None:
        started: float | None = None  # when locust's phones started
        spying = self.spy_to is None
        while not self.done.wait(0.5):
            for pid in _descendants(os.getpid()):
                found = _cpu_seconds(pid)
                if found is not None:
                    # A process that has ended (a zombie) has no command line left.
                    known = self.used.get(pid, (0.0, ""))[1]
                    self.used[pid] = (found[0], found[1] or known)
            if started is None and any("locust" in c for _, c in self.used.values()):
                started = time.monotonic()
            if not spying and started and time.monotonic() - started > SPY_AFTER_SECONDS:
                spying = self._spy()

    def _spy(self) -> bool:
        workers = [
            pid
            for pid, (_, command) in self.used.items()
            if "gunicorn" in command and not _children(pid)
        ]
        tool = shutil.which("py-spy")
        if not workers or tool is None or self.spy_to is None:
            return tool is None
        busiest = max(workers, key=lambda pid: self.used[pid][0])
        command = [tool, "record", "-p", str(busiest), "-d", str(SPY_SECONDS)]
        command += ["-r", "200", "-f", "raw", "--nonblocking", "-o", self.spy_to]
        subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return True

    def report(self) -> None:
        """Stop, and print each process's CPU seconds (the busiest first)."""
        self.done.set()
        self.thread.join()
        print("CPU seconds by process:")
        for seconds, command in sorted(self.used.values(), reverse=True):
            if seconds >= 0.1:
                print(f"  {seconds:7.1f}  {command[:100]}")


def main() -> None:
    """Run once (or search for the largest passing run) and print what happened."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--crash", action="store_true")
    parser.add_argument("--largest", action="store_true")
    parser.add_argument("--step", type=int, default=10)
    parser.add_argument("--cpu", action="store_true", help="print each process's CPU time")
    parser.add_argument("--spy", metavar="FILE", help="py-spy a worker into FILE")
    options = parser.parse_args()
    watch = Watch(options.spy) if options.cpu or options.spy else None
    if options.largest:
        found = largest(options.tables, options.step, options.seconds, postgres=options.postgres)
        print(f"largest passing run: {found} tables ({found * PHONES_PER_TABLE} phones)")
        return
    outcome = run(
        options.tables, options.seconds, postgres=options.postgres, crash_halfway=options.crash
    )
    report(options.tables, outcome, postgres=options.postgres, crashed=options.crash)
    if watch is not None:
        watch.report()


if __name__ == "__main__":
    main()
