"""A table holding every kind of stored thing for every registered game (species
definitions, a series, edits with an undone one, a hand, a finished play, a reopened
one and one still going), for the export, backup and transfer tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.extensions import db
from companion.games import GAMES
from companion.games.oddland.species import Region, SideRule, Terrain
from companion.games.problems import path_of
from companion.models import Play, SpeciesDefinition, Table
from companion.services import owl_about, plays
from support.every_game import leaves

AUTHOR = plays.Author(device="backup", name="Ann")


PLAYERS = ["Ann", "Ben", "Cy"]  # a count every game accepts


def _enter_hand(play: Play) -> None:
    owl_about.start_round(play, rounds_seen=0, lead="Ann", author=AUTHOR)
    owl_about.set_hand(play, player="Ann", raw="3 8", author=AUTHOR)


#: How to put something in a game's private keys (a hand of cards), for every game that
#: has them; checked against the registry below.
PRIVATE_ENTRIES: dict[str, Callable[[Play], None]] = {"owl-about": _enter_hand}


def _other_texts(value: Any) -> list[str]:
    """Form texts that would change a field holding ``value`` (the engine decides)."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [str(value + 1)]
    if isinstance(value, str) and len(value) == 1:
        return ["B" if value == "A" else "A"]
    return []


def _edit_any_field(play: Play) -> None:
    """Change the first field the engine accepts a form edit of."""
    for path, value in list(leaves(play.state)):
        for raw in _other_texts(value):
            try:
                done = plays.set_value(play, path=path_of(path), raw=raw, base=None, author=AUTHOR)
            except (plays.EditRefused, plays.EditConflict):
                continue
            if done is not None:
                return
    raise AssertionError(f"{play.game}: no field takes a form edit")


def fill_table(table: Table, slug: str) -> None:
    """Species definitions, a series (where the game has them), edits with an undone one,
    a hand, a finished play, a reopened one and one still going."""
    game = GAMES[slug]
    definition = SideRule(points=2, region=Region.ROW, terrain=Terrain.FOREST)
    db.session.add(
        SpeciesDefinition(
            table_id=table.id,
            species="flora",
            side="B",
            rule=definition.model_dump(mode="json", exclude_defaults=True) | {"points": 2},
        )
    )
    db.session.commit()
    first = plays.start_series(table, slug, length=2) if game.has_series else None
    play = first or plays.start_play(table, slug)
    _edit_any_field(play)
    _edit_any_field(play)
    plays.undo(play, author=AUTHOR)  # an undone edit stays in the log
    if slug in PRIVATE_ENTRIES:
        PRIVATE_ENTRIES[slug](play)
    plays.set_status(play, finished=True, author=AUTHOR)  # group results
    if first is not None:
        plays.next_in_series(first)
    reopened = plays.start_play(table, slug)
    plays.set_status(reopened, finished=True, author=AUTHOR)
    plays.set_status(reopened, finished=False, author=AUTHOR)
    plays.start_play(table, slug)  # a play still going
