"""Owl About play-page actions: card taps, rounds, the lead, overrides, penalties, hands
and rounds entered as trophies.

Every action answers with the play's panel, morphed into place; without JavaScript, forms
post and are redirected back to the play page.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, request
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from companion.games import owl_about as oa
from companion.games.problems import Problem
from companion.games.text import _
from companion.services import owl_about as service
from companion.services import plays
from companion.web.owl_about.forms import (
    CardForm,
    HandForm,
    LeadForm,
    OverrideForm,
    PlayerForm,
    TrophiesForm,
)
from companion.web.play import actions
from companion.web.play.panel import OpenPlay

#: The play's own routes, under ``/t/<token>/plays/<id>/owl-about`` (the prefix is
#: given where every game registers, ``web/games.py``).
bp = Blueprint("owl_about", __name__)

SLUG = oa.SLUG
#: The template variable a clash with another phone is shown as (in the trick panel).
CONFLICT_AS = "trick_conflict"


def _act(
    token: str,
    play_id: int,
    form: FlaskForm,
    *,
    key: str,
    action: Callable[[OpenPlay], object],
) -> Response:
    """Every Owl About action: the shared runner, for this game, clashes in the trick."""
    return actions.act(token, play_id, form, action, key=key, game=SLUG, conflict_as=CONFLICT_AS)


@bp.post("/card")
def play_card(token: str, play_id: int) -> Response:
    """One card tap: the next player's card goes down."""
    form = CardForm()
    return _act(
        token,
        play_id,
        form,
        key="card",
        action=lambda opened: service.play_card(
            opened.play,
            rounds_seen=form.rounds.data or 0,
            trick=form.trick.data or 0,
            seen=form.seen_cards,
            code=form.card.data or "",
            author=opened.author,
        ),
    )


@bp.post("/round")
def start_round(token: str, play_id: int) -> Response:
    """Start the next round, played card by card, with the chosen lead."""
    form = LeadForm()
    return _act(
        token,
        play_id,
        form,
        key="round",
        action=lambda opened: service.start_round(
            opened.play,
            rounds_seen=form.rounds.data or 0,
            lead=form.lead.data or "",
            author=opened.author,
        ),
    )


@bp.post("/lead")
def set_lead(token: str, play_id: int) -> Response:
    """Change who leads the round's first trick, before its first card."""
    form = LeadForm()
    return _act(
        token,
        play_id,
        form,
        key="card",
        action=lambda opened: service.set_lead(
            opened.play,
            rounds_seen=form.rounds.data or 0,
            lead=form.lead.data or "",
            author=opened.author,
        ),
    )


@bp.post("/override")
def override(token: str, play_id: int) -> Response:
    """Advanced mode: a special effect gives the last trick to another player."""
    form = OverrideForm()
    return _act(
        token,
        play_id,
        form,
        key="winner",
        action=lambda opened: service.override_winner(
            opened.play,
            rounds_seen=form.rounds.data or 0,
            trick=form.trick.data or 0,
            winner=form.winner.data or None,
            author=opened.author,
        ),
    )


@bp.post("/penalty")
def penalty(token: str, play_id: int) -> Response:
    """A wrong card: +1 VP for a player in the current round."""
    form = PlayerForm()
    return _act(
        token,
        play_id,
        form,
        key="penalty",
        action=lambda opened: service.add_penalty(
            opened.play, player=form.player.data or "", author=opened.author
        ),
    )


@bp.post("/hand")
def hand(token: str, play_id: int) -> Response:
    """Enter or clear a player's hand for this round (for the rule checks)."""
    form = HandForm()
    return _act(
        token,
        play_id,
        form,
        key=f"hand-{form.player.data}",
        action=lambda opened: service.set_hand(
            opened.play,
            player=form.player.data or "",
            raw=form.hand.data or "",
            author=opened.author,
        ),
    )


@bp.post("/trophies")
def trophies(token: str, play_id: int) -> Response:
    """Quick entry: a whole round as trophies per player (refused counts stay typed)."""
    form = TrophiesForm()
    opened = actions.load_play(token, play_id, game=SLUG, edit=True)
    players = opened.play.state["players"]
    typed = {name: request.form.get(f"trophies-{i}", "").strip() for i, name in enumerate(players)}
    extra = {"trophies": typed}
    if not form.validate():
        return actions.refuse(opened, "trophies", actions.form_errors(form), extra=extra)

    def enter() -> None:
        counts = list(form.trophies.data)
        if len(counts) != len(players):
            message = _("Enter the trophies of every player.")
            raise plays.EditRefused([Problem("trophies", message)])
        service.enter_trophies(
            opened.play,
            round_index=form.round.data or 0,
            rounds_seen=form.rounds.data or 0,
            trophies=dict(zip(players, counts, strict=True)),
            author=opened.author,
        )

    return actions.run(opened, enter, key="trophies", extra=extra)
