"""What every page of a table needs: open it by its link, name the phone and the seat it
shows (a play's page and the answers to its changes are in ``web/play/``)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from http import HTTPStatus

from flask import abort, g, request, session

from companion.games.text import N_, _
from companion.services import plays, tables
from companion.services.tables import TableAccess

DEVICE_KEY = "device"
#: Where Flask keeps flashed messages in the session.
FLASHES_KEY = "_flashes"
VISITOR_KEY = "visitor"
NAMES_KEY = "names"
DEVICE_ID_BYTES = 2
READ_ONLY_MESSAGE = N_("This is the read-only link: it cannot change anything.")
#: Where a request keeps the table it opened (see :func:`note_table`).
TABLE_ACCESS_KEY = "table_access"


def note_table(table_access: TableAccess) -> None:
    """Say which table this request works on: a redirect to it is then remembered with
    a form's one-time key without its token (``web/idempotency.py``). The loaders and
    the table creation call this."""
    setattr(g, TABLE_ACCESS_KEY, table_access)


def noted_table() -> TableAccess | None:
    """The table this request works on, when it opened one (:func:`note_table`)."""
    found: TableAccess | None = g.get(TABLE_ACCESS_KEY)
    return found


def open_table(token: str) -> TableAccess:
    """The table a capability link opens (edit or read-only), else 404."""
    table_access = tables.find(token)
    if table_access is None:
        abort(404)
    note_table(table_access)
    return table_access


def open_for_edit(token: str) -> TableAccess:
    """The table of an edit link; a read-only link gets 403, whatever it asks for."""
    table_access = open_table(token)
    if not table_access.can_edit:
        abort(HTTPStatus.FORBIDDEN, _(READ_ONLY_MESSAGE))
    return table_access


def author_of(table_access: TableAccess) -> plays.Author:
    """The device id lives in the session; the name is what this phone said it is."""
    if DEVICE_KEY not in session:
        session[DEVICE_KEY] = secrets.token_hex(DEVICE_ID_BYTES)
        session.permanent = True
    return plays.Author(session[DEVICE_KEY], owner_of(table_access))


#: What "Whose phone is this?" stores for a phone that only watches.
JUST_WATCHING = 0


def owner_of(table_access: TableAccess) -> str | None:
    """The player this phone said it belongs to (by player id, so a rename follows)."""
    chosen = session.get(NAMES_KEY, {}).get(str(table_access.table.id))
    for player in table_access.table.players:
        if player.id == chosen:
            return player.name
    return None


def has_answered_whose_phone(table_access: TableAccess) -> bool:
    """Whether this phone said who it belongs to (or that it is just watching)."""
    return str(table_access.table.id) in session.get(NAMES_KEY, {})


def remember_owner(table_access: TableAccess, name: str | None) -> None:
    """Store whose phone this is for this table: a player's id, or "just watching"."""
    ids = {player.name: player.id for player in table_access.table.players}
    names = dict(session.get(NAMES_KEY, {}))
    names[str(table_access.table.id)] = ids.get(name or "", JUST_WATCHING)
    session[NAMES_KEY] = names


def visitor_of() -> str:
    """This phone's opaque visitor id (its cookie holds nothing else of its tables)."""
    if VISITOR_KEY not in session:
        session[VISITOR_KEY] = tables.new_visitor()
        session.permanent = True
    return str(session[VISITOR_KEY])


def table_label(table_access: TableAccess) -> str:
    """How pages name a table: by its join code for phones that can edit, else by its
    players (the read-only link must never show the code, which leads to edit access)."""
    if table_access.can_edit:
        return _("Table %(code)s", code=tables.join_code_of(table_access.table))
    # TRANSLATORS: a table named by its players, their names joined by commas.
    return _("Table of %(players)s", players=", ".join(table_access.table.player_names))


def token_of(table_access: TableAccess) -> str:
    """The token of the link this request came through (for the links it renders)."""
    return tables.token_for(table_access.table, table_access.access)


ALL_SEATS = "all"


def seat_of(table_access: TableAccess) -> int | str:
    """Whose entry this phone shows (a seat number, or everyone): what it asked for, else
    its owner's seat (see "Whose phone is this?"), else everyone. Seats are the table's,
    which every play starts with."""
    return seat_among(
        tuple(player.id for player in table_access.table.players), table_access.table.id
    )


def seat_among(player_ids: Sequence[int], table_id: int) -> int | str:
    """:func:`seat_of`, given the ids of the table's players in seat order."""
    asked = request.values.get("seat", "")
    # ASCII digits only, and few: "²" is a digit to str.isdigit, and a huge number is slow.
    if asked.isascii() and asked.isdigit() and len(asked) < 4 and int(asked) < len(player_ids):
        return int(asked)
    if asked == ALL_SEATS:
        return ALL_SEATS
    owner = session.get(NAMES_KEY, {}).get(str(table_id))
    return player_ids.index(owner) if owner in player_ids else ALL_SEATS
