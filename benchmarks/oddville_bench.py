"""OddVille benchmark (not a test): scoring a 60-card city, the construction check on it,
and the play page showing it.

The city is a 6 x 10 block under and beside the Main Square (60 cards with it), every
victory-point type mixed in, 36 of them owned (9 workers for each of 4 players, minus
the Resources Board), with characters.

Run: .venv/bin/python benchmarks/oddville_bench.py
"""

from __future__ import annotations

import gzip
import re
import statistics
import sys
import tempfile
import timeit
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion import create_app
from companion.extensions import db
from companion.games.oddville import GAME, build_endpoint, parse, score_city
from companion.models import Table
from companion.services import plays
from support.client import create_table

REPEAT = 500
PLAYERS = ["Blue", "Purple", "Red", "Yellow"]
ROWS, COLS = 6, 10
KINDS: list[dict[str, Any]] = [
    {"kind": "diamond", "value": 5},
    {"kind": "diamonds"},
    {"kind": "adjacent"},
    {"kind": "column"},
    {"kind": "row"},
    {"kind": "adjacent-x3"},
    {"kind": "shields"},
    {"kind": "guild", "value": 2, "guild": "mask"},
]
OWNED_PER_PLAYER = 8


def per_call_ms(function: Any, number: int = REPEAT) -> float:
    """Median milliseconds per call over five runs."""
    runs = timeit.repeat(function, number=number, repeat=5)
    return statistics.median(runs) / number * 1000


def big_city() -> dict[str, Any]:
    """60 cards: the Main Square and 59 buildings in a 6 x 10 block."""
    city: list[dict[str, Any]] = [{"at": [0, 0], "card": "main-square", "owners": ["Red", "Blue"]}]
    owned = dict.fromkeys(PLAYERS, 0)
    n = 0
    for r in range(ROWS):
        for c in range(-4, COLS - 4):
            if (r, c) == (0, 0):
                continue
            points = dict(KINDS[n % len(KINDS)])
            card: dict[str, Any] = {"at": [r, c], "points": points, "shield": n % 3}
            if points["kind"] == "guild":
                card["guild"] = "mask"
            player = PLAYERS[n % len(PLAYERS)]
            if owned[player] < OWNED_PER_PLAYER:
                card["owner"] = player
                owned[player] += 1
            card["edges"] = "SSSS"
            city.append(card)
            n += 1
    return {
        "players": PLAYERS,
        "ended_by": "Red",
        "city": city,
        "characters": {"Red": ["traveller", "builder"], "Blue": ["lamplighter"]},
        "resource_workers": {"Purple": 1, "Yellow": 1},
    }


def main() -> None:
    """Print each figure on its own line."""
    state = big_city()
    print(f"city: {len(state['city'])} cards")
    parsed = parse(state)
    print(f"score_city, 60 cards (parsed): {per_call_ms(lambda: score_city(parsed)):.3f} ms")
    print(
        f"GAME.score, 60 cards (parse + validate + score): "
        f"{per_call_ms(lambda: GAME.score(state)):.3f} ms"
    )
    body = {**state, "city": state["city"][:-1], "card": {**state["city"][-1], "owner": "Yellow"}}
    body["card"].pop("shield")
    print(f"oddville/build check on it: {per_call_ms(lambda: build_endpoint(body), 200):.3f} ms")

    folder = Path(tempfile.mkdtemp())
    app = create_app({"INSTANCE_PATH": folder, "SECRET_KEY": "bench", "SERVER_NAME": "b.test"})
    client = app.test_client()
    links = create_table(client, PLAYERS)
    with app.app_context():
        table_play = plays.start_play(db.session.scalars(db.select(Table)).one(), "oddville")
        play_id = table_play.id
        url = f"/t/{links.edit}/plays/{play_id}"
        print(f"first load of a new 4-player play page, gzip: {first_load_kb(client, url):.1f} KB")
        plays.replace_values(
            table_play,
            changes=[(key, state[key], plays.UNCHECKED) for key in ("city", "characters")],
            author=plays.Author("bench"),
        )
    assert client.get(url).status_code == 200
    page_ms = per_call_ms(lambda: client.get(url), 30)
    print(f"play page with the 60-card city, test client: {page_ms:.1f} ms")
    print(f"first load of that play page, gzip: {first_load_kb(client, url):.1f} KB")


def first_load_kb(client: Any, url: str) -> float:
    """The page and every static file it links, gzipped, in KB."""
    page = client.get(url).data
    total = len(gzip.compress(page))
    for asset in re.findall(rb'(?:href|src)="(/static/[^"]+)"', page):
        response = client.get(asset.decode())
        total += len(gzip.compress(response.data))
        response.close()
    return total / 1024


if __name__ == "__main__":
    main()
