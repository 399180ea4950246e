"""The budget (a benchmark, not a test): 20 live tables' polls while two clients loop the
most expensive requests there are; prints the polls' p95 beside the 100 ms target and the
slowest answer of each kind of expensive request. See ``support/budget.py``.

Run: .venv/bin/python benchmarks/budget.py [live tables, default 20] [seconds, default 8]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support import budget


def main() -> None:
    """Run the budget once and print what it saw."""
    tables = int(sys.argv[1]) if len(sys.argv) > 1 else budget.LIVE_TABLES
    seconds = int(sys.argv[2]) if len(sys.argv) > 2 else budget.SECONDS
    with tempfile.TemporaryDirectory() as folder:
        outcome = budget.run(Path(folder), tables, seconds)
    verdict = "met" if outcome.poll_p95_ms < budget.POLL_P95_MS else "NOT met"
    print(
        f"{tables} live tables, {seconds} s: poll p95 {outcome.poll_p95_ms:.0f} ms "
        f"(target < {budget.POLL_P95_MS:.0f} ms: {verdict})"
    )
    for kind, ms in outcome.slowest_ms.items():
        print(f"  slowest {kind}: {ms} ms")
    for problem in outcome.problems():
        print(f"  problem: {problem}")


if __name__ == "__main__":
    main()
