"""The largest table the caps allow, written straight into the database: 200 Odd World
plays of four players, each with a short edit log, the last one with the most changes a
play may keep. For the budget test (``tests/deploy/test_budget.py``) and benchmarks: the
pages, history and exports of this table are the most expensive requests a link can make.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import insert

from companion.extensions import db
from companion.games.odd_world import BIRDS, GAME
from companion.models import Edit, Play
from companion.services import caps, tables
from companion.services.tables import Access

NAMES = ["Ann", "Ben", "Cy", "Dee"]
AT = datetime(2025, 1, 1, 19)


@dataclass(frozen=True)
class HeavyTable:
    """The links of the capped table, its longest play's id and another unfinished one's."""

    edit: str
    view: str
    longest_play: int
    short_play: int


def edit_rows(play_id: int, count: int) -> list[dict[str, Any]]:
    """``count`` taps on the players' birds, as a play's log holds them."""
    birds = list(BIRDS)
    return [
        {
            "play_id": play_id,
            "number": n + 1,
            "kind": "set",
            "path": f"players[{n % len(NAMES)}].display.{birds[n % len(birds)]}",
            "value": n % 8 + 1,
            "previous": (n + 7) % 8 + 1,
            "undoes": None,
            "device": "heavy123",
            "author": NAMES[n % len(NAMES)],
            "created_at": AT,
        }
        for n in range(count)
    ]


def capped_table(edits_per_play: int = 20) -> HeavyTable:
    """Create the table (inside an app context); returns its links."""
    table = tables.create_table(NAMES)
    seats = {p.name: p.id for p in table.players}
    state = GAME.new_state(NAMES, {})
    result = GAME.score(state).to_json()
    ids = []
    for number in range(caps.MAX_PLAYS_PER_TABLE):
        longest = number == caps.MAX_PLAYS_PER_TABLE - 1
        count = caps.MAX_EDITS_PER_PLAY if longest else edits_per_play
        row = {
            "table_id": table.id,
            "game": GAME.slug,
            "options": {},
            "player_ids": seats,
            "state": state,
            "version": count,
            "status": "active" if number >= caps.MAX_PLAYS_PER_TABLE - 2 else "finished",
            "result": result,
            "engine_version": GAME.engine_version,
            "created_at": AT,
            "finished_at": None if number >= caps.MAX_PLAYS_PER_TABLE - 2 else AT,
        }
        play_id = int(db.session.scalar(insert(Play).returning(Play.id), [row]))
        db.session.execute(insert(Edit), edit_rows(play_id, count))
        ids.append(play_id)
    table.version = caps.MAX_PLAYS_PER_TABLE
    db.session.commit()
    return HeavyTable(
        edit=tables.token_for(table, Access.EDIT),
        view=tables.token_for(table, Access.VIEW),
        longest_play=ids[-1],
        short_play=ids[-2],
    )
