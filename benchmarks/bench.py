"""Benchmarks (not tests): engine scoring time, poll cost, first-load page weight.

Run: .venv/bin/python benchmarks/bench.py
"""

from __future__ import annotations

import gzip
import re
import statistics
import sys
import tempfile
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion import create_app
from companion.games.odd_world import BIRDS, GAME
from support.client import create_table, start_play

REPEAT = 2000


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
    for asset in re.findall(rb'(?:href|src)="(/static/[^"]+)"', page):
        response = client.get(asset.decode())
        total += len(gzip.compress(response.data))
        response.close()
    print(f"first load of a 5-player play page, gzip: {total / 1024:.1f} KB")


if __name__ == "__main__":
    main()
