"""Tables: creating them, finding them by capability token or join code, their totals.

Capability tokens and join codes are derived from the table's random ``uid``, a
generation counter and the app's secret key (HMAC-SHA256; tokens are 128 bits shown as 22
URL-safe characters). Only hashes are stored (the join code's keyed with the secret key,
since six characters are few enough to try them all), so a copy of the database alone
opens no table; deriving them again is what lets the table page show its code and a typed
code lead to the table's link. Rotating bumps a generation: the old value stops working.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, cast

from flask import current_app
from sqlalchemy import and_, bindparam, func, or_, select
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import joinedload, selectinload
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

from companion.extensions import db
from companion.games.names import name_problems
from companion.games.text import _
from companion.models import Play, Player, Table, Visit, utcnow
from companion.services.units import unit_of_work

TOKEN_BYTES = 16
#: No 0/O, 1/I/L: codes are read aloud and typed on phones.
JOIN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
JOIN_CODE_LENGTH = 6
MAX_PLAYERS_AT_TABLE = 6
VISITOR_BYTES = 16
RECENT_TABLES = 6


class Access(StrEnum):
    """What a capability link allows."""

    EDIT = "edit"
    VIEW = "view"


@dataclass(frozen=True)
class TableAccess:
    """A table reached through a link, and whether that link may change anything."""

    table: Table
    access: Access

    @property
    def can_edit(self) -> bool:
        """Only the edit link changes things; the read-only link never does."""
        return self.access is Access.EDIT


def _mac(message: str) -> bytes:
    key = current_app.config["SECRET_KEY"].encode()
    return hmac.new(key, message.encode(), hashlib.sha256).digest()


def _token(table: Table, access: Access) -> str:
    # Generation 0 keeps the first links' form, so links handed out before rotation existed
    # keep working until the table rotates them.
    generation = table.edit_generation if access is Access.EDIT else 0
    suffix = f".{generation}" if generation else ""
    digest = _mac(f"{access.value}{suffix}:{table.uid}")
    return base64.urlsafe_b64encode(digest[:TOKEN_BYTES]).decode().rstrip("=")


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_for(table: Table, access: Access) -> str:
    """The capability token of a table for edit or read-only access."""
    return _token(table, access)


def join_code_of(table: Table) -> str:
    """The table's current join code (show it only to phones that can edit)."""
    number = int.from_bytes(_mac(f"join.{table.join_generation}:{table.uid}")[:8], "big")
    code = ""
    for _place in range(JOIN_CODE_LENGTH):
        number, digit = divmod(number, len(JOIN_CODE_ALPHABET))
        code += JOIN_CODE_ALPHABET[digit]
    return code


def _code_hash(code: str) -> str:
    """Keyed, so the stored hashes cannot be matched by trying every six-letter code."""
    return _mac(f"join-code:{code}").hex()


def create_table(names: Sequence[str]) -> Table:
    """Create a table with these players in seating order; commits."""
    table = new_table(names)
    db.session.commit()
    return table


def new_table(names: Sequence[str]) -> Table:
    """A new table with these players in seating order, added to the session; the caller
    commits (a group links its members to the seats first)."""
    table = Table(uid=secrets.token_hex(16), edit_generation=0, join_generation=0)
    table.edit_token_hash = _hash(_token(table, Access.EDIT))
    table.view_token_hash = _hash(_token(table, Access.VIEW))
    _assign_unused_join_code(table)
    table.players = [Player(seat=seat, name=name) for seat, name in enumerate(names)]
    db.session.add(table)
    return table


def _assign_unused_join_code(table: Table) -> None:
    """Move to the next generation whose code no other table uses (a rare collision)."""
    while True:
        hashed = _code_hash(join_code_of(table))
        taken = db.session.scalar(
            select(Table.id).where(Table.join_code_hash == hashed, Table.id != table.id)
        )
        if taken is None:
            table.join_code_hash = hashed
            return
        table.join_generation += 1


def rotate_edit_link(table: Table) -> str:
    """Give the table a new edit link; the old one stops working at once. Commits and
    returns the new token (the read-only link stays)."""
    table.edit_generation += 1
    table.edit_token_hash = _hash(_token(table, Access.EDIT))
    touch(table)
    db.session.commit()
    return _token(table, Access.EDIT)


def rotate_join_code(table: Table) -> str:
    """Give the table a new join code; the old one stops working at once. Commits."""
    table.join_generation += 1
    _assign_unused_join_code(table)
    touch(table)
    db.session.commit()
    return join_code_of(table)


def find(token: str) -> TableAccess | None:
    """The table a capability token opens, with the access it grants; ``None`` if none.

    One query, its players with it: every page of a table names them."""
    hashed = _hash(token)
    table = db.session.scalars(_FIND, {"hashed": hashed}).unique().first()
    if table is None:
        return None
    return TableAccess(table, Access.EDIT if table.edit_token_hash == hashed else Access.VIEW)


#: The table whose edit or read-only link hashes to ``hashed``.
_OPENED_BY = or_(
    Table.edit_token_hash == bindparam("hashed"), Table.view_token_hash == bindparam("hashed")
)
_FIND = select(Table).where(_OPENED_BY).options(joinedload(Table.players))


def find_play(token: str, play_id: int) -> tuple[TableAccess, Play | None] | None:
    """The table a capability token opens (with its players) and the access it grants,
    and its play ``play_id``, in one query; ``None`` when the link opens no table, and no
    play when the play is not one of the table's."""
    hashed = _hash(token)
    found = db.session.execute(_FIND_PLAY, {"hashed": hashed, "play_id": play_id}).unique().first()
    if found is None:
        return None
    table, play = found
    if play is not None:  # it was read with its table: reading it again would cost a query
        set_committed_value(play, "table", table)
    access = Access.EDIT if table.edit_token_hash == hashed else Access.VIEW
    return TableAccess(table, access), play


_FIND_PLAY = (
    select(Table, Play)
    .outerjoin(Play, and_(Play.table_id == Table.id, Play.id == bindparam("play_id")))
    .where(_OPENED_BY)
    .options(joinedload(Table.players))
)


# Built once: the polls run these on every phone every two seconds, and building the
# statement cost more than running it. Executed on a connection of the engine's pool
# (Core): no ORM objects, and no ORM session transaction to begin and close, which cost
# more than the query itself.
_TABLE_VERSION = select(Table.version).where(_OPENED_BY)
_PLAY_VERSIONS = (
    select(Play.version, Table.version)
    .join(Table, Play.table_id == Table.id)
    .where(Play.id == bindparam("play_id"), _OPENED_BY)
)


def table_version(token: str) -> int | None:
    """The version of the table a link opens, read without loading it (the table poll's
    cheap check); ``None`` when the link opens no table."""
    row = _first_row(_TABLE_VERSION, {"hashed": _hash(token)})
    return None if row is None else int(row[0])


def play_versions(token: str, play_id: int) -> tuple[int, int] | None:
    """The versions of a play and of its table, when the link opens that play's table:
    one indexed query and no objects loaded, so an unchanged play's poll costs little."""
    row = _first_row(_PLAY_VERSIONS, {"play_id": play_id, "hashed": _hash(token)})
    return None if row is None else (int(row[0]), int(row[1]))


@dataclass(frozen=True)
class Glance:
    """What a link opens, read without loading the table: enough to tell whether a kept
    rendering of the table page still holds (see ``web/table_pages.py``) and to note the
    visit."""

    table_id: int
    uid: str
    access: Access
    version: int
    last_used_at: datetime
    edit_generation: int
    join_generation: int

    @classmethod
    def of(cls, table_access: TableAccess) -> Glance:
        """The same facts of a table already loaded."""
        table = table_access.table
        return cls(
            table.id,
            table.uid,
            table_access.access,
            table.version,
            table.last_used_at,
            table.edit_generation,
            table.join_generation,
        )

    @property
    def link_generation(self) -> int:
        """The generation of the link it was opened with (read-only links have none)."""
        return self.edit_generation if self.access is Access.EDIT else 0


_GLANCE = select(
    Table.id,
    Table.uid,
    Table.edit_token_hash,
    Table.version,
    Table.last_used_at,
    Table.edit_generation,
    Table.join_generation,
).where(_OPENED_BY)


def glance(token: str) -> Glance | None:
    """The :class:`Glance` of the table a link opens (one indexed query, nothing loaded);
    ``None`` when the link opens no table."""
    hashed = _hash(token)
    # Through SQLAlchemy's result processing: the driver alone gives SQLite's dates as text.
    with db.engine.connect() as connection:
        row = connection.execute(_GLANCE, {"hashed": hashed}).first()
    if row is None:
        return None
    table_id, uid, edit_hash, version, last_used_at, edit_generation, join_generation = row
    access = Access.EDIT if edit_hash == hashed else Access.VIEW
    return Glance(table_id, uid, access, version, last_used_at, edit_generation, join_generation)


@dataclass(frozen=True)
class PlayGlance:
    """What a play's kept panel is known by, read without loading the play or its table
    (see ``web/play/panel.py``): the same facts :meth:`of` takes from loaded ones."""

    id: int
    table_id: int
    game: str
    version: int
    status: str
    series_id: int | None
    table_version: int
    join_generation: int
    access: Access
    #: The table's players' ids, in seat order.
    player_ids: tuple[int, ...]

    @classmethod
    def of(cls, table_access: TableAccess, play: Play) -> PlayGlance:
        """The same facts of a play and table already loaded."""
        table = table_access.table
        return cls(
            play.id,
            table.id,
            play.game,
            play.version,
            play.status,
            play.series_id,
            table.version,
            table.join_generation,
            table_access.access,
            tuple(player.id for player in table.players),
        )


# A row per player of the table (in seat order), each with the play's and table's facts.
_PLAY_GLANCE = (
    select(
        Play.id,
        Play.table_id,
        Play.game,
        Play.version,
        Play.status,
        Play.series_id,
        Table.version,
        Table.join_generation,
        Table.edit_token_hash,
        Player.id,
    )
    .join(Table, Play.table_id == Table.id)
    .join(Player, Player.table_id == Table.id)
    .where(Play.id == bindparam("play_id"), _OPENED_BY)
    .order_by(Player.seat)
)


def glance_play(token: str, play_id: int) -> PlayGlance | None:
    """The :class:`PlayGlance` of a play of the table a link opens (one indexed query,
    nothing loaded); ``None`` when the link opens no table or the play is not its own."""
    hashed = _hash(token)
    rows = _rows(_PLAY_GLANCE, {"hashed": hashed, "play_id": play_id})
    if not rows:
        return None
    *facts, edit_hash, _player = rows[0]
    play, table_id, game, version, status, series_id, table_version, join_generation = facts
    return PlayGlance(
        int(play),
        int(table_id),
        str(game),
        int(version),
        str(status),
        None if series_id is None else int(series_id),
        int(table_version),
        int(join_generation),
        Access.EDIT if edit_hash == hashed else Access.VIEW,
        tuple(int(row[-1]) for row in rows),
    )


_SERIES_VERSIONS = (
    select(Play.id, Play.version)
    .where(Play.series_id == bindparam("series_id"))
    .order_by(Play.series_index)
)


def series_versions(series_id: int) -> list[tuple[int, int]]:
    """The id and version of each game of a series, in order, read without loading them."""
    return [(int(i), int(v)) for i, v in _rows(_SERIES_VERSIONS, {"series_id": series_id})]


#: What the table page reads of every play: not its state, options or result (decoding
#: those of 200 plays was a third of the page's work; ``services/table_results.py`` reads
#: the results it does not keep).
SHOWN_PLAY_COLUMNS = (
    Play.id,
    Play.table_id,
    Play.series_id,
    Play.series_index,
    Play.game,
    Play.player_ids,
    Play.version,
    Play.status,
    Play.engine_version,
    Play.created_at,
    Play.finished_at,
)


def with_everything_shown(table: Table) -> Table:
    """The table with its players, plays (:data:`SHOWN_PLAY_COLUMNS`), series (with their
    plays) and group loaded in a fixed number of queries, however many games it has seen
    (the table page reads them all; lazy loading took a query per series)."""
    statement = (
        select(Table)
        .where(Table.id == table.id)
        .options(
            selectinload(Table.players),
            selectinload(Table.plays).load_only(*SHOWN_PLAY_COLUMNS),
            selectinload(Table.series),
            selectinload(Table.group),
        )
    )
    loaded: Table = db.session.scalars(statement).one()
    _link_series(loaded)
    return loaded


def _link_series(table: Table) -> None:
    """Give each series its plays and each play its series from the plays just loaded:
    loading them again per series, and looking each play's series up by its key, were a
    fifth of the page's work at a table of 66 series."""
    series = {s.id: s for s in table.series}
    games: dict[int, list[Play]] = {series_id: [] for series_id in series}
    for play in table.plays:
        set_committed_value(play, "series", series.get(play.series_id or 0))
        if play.series_id in games:
            games[play.series_id].append(play)
    for series_id, plays in games.items():
        plays.sort(key=lambda p: p.series_index or 0)
        set_committed_value(series[series_id], "plays", plays)


def _first_row(statement: ClauseElement, values: dict[str, Any]) -> tuple[Any, ...] | None:
    """The statement's first row (see :func:`_rows`)."""
    rows = _rows(statement, values)
    return rows[0] if rows else None


def _rows(statement: ClauseElement, values: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The statement's rows, read on a pooled connection outside the ORM session.

    The statement is compiled once per database dialect and run on the driver's own
    cursor: SQLAlchemy's execution machinery cost more than the indexed query itself.
    Only for columns the driver gives as they are (no dates: SQLite gives them as text).
    """
    sql, names, positional = _compiled(statement, db.engine.dialect)
    parameters: Any = tuple(values[name] for name in names) if positional else values
    return [tuple(row) for row in driver_rows(sql, parameters)]


def driver_rows(sql: str, parameters: Any) -> Sequence[Sequence[Any]]:
    """The rows of ``sql`` run on the driver's cursor of a pooled connection."""
    connection = db.engine.raw_connection()
    try:
        cursor = connection.cursor()
        try:
            cursor.execute(sql, parameters)
            rows: Sequence[Sequence[Any]] = cursor.fetchall()
        finally:
            cursor.close()
    finally:
        connection.close()  # back to the pool, which ends the transaction (rollback)
    return rows


@functools.cache
def _compiled(statement: ClauseElement, dialect: Dialect) -> tuple[str, tuple[str, ...], bool]:
    """The SQL of a statement for a dialect, the names of its parameters in order, and
    whether the driver takes them by position."""
    compiled = cast(SQLCompiler, statement.compile(dialect=dialect))
    return str(compiled), tuple(compiled.positiontup or ()), bool(dialect.positional)


def normalise_code(code: str) -> str:
    """Join codes ignore case, spaces and dashes, as people type them."""
    return "".join(ch for ch in code.upper() if ch.isalnum())


def table_for_code(code: str) -> Table | None:
    """The active table with this join code (the caller rate-limits guessing)."""
    active_since = utcnow() - timedelta(hours=current_app.config["JOIN_CODE_HOURS"])
    return db.session.scalar(
        select(Table).where(
            Table.join_code_hash == _code_hash(normalise_code(code)),
            Table.last_used_at >= active_since,
        )
    )


def new_visitor() -> str:
    """An opaque random id for a phone's cookie (only its hash is stored)."""
    return secrets.token_urlsafe(VISITOR_BYTES)


#: How long a noted visit stands before opening the table again notes it anew.
VISIT_REFRESH = timedelta(minutes=5)


def remember_visit(visitor: str, seen: Glance) -> None:
    """Note that this phone opened this table through this link; commits when that is news.

    A visit noted in the last few minutes through the same link is left as it is: the
    "your tables" list only needs the order of evenings, and a phone opening its table
    page again and again should not cost a database write each time — nor a read: a visit
    this process noted or found fresh is remembered here until it needs noting again (a
    visit row only ever gets fresher, so another worker's writes cannot make this wrong).
    """
    hashed = _hash(visitor)
    generation = seen.link_generation
    memo_key = (hashed, seen.uid, seen.access.value, generation)
    now = utcnow()
    noted = _NOTED.get(memo_key)
    if noted is not None and now - noted < VISIT_REFRESH:
        return
    visit = db.session.scalar(
        select(Visit).where(
            Visit.visitor_hash == hashed,
            Visit.table_id == seen.table_id,
            Visit.access == seen.access.value,
        )
    )
    fresh = visit is not None and now - visit.seen_at < VISIT_REFRESH
    if fresh and visit is not None and visit.generation == generation:
        _note(memo_key, visit.seen_at)
        return
    if visit is None:
        visit = Visit(visitor_hash=hashed, table_id=seen.table_id, access=seen.access.value)
        db.session.add(visit)
    visit.generation = generation
    visit.seen_at = now
    db.session.commit()
    _note(memo_key, now)


#: Visits this process noted or found fresh lately, by visitor hash, table, link and
#: generation -> when they were last seen (see :func:`remember_visit`); bounded.
_NOTED: dict[tuple[str, str, str, int], datetime] = {}
MAX_NOTED = 4096


def _note(key: tuple[str, str, str, int], seen_at: datetime) -> None:
    if len(_NOTED) >= MAX_NOTED:
        _NOTED.clear()  # a fresh start costs each phone one read, nothing more
    _NOTED[key] = seen_at


def recent_visits(visitor: str) -> list[TableAccess]:
    """The tables this phone opened lately, newest first, through links that still work;
    a table opened both ways is listed once, with the edit link."""
    visits = db.session.scalars(
        select(Visit).where(Visit.visitor_hash == _hash(visitor)).order_by(Visit.seen_at.desc())
    )
    listed: dict[int, TableAccess] = {}
    for visit in visits:
        access = Access(visit.access)
        if access is Access.EDIT and visit.generation != visit.table.edit_generation:
            continue
        known = listed.get(visit.table_id)
        if known is None or (access is Access.EDIT and not known.can_edit):
            listed[visit.table_id] = TableAccess(visit.table, access)
    return list(listed.values())[:RECENT_TABLES]


def play_count(table: Table) -> int:
    """How many plays the table holds (counted, not loaded; see ``caps``)."""
    counted = select(func.count()).select_from(Play).where(Play.table_id == table.id)
    return int(db.session.scalar(counted) or 0)


#: A table's last use is written at most this often by the edits of a play: it keeps the
#: join code working for hours, so a minute more or less changes nothing, and skipping
#: the write spares almost every tap a statement.
TOUCH_EVERY = timedelta(minutes=1)


def touch(table: Table, *, every_time: bool = True) -> None:
    """Mark the table as used now (keeps its join code active); the caller commits.
    ``every_time=False``: only when its last use is at least :data:`TOUCH_EVERY` old."""
    now = utcnow()
    if every_time or table.last_used_at is None or now - table.last_used_at >= TOUCH_EVERY:
        table.last_used_at = now


def bump(table: Table) -> None:
    """Something the table page shows changed (phones polling it reload); the caller
    commits."""
    table.version = (table.version or 0) + 1
    touch(table)


# --- the roster after the table exists ----------------------------------------------------


class RosterRefused(Exception):  # noqa: N818 - raised as "the roster change is refused"
    """A roster change that would break the table's rules; nothing stored."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def seat_player(table: Table, name: str) -> Player:
    """Seat a new player last (a late friend joins the table); the caller's unit of work
    commits (``groups.seat_late_friend`` also makes them a member of the table's group)."""
    if len(table.players) >= MAX_PLAYERS_AT_TABLE:
        raise RosterRefused(
            _("A table seats at most %(count)s players.", count=MAX_PLAYERS_AT_TABLE)
        )
    cleaned = _checked_name(table, name, player=None)
    player = Player(seat=len(table.players), name=cleaned)
    table.players.append(player)
    _save_roster(table)
    return player


@unit_of_work
def rename_player(table: Table, player_id: int, name: str) -> None:
    """Rename a player; games already played keep the name they were played with."""
    player = _player(table, player_id)
    player.name = _checked_name(table, name, player=player)
    _save_roster(table)


@unit_of_work
def remove_player(table: Table, player_id: int) -> None:
    """Take a player off the table; their past games keep them, later ones won't."""
    if len(table.players) <= 1:
        raise RosterRefused(_("A table needs at least one player."))
    player = _player(table, player_id)
    table.players.remove(player)
    db.session.flush()
    for seat, other in enumerate(table.players):
        other.seat = seat  # seats only move down into the freed one: no two ever collide
    _save_roster(table)


@unit_of_work
def move_player(table: Table, player_id: int, *, offset: int) -> None:
    """Move a player one seat up (-1) or down (+1) in the seating order."""
    player = _player(table, player_id)
    seat = player.seat + offset
    if not 0 <= seat < len(table.players):
        raise RosterRefused(_("%(name)s cannot move further.", name=player.name))
    other = table.players[seat]
    # The seat is unique per table: park one player outside the range while swapping.
    former, player.seat = player.seat, -1
    db.session.flush()
    other.seat = former
    db.session.flush()
    player.seat = seat
    _save_roster(table)


def _player(table: Table, player_id: int) -> Player:
    for player in table.players:
        if player.id == player_id:
            return player
    raise RosterRefused(_("That player is not at this table any more. Refresh the page."))


def _checked_name(table: Table, name: str, *, player: Player | None) -> str:
    cleaned = name.strip()
    others = [p.name for p in table.players if p is not player]
    problems = name_problems([*others, cleaned], path=str)
    mine = [p for p in problems if p.path == str(len(others))]
    if mine:
        raise RosterRefused(mine[0].message)
    return cleaned


def _save_roster(table: Table) -> None:
    db.session.flush()
    table.players.sort(key=lambda p: p.seat)
    bump(table)


# --- totals -------------------------------------------------------------------------------


@dataclass
class PlayerTotals:
    """One player's evening at a table: results counted and won, points per game."""

    name: str
    played: int = 0
    won: int = 0
    points: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome:
    """One counted result: a single finished game, or a whole series (its summed score)."""

    game: str
    result: Mapping[str, Any]
    player_ids: Mapping[str, int] | None


def running_totals(table: Table, outcomes: Sequence[Outcome]) -> list[PlayerTotals]:
    """Totals over the table's counted results, players in seating order.

    A result names its players as they were called when it was played; they are followed
    to the table's players by id (so a renamed player keeps their results), else by name
    (case-insensitive, for results from before ids were kept).
    """
    by_id = {player.id: PlayerTotals(player.name) for player in table.players}
    by_name = {player.name.casefold(): by_id[player.id] for player in table.players}
    for outcome in outcomes:
        for standing in outcome.result["standings"]:
            name = standing["player"]
            known = (outcome.player_ids or {}).get(name)
            entry = by_id.get(known) if known is not None else by_name.get(name.casefold())
            if entry is None:
                continue
            entry.played += 1
            entry.won += 1 if standing["winner"] else 0
            entry.points[outcome.game] = entry.points.get(outcome.game, 0) + standing["score"]
    return list(by_id.values())
