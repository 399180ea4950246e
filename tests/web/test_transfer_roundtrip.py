"""Every backup restores: for every registered game, a group's table holding every kind of
stored thing (species definitions, a series, entered hands, group results, edits and an
undone edit, a reopened play) goes through the command line's export, into an emptied
database through its import, and out again: the two backups are the same document.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import delete

from companion.extensions import db
from companion.games import GAMES
from companion.games.oddland.species import Region, SideRule, Terrain
from companion.games.problems import path_of
from companion.models import Group, Play, SpeciesDefinition, Table
from companion.services import groups, owl_about, plays, tables
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


def _fill_table(table: Table, slug: str) -> None:
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


def _forget_everything() -> None:
    db.session.execute(delete(Table))
    db.session.execute(delete(Group))
    db.session.commit()


@pytest.mark.both_backends("export/import is SQL")
def test_every_backup_restores_to_the_same_backup(app: Flask, tmp_path: Path) -> None:
    assert set(PRIVATE_ENTRIES) == {slug for slug, g in GAMES.items() if g.private_keys}
    with app.app_context(), app.test_request_context():
        group = groups.create_group("Backups", PLAYERS)
        seated = [member.id for member in group.players]
        for slug in GAMES:
            _fill_table(groups.start_table(group, seated=seated), slug)
            _fill_table(tables.create_table(PLAYERS), slug)  # a table of no group
    runner = app.test_cli_runner()
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    result = runner.invoke(args=["export", "--output", str(first)])
    assert result.exit_code == 0, result.output
    backup = json.loads(first.read_text(encoding="utf-8"))
    stored = [t for g in backup["groups"] for t in g["tables"]] + backup["tables"]
    assert {p["game"] for t in stored for p in t["plays"]} == set(GAMES)
    assert all(t["species"] and t["series"] is not None for t in stored)
    assert any(r for t in stored for p in t["plays"] for r in p["results"])
    assert any(e["kind"] == "undo" for t in stored for p in t["plays"] for e in p["edits"])
    assert backup["tables"], "a table of no group is kept"
    assert '"hands": {"Ann": ["3", "8"]}' in first.read_text(encoding="utf-8"), "hands kept"
    with app.app_context():
        _forget_everything()
    result = runner.invoke(args=["import", str(first)])
    assert result.exit_code == 0, result.output
    assert result.output.count("group: /g/") == len(backup["groups"])
    result = runner.invoke(args=["export", "--output", str(second)])
    assert result.exit_code == 0, result.output
    assert json.loads(second.read_text(encoding="utf-8")) == backup
