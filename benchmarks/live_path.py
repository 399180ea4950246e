"""Server work of the live path, in process: a tap, and the polls that carry it to the
other phones (not a test: figures to compare before and after a change).

Four phones show a 4-player Odd World as ``benchmarks/load.py``'s do (everyone's view);
each in turn taps one of its birds, then the three others poll and take the change, and
poll once more (nothing new: 204). Each asks for compressed answers, as a phone's browser
does. Printed: the median and the range over several runs of the CPU milliseconds per
tap, per changed poll, per unchanged poll and per GET of ``/healthz`` (one trivial query:
the floor of Flask and the app's hooks), each twice: the whole request through
Werkzeug's test client, and the server's part of it (inside the app's WSGI callable:
Flask, the hooks, the view, compression); then the median bytes of a tap's answer and of
a live update, as sent (brotli). CPU time of this process rather than the clock, so that
other work on the machine counts less; the waits for the disk are left out.

Run: .venv/bin/python benchmarks/live_path.py [rounds]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion import create_app
from companion.games.odd_world import BIRDS
from support.client import create_table, start_play
from support.phones import Phone

PLAYERS = ["Ann", "Ben", "Cy", "Dan"]
#: Each seat taps two birds of its own, so no bird runs out of cards.
OWN_BIRDS = [list(BIRDS)[seat * 2 : seat * 2 + 2] for seat in range(len(PLAYERS))]
RUNS = 5
#: What a phone's browser accepts: answers are compressed as they are for phones.
ENCODINGS = {"Accept-Encoding": "gzip, deflate, br"}


class ServerClock:
    """Wraps the app's WSGI callable and keeps the CPU time of the last request inside it:
    the server's own work (Flask, the app's hooks, the view, compression), without the
    test client's building of the request and reading of the answer."""

    def __init__(self, app: Any) -> None:
        self.inner = app.wsgi_app
        self.last = 0.0
        app.wsgi_app = self

    def __call__(self, environ: Any, start_response: Any) -> Any:
        start = time.process_time()
        body = list(self.inner(environ, start_response))
        self.last = time.process_time() - start
        return body


#: Kinds of request timed, in the order printed.
KINDS = ("tap", "changed poll", "unchanged poll (204)", "floor (/healthz)")
#: Kinds of answer weighed.
SIZES = ("tap answer", "live update")


def one_run(rounds: int) -> dict[str, tuple[float, float]]:
    """Per kind of request, the medians of one run in CPU milliseconds: the whole request
    through the test client, and the server's part of it; per kind of answer with a body,
    the median of its bytes as sent (twice, to print as the others)."""
    folder = Path(tempfile.mkdtemp())
    app = create_app({"INSTANCE_PATH": folder, "SECRET_KEY": "bench", "SERVER_NAME": "b.test"})
    clock = ServerClock(app)
    client = app.test_client()
    links = create_table(client, PLAYERS)
    play = start_play(client, links.edit)
    phones = [Phone(app, links.edit, play, "all") for _ in PLAYERS]
    times: dict[str, list[tuple[float, float]]] = {kind: [] for kind in KINDS}
    sizes: dict[str, list[int]] = {kind: [] for kind in SIZES}

    def timed(kind: str, send: Any, url: str, **options: Any) -> Any:
        start = time.process_time()
        answer = send(url, **options)
        times[kind].append((time.process_time() - start, clock.last))
        return answer

    counts: dict[str, int] = {}
    for n in range(rounds):
        seat = n % len(phones)
        tapper = phones[seat]
        bird = OWN_BIRDS[seat][(n // 4) % 2]
        path = f"players[{seat}].display.{bird}"
        counts[path] = (counts.get(path, 0) + 1) % 7
        value = str(counts[path])
        body = {"csrf_token": tapper.token, "seat": tapper.seat, "path": path, "value": value}
        headers = tapper.headers(ENCODINGS)
        answer = timed("tap", tapper.client.post, f"{tapper.url}/edit", data=body, headers=headers)
        assert answer.status_code == 200, answer.status_code
        sizes["tap answer"].append(len(answer.data))
        tapper.take(answer)
        for other in phones:
            if other is tapper:
                continue
            url, headers = other.poll_url(), other.headers(ENCODINGS)
            answer = timed("changed poll", other.client.get, url, headers=headers)
            assert answer.status_code == 200, answer.status_code
            sizes["live update"].append(len(answer.data))
            other.take(answer)
            url, headers = other.poll_url(), other.headers(ENCODINGS)
            answer = timed("unchanged poll (204)", other.client.get, url, headers=headers)
            assert answer.status_code == 204, answer.status_code
            timed("floor (/healthz)", other.client.get, "/healthz")
    figures = {
        kind: (
            statistics.median(whole for whole, _ in found) * 1000,
            statistics.median(server for _, server in found) * 1000,
        )
        for kind, found in times.items()
    }
    for kind, found in sizes.items():
        figures[kind] = (statistics.median(found),) * 2
    return figures


def main() -> None:
    """Print the figures of ``RUNS`` runs."""
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 120
    runs = [one_run(rounds) for _ in range(RUNS)]
    for kind in KINDS:
        for at, part in enumerate(("whole", "server")):
            values = [run[kind][at] for run in runs]
            print(
                f"{kind}, {part}: median {statistics.median(values):.2f} ms of CPU"
                f" (runs {min(values):.2f}-{max(values):.2f} ms)"
            )
    for kind in SIZES:
        values = [run[kind][0] for run in runs]
        print(
            f"{kind}: median {statistics.median(values):,.0f} bytes"
            f" (runs {min(values):,.0f}-{max(values):,.0f})"
        )


if __name__ == "__main__":
    main()
