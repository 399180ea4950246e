"""Oddland forms: the options before a game and the actions of the play page (map taps,
scoreboard, sides, definitions, play-along turns), with the choices they offer."""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from wtforms import BooleanField, IntegerField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import NumberRange, Optional, ValidationError

from companion.games import oddland as engine
from companion.games.oddland.species import (
    GRIZZSLEEP,
    SPECIES,
    SPECIES_CARDS,
    TERRAIN_NAMES,
    Region,
    Side,
    Terrain,
    TwoSpace,
    Unit,
    is_species_key,
    species_name,
)
from companion.games.text import N_, _
from companion.services import oddland as service
from companion.web.game_pages import OptionsForm

EXTRA_SPECIES_ROWS = 2
#: The app knows one species more by name than the box holds cards: one starts out of play
#: so that the first game's set-up (every card on its A side) is one tap.
NOT_IN_PLAY_BY_DEFAULT = frozenset({GRIZZSLEEP})


class Tool(StrEnum):
    """What tapping a space does."""

    FOREST = Terrain.FOREST.value
    SHORE = Terrain.SHORE.value
    WATER = Terrain.WATER.value
    MOUNTAIN = Terrain.MOUNTAIN.value
    CARD = "card"
    CLEAR = "clear"
    TOKEN = "token"
    REMOVE = "remove"


#: The palette's tools, named (translated where shown).
TOOL_LABELS: dict[Tool, str] = {
    Tool.FOREST: N_("Forest"),
    Tool.SHORE: N_("Shore"),
    Tool.WATER: N_("Water"),
    Tool.MOUNTAIN: N_("Mountain"),
    # TRANSLATORS: a palette tool that lays a whole map card of 2 by 2 spaces.
    Tool.CARD: N_("Card 2×2"),  # noqa: RUF001 - the multiplication sign is meant
    # TRANSLATORS: a palette tool that empties the tapped space of the map.
    Tool.CLEAR: N_("Clear"),
    # TRANSLATORS: a palette tool that puts a species token on the tapped space.
    Tool.TOKEN: N_("Token"),
    # TRANSLATORS: a palette tool that takes the token off the tapped space.
    Tool.REMOVE: N_("Remove"),
}


class Direction(StrEnum):
    """Where a two-space token's second space lies from the tapped one."""

    RIGHT = "right"
    DOWN = "down"
    LEFT = "left"
    UP = "up"


#: Where a two-space token's second space lies, in words (translated where shown).
DIRECTION_LABELS: dict[Direction, str] = {
    # TRANSLATORS: where a Whalephant's second space lies from the tapped space.
    Direction.RIGHT: N_("right"),
    # TRANSLATORS: where a Whalephant's second space lies from the tapped space.
    Direction.DOWN: N_("down"),
    # TRANSLATORS: where a Whalephant's second space lies from the tapped space.
    Direction.LEFT: N_("left"),
    # TRANSLATORS: where a Whalephant's second space lies from the tapped space.
    Direction.UP: N_("up"),
}

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

#: The 4 spaces of a card in words: as a label of its own, and inside a sentence or a
#: choice (both translated where shown).
CARD_SPACE_LABELS: dict[str, str] = {
    # TRANSLATORS: a space of a map card (2 by 2 spaces), as a label.
    "top-left": N_("Top left"),
    # TRANSLATORS: a space of a map card (2 by 2 spaces), as a label.
    "top-right": N_("Top right"),
    # TRANSLATORS: a space of a map card (2 by 2 spaces), as a label.
    "bottom-left": N_("Bottom left"),
    # TRANSLATORS: a space of a map card (2 by 2 spaces), as a label.
    "bottom-right": N_("Bottom right"),
}
CARD_SPACE_WORDS: dict[str, str] = {
    # TRANSLATORS: a space of a map card (2 by 2 spaces), after "On the card's".
    "top-left": N_("top left"),
    # TRANSLATORS: a space of a map card (2 by 2 spaces), after "On the card's".
    "top-right": N_("top right"),
    # TRANSLATORS: a space of a map card (2 by 2 spaces), after "On the card's".
    "bottom-left": N_("bottom left"),
    # TRANSLATORS: a space of a map card (2 by 2 spaces), after "On the card's".
    "bottom-right": N_("bottom right"),
}

#: The regions a species side counts in, as a choice after "in" in the definition form
#: (translated where shown).
REGION_LABELS: dict[Region, str] = {
    # TRANSLATORS: a choice after "in" ("1 point per space in its territory").
    Region.TERRITORY: N_("its territory"),
    # TRANSLATORS: a choice after "in" ("1 point per space in neighbouring territories").
    Region.NEIGHBORS: N_("neighbouring territories"),
    # TRANSLATORS: a choice after "in" ("1 point per space in its row").
    Region.ROW: N_("its row"),
    # TRANSLATORS: a choice after "in" ("1 point per space in its column").
    Region.COLUMN: N_("its column"),
    # TRANSLATORS: a choice after "in" ("1 point per space in its row and column").
    Region.ROW_AND_COLUMN: N_("its row and column"),
    # TRANSLATORS: a choice after "in" ("1 point per space in its diagonals").
    Region.DIAGONALS: N_("its diagonals"),
    # TRANSLATORS: a choice after "in" ("1 point per space in its surrounding spaces").
    Region.SURROUNDING: N_("its surrounding spaces"),
    # TRANSLATORS: a choice after "in" ("1 point per space in the whole map").
    Region.MAP: N_("the whole map"),
}
#: What a species side counts, as a choice after "per" (translated where shown).
UNIT_LABELS: dict[Unit, str] = {
    # TRANSLATORS: a choice after "per" in the definition form ("1 point per space").
    Unit.SPACE: N_("space"),
    # TRANSLATORS: a choice after "per" in the definition form ("1 point per territory").
    Unit.TERRITORY: N_("territory"),
    # TRANSLATORS: a choice after "per" in the definition form ("1 point per token").
    Unit.TOKEN: N_("token"),
}
#: Which territory a two-space token lying in two counts (translated where shown).
TWO_SPACE_LABELS: dict[TwoSpace, str] = {
    TwoSpace.SMALLEST: N_("smallest territory"),
    TwoSpace.LARGEST: N_("largest territory"),
}


def _choices(pairs: Sequence[tuple[str, object]]) -> list[SelectChoice]:
    """Select options from ``(value, label)`` pairs (a label: words marked with ``N_``,
    translated when the option is drawn)."""
    return [SelectChoice(value, lazy_gettext(str(label))) for value, label in pairs]


SIDE_PAIRS = [("", N_("Not in play")), (Side.A.value, N_("Side A")), (Side.B.value, N_("Side B"))]
#: The terrains as ``(letter, name)``, the name marked (translated where shown).
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

    play_along = BooleanField(lazy_gettext("Play along: enter the game card by card, refereed"))
    solo = BooleanField(lazy_gettext("Solo rules (add each species card's solo modifier)"))

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

    @property
    def cards_in_play(self) -> int:
        """How many species cards the form puts in play (known and other species)."""
        return len(self.sides())

    @property
    def cards_in_box(self) -> int:
        """The species cards of the box (double-sided)."""
        return SPECIES_CARDS

    def validate_solo(self, field: Any) -> None:
        """Solo rules need exactly one player."""
        if field.data and self.player_count != 1:
            count = self.player_count
            raise ValidationError(
                _("Solo rules are for 1 player; this table has %(count)s.", count=count)
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
                name.errors.append(_("Use letters and digits for a species name (up to 40)."))
                valid = False
            elif key in seen:
                name.errors.append(_("%(species)s is already listed.", species=species_name(key)))
                valid = False
            seen.add(key)
        if valid and not self.sides():
            self.play_along.errors.append(_("Put at least one species card in play."))
            valid = False
        if valid and self.cards_in_play > SPECIES_CARDS:
            self.play_along.errors.append(
                _(
                    "The box has %(cards)s species cards and %(count)s are in play: set the"
                    " ones not on your table to Not in play.",
                    cards=SPECIES_CARDS,
                    count=self.cards_in_play,
                )
            )
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
        SelectField(
            lazy_gettext(_name),
            choices=_choices(SIDE_PAIRS),
            default="" if _key in NOT_IN_PLAY_BY_DEFAULT else Side.A.value,
        ),
    )
for _i in range(EXTRA_SPECIES_ROWS):
    setattr(
        OddlandOptionsForm,
        f"extra_name_{_i}",
        StringField(
            lazy_gettext("Other species %(number)s", number=_i + 1), validators=[Optional()]
        ),
    )
    setattr(
        OddlandOptionsForm,
        f"extra_side_{_i}",
        SelectField(
            lazy_gettext("Side of other species %(number)s", number=_i + 1),
            choices=_choices(SIDE_PAIRS[1:]),
            default=Side.A.value,
        ),
    )


# --- forms of the play page -----------------------------------------------------------


#: The Card tool's four spaces (palette fields), in the order a card's terrains are given.
CARD_FIELDS = ("top_left", "top_right", "bottom_left", "bottom_right")
#: The card the Card tool lays until a phone changes it.
DEFAULT_CARD = dict(zip(CARD_FIELDS, "FSWM", strict=True))
TERRAIN_CHOICE = _choices([("", "?"), *TERRAIN_PAIRS])


class PaintForm(FlaskForm):
    """A tap on the map: the tool, the space (``row,col,letter shown``), token choices,
    and the card the Card tool lays (a terrain for each of its four spaces)."""

    tool = SelectField(choices=_choices([(t.value, TOOL_LABELS[t]) for t in Tool]))
    cell = StringField()
    player = StringField()
    species = StringField()
    direction = SelectField(
        choices=_choices([(d.value, DIRECTION_LABELS[d]) for d in Direction]), default="right"
    )
    top_left = SelectField(choices=TERRAIN_CHOICE, default="")
    top_right = SelectField(choices=TERRAIN_CHOICE, default="")
    bottom_left = SelectField(choices=TERRAIN_CHOICE, default="")
    bottom_right = SelectField(choices=TERRAIN_CHOICE, default="")

    def palette(self) -> dict[str, str]:
        """What the phone chose: the tool, the token's player, species and direction, and
        the Card tool's terrains (those the request sent)."""
        chosen = {
            "tool": self.tool.data or "",
            "player": self.player.data or "",
            "species": self.species.data or "",
            "direction": self.direction.data or "",
        }
        for name in CARD_FIELDS:
            if self[name].raw_data and self[name].data:
                chosen[name] = self[name].data
        return chosen

    def card(self, remembered: dict[str, str]) -> list[str]:
        """The Card tool's four terrains: those sent, else those this phone remembered."""
        palette = {**DEFAULT_CARD, **remembered, **self.palette()}
        return [palette[name] for name in CARD_FIELDS]


class PointsForm(FlaskForm):
    """The scoreboard: ``pts-<species>-<seat>`` fields, read from the request (CSRF here)."""


class SideForm(FlaskForm):
    """The side of one species card (``name``: a species card put in play late)."""

    species = StringField()
    name = StringField()
    side = SelectField(choices=_choices(SIDE_PAIRS))


class DefinitionForm(FlaskForm):
    """One species side in the rule vocabulary."""

    species = StringField(lazy_gettext("Species"))
    side = SelectField(lazy_gettext("Side"), choices=_choices(SIDE_PAIRS[1:]))
    points = IntegerField(
        lazy_gettext("Points"),
        validators=[NumberRange(-99, 99, lazy_gettext("Enter -99 to 99 points."))],
        default=1,
    )
    per = SelectField(
        # TRANSLATORS: the definition form: "Points [1] per [space] in [its territory]".
        lazy_gettext("per"),
        choices=_choices([(u.value, UNIT_LABELS[u]) for u in Unit]),
        default="space",
    )
    region = SelectField(
        # TRANSLATORS: the definition form: "Points [1] per [space] in [its territory]".
        lazy_gettext("in"),
        choices=_choices([(r.value, REGION_LABELS[r]) for r in Region]),
        default="territory",
    )
    terrain = SelectField(
        lazy_gettext("Only terrain"),
        choices=_choices([("", N_("any")), *TERRAIN_PAIRS]),
        default="",
    )
    only_species = StringField(lazy_gettext("Only tokens of (per token)"))
    count_own_space = BooleanField(lazy_gettext("Its own space counts"), default=True)
    two_space = SelectField(
        lazy_gettext("Two-space token across two territories counts its"),
        choices=_choices([(t.value, TWO_SPACE_LABELS[t]) for t in TwoSpace]),
        default="smallest",
    )
    solo_modifier = IntegerField(
        lazy_gettext("Solo modifier"),
        validators=[Optional(), NumberRange(-99, 99, lazy_gettext("Enter -99 to 99."))],
        default=0,
    )


class DraftForm(FlaskForm):
    """A tap while entering a play-along card (read from the request; CSRF here)."""


class TurnForm(FlaskForm):
    """A play-along turn: the card's four terrains, where it goes, and the token."""

    row = IntegerField(lazy_gettext("Row of its top-left space"))
    col = IntegerField(lazy_gettext("Column of its top-left space"))
    top_left = SelectField(lazy_gettext("Top left"), choices=_choices(TERRAIN_PAIRS))
    top_right = SelectField(lazy_gettext("Top right"), choices=_choices(TERRAIN_PAIRS))
    bottom_left = SelectField(lazy_gettext("Bottom left"), choices=_choices(TERRAIN_PAIRS))
    bottom_right = SelectField(lazy_gettext("Bottom right"), choices=_choices(TERRAIN_PAIRS))
    player = StringField(lazy_gettext("Player"))
    species = StringField(lazy_gettext("Species"))
    # A set-up card's form has no token fields: the token's space then stays unchosen.
    space = SelectField(
        # TRANSLATORS: the play-along form: the token goes "On the card's [top left]".
        lazy_gettext("On the card's"),
        choices=_choices(list(CARD_SPACE_WORDS.items())),
        default="top-left",
    )
    second = SelectField(
        lazy_gettext("and (Whalephant)"),
        choices=_choices([("", N_("no 2nd space")), *CARD_SPACE_WORDS.items()]),
        default="",
    )
    laid = IntegerField()

    def turn(self, *, setup: bool = False) -> dict[str, Any]:
        """The turn as stored in ``cards`` (positions relative to the map before it);
        a ``setup`` card (dealt face up to start the map) carries no token."""
        at = [self.row.data or 0, self.col.data or 0]
        card = {
            "at": at,
            "terrains": [
                f"{self.top_left.data}{self.top_right.data}",
                f"{self.bottom_left.data}{self.bottom_right.data}",
            ],
        }
        if setup:
            return {"card": card}
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
