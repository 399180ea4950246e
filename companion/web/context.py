"""What every page of a table needs: open it by its link, find a play, name the phone,
and the context every play template gets (shared by the core pages and the games' own)."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from flask import abort, current_app, redirect, request, session, url_for
from werkzeug.wrappers import Response

from companion.extensions import db
from companion.games import GAMES
from companion.models import Play
from companion.services import explain, plays, tables
from companion.services.tables import TableAccess
from companion.web.forms import ActionForm, EditForm
from companion.web.idempotency import note_table
from companion.web.render import page_or_fragment, wants_fragment

FORBIDDEN = 403

DEVICE_KEY = "device"
VISITOR_KEY = "visitor"
NAMES_KEY = "names"
DEVICE_ID_BYTES = 2
READ_ONLY_MESSAGE = "This is the read-only link: it cannot change anything."


def open_table(token: str) -> TableAccess:
    """The table a capability link opens (edit or read-only), else 404."""
    found = tables.find(token)
    if found is None:
        abort(404)
    note_table(found)
    return found


def open_for_edit(token: str) -> TableAccess:
    """The table of an edit link; a read-only link gets 403, whatever it asks for."""
    found = open_table(token)
    if not found.can_edit:
        abort(FORBIDDEN, READ_ONLY_MESSAGE)
    return found


def play_of(found: TableAccess, play_id: int) -> Play:
    """A play of this table, else 404 (a link never reaches another table's plays)."""
    play = db.get_or_404(Play, play_id)
    if play.table_id != found.table.id:
        abort(404)
    return play


def author_of(found: TableAccess) -> plays.Author:
    """The device id lives in the session; the name is what this phone said it is."""
    if DEVICE_KEY not in session:
        session[DEVICE_KEY] = secrets.token_hex(DEVICE_ID_BYTES)
        session.permanent = True
    return plays.Author(session[DEVICE_KEY], owner_of(found))


#: What "Whose phone is this?" stores for a phone that only watches.
JUST_WATCHING = 0


def owner_of(found: TableAccess) -> str | None:
    """The player this phone said it belongs to (by player id, so a rename follows)."""
    chosen = session.get(NAMES_KEY, {}).get(str(found.table.id))
    for player in found.table.players:
        if player.id == chosen:
            return player.name
    return None


def has_answered_whose_phone(found: TableAccess) -> bool:
    """Whether this phone said who it belongs to (or that it is just watching)."""
    return str(found.table.id) in session.get(NAMES_KEY, {})


def remember_owner(found: TableAccess, name: str | None) -> None:
    """Store whose phone this is for this table: a player's id, or "just watching"."""
    ids = {player.name: player.id for player in found.table.players}
    names = dict(session.get(NAMES_KEY, {}))
    names[str(found.table.id)] = ids.get(name or "", JUST_WATCHING)
    session[NAMES_KEY] = names


def visitor_of() -> str:
    """This phone's opaque visitor id (its cookie holds nothing else of its tables)."""
    if VISITOR_KEY not in session:
        session[VISITOR_KEY] = tables.new_visitor()
        session.permanent = True
    return str(session[VISITOR_KEY])


def table_label(found: TableAccess) -> str:
    """How pages name a table: by its join code for phones that can edit, else by its
    players (the read-only link must never show the code, which leads to edit access)."""
    if found.can_edit:
        return f"Table {tables.join_code_of(found.table)}"
    return "Table of " + ", ".join(found.table.player_names)


def token_of(found: TableAccess) -> str:
    """The token of the link this request came through (for the links it renders)."""
    return tables.token_for(found.table, found.access)


ALL_SEATS = "all"


def seat_of(found: TableAccess, play: Play) -> int | str:
    """Whose entry this phone shows (a seat number, or everyone): what it asked for, else
    its owner's seat (see "Whose phone is this?"), else everyone. Seats are the table's,
    which every play starts with."""
    asked = request.values.get("seat", "")
    names = found.table.player_names
    if asked.isdigit() and int(asked) < len(names):
        return int(asked)
    if asked == ALL_SEATS:
        return ALL_SEATS
    owner = owner_of(found)
    return names.index(owner) if owner in names else ALL_SEATS


GAME_CSS = "games/{slug}.css"


def game_css(slug: str) -> str | None:
    """A game's own stylesheet (``static/games/<slug>.css``), when it has one."""
    name = GAME_CSS.format(slug=slug)
    static = Path(current_app.static_folder or "")
    return url_for("static", filename=name) if (static / name).exists() else None


def play_context(found: TableAccess, play: Play, **extra: Any) -> dict[str, Any]:
    result = plays.current_result(play)
    series = play.series
    return {
        "found": found,
        "table": found.table,
        "token": token_of(found),
        "play": play,
        "seat": seat_of(found, play),
        "game": plays.game_of(play),
        "state": play.state,
        "result": result,
        "explanation": explain.decision(result, over=play.finished) if result else None,
        "action": ActionForm(formdata=None),
        "edit": EditForm(formdata=None),
        "errors": {},
        "conflict": None,
        "undo_target": _undo_target(found, play),
        "series_result": plays.series_result(series) if series else None,
        "game_css": game_css(play.game),
        "explain": explain,
        "newer_play": plays.newer_play(play),
        "games": GAMES,
        **extra,
    }


def _undo_target(found: TableAccess, play: Play) -> int | None:
    """The number of the edit this page's Undo reverts (its form names it), if any."""
    if not found.can_edit or play.finished:
        return None
    target = plays.last_undoable(play)
    return target.number if target is not None else None


PLAY_PAGE = "play.html"
PLAY_FRAGMENT = "_play.html"


def redirect_to_play(found: TableAccess, play: Play) -> Response:
    """303 to the play page, keeping the phone's choice of whose entry it shows."""
    seat = request.values.get("seat") or None
    return redirect(url_for("pages.play", token=token_of(found), play_id=play.id, seat=seat), 303)


def play_response(
    found: TableAccess,
    play: Play,
    *,
    status: int = 200,
    errors: dict[str, str] | None = None,
    fragment: str = PLAY_FRAGMENT,
    always_render: bool = False,
    **extra: Any,
) -> Response:
    """The answer to any change of a play: htmx gets the fresh ``fragment``; a plain form
    post is redirected back to the play page, or shown again with its errors.

    Whatever the change left in the session is dropped first, so the play is read fresh.
    """
    db.session.rollback()
    db.session.refresh(play)
    if status == 200 and not always_render and not wants_fragment():
        return redirect_to_play(found, play)
    context = play_context(found, play, errors=dict(errors or {}), **extra)
    return page_or_fragment(PLAY_PAGE, fragment, status=status, **context)
