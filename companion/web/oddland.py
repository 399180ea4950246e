"""Oddland pages: options before the game, the map painted on a phone, tokens, token facts,
species sides (typed points or a saved definition) and the play-along referee.

The map is drawn server-side as SVG (terrain colours with a letter, territory outlines
and sizes, tokens); while it can be edited, a grid of buttons lies over it, one per
space plus a ring of empty spaces around the map to grow it. A palette (terrain, clear,
token, remove token) picks what a tap does; the palette is remembered per phone in the
session so that live refreshes and no-JavaScript round trips keep it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import pydantic
from flask import Blueprint, abort, request, session
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms import BooleanField, IntegerField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import NumberRange, Optional, ValidationError

from companion.games import oddland as engine
from companion.games.base import InvalidStateError, Problem, problem_messages
from companion.games.oddland.species import (
    BEGATOR,
    FLORA,
    SPECIES,
    TERRAIN_NAMES,
    TWO_SPACE_SPECIES,
    Region,
    Side,
    SideRule,
    Terrain,
    TwoSpace,
    Unit,
    describe,
    is_species_key,
    species_name,
    tokens_per_player,
)
from companion.models import Play
from companion.services import oddland as service
from companion.services import plays
from companion.services.tables import TableAccess
from companion.web import context as shared
from companion.web.game_pages import GamePages, OptionsForm
from companion.web.render import page_or_fragment

bp = Blueprint("oddland", __name__, url_prefix="/t/<token>/plays/<int:play_id>/oddland")

SLUG = engine.SLUG
UNPROCESSABLE = 422
CONFLICT = 409
NO_CONTENT = 204
SESSION_KEY = "oddland"
#: Palettes remembered per phone (the newest plays only, to keep the cookie small).
REMEMBERED_PLAYS = 4
EXTRA_SPECIES_ROWS = 2

#: Drawing sizes of the map, in CSS pixels (a space is a comfortable tap target).
CELL = 48
GUTTER = 22
#: An empty map shows this many spaces each way to start painting.
START_EXTENT = 4
#: How far beyond the drawn ring around the map a checked card is still drawn as a ghost:
#: a card sharing an edge with the map reaches at most 2 spaces beyond it. A card
#: further off could never be legal, and drawing it would stretch the grid across the
#: empty table between (a fragment of megabytes for a card far away).
GHOST_REACH = 1
PLAYER_MARK_LENGTH = 3
SPECIES_MARK_LENGTH = 2

#: Error keys of the entry partial (shown next to their part of the page).
MAP_ERROR = "oddland-map"
POINTS_ERROR = "oddland-points"
SIDE_ERROR = "oddland-side"
DEFINITION_ERROR = "oddland-definition"
TURN_ERROR = "oddland-turn"


class Tool(StrEnum):
    """What tapping a space does."""

    FOREST = Terrain.FOREST.value
    SHORE = Terrain.SHORE.value
    WATER = Terrain.WATER.value
    MOUNTAIN = Terrain.MOUNTAIN.value
    CLEAR = "clear"
    TOKEN = "token"
    REMOVE = "remove"


TOOL_LABELS: dict[Tool, str] = {
    **{Tool(terrain.value): name.capitalize() for terrain, name in TERRAIN_NAMES.items()},
    Tool.CLEAR: "Clear",
    Tool.TOKEN: "Token",
    Tool.REMOVE: "Remove",
}


class Direction(StrEnum):
    """Where a two-space token's second space lies from the tapped one."""

    RIGHT = "right"
    DOWN = "down"
    LEFT = "left"
    UP = "up"


STEPS: dict[Direction, tuple[int, int]] = {
    Direction.RIGHT: (0, 1),
    Direction.DOWN: (1, 0),
    Direction.LEFT: (0, -1),
    Direction.UP: (-1, 0),
}

#: The 4 spaces of a card, as the turn form names them.
CARD_SPACES: dict[str, tuple[int, int]] = {
    "top-left": (0, 0),
    "top-right": (0, 1),
    "bottom-left": (1, 0),
    "bottom-right": (1, 1),
}

REGION_LABELS: dict[Region, str] = {
    Region.TERRITORY: "Its territory",
    Region.NEIGHBORS: "Neighbouring territories",
    Region.ROW: "Its row",
    Region.COLUMN: "Its column",
    Region.ROW_AND_COLUMN: "Its row and column",
    Region.DIAGONALS: "Its diagonals",
    Region.SURROUNDING: "Its surrounding spaces",
    Region.MAP: "The whole map",
}
#: Short region names for the facts table on a phone.
REGION_SHORT: dict[Region, str] = {
    Region.TERRITORY: "Territory",
    Region.NEIGHBORS: "Neighbours",
    Region.ROW: "Row",
    Region.COLUMN: "Column",
    Region.ROW_AND_COLUMN: "Row + col",
    Region.DIAGONALS: "Diagonals",
    Region.SURROUNDING: "Surrounding",
    Region.MAP: "Whole map",
}

#: Built-in sides written in the vocabulary, only to describe them in words.
BUILT_IN_WORDS: dict[tuple[str, Side], SideRule] = {
    (BEGATOR, Side.A): SideRule(points=2, region=Region.NEIGHBORS, solo_modifier=-3),
    (FLORA, Side.A): SideRule(points=0),
}


# --- options --------------------------------------------------------------------------


def _choices(pairs: Sequence[tuple[str, str]]) -> list[SelectChoice]:
    """Select options from ``(value, label)`` pairs."""
    return [SelectChoice(value, label) for value, label in pairs]


SIDE_PAIRS = [("", "Not in play"), (Side.A.value, "Side A"), (Side.B.value, "Side B")]
TERRAIN_PAIRS = [(t.value, TERRAIN_NAMES[t]) for t in Terrain]


def species_key(name: str) -> str:
    """A species key from a typed name ("Sea Dragon" -> ``sea-dragon``).

    >>> species_key("  Sea Dragon! "), species_key("Owloose")
    ('sea-dragon', 'owloose')
    """
    words = re.findall(r"[a-z0-9]+", name.casefold())
    return "-".join(words)


class OddlandOptionsForm(OptionsForm):
    """Species cards in play and their sides, species the app does not list, solo, mode."""

    play_along = BooleanField("Play along: enter the game card by card, refereed")
    solo = BooleanField("Solo rules (add each species card's solo modifier)")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.player_count = len(self.table.players)
        if not self.is_submitted():
            self.solo.data = self.player_count == 1

    @property
    def known_fields(self) -> list[tuple[str, Any]]:
        """The side pickers of the species the app knows, in its order."""
        return [(key, self[f"side_{key}"]) for key in SPECIES]

    @property
    def extra_fields(self) -> list[tuple[Any, Any]]:
        """Name and side of the species a table adds."""
        return [
            (self[f"extra_name_{i}"], self[f"extra_side_{i}"]) for i in range(EXTRA_SPECIES_ROWS)
        ]

    def sides(self) -> dict[str, str]:
        """Species key -> side for every species in play."""
        chosen = {key: f.data for key, f in self.known_fields if f.data}
        for name, side in self.extra_fields:
            if (name.data or "").strip():
                chosen[species_key(name.data)] = side.data or Side.A.value
        return chosen

    def validate_solo(self, field: Any) -> None:
        """Solo rules need exactly one player."""
        if field.data and self.player_count != 1:
            raise ValidationError(
                f"Solo rules are for 1 player; this table has {self.player_count}."
            )

    def validate(self, extra_validators: Any = None) -> bool:
        """Field checks, then the extra names and that some species is in play."""
        valid: bool = super().validate(extra_validators)
        seen = set(SPECIES)
        for name, _side in self.extra_fields:
            text = (name.data or "").strip()
            if not text:
                continue
            key = species_key(text)
            if not key or not is_species_key(key):
                name.errors.append("Use letters and digits for a species name (up to 40).")
                valid = False
            elif key in seen:
                name.errors.append(f"{species_name(key)} is already listed.")
                valid = False
            seen.add(key)
        if valid and not self.sides():
            self.play_along.errors.append("Put at least one species card in play.")
            valid = False
        return valid

    def options(self) -> dict[str, Any]:
        """Sides, solo, play-along, and the sides this table defined in earlier games."""
        return {
            "sides": self.sides(),
            "solo": bool(self.solo.data),
            engine.PLAY_ALONG_OPTION: bool(self.play_along.data),
            "definitions": service.saved_definitions(self.table),
        }


for _key, _name in SPECIES.items():
    setattr(
        OddlandOptionsForm,
        f"side_{_key}",
        SelectField(_name, choices=_choices(SIDE_PAIRS), default=Side.A.value),
    )
for _i in range(EXTRA_SPECIES_ROWS):
    setattr(
        OddlandOptionsForm,
        f"extra_name_{_i}",
        StringField(f"Other species {_i + 1}", validators=[Optional()]),
    )
    setattr(
        OddlandOptionsForm,
        f"extra_side_{_i}",
        SelectField(
            f"Side of other species {_i + 1}",
            choices=_choices(SIDE_PAIRS[1:]),
            default=Side.A.value,
        ),
    )


# --- forms of the play page -----------------------------------------------------------


class PaintForm(FlaskForm):
    """A tap on the map: the tool, the space (``row,col,letter shown``), token choices."""

    tool = SelectField(choices=_choices([(t.value, TOOL_LABELS[t]) for t in Tool]))
    cell = StringField()
    player = StringField()
    species = StringField()
    direction = SelectField(
        choices=_choices([(d.value, d.value) for d in Direction]), default="right"
    )


class PointsForm(FlaskForm):
    """The scoreboard: ``pts-<species>-<seat>`` fields, read from the request (CSRF here)."""


class SideForm(FlaskForm):
    """The side of one species card (``name``: a species card put in play late)."""

    species = StringField()
    name = StringField()
    side = SelectField(choices=_choices(SIDE_PAIRS))


class DefinitionForm(FlaskForm):
    """One species side in the rule vocabulary."""

    species = StringField("Species")
    side = SelectField("Side", choices=_choices(SIDE_PAIRS[1:]))
    points = IntegerField(
        "Points",
        validators=[NumberRange(-99, 99, "Enter -99 to 99 points.")],
        default=1,
    )
    per = SelectField("per", choices=_choices([(u.value, u.value) for u in Unit]), default="space")
    region = SelectField(
        "in",
        choices=_choices([(r.value, REGION_LABELS[r].lower()) for r in Region]),
        default="territory",
    )
    terrain = SelectField(
        "Only terrain",
        choices=_choices([("", "any terrain"), *TERRAIN_PAIRS]),
        default="",
    )
    only_species = StringField("Only tokens of species")
    count_own_space = BooleanField("Its own space counts", default=True)
    two_space = SelectField(
        "A two-space token lying in two territories counts its",
        choices=_choices([(t.value, f"{t.value} territory") for t in TwoSpace]),
        default="smallest",
    )
    solo_modifier = IntegerField(
        "Solo modifier",
        validators=[Optional(), NumberRange(-99, 99, "Enter -99 to 99.")],
        default=0,
    )


class TurnForm(FlaskForm):
    """A play-along turn: the card's four terrains, where it goes, and the token."""

    row = IntegerField("Row of its top-left space")
    col = IntegerField("Column of its top-left space")
    top_left = SelectField("Top left", choices=_choices(TERRAIN_PAIRS))
    top_right = SelectField("Top right", choices=_choices(TERRAIN_PAIRS))
    bottom_left = SelectField("Bottom left", choices=_choices(TERRAIN_PAIRS))
    bottom_right = SelectField("Bottom right", choices=_choices(TERRAIN_PAIRS))
    player = StringField("Player")
    species = StringField("Species")
    space = SelectField(
        "On the card's", choices=_choices([(k, k.replace("-", " ")) for k in CARD_SPACES])
    )
    second = SelectField(
        "Second space (two-space species)",
        choices=_choices([("", "none"), *[(k, k.replace("-", " ")) for k in CARD_SPACES]]),
        default="",
    )
    laid = IntegerField()

    def turn(self) -> dict[str, Any]:
        """The turn as stored in ``cards`` (positions relative to the map before it)."""
        at = [self.row.data or 0, self.col.data or 0]
        card = {
            "at": at,
            "terrains": [
                f"{self.top_left.data}{self.top_right.data}",
                f"{self.bottom_left.data}{self.bottom_right.data}",
            ],
        }
        spaces = [self.space.data or "top-left"]
        if self.second.data:
            spaces.append(self.second.data)
        cells = [[at[0] + CARD_SPACES[s][0], at[1] + CARD_SPACES[s][1]] for s in spaces]
        token = {
            "player": (self.player.data or "").strip(),
            "species": (self.species.data or "").strip(),
            "cells": cells,
        }
        return {"card": card, "token": token}


# --- the view model -------------------------------------------------------------------


@dataclass(frozen=True)
class Space:
    """One drawn position of the map (a space, or an empty place around it)."""

    r: int
    c: int
    x: int
    y: int
    letter: str
    territory: int | None
    token: int | None
    label: str


@dataclass(frozen=True)
class TokenShape:
    """A token drawn on the map."""

    x: int
    y: int
    width: int
    height: int
    seat: int
    text: str
    label: str


@dataclass
class MapView:
    """Everything the entry partial draws and offers for one play."""

    play_along: bool
    tokens: list[dict[str, Any]]
    analysis: engine.MapAnalysis | None
    row_range: list[int]
    col_range: list[int]
    width: int
    height: int
    spaces: list[list[Space]]
    outline: str
    grid_lines: str
    sizes: list[tuple[int, int, int]]
    token_shapes: list[TokenShape]
    gutter_rows: list[tuple[int, int]]
    gutter_cols: list[tuple[int, int]]
    marks: dict[str, str]
    facts: list[dict[str, Any]]
    species: list[dict[str, Any]]
    players: list[dict[str, Any]]
    palette: dict[str, str]
    summary: str
    turn: dict[str, Any] = field(default_factory=dict)
    #: Top-left corner of the last card laid in a play-along game, in drawing units.
    last_card: tuple[int, int] | None = None
    #: The species the definition form offers first (one the app cannot score yet).
    define_default: str = ""
    #: A play-along card being checked, drawn over the map: (x, y, terrain letter).
    ghost: list[tuple[int, int, str]] = field(default_factory=list)


def _marks(players: Sequence[str]) -> dict[str, str]:
    """The shortest distinct start of each name (1 to 3 letters) drawn on its tokens.

    >>> _marks(["Ann", "Alice", "Ben"])
    {'Ann': 'An', 'Alice': 'Al', 'Ben': 'B'}
    """
    marks = {}
    for name in players:
        for length in range(1, PLAYER_MARK_LENGTH + 1):
            mark = name[:length]
            others = [o for o in players if o != name]
            if not any(o[:length].casefold() == mark.casefold() for o in others):
                break
        marks[name] = mark
    return marks


def _place(r: int, c: int) -> str:
    """A position in words, including the ring of empty places around the map."""
    row = f"row {r + 1}" if r >= 0 else "new row above"
    col = f"col {c + 1}" if c >= 0 else "new column left"
    return f"{row}, {col}"


def _proposed_card(proposal: Mapping[str, str] | None) -> dict[tuple[int, int], str]:
    """The spaces of a play-along card being checked, from the turn form (may be empty).

    >>> _proposed_card({"row": "-1", "col": "0", "top_left": "F", "top_right": "S",
    ...                 "bottom_left": "W", "bottom_right": "M"})
    {(-1, 0): 'F', (-1, 1): 'S', (0, 0): 'W', (0, 1): 'M'}
    """
    if not proposal:
        return {}
    try:
        row, col = int(proposal.get("row", "")), int(proposal.get("col", ""))
    except ValueError:
        return {}
    if max(abs(row), abs(col)) > engine.MAX_MAP_EXTENT:
        return {}
    spaces = {}
    for name, (dr, dc) in CARD_SPACES.items():
        letter = proposal.get(name.replace("-", "_"), "")
        if letter not in engine.TERRAIN_LETTERS:
            return {}
        spaces[(row + dr, col + dc)] = letter
    return spaces


def _within_reach(
    ghost: Mapping[tuple[int, int], str], *, rows: tuple[int, int], cols: tuple[int, int]
) -> bool:
    """Whether every space of a ghost card lies at most :data:`GHOST_REACH` off the drawing.

    >>> _within_reach({(-2, 0): "F"}, rows=(-1, 2), cols=(-1, 2))
    True
    >>> _within_reach({(90, 0): "F"}, rows=(-1, 2), cols=(-1, 2))
    False
    """
    return all(
        rows[0] - GHOST_REACH <= r <= rows[1] + GHOST_REACH
        and cols[0] - GHOST_REACH <= c <= cols[1] + GHOST_REACH
        for r, c in ghost
    )


def build_view(
    play: Play,
    *,
    palette: Mapping[str, str],
    proposal: Mapping[str, str] | None = None,
    seat: int | str | None = None,
) -> MapView:
    """The map, tokens, facts and scoring status of a play, ready to draw.

    ``proposal`` is a play-along turn being checked: its card is drawn as a ghost.
    ``seat`` (this phone's player, when known) is the palette's first player.
    """
    state = play.state
    players = [str(p) for p in state["players"]]
    # One parse gives the map (replayed for a play-along game), tokens and scoring sides.
    try:
        table: engine.Table | None = engine.parse(state)
    except InvalidStateError:  # stored states are valid; show an empty map all the same
        table = None
    analysis = table.analysis if table is not None else None
    tokens = [t.to_json() for t in analysis.tokens] if analysis is not None else []
    spaces_at = analysis.spaces if analysis is not None else {}
    if spaces_at:
        top = min(r for r, _ in spaces_at) - 1
        bottom = max(r for r, _ in spaces_at) + 1
        left = min(c for _, c in spaces_at) - 1
        right = max(c for _, c in spaces_at) + 1
    else:
        top, bottom, left, right = 0, START_EXTENT - 1, 0, START_EXTENT - 1
    ghost = _proposed_card(proposal) if service.is_play_along(state) else {}
    if not _within_reach(ghost, rows=(top, bottom), cols=(left, right)):
        ghost = {}
    if ghost:
        top = min(top, *(r for r, _ in ghost))
        bottom = max(bottom, *(r for r, _ in ghost))
        left = min(left, *(c for _, c in ghost))
        right = max(right, *(c for _, c in ghost))
    row_range = list(range(top, bottom + 1))
    col_range = list(range(left, right + 1))
    marks = _marks(players)
    seats = {name: i for i, name in enumerate(players)}

    def x(c: int) -> int:
        return GUTTER + (c - left) * CELL

    def y(r: int) -> int:
        return GUTTER + (r - top) * CELL

    token_at = analysis.token_at if analysis is not None else {}
    territory_of = analysis.territory_of if analysis is not None else {}
    grid = []
    for r in row_range:
        line = []
        for c in col_range:
            letter = spaces_at[(r, c)].value if (r, c) in spaces_at else "."
            token = token_at.get((r, c))
            what = TERRAIN_NAMES[Terrain(letter)] if letter != "." else "empty"
            if token is not None:
                t = tokens[token]
                what += f", {t['player']}'s {species_name(t['species'])}"
            line.append(
                Space(
                    r=r,
                    c=c,
                    x=x(c),
                    y=y(r),
                    letter=letter,
                    territory=territory_of.get((r, c)),
                    token=token,
                    label=f"{_place(r, c).capitalize()}: {what}",
                )
            )
        grid.append(line)
    outline, grid_lines = _outlines(spaces_at, territory_of, x, y)
    sizes = []
    if analysis is not None:
        for territory in analysis.territories:
            r, c = territory.cells[0]
            sizes.append((x(c) + CELL - 5, y(r) + 14, territory.size))
    shapes = [_token_shape(t, seats, marks, x, y) for t in tokens]
    view = MapView(
        play_along=service.is_play_along(state),
        tokens=tokens,
        analysis=analysis,
        row_range=row_range,
        col_range=col_range,
        width=GUTTER + len(col_range) * CELL + 2,
        height=GUTTER + len(row_range) * CELL + 2,
        spaces=grid,
        outline=outline,
        grid_lines=grid_lines,
        sizes=sizes,
        token_shapes=shapes,
        gutter_rows=[(y(r) + CELL // 2 + 5, r + 1) for r in row_range if r >= 0],
        gutter_cols=[(x(c) + CELL // 2, c + 1) for c in col_range if c >= 0],
        marks=marks,
        facts=_facts(analysis),
        species=_species_status(state, table),
        players=_supply(state, players, tokens),
        palette=_palette_defaults(palette, state, players),
        summary=_summary(analysis),
    )
    if ghost:
        view.ghost = [(x(c), y(r), letter) for (r, c), letter in ghost.items()]
    if isinstance(seat, int) and seat < len(players) and "player" not in palette:
        view.palette["player"] = players[seat]
    unknown = [sp["key"] for sp in view.species if sp["scored"] == "unknown"]
    placed = [key for key in unknown if any(t["species"] == key for t in tokens)]
    view.define_default = (placed or unknown or [""])[0]
    if view.play_along:
        view.turn = _turn_defaults(state, players, row_range, col_range, bool(spaces_at))
        if state["cards"]:
            # The last card shifted nothing after it: a negative place became row/col 0.
            r, c = (max(0, n) for n in state["cards"][-1]["card"]["at"])
            view.last_card = (x(c), y(r))
    return view


def _cells(raw: Sequence[Sequence[int]]) -> tuple[tuple[int, int], ...]:
    return tuple((pair[0], pair[1]) for pair in raw)


def _outlines(
    spaces: Mapping[tuple[int, int], Terrain],
    territory_of: Mapping[tuple[int, int], int],
    x: Any,
    y: Any,
) -> tuple[str, str]:
    """SVG path data: thick borders between territories (and the map's edge), thin inside."""
    thick, thin = [], []
    for (r, c), _terrain in spaces.items():
        here = territory_of[(r, c)]
        edges = (
            ((r - 1, c), f"M{x(c)} {y(r)}h{CELL}"),
            ((r + 1, c), f"M{x(c)} {y(r) + CELL}h{CELL}"),
            ((r, c - 1), f"M{x(c)} {y(r)}v{CELL}"),
            ((r, c + 1), f"M{x(c) + CELL} {y(r)}v{CELL}"),
        )
        for other, segment in edges:
            if territory_of.get(other) != here:
                thick.append(segment)
            elif other > (r, c):  # inner edges once
                thin.append(segment)
    return "".join(thick), "".join(thin)


def _token_shape(
    token: Mapping[str, Any], seat: Mapping[str, int], marks: Mapping[str, str], x: Any, y: Any
) -> TokenShape:
    cells = _cells(token["cells"])
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    pad = 7
    left, top = x(min(cols)) + pad, y(min(rows)) + 18
    width = (max(cols) - min(cols) + 1) * CELL - 2 * pad
    height = (max(rows) - min(rows)) * CELL + CELL - 18 - pad + 2
    mark = marks.get(token["player"], token["player"][:1])
    species = species_name(token["species"])[:SPECIES_MARK_LENGTH]
    return TokenShape(
        x=left,
        y=top,
        width=width,
        height=height,
        seat=seat.get(token["player"], 0) % 5,
        text=f"{mark}·{species}",
        label=f"{token['player']}'s {species_name(token['species'])}",
    )


def _summary(analysis: engine.MapAnalysis | None) -> str:
    if analysis is None or not analysis.spaces:
        return "The map is empty."
    count = len(analysis.spaces)
    return (
        f"Map of {count} space{'s' if count != 1 else ''} in "
        f"{len(analysis.territories)} territor{'ies' if len(analysis.territories) != 1 else 'y'}"
        f" with {len(analysis.tokens)} token{'s' if len(analysis.tokens) != 1 else ''}."
    )


def _facts(analysis: engine.MapAnalysis | None) -> list[dict[str, Any]]:
    """Each token's facts, worded for the facts panel."""
    if analysis is None:
        return []
    found = []
    for facts in engine.token_facts(analysis):
        token = facts.token
        found.append(
            {
                "title": f"{token.player}'s {species_name(token.species)}",
                "where": engine.describe_cells(token.cells),
                "territories": ", ".join(
                    f"{TERRAIN_NAMES[t.terrain]} of {t.size}" for t in facts.territories
                ),
                "neighbors": ", ".join(
                    f"{TERRAIN_NAMES[t.terrain]} {t.size}" for t in facts.neighbors
                )
                or "none",
                "neighbor_spaces": sum(t.size for t in facts.neighbors),
                "areas": [
                    {
                        "label": REGION_SHORT[region],
                        "spaces": counts.spaces,
                        "tokens": counts.tokens,
                        "terrains": [counts.terrains.get(t, 0) for t in Terrain],
                        "territories": counts.territories,
                        "species": ", ".join(
                            f"{species_name(key)} {n}"
                            for key, n in counts.to_json()["species"].items()
                        )
                        or "",
                    }
                    for region, counts in facts.areas.items()
                ],
            }
        )
    return found


def _species_status(state: Mapping[str, Any], table: engine.Table | None) -> list[dict[str, Any]]:
    """Species in play: side, how the app scores it, computed and typed points per player."""
    found = []
    definitions = state.get("definitions", {})
    typed = state.get("points", {})
    computed, placed = _computed_points(table)
    for key in sorted(state.get("sides", {}), key=_species_order):
        side = state["sides"][key]
        rule = definitions.get(key, {}).get(side) if side else None
        built_in = BUILT_IN_WORDS.get((key, Side(side))) if side else None
        if rule is not None:
            how, scored = f"Defined by this table: {describe(SideRule(**rule), key)}.", "defined"
        elif built_in is not None:
            how, scored = f"Built in: {describe(built_in, key)}.", "built-in"
        else:
            how = "Not known to the app: type its points in the scoreboard, or define it."
            scored = "unknown"
        found.append(
            {
                "key": key,
                "name": species_name(key),
                "side": side,
                "how": how,
                "scored": scored,
                "tokens": placed[key],
                "cells": [
                    {
                        "player": player,
                        "seat": seat,
                        "typed": typed.get(player, {}).get(key),
                        "computed": computed.get(
                            (player, key), 0 if scored != "unknown" else None
                        ),
                        "needed": scored == "unknown"
                        and (player, key) in computed
                        and typed.get(player, {}).get(key) is None,
                    }
                    for seat, player in enumerate(state["players"])
                ],
            }
        )
    return found


def _computed_points(
    table: engine.Table | None,
) -> tuple[dict[tuple[str, str], int | None], Counter[str]]:
    """What the app computes per player and species (``None``: it cannot), tokens per species."""
    placed: Counter[str] = Counter()
    if table is None:
        return {}, placed
    computed: dict[tuple[str, str], int | None] = {}
    for index, token in enumerate(table.analysis.tokens):
        placed[token.species] += 1
        key = (token.player, token.species)
        _side, scoring, _why = engine.side_scoring(table, token.species)
        if scoring is None:
            computed[key] = None
            continue
        if key not in computed and table.solo:
            computed[key] = scoring.solo_modifier
        computed[key] = (computed.get(key) or 0) + scoring.scorer(table.analysis, index).points
    return computed, placed


def _species_order(key: str) -> tuple[int, str]:
    order = list(SPECIES)
    return (order.index(key) if key in order else len(order), key)


def _supply(
    state: Mapping[str, Any], players: Sequence[str], tokens: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """How many tokens each player placed, of how many."""
    count = len(players)
    placed = Counter(t["player"] for t in tokens)
    return [
        {
            "name": name,
            "seat": seat,
            "placed": placed[name],
            "total": tokens_per_player(count),
        }
        for seat, name in enumerate(players)
    ]


def _palette_defaults(
    palette: Mapping[str, str], state: Mapping[str, Any], players: Sequence[str]
) -> dict[str, str]:
    species = [k for k, side in state.get("sides", {}).items() if side]
    chosen = {
        "tool": palette.get("tool", Tool.FOREST.value),
        "player": palette.get("player", players[0] if players else ""),
        "species": palette.get("species", species[0] if species else ""),
        "direction": palette.get("direction", Direction.RIGHT.value),
    }
    if chosen["tool"] not in {t.value for t in Tool}:
        chosen["tool"] = Tool.FOREST.value
    return chosen


def _turn_defaults(
    state: Mapping[str, Any],
    players: Sequence[str],
    row_range: Sequence[int],
    col_range: Sequence[int],
    has_map: bool,
) -> dict[str, Any]:
    """Choices of the next-turn form: positions around the map, the next player."""
    laid = len(state["cards"])
    if has_map:
        rows = list(range(row_range[0] - 1, row_range[-1] + 1))
        cols = list(range(col_range[0] - 1, col_range[-1] + 1))
    else:
        rows, cols = [0], [0]
    return {
        "laid": laid,
        "rows": [(r, _line_name(r, "row", "above")) for r in rows],
        "cols": [(c, _line_name(c, "col", "left")) for c in cols],
        # Below the map, at its left edge: a legal place for most cards.
        "row": row_range[-1] if has_map else 0,
        "col": col_range[0] + 1 if has_map else 0,
        "player": players[laid % len(players)] if players else "",
        "last": state["cards"][-1] if laid else None,
    }


def _line_name(index: int, noun: str, outside: str) -> str:
    return f"{noun} {index + 1}" if index >= 0 else f"{-index} {outside}"


def _remembered(play_id: int) -> dict[str, str]:
    return dict(session.get(SESSION_KEY, {}).get(str(play_id), {}))


def _remember(play_id: int, palette: Mapping[str, str]) -> None:
    """Keep this phone's palette for the play (the cookie is only rewritten on a change)."""
    if _remembered(play_id) == dict(palette):
        return
    saved = dict(session.get(SESSION_KEY, {}))
    saved.pop(str(play_id), None)
    saved[str(play_id)] = dict(palette)
    session[SESSION_KEY] = dict(list(saved.items())[-REMEMBERED_PLAYS:])


@bp.app_context_processor
def _inject() -> dict[str, Any]:
    """Templates draw an Oddland play through ``oddland_view(play)``."""

    def oddland_view(
        play: Play, proposal: Mapping[str, str] | None = None, seat: int | str | None = None
    ) -> MapView:
        return build_view(play, palette=_remembered(play.id), proposal=proposal, seat=seat)

    return {
        "oddland_view": oddland_view,
        "oddland_tools": TOOL_LABELS,
        "oddland_directions": list(Direction),
        "oddland_terrains": TERRAIN_PAIRS,
        "oddland_card_spaces": list(CARD_SPACES),
        "oddland_two_space": TWO_SPACE_SPECIES,
        "oddland_units": list(Unit),
        "oddland_regions": REGION_LABELS,
        "oddland_species": SPECIES,
    }


# --- responding -----------------------------------------------------------------------


def _load(token: str, play_id: int) -> tuple[TableAccess, Play]:
    found = shared.open_for_edit(token)
    current = shared.play_of(found, play_id)
    if current.game != SLUG:
        abort(404)
    return found, current


def _respond(
    found: TableAccess,
    current: Play,
    *,
    status: int = 200,
    errors: Mapping[str, str] | None = None,
    always_render: bool = False,
    **extra: Any,
) -> Response:
    """htmx gets the fresh fragment; a plain form post is redirected (re-rendered on error)."""
    return shared.play_response(
        found,
        current,
        status=status,
        errors=dict(errors or {}),
        always_render=always_render,
        oddland=extra,
    )


def _run(
    found: TableAccess, current: Play, key: str, action: Callable[[], object], **extra: Any
) -> Response:
    """Run a service call; refusals and conflicts come back next to the part edited."""
    try:
        action()
    except plays.EditRefused as refused:
        message = " ".join(problem_messages(refused.problems))
        return _respond(found, current, status=UNPROCESSABLE, errors={key: message}, **extra)
    except plays.EditConflict as clash:
        return _respond(found, current, status=CONFLICT, errors={key: clash.message}, **extra)
    except plays.WriteContention:
        message = "Many phones are editing at once; try again."
        return _respond(found, current, status=CONFLICT, errors={key: message}, **extra)
    return _respond(found, current, **extra)


def _refuse(found: TableAccess, current: Play, key: str, message: str, **extra: Any) -> Response:
    return _respond(found, current, status=UNPROCESSABLE, errors={key: message}, **extra)


# --- routes ---------------------------------------------------------------------------


CELL_VALUE = re.compile(r"(-?\d{1,3}),(-?\d{1,3}),([FSWM.])")


@bp.post("/map")
def paint(token: str, play_id: int) -> Response:
    """Tap a space: paint, clear, place or remove a token."""
    found, current = _load(token, play_id)
    form = PaintForm()
    if not form.validate():
        return _refuse(found, current, MAP_ERROR, "Pick a tool from the palette.")
    palette = {
        "tool": form.tool.data,
        "player": form.player.data or "",
        "species": form.species.data or "",
        "direction": form.direction.data,
    }
    _remember(current.id, palette)
    match = CELL_VALUE.fullmatch(form.cell.data or "")
    if match is None:
        return _refuse(found, current, MAP_ERROR, "Tap a space of the map.")
    cell = (int(match[1]), int(match[2]))
    base = match[3]
    author = shared.author_of(found)
    tool = Tool(form.tool.data)
    if tool in {Tool.FOREST, Tool.SHORE, Tool.WATER, Tool.MOUNTAIN, Tool.CLEAR}:
        terrain = None if tool is Tool.CLEAR else tool.value
        return _run(
            found,
            current,
            MAP_ERROR,
            lambda: service.paint(current, cell=cell, terrain=terrain, base=base, author=author),
        )
    if tool is Tool.REMOVE:
        return _run(
            found,
            current,
            MAP_ERROR,
            lambda: service.remove_token(current, cell=cell, author=author),
        )
    return _place_token(found, current, cell=cell, palette=palette)


def _place_token(
    found: TableAccess, current: Play, *, cell: tuple[int, int], palette: Mapping[str, str]
) -> Response:
    species = palette["species"]
    if species not in current.state.get("sides", {}):
        return _refuse(found, current, MAP_ERROR, "Pick a species in play for the token.")
    cells = [cell]
    if species in TWO_SPACE_SPECIES:
        dr, dc = STEPS[Direction(palette["direction"])]
        cells.append((cell[0] + dr, cell[1] + dc))
    author = shared.author_of(found)
    return _run(
        found,
        current,
        MAP_ERROR,
        lambda: service.place_token(
            current, player=palette["player"], species=species, cells=cells, author=author
        ),
    )


@bp.post("/tool")
def tool(token: str, play_id: int) -> Response:
    """Remember this phone's palette (tool, player, species) across live refreshes."""
    _found, current = _load(token, play_id)
    form = PaintForm()
    if not form.validate():
        return Response(status=UNPROCESSABLE)
    _remember(
        current.id,
        {
            "tool": form.tool.data,
            "player": form.player.data or "",
            "species": form.species.data or "",
            "direction": form.direction.data,
        },
    )
    return Response(status=NO_CONTENT)


@bp.post("/points")
def points(token: str, play_id: int) -> Response:
    """Save the scoreboard: typed points per player and species (empty: computed)."""
    found, current = _load(token, play_id)
    form = PointsForm()
    if not form.validate():
        return _refuse(found, current, POINTS_ERROR, "Reload the page and try again.")
    values: dict[tuple[str, str], int | None] = {}
    bases: dict[tuple[str, str], int | None] = {}
    for species in current.state.get("sides", {}):
        for seat, player in enumerate(current.state["players"]):
            name = f"pts-{species}-{seat}"
            if name not in request.form:
                continue
            try:
                values[player, species] = _points(player, species, request.form[name])
                bases[player, species] = _points(
                    player, species, request.form.get(f"base-{species}-{seat}", "")
                )
            except InvalidStateError as invalid:
                message = f"{player}, {species_name(species)}: {invalid.problems[0].message}"
                return _refuse(found, current, POINTS_ERROR, message)
    author = shared.author_of(found)
    return _run(
        found,
        current,
        POINTS_ERROR,
        lambda: service.set_points(current, values=values, bases=bases, author=author),
    )


def _points(player: str, species: str, raw: str) -> int | None:
    value = engine.GAME.parse_edit(["points", player, species], raw)
    return value if isinstance(value, int) else None


@bp.post("/side")
def side(token: str, play_id: int) -> Response:
    """Change the side of a species card in play, or put another species card in play."""
    found, current = _load(token, play_id)
    form = SideForm()
    species = (form.species.data or "").strip()
    if form.name.data and form.name.data.strip():
        species = species_key(form.name.data)
        if not is_species_key(species):
            return _refuse(found, current, SIDE_ERROR, "Use letters and digits for a species.")
    elif species not in current.state["sides"]:
        return _refuse(found, current, SIDE_ERROR, "Pick side A or B of a species in play.")
    if not form.validate() or not form.side.data:
        return _refuse(found, current, SIDE_ERROR, "Pick side A or B of a species in play.")
    author = shared.author_of(found)
    return _run(
        found,
        current,
        SIDE_ERROR,
        lambda: service.set_side(current, species=species, side=form.side.data, author=author),
    )


@bp.post("/definition")
def define(token: str, play_id: int) -> Response:
    """Teach the app how a species side scores (saved for the table), or forget it."""
    found, current = _load(token, play_id)
    form = DefinitionForm()
    species = (form.species.data or "").strip()
    author = shared.author_of(found)
    if request.form.get("action") == "forget":
        if species not in current.state.get("definitions", {}) or not form.side.data:
            return _refuse(found, current, DEFINITION_ERROR, "There is no such definition.")
        return _run(
            found,
            current,
            DEFINITION_ERROR,
            lambda: service.forget_definition(
                current, species=species, side=form.side.data, author=author
            ),
        )
    if not form.validate():
        message = " ".join(m for errors in form.errors.values() for m in errors)
        return _refuse(found, current, DEFINITION_ERROR, message, definition=form.data)
    if species not in current.state.get("sides", {}):
        return _refuse(
            found, current, DEFINITION_ERROR, "Pick a species in play.", definition=form.data
        )
    try:
        rule = _rule_from(form)
    except pydantic.ValidationError as invalid:
        message = " ".join(str(e.get("msg", "")) for e in invalid.errors())
        return _refuse(found, current, DEFINITION_ERROR, message, definition=form.data)
    return _run(
        found,
        current,
        DEFINITION_ERROR,
        lambda: service.save_definition(
            current, species=species, side=form.side.data, rule=rule, author=author
        ),
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
    found, current = _load(token, play_id)
    form = TurnForm()
    if not service.is_play_along(current.state):
        return _refuse(found, current, TURN_ERROR, "This game was not started as play-along.")
    if not form.validate() or form.row.data is None or form.col.data is None:
        return _refuse(
            found,
            current,
            TURN_ERROR,
            "Enter the card's four terrains, its place and the token.",
            entered=request.form.to_dict(),
        )
    entered = request.form.to_dict()
    proposed = form.turn()
    problems = service.check_turn(current.state, proposed)
    if request.form.get("action") == "check" or problems:
        status = UNPROCESSABLE if problems else 200
        verdict = _verdict(problems)
        return _respond(
            found,
            current,
            status=status,
            always_render=True,
            entered=entered,
            verdict=verdict,
        )
    author = shared.author_of(found)
    laid = form.laid.data if form.laid.data is not None else len(current.state["cards"])
    return _run(
        found,
        current,
        TURN_ERROR,
        lambda: service.play_turn(current, turn=proposed, laid=laid, author=author),
    )


def _verdict(problems: Sequence[Problem]) -> dict[str, Any]:
    if not problems:
        return {"legal": True, "messages": ["Legal: this card and token follow every rule."]}
    return {"legal": False, "messages": problem_messages(problems)}


@bp.post("/turn/undo")
def undo_turn(token: str, play_id: int) -> Response:
    """Play-along: take back the last card and its token."""
    found, current = _load(token, play_id)
    laid = request.form.get("laid", type=int)
    if laid is None:
        laid = len(current.state.get("cards", []))
    author = shared.author_of(found)
    return _run(
        found,
        current,
        TURN_ERROR,
        lambda: service.undo_turn(current, laid=laid, author=author),
    )


@bp.get("/facts")
def facts(token: str, play_id: int) -> Response:
    """The facts of every token on their own page (for a second phone or the TV)."""
    found = shared.open_table(token)
    current = shared.play_of(found, play_id)
    if current.game != SLUG:
        abort(404)
    context = shared.play_context(found, current)
    return page_or_fragment("games/oddland/facts.html", "games/oddland/_facts.html", **context)


#: This game's hooks for the shared pages (registered in ``companion.web.games.PAGES``).
GAME_PAGES = GamePages(options_form=OddlandOptionsForm, blueprint=bp)
