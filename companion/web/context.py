"""What every page of a table needs: open it by its link, name the phone, and the context
every play template gets (shared by the core pages and the games' own; the play's page
and the answer to its changes are in ``web/live/play.py``)."""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any

from flask import abort, current_app, redirect, request, session, url_for
from werkzeug.wrappers import Response

from companion.games import GAMES
from companion.models import Play
from companion.services import explain, plays, rule_refs, tables
from companion.services.tables import TableAccess
from companion.web.finish import ending
from companion.web.game_pages import GamePages, PlayPage
from companion.web.idempotency import note_table

DEVICE_KEY = "device"
#: Where Flask keeps flashed messages in the session.
FLASHES_KEY = "_flashes"
VISITOR_KEY = "visitor"
NAMES_KEY = "names"
DEVICE_ID_BYTES = 2
READ_ONLY_MESSAGE = "This is the read-only link: it cannot change anything."


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
        abort(HTTPStatus.FORBIDDEN, READ_ONLY_MESSAGE)
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
        return f"Table {tables.join_code_of(table_access.table)}"
    return "Table of " + ", ".join(table_access.table.player_names)


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


GAME_CSS = "games/{slug}.css"


def game_css(slug: str) -> str | None:
    """A game's own stylesheet (``static/games/<slug>.css``), when it has one."""
    name = GAME_CSS.format(slug=slug)
    static = Path(current_app.static_folder or "")
    return url_for("static", filename=name) if (static / name).exists() else None


def play_context(
    table_access: TableAccess,
    play: Play,
    *,
    errors: Mapping[str, str] | None = None,
    extra: Mapping[str, Any] | None = None,
    **shown: Any,
) -> dict[str, Any]:
    """What every play template gets: the play as its page shows it (one service call),
    this phone's seat, the forms, and the game's own view data (its ``GamePages.context``
    hook, given ``extra``: what an action left for it). ``shown`` adds template values."""
    view = plays.view(play, can_edit=table_access.can_edit)
    page = PlayPage(
        table_access=table_access,
        play=play,
        seat=seat_of(table_access),
        view=view,
        errors=dict(errors or {}),
        extra=dict(extra or {}),
    )
    context = {
        "table_access": table_access,
        "table": table_access.table,
        "token": token_of(table_access),
        "play": play,
        "seat": page.seat,
        "game": view.game,
        "state": play.state,
        "view": view,
        "result": view.result,
        "explanation": view.explanation,
        # Why each player is ahead of the next one, a short line per pair.
        "pair_lines": explain.pairs(view.result) if view.result else [],
        "undo_target": view.undo_target,
        "series_result": view.series_result,
        # What the templates' forms pass to ``guard`` / ``htmx_form`` as their form: the
        # token and key come from the request, so no WTForms object is built (building two
        # cost a twentieth of the panel's rendering).
        "action": None,
        "edit": None,
        "errors": page.errors,
        "conflict": None,
        "editable": page.editable,
        "game_css": game_css(play.game),
        # Shown on a finished game only (phones still on it are offered the next one).
        "newer_play": plays.newer_play(play) if play.finished else None,
        "ending": ending(view.game, view.result),
        "confirm_finish": False,
        "games": GAMES,
        # Which rules entry each breakdown line, tiebreak and verdict links to.
        "rule_refs": rule_refs.result_rules(view.game, play.state, view.result),
        **shown,
    }
    pages = game_pages(play.game)
    if pages is not None:
        context.update(pages.context(page))
    return context


PAGES_KEY = "companion.game_pages"


def game_pages(slug: str) -> GamePages | None:
    """A game's page hooks, as registered with the app (``web/games.py``)."""
    registry: Mapping[str, GamePages] = current_app.extensions.get(PAGES_KEY, {})
    return registry.get(slug)


PLAY_PAGE = "play.html"
PLAY_FRAGMENT = "_play.html"


#: The form field naming where on the play page a plain form post should land.
ANCHOR_FIELD = "anchor"
#: What an anchor may be: an element id of the play page ("player-2", "play-actions").
SAFE_ANCHOR = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")


def anchor_of() -> str | None:
    """The place on the page the request came from (``anchor``), when it is a safe id."""
    asked = request.values.get(ANCHOR_FIELD, "")
    return asked if SAFE_ANCHOR.fullmatch(asked) else None


def redirect_to_play(table_access: TableAccess, play: Play) -> Response:
    """303 to the play page, keeping the phone's choice of whose entry it shows and landing
    where the form was tapped (its ``anchor``: without JavaScript the page is loaded anew,
    and would otherwise open at the top)."""
    seat = request.values.get("seat") or None
    url = url_for(
        "pages.play", token=token_of(table_access), play_id=play.id, seat=seat, _anchor=anchor_of()
    )
    return redirect(url, 303)


@dataclass(frozen=True)
class OpenPlay:
    """A play reached through a table's link (see ``web/actions.py``)."""

    table_access: TableAccess
    play: Play

    @property
    def author(self) -> plays.Author:
        """Who is changing it: this phone (and its owner's name, when given)."""
        return author_of(self.table_access)
