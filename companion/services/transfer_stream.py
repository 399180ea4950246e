"""Exports as a stream of text, built a few plays at a time, for the exports a link serves.

A table may hold 200 plays and a group 1,000 tables: built in one go, as
``transfer.export_table`` does for the command line, a large export is seconds of work
(mostly loading every edit as an object), during which a process could not answer a
tap. Here the same document is written piece by piece:

- each play's text is built from the rows themselves (its edits' stored JSON is copied as
  it is, unless the game hides some of it), a few thousand edits per query at most;
- each play's text is kept (``Pieces``, keyed by the play's version and everything else
  its text depends on), so an export after one tap builds one play again, not all; its
  photos, which its version does not count, are read each time and added after it, one
  photo a piece;
- :func:`in_turns` runs the building in turns of about ``SLICE_SECONDS`` taken at the
  process's gate (``web/gate.py``), so a tap or a poll waits at most one turn, and the
  text is sent between turns.

The document is the one ``transfer.export_*`` builds (the tests compare them). The
streams read what they export by its id: they run after the request's own database
session was closed (Flask runs a streamed answer after the view's teardown).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import time
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from itertools import groupby
from typing import Any, Protocol

from sqlalchemy import Text, cast, select
from sqlalchemy.orm import selectinload

from companion.extensions import db
from companion.games import GAMES
from companion.models import (
    Edit,
    Group,
    Photo,
    Play,
    PlayResult,
    Series,
    SpeciesDefinition,
    Table,
)
from companion.services import photo_store, transfer

#: How long one turn of building may hold the process (the budget is 100 ms a request).
SLICE_SECONDS = 0.02
#: Edits read by one query (about 6 ms of work); a play's edits are read together.
EDITS_AT_ONCE = 250
#: Plays read by one query.
PLAYS_AT_ONCE = 25
#: A group's tables read together (their players, series, definitions and plays' list).
TABLES_AT_ONCE = 20

_encode = json.JSONEncoder(ensure_ascii=False).encode
#: A string as JSON, non-ASCII kept (as ``_encode`` writes it), without its checks.
_encode_string: Callable[[str], str] = json.encoder.encode_basestring

#: What a table's export needs to know of each play before reading it.
LISTED_COLUMNS = (Play.id, Play.version, Play.series_id, Play.game)
PLAY_COLUMNS = (
    Play.id,
    Play.game,
    Play.options,
    Play.player_ids,
    Play.state,
    Play.version,
    Play.status,
    Play.result,
    Play.engine_version,
    Play.created_at,
    Play.finished_at,
    Play.series_id,
    Play.series_index,
)
#: An edit with its JSON as stored (text), to be copied into the export unparsed.
RAW_EDIT_COLUMNS = (
    Edit.play_id,
    Edit.number,
    Edit.kind,
    Edit.path,
    cast(Edit.value, Text).label("value"),
    cast(Edit.previous, Text).label("previous"),
    Edit.undoes,
    Edit.device,
    Edit.author,
    Edit.created_at,
)
#: An edit with its JSON parsed, for games whose private keys are emptied.
EDIT_COLUMNS = (
    Edit.play_id,
    Edit.number,
    Edit.kind,
    Edit.path,
    Edit.value,
    Edit.previous,
    Edit.undoes,
    Edit.device,
    Edit.author,
    Edit.created_at,
)


class Pieces(Protocol):
    """Where plays' texts are kept between exports (``web/cache.Cache``)."""

    def get(self, key: Hashable) -> str | None:
        """The text kept under ``key``, if any."""

    def put(self, key: Hashable, value: str) -> None:
        """Keep ``value`` under ``key``."""


def in_turns(pieces: Iterator[str], turn: AbstractContextManager[Any]) -> Iterator[str]:
    """The text of ``pieces``, built in turns of about ``SLICE_SECONDS``, each inside
    ``turn`` (the process's gate); between turns the text so far is handed on to be sent,
    and requests waiting at the gate go first (the gate serves them in order). The stream
    is read after the request's own turn ended (the server sends the answer once the gate
    returned it); read inside a turn, it would wait for that turn."""
    done = False
    while not done:
        built: list[str] = []
        with turn:
            began = time.perf_counter()
            for piece in pieces:
                built.append(piece)
                if time.perf_counter() - began >= SLICE_SECONDS:
                    break
            else:
                done = True
        if built:
            yield "".join(built)


# --- JSON ------------------------------------------------------------------------------------


def _open(document: Mapping[str, Any], key: str) -> str:
    """The JSON of ``document``, whose last value is an object, left open to receive
    ``key`` (a list) as that object's last member."""
    text = _encode(document)
    return f'{text[:-2]}, "{key}": ['


def table_json(table_id: int, *, pieces: Pieces) -> Iterator[str]:
    """A table's export (``transfer.export_table``) piece by piece."""
    table = db.session.get_one(Table, table_id)
    yield _encode(transfer.document_json("table", {}))[:-1]
    yield ', "table": '
    yield from _table(table, members={}, pieces=pieces)
    yield "}"


def play_json(play_id: int, *, pieces: Pieces) -> Iterator[str]:
    """One play's export (``transfer.export_play``) piece by piece."""
    play = db.session.get_one(Play, play_id)
    yield _encode(transfer.document_json("play", {}))[:-1]
    yield ', "table": '
    yield from _table(play.table, members={}, pieces=pieces, only=play)
    yield "}"


def group_json(group_id: int, *, pieces: Pieces) -> Iterator[str]:
    """A group's export (``transfer.export_group``) piece by piece, a table at a time."""
    group = db.session.get_one(Group, group_id)
    members = transfer.members_of(group)
    yield _open(
        transfer.document_json("group", {"group": transfer.group_head_json(group)}), "tables"
    )
    table_ids = db.session.scalars(
        select(Table.id).where(Table.group_id == group.id).order_by(Table.id)
    ).all()
    separator = ""
    for start in range(0, len(table_ids), TABLES_AT_ONCE):
        # A few tables' rows in five queries, not five queries a table.
        chosen = table_ids[start : start + TABLES_AT_ONCE]
        loaded = db.session.scalars(
            select(Table)
            .where(Table.id.in_(chosen))
            .order_by(Table.id)
            .options(selectinload(Table.players), selectinload(Table.series))
        ).all()
        species = _by_table(
            db.session.scalars(
                select(SpeciesDefinition)
                .where(SpeciesDefinition.table_id.in_(chosen))
                .order_by(SpeciesDefinition.table_id, SpeciesDefinition.id)
            ),
            lambda d: d.table_id,
        )
        listed = _by_table(
            db.session.execute(
                select(Play.table_id, *LISTED_COLUMNS)
                .where(Play.table_id.in_(chosen))
                .order_by(Play.table_id, Play.id)
            ),
            lambda p: p.table_id,
        )
        for table in loaded:  # a table removed while the export ran is left out
            yield separator
            separator = ", "
            yield from _table(
                table,
                members=members,
                pieces=pieces,
                listed=listed.get(table.id, []),
                species=species.get(table.id, []),
            )
        for table in loaded:
            db.session.expunge(table)  # a group's tables are not all kept in memory
    yield "]}}"


def _by_table(rows: Iterable[Any], table_of: Callable[[Any], int]) -> dict[int, list[Any]]:
    return {table_id: list(of_table) for table_id, of_table in groupby(rows, table_of)}


def _table(
    table: Table,
    *,
    members: Mapping[int, int],
    pieces: Pieces,
    only: Play | None = None,
    listed: Sequence[Any] | None = None,
    species: Sequence[SpeciesDefinition] | None = None,
) -> Iterator[str]:
    """One table's object, its plays last (``listed``: their id, version, series and game,
    when the caller read them already; ``species``: its definitions, likewise)."""
    if listed is None:
        listed = db.session.execute(
            select(*LISTED_COLUMNS)
            .where(Play.table_id == table.id, *([Play.id == only.id] if only is not None else []))
            .order_by(Play.id)
        ).all()
    in_series = {row.series_id for row in listed}
    wanted: list[Series] = [s for s in table.series if s.id in in_series]
    seats = {player.id: player.seat for player in table.players}
    series = {s.id: n for n, s in enumerate(wanted)}
    head = transfer.table_head_json(table, members=members, series=wanted, species=species)
    yield _encode(head)[:-1] + ', "plays": ['
    context = _digest(seats, series, members)
    shown = _photos_of([row.id for row in listed])
    first = True
    for play_id, text in _plays(
        listed, seats=seats, series=series, members=members, pieces=pieces, context=context
    ):
        yield text if first else ", " + text
        first = False
        yield from _photos(shown.get(play_id, []))
    yield "]}"


def _photos_of(play_ids: Sequence[int]) -> dict[int, list[Photo]]:
    """The photos of these plays (one query for a table's, in pieces of bounded size)."""
    found: dict[int, list[Photo]] = {}
    for start in range(0, len(play_ids), PLAYS_AT_ONCE * 8):
        chosen = play_ids[start : start + PLAYS_AT_ONCE * 8]
        query = select(Photo).where(Photo.play_id.in_(chosen)).order_by(Photo.play_id, Photo.id)
        for photo in db.session.scalars(query):
            found.setdefault(photo.play_id, []).append(photo)
    return found


def _photos(listed: Sequence[Photo]) -> Iterator[str]:
    """The end of a play's object: its photos, each a piece of its own (a photo is a few
    hundred kilobytes of base64; the building turns end between them)."""
    yield ', "photos": ['
    store = photo_store.store()
    separator = ""
    for photo in listed:
        try:
            data = store.read(photo.uid)
        except FileNotFoundError:
            continue  # as transfer.photos_json: a photo without its file is left out
        yield separator + _encode(transfer.photo_json(photo, data))
        separator = ", "
    yield "]}"


def _digest(*mappings: Mapping[int, int]) -> str:
    """What a play's text depends on besides the play: seats, series and members."""
    described = repr([sorted(m.items()) for m in mappings]).encode()
    return hashlib.blake2b(described, digest_size=16).hexdigest()


def _plays(
    listed: Sequence[Any],
    *,
    seats: Mapping[int, int],
    series: Mapping[int, int],
    members: Mapping[int, int],
    pieces: Pieces,
    context: str,
) -> Iterator[tuple[int, str]]:
    """Each listed play's id and text (all but its photos and its closing brace): kept, or
    built with others in queries of bounded size."""
    waiting: list[Any] = []
    edits = 0
    for row in listed:
        kept = pieces.get(_key(row, context))
        if kept is not None and not waiting:
            yield row.id, kept
            continue
        waiting.append(row)
        edits += row.version
        if edits >= EDITS_AT_ONCE or len(waiting) >= PLAYS_AT_ONCE:
            yield from _built(waiting, seats, series, members, pieces, context)
            waiting, edits = [], 0
    if waiting:
        yield from _built(waiting, seats, series, members, pieces, context)


def _key(row: Any, context: str) -> Hashable:
    return ("play", row.id, row.version, context)


def _built(
    rows: Sequence[Any],
    seats: Mapping[int, int],
    series: Mapping[int, int],
    members: Mapping[int, int],
    pieces: Pieces,
    context: str,
) -> Iterator[tuple[int, str]]:
    """The ids and texts of these plays, in order: those kept as they are, the others
    built."""
    texts: dict[int, str] = {}
    missing = []
    for row in rows:
        kept = pieces.get(_key(row, context))
        if kept is None:
            missing.append(row.id)
        else:
            texts[row.id] = kept
    if missing:
        for play_id, version, text in _build(missing, seats, series, members):
            texts[play_id] = text
            pieces.put(("play", play_id, version, context), text)
    for row in rows:
        if row.id in texts:
            yield row.id, texts[row.id]


def _build(
    ids: Sequence[int],
    seats: Mapping[int, int],
    series: Mapping[int, int],
    members: Mapping[int, int],
) -> Iterator[tuple[int, int, str]]:
    """``(id, version, text)`` of each play, its object left open for its photos: three
    queries for all of them."""
    plays = db.session.execute(
        select(*PLAY_COLUMNS).where(Play.id.in_(ids)).order_by(Play.id)
    ).all()
    hiding = {row.id: _private(row.game) for row in plays}
    raw = [i for i, private in hiding.items() if not private]
    parsed = [i for i, private in hiding.items() if private]
    versions = {row.id: row.version for row in plays}
    edits: dict[int, list[str]] = {}
    for columns, chosen in ((RAW_EDIT_COLUMNS, raw), (EDIT_COLUMNS, parsed)):
        if not chosen:
            continue
        query = select(*columns).where(Edit.play_id.in_(chosen))
        for play_id, of_play in groupby(
            db.session.execute(query.order_by(Edit.play_id, Edit.number)), lambda e: e.play_id
        ):
            # An edit written after the play's row was read is left out: the text is the
            # play at the version read, which is also the key it is kept under.
            stored = [e for e in of_play if e.number <= versions[play_id]]
            private = hiding[play_id]
            edits[play_id] = [
                _encode(transfer.edit_json(e, private)) if private else _raw_edit(e)
                for e in stored
            ]
    results: dict[int, list[dict[str, Any]]] = {}
    if members:
        rows = db.session.scalars(
            select(PlayResult)
            .where(PlayResult.play_id.in_(ids))
            .order_by(PlayResult.play_id, PlayResult.seat)
        )
        for play_id, of_play in groupby(rows, lambda r: r.play_id):
            results[play_id] = transfer.results_json(of_play, members)
    for play in plays:
        head = transfer.play_head_json(play, seats=seats, series=series, private=hiding[play.id])
        logged = edits.get(play.id, [])
        text = (
            f'{_encode(head)[:-1]}, "edits": [{", ".join(logged)}], '
            f'"results": {_encode(results.get(play.id, []))}'
        )
        yield play.id, play.version, text


def _private(slug: str) -> frozenset[str]:
    game = GAMES.get(slug)
    return frozenset() if game is None else game.private_keys


def _raw_edit(edit: Any) -> str:
    """An edit's object, its value and previous value copied as stored (the JSON
    encoder's C string function: a capped table has tens of thousands of edits)."""
    when = edit.created_at.isoformat() if edit.created_at is not None else None
    undoes = "null" if edit.undoes is None else str(int(edit.undoes))
    return (
        f'{{"number": {int(edit.number)}, "kind": {_string(edit.kind)}, '
        f'"path": {_string(edit.path)}, "value": {edit.value or "null"}, '
        f'"previous": {edit.previous or "null"}, "undoes": {undoes}, '
        f'"device": {_string(edit.device)}, "author": {_string(edit.author)}, '
        f'"created_at": {_string(when)}}}'
    )


def _string(text: str | None) -> str:
    return "null" if text is None else _encode_string(text)


# --- CSV -------------------------------------------------------------------------------------

CSV_PLAY_COLUMNS = (Play.game, Play.status, Play.finished_at, Play.player_ids, Play.result)


def table_csv(table_id: int, *, only: int | None = None) -> Iterator[str]:
    """A table's (or one play's, ``only``) CSV, as ``transfer.to_csv`` writes it, a few
    plays at a time."""
    yield _csv_header()
    yield from _table_csv_rows("", 1, table_id, only)


def group_csv(group_id: int) -> Iterator[str]:
    """A group's CSV, a table at a time."""
    group = db.session.get_one(Group, group_id)
    yield _csv_header()
    table_ids = db.session.scalars(
        select(Table.id).where(Table.group_id == group.id).order_by(Table.id)
    ).all()
    for number, table_id in enumerate(table_ids, 1):
        yield from _table_csv_rows(group.name, number, table_id, None)


def _csv_header() -> str:
    out = io.StringIO()
    csv.DictWriter(out, fieldnames=transfer.CSV_COLUMNS, lineterminator="\r\n").writeheader()
    return out.getvalue()


def _table_csv_rows(group: str, number: int, table_id: int, only: int | None) -> Iterator[str]:
    where = [Play.table_id == table_id, *([Play.id == only] if only is not None else [])]
    ids = db.session.scalars(select(Play.id).where(*where).order_by(Play.id)).all()
    for start in range(0, len(ids), PLAYS_AT_ONCE):
        chosen = ids[start : start + PLAYS_AT_ONCE]
        selected = db.session.execute(
            select(*CSV_PLAY_COLUMNS).where(Play.id.in_(chosen)).order_by(Play.id)
        )
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=transfer.CSV_COLUMNS, lineterminator="\r\n")
        for play_number, play in enumerate(selected, start + 1):
            shown = {
                "game": play.game,
                "status": play.status,
                "finished_at": play.finished_at.isoformat() if play.finished_at else None,
                "player_ids": play.player_ids,
                "result": transfer.shared_value(play.result, _private(play.game)),
            }
            for row in transfer.play_rows(group, number, play_number, shown):
                writer.writerow(transfer.safe_row(row))
        yield out.getvalue()
