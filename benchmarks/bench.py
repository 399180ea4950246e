"""Benchmarks (not tests): engine scoring time, poll cost, a tap's cost, first-load page
weight.

Run: .venv/bin/python benchmarks/bench.py [--profile]

A tap is a stepper's POST on a 4-player Odd World play, as htmx sends it, through the
test client: its SQL statements, and its median time on the clock and in this process's
CPU (the CPU figure moves less when other programs share the machine), for the whole
request and for the write alone (``plays.set_value``: the write path of the services).
``--profile`` adds cProfile's heaviest functions of 300 taps.
"""

from __future__ import annotations

import cProfile
import gzip
import pstats
import re
import statistics
import sys
import tempfile
import time
import timeit
from collections.abc import Callable
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion import create_app
from companion.extensions import db
from companion.games.odd_world import BIRDS, GAME
from companion.services import plays
from support.client import HTMX, create_table, csrf, start_play

REPEAT = 2000
TAPS = 300


def per_call_ms(function: object, number: int = REPEAT) -> float:
    """Median milliseconds per call over five runs."""
    runs = timeit.repeat(function, number=number, repeat=5)  # type: ignore[arg-type]
    return statistics.median(runs) / number * 1000


def maximal_odd_world() -> dict[str, object]:
    """Five players sharing all 72 cards, every one with a face-down card."""
    birds = list(BIRDS)
    players = []
    for i in range(5):
        display = dict.fromkeys(BIRDS, 1 if i < 4 else 3)
        players.append({"name": f"P{i}", "display": display, "face_down": birds[i]})
    return {"players": players}


def main() -> None:
    """Print each figure on its own line."""
    state = maximal_odd_world()
    print(f"odd-world score, maximal state: {per_call_ms(lambda: GAME.score(state)):.3f} ms")

    folder = Path(tempfile.mkdtemp())
    app = create_app({"INSTANCE_PATH": folder, "SECRET_KEY": "bench", "SERVER_NAME": "b.test"})
    client = app.test_client()
    links = create_table(client, ["Ann", "Ben", "Cy", "Dan", "Eve"])
    play = start_play(client, links.edit)
    poll = f"/t/{links.edit}/plays/{play}/poll?version=0"
    assert client.get(poll).status_code == 204
    poll_ms = per_call_ms(lambda: client.get(poll), 300)
    print(f"poll (nothing changed), test client: {poll_ms:.2f} ms")
    bare_ms = per_call_ms(lambda: client.get("/nope"), 300)
    print(f"bare 404 page, test client: {bare_ms:.2f} ms")

    page = client.get(f"/t/{links.edit}/plays/{play}").data
    total = len(gzip.compress(page))
    parts = [f"page {total / 1024:.1f}"]
    for asset in re.findall(rb'(?:href|src)="(/static/[^"]+)"', page):
        response = client.get(asset.decode())
        size = len(gzip.compress(response.data))
        total += size
        parts.append(f"{asset.decode().split('?')[0].rsplit('/', 1)[-1]} {size / 1024:.1f}")
        response.close()
    print(f"first load of a 5-player play page, gzip: {total / 1024:.1f} KB")
    # Every /static/ link is counted, the apple-touch-icon too (a browser may leave it
    # until the page is added to a home screen): each part is listed.
    print(f"  of which (KB): {', '.join(parts)}")
    taps(folder / "taps")


def taps(folder: Path) -> None:
    """A tap's statements and time (see the module's docstring)."""
    app = create_app({"INSTANCE_PATH": folder, "SECRET_KEY": "bench", "SERVER_NAME": "b.test"})
    client = app.test_client()
    tap = _tapper(client)
    for _ in range(30):  # warm up: templates compiled, caches and pools filled
        tap()
    statements = _statements_of(app, tap)
    print(f"tap, 4-player Odd World: {len(statements)} SQL statements")
    for statement in statements:
        print(f"  {statement}")
    write: list[tuple[float, float]] = []
    real_set_value = plays.set_value

    def timed_set_value(*args: object, **kwargs: object) -> object:
        clock, cpu = time.perf_counter(), time.process_time()
        try:
            return real_set_value(*args, **kwargs)  # type: ignore[arg-type]
        finally:
            write.append((time.perf_counter() - clock, time.process_time() - cpu))

    plays.set_value = timed_set_value  # type: ignore[assignment]
    try:
        whole = [_timed(tap) for _ in range(TAPS)]
    finally:
        plays.set_value = real_set_value  # type: ignore[assignment]
    print(f"tap, whole request: {_medians(whole)}")
    print(f"tap, its write (plays.set_value): {_medians(write)}")
    if "--profile" in sys.argv:
        tap = _tapper(client)  # a new play: a play keeps at most 500 changes
        profile = cProfile.Profile()
        profile.runcall(lambda: [tap() for _ in range(TAPS)])
        pstats.Stats(profile).sort_stats("cumulative").print_stats(40)


def _tapper(client: FlaskClient) -> Callable[[], None]:
    """A function that taps one bird's + and - in turn, as the page's stepper does."""
    links = create_table(client, ["Ann", "Ben", "Cy", "Dan"])
    play = start_play(client, links.edit)
    token = csrf(client, f"/t/{links.edit}")
    url = f"/t/{links.edit}/plays/{play}/edit"
    shown = [0]

    def tap() -> None:
        base = shown[0]
        data = {"path": "players[0].display.hoopoe", "value": str(1 - base), "base": str(base)}
        answer = client.post(url, data={**data, "csrf_token": token}, headers=HTMX)
        assert answer.status_code == 200, answer.status_code
        shown[0] = 1 - base

    return tap


def _statements_of(app: Flask, tap: Callable[[], None]) -> list[str]:
    """The SQL statements of one tap, each shortened to its verb and table."""
    statements: list[str] = []

    def note(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        words = statement.split()
        table = words[words.index("FROM") + 1] if "FROM" in words else " ".join(words[1:3])
        statements.append(f"{words[0]} {table}")

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        tap()
    finally:
        event.remove(engine, "before_cursor_execute", note)
    return statements


def _timed(function: Callable[[], None]) -> tuple[float, float]:
    """Seconds on the clock and of this process's CPU that one call took."""
    clock, cpu = time.perf_counter(), time.process_time()
    function()
    return time.perf_counter() - clock, time.process_time() - cpu


def _medians(times: list[tuple[float, float]]) -> str:
    clock = statistics.median(t[0] for t in times) * 1000
    cpu = statistics.median(t[1] for t in times) * 1000
    return f"{clock:.2f} ms on the clock, {cpu:.2f} ms of CPU (medians of {len(times)})"


if __name__ == "__main__":
    main()
