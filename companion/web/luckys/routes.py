"""Lucky's Misadventures play-page actions: tally counts, Junk, Mavens, Fate cards, the
first Feed the Toad! holder and an escape.

Every action answers with the whole play fragment (htmx morphs it in place); without
JavaScript, forms post and are redirected back to where they were tapped.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, request
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from companion.games.luckys import facts as f
from companion.services import luckys as service
from companion.web.luckys.forms import (
    CountForm,
    EscapeForm,
    FateForm,
    JunkForm,
    MavenForm,
    OptionalPlayerForm,
    PlayerForm,
    RemoveMavenForm,
)
from companion.web.play import actions
from companion.web.play.panel import OpenPlay

#: The play's own routes, under ``/t/<token>/plays/<id>/luckys-misadventures`` (the
#: prefix is given where every game registers, ``web/games.py``).
bp = Blueprint("luckys", __name__)

SLUG = f.SLUG


def _act(
    token: str, play_id: int, form: FlaskForm, *, key: str, action: Callable[[OpenPlay], object]
) -> Response:
    """Every Lucky's action: the shared runner, for this game."""
    return actions.act(token, play_id, form, action, key=key, game=SLUG)


def _seat_key(prefix: str) -> str:
    """An error key per player (``maven-1``): the message shows next to their deck."""
    seat = request.form.get("player", "")
    return f"{prefix}-{seat}" if seat.isdigit() else prefix


@bp.post("/count")
def count(token: str, play_id: int) -> Response:
    """A stepper tap or typed number: one count of one player's deck (``field``,
    ``value`` and ``base``, or one ``tap``: see :class:`CountForm`)."""
    form = CountForm()
    form.read_tap()
    key = f"count-{request.form.get('player', '')}-{form.field.data or ''}"
    return _act(
        token,
        play_id,
        form,
        key=key,
        action=lambda opened: service.set_count(
            opened.play,
            seat=form.player.data or 0,
            field=form.field.data or "",
            raw=form.value.data or "",
            base=form.base.data or "",
            author=opened.author,
        ),
    )


@bp.post("/junk")
def junk(token: str, play_id: int) -> Response:
    """One more Junk card of a kind and printed VP."""
    form = JunkForm()
    return _act(
        token,
        play_id,
        form,
        key=_seat_key("junk"),
        action=lambda opened: service.add_junk(
            opened.play,
            seat=form.player.data or 0,
            kind=form.kind.data or "",
            vp=form.vp.data if form.vp.data is not None else 0,
            author=opened.author,
        ),
    )


@bp.post("/maven")
def maven(token: str, play_id: int) -> Response:
    """A Maven into a deck (typed, or a chip of a name used at this table)."""
    form = MavenForm()
    return _act(
        token,
        play_id,
        form,
        key=_seat_key("maven"),
        action=lambda opened: service.add_maven(
            opened.play,
            seat=form.player.data or 0,
            name=form.name.data or "",
            faction=form.faction.data or "",
            vp=form.vp.data or 0,
            author=opened.author,
        ),
    )


@bp.post("/maven/remove")
def remove_maven(token: str, play_id: int) -> Response:
    """Take a Maven out of a deck."""
    form = RemoveMavenForm()
    return _act(
        token,
        play_id,
        form,
        key=_seat_key("maven"),
        action=lambda opened: service.remove_maven(
            opened.play,
            seat=form.player.data or 0,
            index=form.index.data or 0,
            name=form.name.data or "",
            author=opened.author,
        ),
    )


@bp.post("/fate")
def fate(token: str, play_id: int) -> Response:
    """One Fate card revealed in the round companion."""
    form = FateForm()
    return _act(
        token,
        play_id,
        form,
        key="fate",
        action=lambda opened: service.reveal(
            opened.play,
            rounds_seen=form.rounds.data or 0,
            cards_seen=form.cards.data or 0,
            code=form.code.data or "",
            author=opened.author,
        ),
    )


@bp.post("/toad")
def toad(token: str, play_id: int) -> Response:
    """Who holds the Feed the Toad! card before round 1."""
    form = PlayerForm()
    return _act(
        token,
        play_id,
        form,
        key="toad",
        action=lambda opened: service.set_toad(
            opened.play, seat=form.player.data or 0, author=opened.author
        ),
    )


@bp.post("/escape")
def escape(token: str, play_id: int) -> Response:
    """Someone escaped Oddtopia (or nobody did after all)."""
    form = EscapeForm()
    return _act(
        token,
        play_id,
        form,
        key="escape",
        action=lambda opened: service.set_escape(
            opened.play, seat=form.seat, by=form.by.data or "", author=opened.author
        ),
    )


@bp.post("/last-turn")
def last_turn(token: str, play_id: int) -> Response:
    """Who held the Feed the Toad! card in the last round (for the sixth tiebreaker)."""
    form = OptionalPlayerForm()
    return _act(
        token,
        play_id,
        form,
        key="last-turn",
        action=lambda opened: service.set_last_turn_order(
            opened.play, seat=form.seat, author=opened.author
        ),
    )
