"""Server work of the live path, in process: a tap, and the polls that carry it to the
other phones (not a test: figures to compare before and after a change).

Four phones show a 4-player Odd World as ``benchmarks/load.py``'s do (everyone's view,
the pieces they hold sent with each request); each in turn taps one of its birds, then
the three others poll and take the change, and poll once more (nothing new: 204).
Printed: the median and the range over several runs of the CPU milliseconds per tap, per
changed poll and per unchanged poll (the server's work and Werkzeug's test client, not
the phone's own: reading the digests it holds), and of a GET of ``/healthz`` (the floor:
the test client, Flask and the app's hooks around a route and one trivial query). CPU time of
this process rather than the clock, so that other work on the machine counts less; the
waits for the disk are left out.

Run: .venv/bin/python benchmarks/live_path.py [rounds]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion import create_app
from companion.games.odd_world import BIRDS
from support.client import create_table, start_play
from support.oob import Phone

PLAYERS = ["Ann", "Ben", "Cy", "Dan"]
#: Each seat taps two birds of its own, so no bird runs out of cards.
OWN_BIRDS = [list(BIRDS)[seat * 2 : seat * 2 + 2] for seat in range(len(PLAYERS))]
RUNS = 5


def one_run(rounds: int) -> tuple[float, float, float, float]:
    """CPU milliseconds per tap, per changed poll, per unchanged poll and per request to
    a route that runs one trivial query (medians of one run)."""
    folder = Path(tempfile.mkdtemp())
    app = create_app({"INSTANCE_PATH": folder, "SECRET_KEY": "bench", "SERVER_NAME": "b.test"})
    client = app.test_client()
    links = create_table(client, PLAYERS)
    play = start_play(client, links.edit)
    phones = [Phone(app, links.edit, play, "all", digests=True) for _ in PLAYERS]
    taps: list[float] = []
    polls: list[float] = []
    unchanged: list[float] = []
    floor: list[float] = []
    counts: dict[str, int] = {}
    for n in range(rounds):
        seat = n % len(phones)
        tapper = phones[seat]
        bird = OWN_BIRDS[seat][(n // 4) % 2]
        path = f"players[{seat}].display.{bird}"
        counts[path] = (counts.get(path, 0) + 1) % 7
        value = str(counts[path])
        # The phone's own work (reading the digests it holds) is left out of the timing.
        body = {"csrf_token": tapper.token, "seat": tapper.seat, "path": path, "value": value}
        headers = tapper.headers({})
        start = time.process_time()
        answer = tapper.client.post(tapper.url + "/edit", data=body, headers=headers)
        taps.append(time.process_time() - start)
        assert answer.status_code == 200, answer.status_code
        tapper.take(answer)
        for other in phones:
            if other is tapper:
                continue
            url, headers = other.poll_url(), other.headers({})
            start = time.process_time()
            answer = other.client.get(url, headers=headers)
            polls.append(time.process_time() - start)
            assert answer.status_code in (200, 204), answer.status_code
            if answer.status_code == 200:
                other.take(answer)
            # Its next poll finds nothing new (204).
            url, headers = other.poll_url(), other.headers({})
            start = time.process_time()
            answer = other.client.get(url, headers=headers)
            unchanged.append(time.process_time() - start)
            assert answer.status_code == 204, answer.status_code
            start = time.process_time()
            answer = other.client.get("/healthz")
            floor.append(time.process_time() - start)
    found = (taps, polls, unchanged, floor)
    return tuple(statistics.median(times) * 1000 for times in found)  # type: ignore[return-value]


def main() -> None:
    """Print the figures of ``RUNS`` runs."""
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 120
    runs = [one_run(rounds) for _ in range(RUNS)]
    names = ("tap", "changed poll", "unchanged poll (204)", "floor (/healthz)")
    for at, name in enumerate(names):
        values = [run[at] for run in runs]
        print(
            f"{name}: median {statistics.median(values):.2f} ms of CPU"
            f" (runs {min(values):.2f}-{max(values):.2f} ms)"
        )


if __name__ == "__main__":
    main()
