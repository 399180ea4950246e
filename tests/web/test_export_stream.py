"""The exports a link serves are written piece by piece (``services/transfer_stream.py``):
for every game, a group's table and a table of no group holding every kind of stored thing
(definitions, series, hands, results, edits and an undone one) stream exactly the documents
``transfer.export_*`` builds, JSON and CSV, with plays' kept texts or without."""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterator

import pytest
from flask import Flask

from companion.extensions import db
from companion.games import GAMES
from companion.models import Edit, Group, Play, Table
from companion.services import groups, plays, tables, transfer, transfer_stream
from companion.web.cache import Cache
from support.transfer import PLAYERS, fill_table

ME = plays.Author(device="stream")


class Nothing:
    """Keeps no play's text: every export builds every play."""

    def get(self, _key: Hashable) -> str | None:
        return None

    def put(self, _key: Hashable, _value: str) -> None:
        return None


def _text(pieces: Iterator[str]) -> str:
    return "".join(pieces)


@pytest.mark.both_backends("exports copy the stored JSON as the database returns it")
def test_streamed_exports_are_the_documents_for_every_game(app: Flask) -> None:
    with app.app_context(), app.test_request_context():
        group = groups.create_group("Streams", PLAYERS)
        seated = [member.id for member in group.players]
        for slug in GAMES:
            fill_table(groups.start_table(group, seated=seated), slug)
            fill_table(tables.create_table(PLAYERS), slug)
        group_id = group.id
    kept: Cache[str] = Cache(10_000, 10_000_000, len)
    for pieces in (Nothing(), kept, kept):  # built, then from the kept texts
        with app.app_context():
            group = db.session.get_one(Group, group_id)
            wanted = transfer.export_group(group)
            streamed = _text(transfer_stream.group_json(group_id, pieces=pieces))
            assert json.loads(streamed) == wanted
            assert _text(transfer_stream.group_csv(group_id)) == transfer.to_csv(wanted)
            for table in db.session.scalars(db.select(Table)):
                wanted = transfer.export_table(table)
                streamed = _text(transfer_stream.table_json(table.id, pieces=pieces))
                assert json.loads(streamed) == wanted
                assert _text(transfer_stream.table_csv(table.id)) == transfer.to_csv(wanted)
            for play in db.session.scalars(db.select(Play)):
                wanted = transfer.export_play(play)
                streamed = _text(transfer_stream.play_json(play.id, pieces=pieces))
                assert json.loads(streamed) == wanted
                only = _text(transfer_stream.table_csv(play.table_id, only=play.id))
                assert only == transfer.to_csv(wanted)
    assert len(kept) > 0


def test_an_edit_newer_than_the_play_read_is_left_out(app: Flask) -> None:
    """The play's row and its edits are read by two queries: an edit written between them
    (here, one logged past the play's version) is not in the play's text, which is the
    play at the version it was read at, the version it is kept under."""
    with app.app_context(), app.test_request_context():
        table = tables.create_table(PLAYERS)
        play = plays.start_play(table, "odd-world")
        plays.set_value(play, path="players[0].display.hoopoe", raw="2", base=None, author=ME)
        db.session.add(Edit(play_id=play.id, number=play.version + 1, kind="set", device="later"))
        db.session.commit()
        streamed = json.loads(_text(transfer_stream.table_json(table.id, pieces=Nothing())))
    exported = streamed["table"]["plays"][0]
    assert exported["version"] == 1
    assert [e["number"] for e in exported["edits"]] == [1]


def test_empty_tables_and_groups_stream_their_documents(app: Flask) -> None:
    with app.app_context(), app.test_request_context():
        group = groups.create_group("Nobody yet", PLAYERS)
        empty_group = groups.create_group("Not even a table", PLAYERS)
        table = groups.start_table(group, seated=[m.id for m in group.players])
        ids = (group.id, empty_group.id, table.id)
    with app.app_context():
        for group_id in ids[:2]:
            wanted = transfer.export_group(db.session.get_one(Group, group_id))
            streamed = _text(transfer_stream.group_json(group_id, pieces=Nothing()))
            assert json.loads(streamed) == wanted
            assert _text(transfer_stream.group_csv(group_id)) == transfer.to_csv(wanted)
        wanted = transfer.export_table(db.session.get_one(Table, ids[2]))
        assert json.loads(_text(transfer_stream.table_json(ids[2], pieces=Nothing()))) == wanted
