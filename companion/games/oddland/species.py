"""The species of Oddland, the token sets, and a small vocabulary for species card sides.

Facts about the box live here as data: the terrains, the species names, which species
covers two spaces, and how many tokens of each species a player has. The scoring
vocabulary describes one side of a species card as "so many points per unit in a
region", which is enough to write down most cards (and lets a table teach the app a
side it does not know yet, as JSON in a score request's ``definitions``).

>>> rule = SideRule.model_validate(
...     {"points": 2, "per": "space", "region": "neighbors", "solo_modifier": -3}
... )
>>> describe(rule)
'2 points per space in neighbouring territories (solo modifier -3)'
>>> count_phrase(rule, 6)
'6 spaces in neighbouring territories'
>>> token_limit("flora", player_count=3), token_limit("flora", player_count=4)
(2, 1)
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Self

import pydantic
from pydantic_core import PydanticCustomError

# --- the box --------------------------------------------------------------------------


class Terrain(StrEnum):
    """The four terrains of a map space, by the letter used in a map row."""

    FOREST = "F"
    SHORE = "S"
    WATER = "W"
    MOUNTAIN = "M"


#: Lower-case terrain names for sentences.
TERRAIN_NAMES: dict[Terrain, str] = {
    Terrain.FOREST: "forest",
    Terrain.SHORE: "shore",
    Terrain.WATER: "water",
    Terrain.MOUNTAIN: "mountain",
}


class Side(StrEnum):
    """The two sides of a species card."""

    A = "A"
    B = "B"


BEGATOR = "begator"
FLORA = "flora"
OWLOOSE = "owloose"
PANGEROO = "pangeroo"
WHALEPHANT = "whalephant"
PIGEHORSE = "pigehorse"
GRIZZSLEEP = "grizzsleep"

#: Every species the app knows by name, in the order the app lists them: key -> name.
SPECIES: dict[str, str] = {
    BEGATOR: "Begator",
    FLORA: "Flora",
    OWLOOSE: "Owloose",
    PANGEROO: "Pangeroo",
    WHALEPHANT: "Whalephant",
    PIGEHORSE: "Pigehorse",
    GRIZZSLEEP: "Grizzsleep",
}

#: Species whose token covers two orthogonally adjacent spaces.
TWO_SPACE_SPECIES = frozenset({WHALEPHANT})

#: A species key a table may use for a species the app does not list.
SPECIES_KEY = re.compile(r"[a-z0-9-]+")
MAX_SPECIES_KEY_LENGTH = 40

TOKENS_PER_SET = 7
FLORA_PER_SET = 2
#: From this many players on, each player puts one Flora token back in the box.
FLORA_RETURN_FROM = 4
SETS_IN_BOX = 5
MAP_CARDS = 37
SPACES_PER_CARD = 4
SPECIES_CARDS = 6


def is_species_key(key: str) -> bool:
    """Whether ``key`` can name a species (lower-case letters, digits and hyphens).

    >>> is_species_key("begator"), is_species_key("sea-dragon2"), is_species_key("Begator")
    (True, True, False)
    """
    return len(key) <= MAX_SPECIES_KEY_LENGTH and SPECIES_KEY.fullmatch(key) is not None


def species_name(key: str) -> str:
    """The name shown to players; unknown keys become words.

    >>> species_name("whalephant"), species_name("sea-dragon")
    ('Whalephant', 'Sea Dragon')
    """
    return SPECIES.get(key) or key.replace("-", " ").title()


def spaces_of(species: str) -> int:
    """How many spaces a token of this species covers.

    >>> spaces_of("whalephant"), spaces_of("begator")
    (2, 1)
    """
    return 2 if species in TWO_SPACE_SPECIES else 1


def tokens_per_player(player_count: int) -> int:
    """How many tokens each player places in a game (one Flora fewer with 4-5 players).

    >>> tokens_per_player(1), tokens_per_player(5)
    (7, 6)
    """
    return TOKENS_PER_SET - (1 if player_count >= FLORA_RETURN_FROM else 0)


def token_limit(species: str, *, player_count: int) -> int:
    """How many tokens of one species a player has (Flora two, one with 4-5 players).

    Species the app does not list are assumed to come one per set, like every known
    species except Flora.

    >>> token_limit("begator", player_count=2), token_limit("flora", player_count=2)
    (1, 2)
    """
    if species == FLORA:
        return FLORA_PER_SET - (1 if player_count >= FLORA_RETURN_FROM else 0)
    return 1


# --- the scoring vocabulary -----------------------------------------------------------


class Unit(StrEnum):
    """What a side counts."""

    SPACE = "space"
    TERRITORY = "territory"
    TOKEN = "token"


class Region(StrEnum):
    """Where a side counts, seen from the token."""

    TERRITORY = "territory"
    NEIGHBORS = "neighbors"
    ROW = "row"
    COLUMN = "column"
    ROW_AND_COLUMN = "row-and-column"
    DIAGONALS = "diagonals"
    SURROUNDING = "surrounding"
    MAP = "map"


#: Regions made of whole territories (the others are lines or blocks of spaces).
TERRITORY_REGIONS = frozenset({Region.TERRITORY, Region.NEIGHBORS})

REGION_PHRASES: dict[Region, str] = {
    Region.TERRITORY: "in its territory",
    Region.NEIGHBORS: "in neighbouring territories",
    Region.ROW: "in its row",
    Region.COLUMN: "in its column",
    Region.ROW_AND_COLUMN: "in its row and column",
    Region.DIAGONALS: "on its diagonals",
    Region.SURROUNDING: "in its surrounding spaces",
    Region.MAP: "on the whole map",
}

UNIT_NOUNS: dict[Unit, tuple[str, str]] = {
    Unit.SPACE: ("space", "spaces"),
    Unit.TERRITORY: ("territory", "territories"),
    Unit.TOKEN: ("token", "tokens"),
}


class TwoSpace(StrEnum):
    """Which territory counts as a two-space token's own when its spaces lie in two."""

    SMALLEST = "smallest"
    LARGEST = "largest"


MAX_RULE_POINTS = 99


class SideRule(pydantic.BaseModel):
    """One species card side: ``points`` per ``per`` in ``region``, optionally filtered.

    - ``per``: ``space``, ``territory`` (distinct territories touching the region) or
      ``token`` (distinct tokens with a space in the region, of any player; the token
      itself too when its own space counts).
    - ``region``: ``territory`` (the token's own), ``neighbors`` (territories sharing an
      edge with it), ``row``, ``column``, ``row-and-column``, ``diagonals`` (both, across
      the whole map), ``surrounding`` (the 3x3 block around the space) or ``map``.
    - ``terrain``: count only spaces (or territories, or tokens standing on) this
      terrain, by its letter ``F``, ``S``, ``W`` or ``M``.
    - ``species``: with ``per: token``, count only tokens of this species.
    - ``count_own_space`` (default true): whether the token's own space(s) count.
    - ``two_space``: for a two-space token lying in two territories, whether the
      ``smallest`` (default) or ``largest`` one is its territory; lines and blocks of a
      two-space token are those of both its spaces together.
    - ``solo_modifier``: added once to the species' score in solo mode.

    >>> whale = SideRule.model_validate({"points": 5, "region": "territory"})
    >>> describe(whale, species="whalephant")
    '5 points per space in its territory (the smallest of its territories)'
    >>> SideRule.model_validate({"points": 1, "per": "space", "species": "flora"})
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.ValidationError: 1 validation error for SideRule
    ...
    """

    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)

    points: pydantic.StrictInt = pydantic.Field(ge=-MAX_RULE_POINTS, le=MAX_RULE_POINTS)
    per: Unit = Unit.SPACE
    region: Region = Region.TERRITORY
    terrain: Terrain | None = None
    species: pydantic.StrictStr | None = None
    count_own_space: pydantic.StrictBool = True
    two_space: TwoSpace = TwoSpace.SMALLEST
    solo_modifier: pydantic.StrictInt = pydantic.Field(
        default=0, ge=-MAX_RULE_POINTS, le=MAX_RULE_POINTS
    )

    @pydantic.model_validator(mode="after")
    def _species_needs_tokens(self) -> Self:
        # A custom error keeps pydantic's "Value error," prefix out of the sentence.
        if self.species is not None and self.per is not Unit.TOKEN:
            raise PydanticCustomError(
                "species_filter", 'A species filter only works with "per": "token".'
            )
        if self.species is not None and not is_species_key(self.species):
            raise PydanticCustomError(
                "species_key", '"{key}" is not a species key.', {"key": self.species}
            )
        return self


def _plural(count: int, unit: Unit) -> str:
    singular, plural = UNIT_NOUNS[unit]
    return singular if count == 1 else plural


def count_phrase(rule: SideRule, count: int) -> str:
    """What a token counted under ``rule``, for a breakdown line.

    >>> forest = SideRule(points=1, per=Unit.TERRITORY, region=Region.ROW, terrain=Terrain.FOREST)
    >>> count_phrase(forest, 1)
    '1 forest territory in its row'
    >>> flora = SideRule(points=3, per=Unit.TOKEN, region=Region.SURROUNDING, species="flora")
    >>> count_phrase(flora, 2)
    '2 Flora tokens in its surrounding spaces'
    """
    noun = _plural(count, rule.per)
    if rule.per is Unit.TOKEN:
        what = f"{species_name(rule.species)} {noun}" if rule.species else noun
        if rule.terrain is not None:
            what += f" on {TERRAIN_NAMES[rule.terrain]}"
    else:
        what = f"{TERRAIN_NAMES[rule.terrain]} {noun}" if rule.terrain is not None else noun
    phrase = f"{count} {what} {REGION_PHRASES[rule.region]}"
    if not rule.count_own_space:
        phrase += " (not its own space)"
    return phrase


def describe(rule: SideRule, species: str | None = None) -> str:
    """The whole side in one sentence, for rule pages and the settings screen.

    Naming the species adds which territory a two-space token counts as its own.

    >>> describe(SideRule(points=0))
    'no points'
    >>> describe(SideRule(points=1, region=Region.DIAGONALS, terrain=Terrain.FOREST))
    '1 point per forest space on its diagonals'
    """
    if rule.points == 0 and rule.solo_modifier == 0:
        return "no points"
    unit = count_phrase(rule, 1).removeprefix("1 ")
    points = "point" if abs(rule.points) == 1 else "points"
    text = f"{rule.points} {points} per {unit}"
    if species in TWO_SPACE_SPECIES and rule.region in TERRITORY_REGIONS:
        text += f" (the {rule.two_space.value} of its territories)"
    if rule.solo_modifier:
        text += f" (solo modifier {rule.solo_modifier:+d})"
    return text
