"""Exports benchmark (not a test): what an export through a link holds a process for.

A capped table: as many Odd World plays of 4 players as a table may hold, ``--edits``
edits each (40: a quick game's taps). A large group: ``--tables`` tables (1,000: the cap)
of 5 such plays. For each: the old way (the whole document built in one go, as the
command line's backup still does), then the streamed export of a link
(``services/transfer_stream.py``) with nothing kept, then with the plays' texts kept (after
one edit, for the table), and the CSV; for each, the total time and the longest turn it
held the gate for (the budget: about 100 ms; a turn is about 20 ms). SQLite, in process.

Run: .venv/bin/python benchmarks/exports_bench.py [--edits 40] [--tables 1000]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from groups_bench import random_state
from sqlalchemy import insert

from companion import create_app
from companion.extensions import db
from companion.games.odd_world import BIRDS, GAME
from companion.models import Edit, Group, Play, Table
from companion.services import caps, groups, plays, tables, transfer, transfer_stream
from companion.web.cache import Cache

NAMES = ["Ann", "Ben", "Cy", "Dee"]
AT = datetime(2025, 1, 1, 19)


class Turns:
    """A stand-in for the gate that times every turn taken."""

    def __init__(self) -> None:
        self.longest = 0.0
        self.count = 0

    @contextmanager
    def _turn(self) -> Iterator[None]:
        began = time.perf_counter()
        yield
        self.longest = max(self.longest, time.perf_counter() - began)
        self.count += 1

    def __enter__(self) -> None:
        self._current = self._turn()
        self._current.__enter__()

    def __exit__(self, *exc: object) -> None:
        self._current.__exit__(None, None, None)


def add_plays(table: Table, count: int, edits: int, rng: random.Random) -> None:
    """``count`` finished plays at the table, each with ``edits`` taps in its log."""
    seats = {p.name: p.id for p in table.players}
    birds = list(BIRDS)
    for _ in range(count):
        state = random_state(NAMES, rng)
        row = {
            "table_id": table.id,
            "game": GAME.slug,
            "options": {},
            "player_ids": seats,
            "state": state,
            "version": edits,
            "status": "finished",
            "result": GAME.score(state).to_json(),
            "engine_version": GAME.engine_version,
            "created_at": AT,
            "finished_at": AT,
        }
        play_id = db.session.scalar(insert(Play).returning(Play.id), [row])
        log = [
            {
                "play_id": play_id,
                "number": n + 1,
                "kind": "set",
                "path": f"players[{n % 4}].display.{birds[n % len(birds)]}",
                "value": n % 8,
                "previous": (n + 7) % 8,
                "undoes": None,
                "device": "bench123",
                "author": None,
                "created_at": AT,
            }
            for n in range(edits)
        ]
        if log:
            db.session.execute(insert(Edit), log)
    db.session.commit()


def timed(build: Callable[[], Any]) -> tuple[float, Any]:
    began = time.perf_counter()
    value = build()
    return (time.perf_counter() - began) * 1000, value


def streamed(pieces: Iterator[str]) -> tuple[str, str]:
    """The total and longest-turn figures of one streamed export."""
    turns = Turns()
    total, text = timed(lambda: "".join(transfer_stream.in_turns(pieces, turns)))
    size = len(text) / 1e6
    return (
        f"{total:7.0f} ms",
        f"{turns.longest * 1000:5.1f} ms ({turns.count} turns, {size:.1f} MB)",
    )


def report(name: str, rows: list[tuple[str, str, str]]) -> None:
    print(f"\n{name}")
    print(f"  {'export':<44} {'total':>10}   longest turn")
    for label, total, longest in rows:
        print(f"  {label:<44} {total:>10}   {longest}")


def table_figures(app: Any, edits: int) -> None:
    with app.app_context(), app.test_request_context():
        table = tables.create_table(NAMES)
        add_plays(table, caps.MAX_PLAYS_PER_TABLE, edits, random.Random(1))
        table_id = table.id
    kept: Cache[str] = Cache(200_000, 64_000_000, len)
    with app.app_context():
        table = db.session.get_one(Table, table_id)
        old, _ = timed(lambda: json.dumps(transfer.export_table(table), ensure_ascii=False))
    rows = [("old: the whole document in one go", f"{old:7.0f} ms", f"{old:5.0f} ms (1 turn)")]
    with app.app_context():
        rows.append(
            (
                "streamed, nothing kept",
                *streamed(transfer_stream.table_json(table_id, pieces=kept)),
            )
        )
    with app.app_context(), app.test_request_context():
        play = db.session.scalars(db.select(Play).where(Play.table_id == table_id)).first()
        assert play is not None
        db.session.execute(db.update(Play).where(Play.id == play.id).values(status="active"))
        db.session.commit()
        plays.set_value(
            play,
            path="players[0].display.hoopoe",
            raw="3",
            base=None,
            author=plays.Author(device="bench"),
        )
    with app.app_context():
        rows.append(
            (
                "streamed after one edit (plays kept)",
                *streamed(transfer_stream.table_json(table_id, pieces=kept)),
            )
        )
    with app.app_context():
        rows.append(("CSV, streamed", *streamed(transfer_stream.table_csv(table_id))))
    report(f"A capped table: {caps.MAX_PLAYS_PER_TABLE} plays of {edits} edits", rows)


def group_figures(app: Any, count: int, edits: int) -> None:
    with app.app_context(), app.test_request_context():
        group = groups.create_group("Benchmarkers", NAMES)
        seated = [m.id for m in group.players]
        rng = random.Random(2)
        for _ in range(count):
            add_plays(groups.start_table(group, seated=seated), 5, edits, rng)
        group_id = group.id
    kept: Cache[str] = Cache(200_000, 64_000_000, len)
    with app.app_context():
        group = db.session.get_one(Group, group_id)
        old, _ = timed(lambda: json.dumps(transfer.export_group(group), ensure_ascii=False))
    rows = [("old: the whole document in one go", f"{old:7.0f} ms", f"{old:5.0f} ms (1 turn)")]
    with app.app_context():
        rows.append(
            (
                "streamed, nothing kept",
                *streamed(transfer_stream.group_json(group_id, pieces=kept)),
            )
        )
    with app.app_context():
        rows.append(
            (
                "streamed again (plays kept)",
                *streamed(transfer_stream.group_json(group_id, pieces=kept)),
            )
        )
    with app.app_context():
        rows.append(("CSV, streamed", *streamed(transfer_stream.group_csv(group_id))))
    report(f"A group of {count} tables of 5 plays of {edits} edits", rows)


def warm_up(app: Any) -> None:
    """One small export first: the figures leave out the first request's set-up (the
    queries' compilation), which a running server has done long before."""
    with app.app_context(), app.test_request_context():
        table = tables.create_table(NAMES)
        add_plays(table, 2, 2, random.Random(0))
        table_id = table.id
    with app.app_context():
        "".join(transfer_stream.table_json(table_id, pieces=Cache(10, 10_000, len)))
        "".join(transfer_stream.table_csv(table_id))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=40)
    parser.add_argument("--tables", type=int, default=caps.MAX_GROUP_TABLES)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="exports-bench-")
    app = create_app(
        {
            "INSTANCE_PATH": folder,
            "SECRET_KEY": "bench",
            "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite",
            "RATELIMIT_ENABLED": False,
        }
    )
    warm_up(app)
    table_figures(app, args.edits)
    group_figures(app, args.tables, args.edits)


if __name__ == "__main__":
    main()
