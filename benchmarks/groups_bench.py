"""Groups benchmark (not a test): the leaderboard pages of a group with 5,000 plays.

A group of 10 players met on 100 evenings and finished 50 plays of Odd World each night,
4 or 5 of them at a time: 5,000 plays, about 22,500 result rows. Every play is a real
random Odd World state scored by the engine, stored as the app stores it. The figures:
the median time to render the group's page (overall leaderboard, latest games) and the
Odd World leaderboard page (with both charts), on SQLite and on PostgreSQL.

Run: .venv/bin/python benchmarks/groups_bench.py  (PostgreSQL needs its programs
installed, as for the tests; it is skipped otherwise)
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import insert

from companion import create_app
from companion.extensions import db
from companion.games.odd_world import BIRDS, GAME
from companion.models import Play, PlayResult
from companion.services import groups
from companion.services.tables import Access

PLAYERS = 10
EVENINGS = 100
PLAYS_PER_EVENING = 50
RUNS = 20
NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]


def random_state(names: list[str], rng: random.Random) -> dict[str, Any]:
    """An Odd World end state: about half of each bird's eight cards dealt to players."""
    displays = [dict.fromkeys(BIRDS, 0) for _ in names]
    for bird in BIRDS:
        for _card in range(8):
            if rng.random() < 0.5:
                displays[rng.randrange(len(names))][bird] += 1
    return {
        "players": [
            {"name": name, "display": display, "face_down": None}
            for name, display in zip(names, displays, strict=True)
        ]
    }


def fill(app: Any) -> str:
    """Create the group and its history; returns the group's read-only token."""
    rng = random.Random(13)
    with app.app_context(), app.test_request_context():
        group = groups.create_group("Benchmarkers", NAMES[:PLAYERS])
        members = {p.name: p.id for p in group.players}
        start = datetime(2024, 1, 1, 19)
        for night in range(EVENINGS):
            names = rng.sample(NAMES[:PLAYERS], rng.choice((4, 5)))
            table = groups.start_table(group, seated=[members[n] for n in names])
            seats = {p.name: p.id for p in table.players}
            plays, results = [], []
            for number in range(PLAYS_PER_EVENING):
                at = start + timedelta(days=7 * night, minutes=4 * number)
                state = random_state(names, rng)
                result = GAME.score(state).to_json()
                plays.append(
                    {
                        "table_id": table.id,
                        "game": GAME.slug,
                        "options": {},
                        "player_ids": seats,
                        "state": state,
                        "version": 1,
                        "status": "finished",
                        "result": result,
                        "engine_version": GAME.engine_version,
                        "created_at": at - timedelta(minutes=3),
                        "finished_at": at,
                    }
                )
            ids = db.session.scalars(insert(Play).returning(Play.id), plays).all()
            for play_id, play in zip(ids, plays, strict=True):
                shared = sum(s["winner"] for s in play["result"]["standings"]) > 1
                for standing in play["result"]["standings"]:
                    results.append(
                        {
                            "play_id": play_id,
                            "group_id": group.id,
                            "group_player_id": members[standing["player"]],
                            "game": GAME.slug,
                            "player": standing["player"],
                            "seat": names.index(standing["player"]),
                            "score": standing["score"],
                            "rank": standing["rank"],
                            "winner": standing["winner"],
                            "shared": shared,
                            "finished_at": play["finished_at"],
                            "month": play["finished_at"].strftime("%Y-%m"),
                        }
                    )
            db.session.execute(insert(PlayResult), results)
            db.session.commit()
        analyse()
        return groups.token_for(group, Access.VIEW)


def analyse() -> None:
    """Refresh the planner's statistics, as the database's own upkeep would after such a
    history (PostgreSQL's autovacuum; SQLite's ``ANALYZE``, which ``optimize`` runs)."""
    connection = db.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
    with connection:
        if db.engine.dialect.name == "postgresql":
            connection.exec_driver_sql("VACUUM ANALYZE")
        else:
            connection.exec_driver_sql("ANALYZE")


def median_ms(client: Any, url: str) -> float:
    """Median milliseconds to render a page (after one warm-up request)."""
    assert client.get(url).status_code == 200
    times = []
    for _ in range(RUNS):
        begin = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - begin) * 1000)
        assert response.status_code == 200
    return statistics.median(times)


def measure(name: str, settings: dict[str, Any]) -> None:
    """Fill a database and print the two page times."""
    app = create_app(settings)
    token = fill(app)
    client = app.test_client()
    group_page = median_ms(client, f"/g/{token}")
    board = median_ms(client, f"/g/{token}/stats?game=odd-world")
    print(f"{name}: group page {group_page:.1f} ms, Odd World leaderboard {board:.1f} ms")
    with app.app_context():
        db.engine.dispose()


def main() -> None:
    """SQLite, then PostgreSQL when it can be started here."""
    base = {"SECRET_KEY": "bench", "SERVER_NAME": "b.test"}
    print(f"{PLAYERS} players, {EVENINGS * PLAYS_PER_EVENING} plays")
    measure("SQLite", {**base, "INSTANCE_PATH": Path(tempfile.mkdtemp())})
    from support.postgres import PostgresCluster, pg_bin

    bin_dir = pg_bin()
    if bin_dir is None:
        print("PostgreSQL: not installed here, skipped")
        return
    cluster = PostgresCluster(bin_dir)
    cluster.start()
    try:
        cluster.execute("CREATE DATABASE bench")
        settings = {
            **base,
            "INSTANCE_PATH": Path(tempfile.mkdtemp()),
            "DATABASE_URL": f"{cluster.base_url}/bench",
        }
        measure("PostgreSQL", settings)
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
