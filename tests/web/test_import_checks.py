"""The import goes through the app's own checks: names, roster sizes, caps and the engines'
validation of every state; one line per refusal, nothing stored, never a traceback; and a
restore writes table by table, so live tables' taps do not wait on it."""

from __future__ import annotations

import copy
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from companion.extensions import db
from companion.models import Group, Table
from companion.services import caps, groups, plays, transfer

PLAYERS = ["Ann", "Ben", "Cy"]


@pytest.fixture
def backup(app: Flask) -> dict[str, Any]:
    """A complete backup of one group with one table and a play of Odd World."""
    with app.app_context(), app.test_request_context():
        group = groups.create_group("Fridays", PLAYERS)
        table = groups.start_table(group, seated=[m.id for m in group.players])
        plays.start_play(table, "odd-world")
        document = transfer.export_everything()
        db.session.query(Table).delete()
        db.session.query(Group).delete()
        db.session.commit()
    return document


def _stored(app: Flask) -> int:
    with app.app_context():
        count = db.session.scalar(select(db.func.count()).select_from(Table))
        return int(count or 0) + int(
            db.session.scalar(select(db.func.count()).select_from(Group)) or 0
        )


def _import(app: Flask, tmp_path: Path, document: Any) -> Any:
    source = tmp_path / "backup.json"
    text = document if isinstance(document, str) else json.dumps(document)
    source.write_text(text, encoding="utf-8")
    return app.test_cli_runner().invoke(args=["import", str(source)])


def _table(document: dict[str, Any]) -> dict[str, Any]:
    return document["groups"][0]["tables"][0]  # type: ignore[no-any-return]


def _loose(table: dict[str, Any]) -> dict[str, Any]:
    """A copy of a group's table as a table of no group (no members, no group results)."""
    copied = copy.deepcopy(table)
    for player in copied["players"]:
        player["member"] = None
    for play in copied["plays"]:
        play["results"] = []
    return copied


BAD: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "nul": (lambda d: _table(d)["players"][0].update(name="A\x00nn"), "players[0].name"),
    "bidi": (lambda d: _table(d)["players"][1].update(name="Be\u202en"), "players[1].name"),
    "zwsp": (lambda d: d["groups"][0]["players"][2].update(name="C\u200by"), "players[2].name"),
    "long name": (lambda d: _table(d)["players"][0].update(name="A" * 500), "players[0].name"),
    "group name": (lambda d: d["groups"][0].update(name="G" * 5000), "groups[0].name"),
    "member -1": (lambda d: _table(d)["players"][0].update(member=-1), "players[0].member"),
    "member 9": (lambda d: _table(d)["players"][0].update(member=9), "players[0].member"),
    "state": (
        lambda d: _table(d)["plays"][0]["state"]["players"][0]["display"].update(hoopoe=-5),
        "plays[0].state",
    ),
    "result": (lambda d: _table(d)["plays"][0].update(result={"x": 1}), "plays[0].result"),
    "huge version": (lambda d: _table(d).update(version=10**30), "tables[0].version"),
    "many seats": (
        lambda d: _table(d).update(
            players=[{"seat": i, "name": f"P{i}", "member": None} for i in range(10_000)]
        ),
        "players: A table seats 1 to",
    ),
    "many plays": (
        lambda d: _table(d).update(plays=_table(d)["plays"] * (caps.MAX_PLAYS_PER_TABLE + 1)),
        "plays: A table holds at most",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_the_import_refuses_what_the_pages_refuse(
    app: Flask, tmp_path: Path, backup: dict[str, Any], case: str
) -> None:
    change, said = BAD[case]
    document = copy.deepcopy(backup)
    change(document)
    result = _import(app, tmp_path, document)
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), "a clear refusal, not a traceback"
    assert said in result.output
    assert "Traceback" not in result.output
    assert _stored(app) == 0


def test_every_problem_gets_its_own_line_and_nothing_is_stored(
    app: Flask, tmp_path: Path, backup: dict[str, Any]
) -> None:
    document = copy.deepcopy(backup)
    document["tables"] = [_loose(_table(backup))]  # a valid table
    _table(document)["players"][0]["name"] = "A\x00nn"
    _table(document)["players"][1]["name"] = "B" * 41
    result = _import(app, tmp_path, document)
    assert result.exit_code == 1
    errors = [line for line in result.output.splitlines() if line.startswith("Error: groups")]
    assert len(errors) == 2, result.output
    assert "Nothing was imported (2 problems)." in result.output
    assert _stored(app) == 0


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,
        json.dumps({"format": "odd-companion", "version": 10**30, "kind": "table"}),
        '{"format": "odd-companion", "version": 1, "kind": "everything", "groups": 5}',
        json.dumps(
            {"format": "odd-companion", "version": 1, "kind": "table", "table": {"a": [[[[]]]]}}
        ),
    ],
    ids=["deep", "version", "groups-not-a-list", "table-not-a-table"],
)
def test_no_file_ends_in_a_traceback(app: Flask, tmp_path: Path, text: str) -> None:
    result = _import(app, tmp_path, text)
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert _stored(app) == 0


def test_a_deep_document_is_refused_before_it_is_walked(app: Flask) -> None:
    deep: Any = []
    for _ in range(5_000):
        deep = [deep]
    document = {"format": "odd-companion", "version": 1, "kind": "table", "table": deep}
    with app.app_context(), pytest.raises(transfer.ImportRefused, match="nests deeper"):
        transfer.import_document(document)


def test_a_restore_leaves_the_write_lock_free_between_tables(
    app: Flask, backup: dict[str, Any]
) -> None:
    # SQLite's alone (the one write lock of a file), as every unmarked test runs.
    document = copy.deepcopy(backup)
    document["tables"] = [_loose(_table(backup)) for _ in range(3)]
    database = Path(app.instance_path) / "companion.sqlite"
    taps: list[str] = []

    def tap(_count: int) -> None:
        """Another process writes between two tables, without waiting."""
        other = sqlite3.connect(database, timeout=0)
        try:
            other.execute("UPDATE tables SET version = version WHERE id = -1")
            other.commit()
            taps.append("ok")
        finally:
            other.close()

    with app.app_context(), app.test_request_context():
        created = transfer.import_document(document, tap)
    assert len(created) == 4
    assert taps == ["ok"] * 4


def test_a_write_failing_half_way_takes_back_what_was_written(
    app: Flask, backup: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    document = copy.deepcopy(backup)
    document["tables"] = [_loose(_table(backup)) for _ in range(3)]
    written: list[int] = []
    real = transfer._import_play

    def failing_on_the_third(*args: Any, **kwargs: Any) -> None:
        written.append(1)
        if len(written) == 3:
            raise ValueError("the disk is full")
        real(*args, **kwargs)

    monkeypatch.setattr(transfer, "_import_play", failing_on_the_third)
    refused = pytest.raises(transfer.ImportRefused, match="ValueError")
    with app.app_context(), app.test_request_context(), refused:
        transfer.import_document(document)
    assert len(written) == 3, "the group's table and a loose one were committed first"
    assert _stored(app) == 0
