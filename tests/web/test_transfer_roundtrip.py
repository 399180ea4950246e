"""Every backup restores: for every registered game, a group's table holding every kind of
stored thing (species definitions, a series, entered hands, group results, edits and an
undone edit, a reopened play) goes through the command line's export, into an emptied
database through its import, and out again: the two backups are the same document.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import delete

from companion.extensions import db
from companion.games import GAMES
from companion.models import Group, Table
from companion.services import groups, tables
from support.transfer import PLAYERS, PRIVATE_ENTRIES, fill_table


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
            fill_table(groups.start_table(group, seated=seated), slug)
            fill_table(tables.create_table(PLAYERS), slug)  # a table of no group
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
