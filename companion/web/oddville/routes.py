"""OddVille play-page actions: city taps (place, copy, move, remove, referee build and
check), the palette, the Main Square's owners, characters and taking a built card back.

Who ended the game and the Resources Board workers go through the shared edit route.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

from flask import Blueprint, request
from werkzeug.wrappers import Response

from companion.games import oddville as engine
from companion.games.text import _
from companion.services import oddville as service
from companion.web.oddville.forms import (
    DEFAULT_PALETTE,
    EDGE_FIELDS,
    POINT_CHOICES,
    PaletteForm,
    Tool,
    point_choice,
)
from companion.web.oddville.palette import remember, remembered
from companion.web.oddville.view import MOVING_KEY
from companion.web.play.actions import load_play, refuse, run
from companion.web.play.panel import OpenPlay, play_response

#: The play's own routes, under ``/t/<token>/plays/<id>/oddville`` (the prefix is given
#: where every game registers, ``web/games.py``).
bp = Blueprint("oddville", __name__)

SLUG = engine.SLUG
#: Error keys of the entry partial (shown next to their part of the page).
CITY_ERROR = "oddville-city"
SQUARE_ERROR = "oddville-square"
CHARACTER_ERROR = "oddville-characters"
#: A tapped place, ``row,col``, and what this phone showed there (``empty`` or ``card``).
AT_VALUE = re.compile(r"(-?\d{1,3}),(-?\d{1,3})(?:,(empty|card))?")


def _load(token: str, play_id: int) -> OpenPlay:
    return load_play(token, play_id, game=SLUG, edit=True)


def card_from(palette: Mapping[str, str], players: list[str]) -> dict[str, Any]:
    """The building a palette gives: points, guild, shield, owner, edges and bonus.

    >>> card_from({"points": "guild-2", "guild": "mask", "shield": "1", "owner": "Ann",
    ...            "top": "S", "right": "H", "bottom": "H", "left": "S"}, ["Ann"])
    ... # doctest: +NORMALIZE_WHITESPACE
    {'points': {'kind': 'guild', 'value': 2, 'guild': 'mask'}, 'guild': 'mask', 'shield': 1,
     'owner': 'Ann', 'edges': 'SHHS'}
    """
    kind, value = POINT_CHOICES.get(palette.get("points", ""), POINT_CHOICES["diamond-5"])
    points: dict[str, Any] = {"kind": kind.value}
    if value is not None:
        points["value"] = value
    guild = palette.get("guild") or None
    if kind is engine.Kind.GUILD and guild:
        points["guild"] = guild
    card: dict[str, Any] = {"points": points}
    if guild:
        card["guild"] = guild
    shield = int(palette.get("shield") or 0)
    if shield:
        card["shield"] = shield
    if palette.get("owner") in players:
        card["owner"] = palette["owner"]
    edges = "".join(palette.get(side, "") for side in EDGE_FIELDS)
    if len(edges) == len(EDGE_FIELDS):
        card["edges"] = edges
    if palette.get("bonus"):
        card["bonus"] = palette["bonus"]
    return card


def palette_from(card: Mapping[str, Any], palette: Mapping[str, str]) -> dict[str, str]:
    """The palette after copying a card (the tool goes back to placing)."""
    edges = str(card.get("edges") or "")
    copied = {
        **palette,
        "tool": Tool.PLACE.value,
        "points": point_choice(dict(card)),
        "guild": str(card.get("guild") or ""),
        "shield": str(card.get("shield") or 0),
        "owner": str(card.get("owner") or ""),
        "bonus": str(card.get("bonus") or ""),
    }
    for index, side in enumerate(EDGE_FIELDS):
        copied[side] = edges[index] if len(edges) == len(EDGE_FIELDS) else ""
    return copied


@bp.post("/tap")
def tap(token: str, play_id: int) -> Response:
    """Tap a place of the city: what happens is the palette's tool."""
    opened = _load(token, play_id)
    form = PaletteForm()
    if not form.validate():
        return refuse(
            opened, CITY_ERROR, _("Pick a tool and what the card shows from the palette.")
        )
    palette = {**DEFAULT_PALETTE, **remembered(opened.play.id), **form.palette()}
    players = [str(p) for p in opened.play.state["players"]]
    if palette.get("owner") and palette["owner"] not in players:
        return refuse(opened, CITY_ERROR, _("Pick one of the players as the owner."))
    match = AT_VALUE.fullmatch(form.at.data or "")
    if match is None:
        remember(opened.play.id, palette)
        return refuse(opened, CITY_ERROR, _("Tap a place of the city."))
    at = (int(match[1]), int(match[2]))
    base = match[3] or form.base.data or None
    tool = Tool(palette["tool"] or Tool.PLACE.value)
    author = opened.author
    city = opened.play.state.get("city", [])
    index = service.card_at(city, at)
    if tool is not Tool.MOVE:
        palette.pop(MOVING_KEY, None)
    if tool is Tool.PICK:
        if index is None:
            remember(opened.play.id, palette)
            return refuse(opened, CITY_ERROR, _("Tap a card to copy what it shows."))
        remember(opened.play.id, palette_from(city[index], palette))
        return play_response(opened)
    if tool is Tool.MOVE:
        return _move(opened, palette, at=at, index=index)
    remember(opened.play.id, palette)
    if tool is Tool.REMOVE:
        return run(
            opened,
            lambda: service.remove_card(opened.play, at=at, author=author),
            key=CITY_ERROR,
        )
    card = {"at": [at[0], at[1]], **card_from(palette, players)}
    if tool in {Tool.BUILD, Tool.CHECK}:
        return _referee(
            opened, card, rotated=palette.get("rotated") == "1", check=tool is Tool.CHECK
        )

    def place() -> None:
        service.place_card(
            opened.play, at=at, card=card_from(palette, players), base=base, author=author
        )
        if index is None:
            remember(opened.play.id, next_card_palette(palette))

    return run(opened, place, key=CITY_ERROR)


def next_card_palette(palette: Mapping[str, str]) -> dict[str, str]:
    """The palette after a new card was added: type and owner stay, guild and shield go.

    Most buildings show neither, so a table sets them only for the cards that do (and a
    shield is never carried onto the next card by mistake).

    >>> next_card_palette({"points": "row", "guild": "mask", "shield": "2", "owner": "Ann"})
    {'points': 'row', 'guild': '', 'shield': '0', 'owner': 'Ann'}
    """
    return {**palette, "guild": "", "shield": "0"}


def _move(
    opened: OpenPlay, palette: dict[str, str], *, at: tuple[int, int], index: int | None
) -> Response:
    """First tap: the card to move; second tap: the empty place it goes to."""
    picked = AT_VALUE.fullmatch(palette.get(MOVING_KEY, ""))
    if index is not None or picked is None:
        if index is None:
            remember(opened.play.id, palette)
            return refuse(opened, CITY_ERROR, _("Tap the card to move first."))
        palette[MOVING_KEY] = f"{at[0]},{at[1]}"
        remember(opened.play.id, palette)
        return play_response(opened)
    source = (int(picked[1]), int(picked[2]))
    palette.pop(MOVING_KEY, None)
    remember(opened.play.id, palette)
    author = opened.author
    return run(
        opened,
        lambda: service.move_card(opened.play, source=source, target=at, author=author),
        key=CITY_ERROR,
    )


def _referee(opened: OpenPlay, card: dict[str, Any], *, rotated: bool, check: bool) -> Response:
    """Check a building against the construction rules, and build it when legal."""
    state = opened.play.state
    verdict, after = service.check_build(state, card=card, rotated=rotated)
    shown = {"verdict": verdict.__dict__ | {"check": check}}
    if check or after is None:
        status = HTTPStatus.OK if verdict.legal else HTTPStatus.UNPROCESSABLE_ENTITY
        return play_response(opened, status=status, always_render=True, extra=shown)
    built = len(state.get("city", []))
    author = opened.author
    return run(
        opened,
        lambda: service.build(opened.play, card=card, rotated=rotated, built=built, author=author),
        key=CITY_ERROR,
        extra=shown,
    )


@bp.post("/tool")
def tool(token: str, play_id: int) -> Response:
    """Remember this phone's palette across live refreshes."""
    opened = _load(token, play_id)
    form = PaletteForm()
    if not form.validate():
        return Response(status=HTTPStatus.UNPROCESSABLE_ENTITY)
    remember(opened.play.id, {**DEFAULT_PALETTE, **remembered(opened.play.id), **form.palette()})
    return Response(status=HTTPStatus.NO_CONTENT)


@bp.post("/square")
def square(token: str, play_id: int) -> Response:
    """Whose workers stand on the Main Square."""
    opened = _load(token, play_id)
    if not PaletteForm().validate():
        return refuse(opened, SQUARE_ERROR, _("Reload the page and try again."))
    players = [str(p) for p in opened.play.state["players"]]
    asked = request.form.getlist("owners")
    if any(name not in players for name in asked):
        return refuse(opened, SQUARE_ERROR, _("Pick players for the Main Square."))
    owners = [name for name in players if name in asked]
    author = opened.author
    return run(
        opened,
        lambda: service.set_square_owners(opened.play, owners=owners, author=author),
        key=SQUARE_ERROR,
    )


@bp.post("/character")
def character(token: str, play_id: int) -> Response:
    """Who holds a character card (nobody, or one player)."""
    opened = _load(token, play_id)
    if not PaletteForm().validate():
        return refuse(opened, CHARACTER_ERROR, _("Reload the page and try again."))
    key = request.form.get("character", "")
    holder = request.form.get("holder", "") or None
    players = [str(p) for p in opened.play.state["players"]]
    if key not in engine.CHARACTERS or (holder is not None and holder not in players):
        return refuse(opened, CHARACTER_ERROR, _("Pick a character and who holds it."))
    author = opened.author
    return run(
        opened,
        lambda: service.set_character(opened.play, character=key, holder=holder, author=author),
        key=CHARACTER_ERROR,
    )


@bp.post("/take-back")
def take_back(token: str, play_id: int) -> Response:
    """Take back the last card of the city (the referee's undo)."""
    opened = _load(token, play_id)
    built = request.form.get("built", type=int)
    if built is None:
        built = len(opened.play.state.get("city", []))
    author = opened.author
    return run(
        opened,
        lambda: service.take_back(opened.play, built=built, author=author),
        key=CITY_ERROR,
    )
