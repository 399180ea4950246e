"""Oddland play-page actions: map taps (paint, clear, tokens), the palette, the
scoreboard, species sides and definitions, play-along turns, and the facts page."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from http import HTTPStatus
from typing import Any

import pydantic
from flask import Blueprint, request
from werkzeug.wrappers import Response

from companion.games import oddland as engine
from companion.games.oddland.species import (
    TWO_SPACE_SPECIES,
    SideRule,
    is_species_key,
    species_name,
)
from companion.games.problems import InvalidStateError, Problem, listed_problems, problem_messages
from companion.games.text import _, sentences
from companion.services import oddland as service
from companion.web.oddland.forms import (
    CARD_FIELDS,
    CARD_SPACES,
    STEPS,
    DefinitionForm,
    Direction,
    DraftForm,
    PaintForm,
    PointsForm,
    SideForm,
    Tool,
    TurnForm,
    species_key,
)
from companion.web.oddland.palette import draft, keep_draft, remember, remembered
from companion.web.play.actions import load_play, refuse, run
from companion.web.play.panel import OpenPlay, play_context, play_response
from companion.web.responses import page_or_fragment

#: The play's own routes, under ``/t/<token>/plays/<id>/oddland`` (the prefix is given
#: where every game registers, ``web/games.py``).
bp = Blueprint("oddland", __name__)

SLUG = engine.SLUG

#: Error keys of the entry partial (shown next to their part of the page).
MAP_ERROR = "oddland-map"
POINTS_ERROR = "oddland-points"
SIDE_ERROR = "oddland-side"
DEFINITION_ERROR = "oddland-definition"
TURN_ERROR = "oddland-turn"


def _load(token: str, play_id: int) -> OpenPlay:
    return load_play(token, play_id, game=SLUG, edit=True)


CELL_VALUE = re.compile(r"(-?\d{1,3}),(-?\d{1,3}),([FSWM.])")
#: A tap on the map of a play-along game (``row,col``) and on the mini-card
#: (``top_left:W``).
AT_VALUE = re.compile(r"(-?\d{1,3}),(-?\d{1,3})")
TERRAIN_VALUE = re.compile(r"(top_left|top_right|bottom_left|bottom_right):([FSWM])")
#: What a phone keeps of the card it is entering.
DRAFT_FIELDS = (
    "row",
    "col",
    "top_left",
    "top_right",
    "bottom_left",
    "bottom_right",
    "player",
    "species",
    "space",
    "second",
)


@bp.post("/map")
def paint(token: str, play_id: int) -> Response:
    """Tap a space: paint, clear, place or remove a token."""
    opened = _load(token, play_id)
    form = PaintForm()
    if not form.validate():
        return refuse(opened, MAP_ERROR, _("Pick a tool from the palette."))
    before = remembered(opened.play.id)
    palette = {**{k: v for k, v in before.items() if k in CARD_FIELDS}, **form.palette()}
    remember(opened.play.id, palette)
    match = CELL_VALUE.fullmatch(form.cell.data or "")
    if match is None:
        return refuse(opened, MAP_ERROR, _("Tap a space of the map."))
    cell = (int(match[1]), int(match[2]))
    base = match[3]
    author = opened.author
    tool = Tool(form.tool.data)
    if tool in {Tool.FOREST, Tool.SHORE, Tool.WATER, Tool.MOUNTAIN, Tool.CLEAR}:
        terrain = None if tool is Tool.CLEAR else tool.value
        return run(
            opened,
            lambda: service.paint(
                opened.play, cell=cell, terrain=terrain, base=base, author=author
            ),
            key=MAP_ERROR,
        )
    if tool is Tool.CARD:
        terrains = form.card(before)
        return run(
            opened,
            lambda: service.paint_card(
                opened.play, top_left=cell, terrains=terrains, author=author
            ),
            key=MAP_ERROR,
        )
    if tool is Tool.REMOVE:
        return run(
            opened,
            lambda: service.remove_token(opened.play, cell=cell, author=author),
            key=MAP_ERROR,
        )
    return _place_token(opened, cell=cell, palette=palette)


def _place_token(
    opened: OpenPlay, *, cell: tuple[int, int], palette: Mapping[str, str]
) -> Response:
    species = palette["species"]
    if species not in opened.play.state.get("sides", {}):
        return refuse(opened, MAP_ERROR, _("Pick a species in play for the token."))
    cells = [cell]
    if species in TWO_SPACE_SPECIES:
        dr, dc = STEPS[Direction(palette["direction"])]
        cells.append((cell[0] + dr, cell[1] + dc))
    author = opened.author
    return run(
        opened,
        lambda: service.place_token(
            opened.play, player=palette["player"], species=species, cells=cells, author=author
        ),
        key=MAP_ERROR,
    )


@bp.post("/tool")
def tool(token: str, play_id: int) -> Response:
    """Remember this phone's palette (tool, player, species) across live refreshes."""
    opened = _load(token, play_id)
    form = PaintForm()
    if not form.validate():
        return Response(status=HTTPStatus.UNPROCESSABLE_ENTITY)
    kept = {k: v for k, v in remembered(opened.play.id).items() if k in CARD_FIELDS}
    remember(opened.play.id, {**kept, **form.palette()})
    return Response(status=HTTPStatus.NO_CONTENT)


@bp.post("/points")
def points(token: str, play_id: int) -> Response:
    """Save the scoreboard: typed points per player and species (empty: computed)."""
    opened = _load(token, play_id)
    form = PointsForm()
    if not form.validate():
        return refuse(opened, POINTS_ERROR, _("Reload the page and try again."))
    values: dict[tuple[str, str], int | None] = {}
    bases: dict[tuple[str, str], int | None] = {}
    for species in opened.play.state.get("sides", {}):
        for seat, player in enumerate(opened.play.state["players"]):
            name = f"pts-{species}-{seat}"
            if name not in request.form:
                continue
            try:
                values[player, species] = _points(player, species, request.form[name])
                bases[player, species] = _points(
                    player, species, request.form.get(f"base-{species}-{seat}", "")
                )
            except InvalidStateError as invalid:
                message = _(
                    "%(player)s, %(species)s: %(problem)s",
                    player=player,
                    species=species_name(species),
                    problem=invalid.problems[0].message,
                )
                return refuse(opened, POINTS_ERROR, message)
    author = opened.author
    return run(
        opened,
        lambda: service.set_points(opened.play, values=values, bases=bases, author=author),
        key=POINTS_ERROR,
    )


def _points(player: str, species: str, raw: str) -> int | None:
    value = engine.GAME.parse_edit(["points", player, species], raw)
    return value if isinstance(value, int) else None


@bp.post("/side")
def side(token: str, play_id: int) -> Response:
    """Change the side of a species card in play, or put another species card in play."""
    opened = _load(token, play_id)
    form = SideForm()
    species = (form.species.data or "").strip()
    if form.name.data and form.name.data.strip():
        species = species_key(form.name.data)
        if not is_species_key(species):
            return refuse(opened, SIDE_ERROR, _("Use letters and digits for a species."))
    elif species not in opened.play.state["sides"]:
        return refuse(opened, SIDE_ERROR, _("Pick side A or B of a species in play."))
    if not form.validate() or not form.side.data:
        return refuse(opened, SIDE_ERROR, _("Pick side A or B of a species in play."))
    author = opened.author
    return run(
        opened,
        lambda: service.set_side(opened.play, species=species, side=form.side.data, author=author),
        key=SIDE_ERROR,
    )


@bp.post("/definition")
def define(token: str, play_id: int) -> Response:
    """Teach the app how a species side scores (saved for the table), or forget it."""
    opened = _load(token, play_id)
    form = DefinitionForm()
    species = (form.species.data or "").strip()
    author = opened.author
    if request.form.get("action") == "forget":
        if species not in opened.play.state.get("definitions", {}) or not form.side.data:
            return refuse(opened, DEFINITION_ERROR, _("There is no such definition."))
        return run(
            opened,
            lambda: service.forget_definition(
                opened.play, species=species, side=form.side.data, author=author
            ),
            key=DEFINITION_ERROR,
        )
    if not form.validate():
        message = sentences(*(str(m) for errors in form.errors.values() for m in errors))
        return refuse(opened, DEFINITION_ERROR, message, extra={"definition": form.data})
    if species not in opened.play.state.get("sides", {}):
        return refuse(
            opened, DEFINITION_ERROR, _("Pick a species in play."), extra={"definition": form.data}
        )
    try:
        rule = _rule_from(form)
    except pydantic.ValidationError as invalid:
        message = sentences(*(str(e.get("msg", "")) for e in invalid.errors()))
        return refuse(opened, DEFINITION_ERROR, message, extra={"definition": form.data})
    return run(
        opened,
        lambda: service.save_definition(
            opened.play, species=species, side=form.side.data, rule=rule, author=author
        ),
        key=DEFINITION_ERROR,
    )


def _rule_from(form: DefinitionForm) -> SideRule:
    raw: dict[str, Any] = {
        "points": form.points.data,
        "per": form.per.data,
        "region": form.region.data,
        "count_own_space": bool(form.count_own_space.data),
        "two_space": form.two_space.data,
        "solo_modifier": form.solo_modifier.data or 0,
    }
    if form.terrain.data:
        raw["terrain"] = form.terrain.data
    if (form.only_species.data or "").strip():
        raw["species"] = species_key(form.only_species.data)
    return SideRule.model_validate(raw)


@bp.post("/turn")
def turn(token: str, play_id: int) -> Response:
    """Play-along: check the next card and token, or lay them when legal."""
    opened = _load(token, play_id)
    form = TurnForm()
    if not service.is_play_along(opened.play.state):
        return refuse(opened, TURN_ERROR, _("This game was not started as play-along."))
    if not form.validate() or form.row.data is None or form.col.data is None:
        return refuse(
            opened,
            TURN_ERROR,
            _("Enter the card's four terrains, its place and the token."),
            extra={"entered": request.form.to_dict()},
        )
    entered = request.form.to_dict()
    keep_draft(opened.play.id, _draft_from(opened, request.form))
    setup = len(opened.play.state["cards"]) < engine.SETUP_CARDS
    proposed = form.turn(setup=setup)
    problems = service.check_turn(opened.play.state, proposed)
    if request.form.get("action") == "check" or problems:
        status = HTTPStatus.UNPROCESSABLE_ENTITY if problems else HTTPStatus.OK
        verdict = _verdict(problems, setup=setup)
        verdict["readings"] = service.turn_readings(opened.play.state, proposed, problems)
        return play_response(
            opened,
            status=status,
            always_render=True,
            extra={"entered": entered, "verdict": verdict},
        )
    author = opened.author
    laid = form.laid.data if form.laid.data is not None else len(opened.play.state["cards"])
    return run(
        opened,
        lambda: service.play_turn(opened.play, turn=proposed, laid=laid, author=author),
        key=TURN_ERROR,
    )


@bp.post("/turn/card")
def draft_turn(token: str, play_id: int) -> Response:
    """Play-along: a tap on the map (where the card's top-left goes, or on the new card:
    the token's space) or on the mini-card (a space's terrain); kept for this phone."""
    opened = _load(token, play_id)
    if not service.is_play_along(opened.play.state):
        return refuse(opened, TURN_ERROR, _("This game was not started as play-along."))
    if not DraftForm().validate():
        return refuse(opened, TURN_ERROR, _("Reload the page and try again."))
    laid = len(opened.play.state.get("cards", []))
    values = {**draft(opened.play.id, laid=laid), **_draft_from(opened, request.form)}
    at = AT_VALUE.fullmatch(request.form.get("at", ""))
    if at is not None:
        tapped = (int(at[1]), int(at[2]))
        on_card = _card_space_at(values, tapped)
        if on_card is not None:
            values["space"] = on_card
        elif max(abs(n) for n in tapped) <= engine.MAX_MAP_EXTENT:
            values["row"], values["col"] = str(tapped[0]), str(tapped[1])
    terrain = TERRAIN_VALUE.fullmatch(request.form.get("terrain", ""))
    if terrain is not None:
        values[terrain[1]] = terrain[2]
    keep_draft(opened.play.id, values)
    return play_response(opened)


def _draft_from(opened: OpenPlay, form: Mapping[str, str]) -> dict[str, str]:
    """The card being entered, from a turn form: only values it could hold."""
    state = opened.play.state
    allowed: dict[str, set[str] | None] = {
        "player": {str(p) for p in state["players"]},
        "species": set(state.get("sides", {})),
        "space": set(CARD_SPACES),
        "second": set(CARD_SPACES),
        "row": None,
        "col": None,
    }
    values = {"laid": str(len(state.get("cards", [])))}
    for name in DRAFT_FIELDS:
        value = (form.get(name) or "").strip()
        choices = allowed.get(name, set(engine.TERRAIN_LETTERS))
        ok = re.fullmatch(r"-?\d{1,3}", value) is not None if choices is None else value in choices
        if ok:
            values[name] = value
    return values


def _card_space_at(values: Mapping[str, str], tapped: tuple[int, int]) -> str | None:
    """Which space of the card being entered was tapped (None: a place off the card)."""
    if "row" not in values or "col" not in values:
        return None
    dr, dc = tapped[0] - int(values["row"]), tapped[1] - int(values["col"])
    return next((name for name, at in CARD_SPACES.items() if at == (dr, dc)), None)


def _verdict(problems: Sequence[Problem], *, setup: bool = False) -> dict[str, Any]:
    """The referee's answer for the page: legal, or each broken rule's sentence and its
    rules entry (``rules``, one per listed problem; the count of the rest has none).
    A ``setup`` card comes without a token."""
    if not problems:
        if setup:
            legal = _("Legal: this set-up card follows every rule.")
        else:
            legal = _("Legal: this card and token follow every rule.")
        return {"legal": True, "messages": [legal]}
    shown, _more = listed_problems(problems)
    return {
        "legal": False,
        "messages": problem_messages(problems),
        "rules": [problem.rule for problem in shown],
    }


@bp.post("/turn/undo")
def undo_turn(token: str, play_id: int) -> Response:
    """Play-along: take back the last card and its token."""
    opened = _load(token, play_id)
    laid = request.form.get("laid", type=int)
    if laid is None:
        laid = len(opened.play.state.get("cards", []))
    author = opened.author
    return run(
        opened,
        lambda: service.undo_turn(opened.play, laid=laid, author=author),
        key=TURN_ERROR,
    )


@bp.get("/facts")
def facts(token: str, play_id: int) -> Response:
    """The facts of every token on their own page (for a second phone or the TV)."""
    opened = load_play(token, play_id, game=SLUG)
    context = play_context(opened)
    return page_or_fragment("games/oddland/facts.html", "games/oddland/_facts.html", **context)
