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

from companion.games.text import N_, _, ngettext

# --- the box --------------------------------------------------------------------------


class Terrain(StrEnum):
    """The four terrains of a map space, by the letter used in a map row."""

    FOREST = "F"
    SHORE = "S"
    WATER = "W"
    MOUNTAIN = "M"


#: Lower-case terrain names for sentences (English; translated where shown).
TERRAIN_NAMES: dict[Terrain, str] = {
    # TRANSLATORS: an Oddland terrain, lower-case, as in "2 forest spaces in its row".
    Terrain.FOREST: N_("forest"),
    # TRANSLATORS: an Oddland terrain, lower-case, as in "2 shore spaces in its row".
    Terrain.SHORE: N_("shore"),
    # TRANSLATORS: an Oddland terrain, lower-case, as in "2 water spaces in its row".
    Terrain.WATER: N_("water"),
    # TRANSLATORS: an Oddland terrain, lower-case, as in "2 mountain spaces in its row".
    Terrain.MOUNTAIN: N_("mountain"),
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

#: Every species the app knows by name, in the order the app lists them: key -> name
#: (English; :func:`species_name` says it in the reader's language).
SPECIES: dict[str, str] = {
    # TRANSLATORS: an Oddland species (its card and tokens).
    BEGATOR: N_("Begator"),
    # TRANSLATORS: an Oddland species (its card and tokens).
    FLORA: N_("Flora"),
    # TRANSLATORS: an Oddland species (its card and tokens).
    OWLOOSE: N_("Owloose"),
    # TRANSLATORS: an Oddland species (its card and tokens).
    PANGEROO: N_("Pangeroo"),
    # TRANSLATORS: an Oddland species (its card and tokens).
    WHALEPHANT: N_("Whalephant"),
    # TRANSLATORS: an Oddland species (its card and tokens).
    PIGEHORSE: N_("Pigehorse"),
    # TRANSLATORS: an Oddland species (its card and tokens).
    GRIZZSLEEP: N_("Grizzsleep"),
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
    """The name shown to players, in their language; unknown keys become words.

    >>> species_name("whalephant"), species_name("sea-dragon")
    ('Whalephant', 'Sea Dragon')
    """
    name = SPECIES.get(key)
    return _(name) if name else key.replace("-", " ").title()


def terrain_name(terrain: Terrain) -> str:
    """A terrain's lower-case name in the reader's language.

    >>> terrain_name(Terrain.WATER)
    'water'
    """
    return _(TERRAIN_NAMES[terrain])


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

#: Where a side counts, as the end of a breakdown line ("2 spaces in its row"): English,
#: translated where shown. "Its" is the token's.
REGION_PHRASES: dict[Region, str] = {
    # TRANSLATORS: where an Oddland token counts ("its": the token's), after "2 spaces".
    Region.TERRITORY: N_("in its territory"),
    # TRANSLATORS: where an Oddland token counts, after "2 spaces".
    Region.NEIGHBORS: N_("in neighbouring territories"),
    # TRANSLATORS: where an Oddland token counts ("its": the token's), after "2 spaces".
    Region.ROW: N_("in its row"),
    # TRANSLATORS: where an Oddland token counts ("its": the token's), after "2 spaces".
    Region.COLUMN: N_("in its column"),
    # TRANSLATORS: where an Oddland token counts ("its": the token's), after "2 spaces".
    Region.ROW_AND_COLUMN: N_("in its row and column"),
    # TRANSLATORS: where an Oddland token counts ("its": the token's), after "2 spaces".
    Region.DIAGONALS: N_("on its diagonals"),
    # TRANSLATORS: where an Oddland token counts: the 3x3 block around it, after "2 spaces".
    Region.SURROUNDING: N_("in its surrounding spaces"),
    # TRANSLATORS: where an Oddland token counts, after "2 spaces".
    Region.MAP: N_("on the whole map"),
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
                "species_filter", _('A species filter only works with "per": "token".')
            )
        if self.species is not None and not is_species_key(self.species):
            # The sentence is whole before pydantic sees it: no template for it to fill.
            raise PydanticCustomError(
                "species_key", _('"%(key)s" is not a species key.', key=self.species)
            )
        return self


def _counted(rule: SideRule, count: int) -> str:
    """``count`` of what ``rule`` counts, as a whole phrase ("2 Flora tokens on forest").

    >>> _counted(SideRule(points=1, per=Unit.TERRITORY, terrain=Terrain.WATER), 2)
    '2 water territories'
    """
    terrain = terrain_name(rule.terrain) if rule.terrain is not None else None
    match rule.per, terrain:
        case Unit.TOKEN, _ if rule.species is not None:
            species = species_name(rule.species)
            if terrain is None:
                return ngettext(
                    "%(num)s %(species)s token",
                    "%(num)s %(species)s tokens",
                    count,
                    species=species,
                )
            return ngettext(
                "%(num)s %(species)s token on %(terrain)s",
                "%(num)s %(species)s tokens on %(terrain)s",
                count,
                species=species,
                terrain=terrain,
            )
        case Unit.TOKEN, None:
            return ngettext("%(num)s token", "%(num)s tokens", count)
        case Unit.TOKEN, _:
            return ngettext(
                "%(num)s token on %(terrain)s",
                "%(num)s tokens on %(terrain)s",
                count,
                terrain=terrain,
            )
        case Unit.TERRITORY, None:
            return ngettext("%(num)s territory", "%(num)s territories", count)
        case Unit.TERRITORY, _:
            return ngettext(
                "%(num)s %(terrain)s territory",
                "%(num)s %(terrain)s territories",
                count,
                terrain=terrain,
            )
        case _, None:
            return ngettext("%(num)s space", "%(num)s spaces", count)
    return ngettext(
        "%(num)s %(terrain)s space", "%(num)s %(terrain)s spaces", count, terrain=terrain
    )


def _unit(rule: SideRule) -> str:
    """One of what ``rule`` counts, without a number ("Flora token on forest"), as in
    "3 points per Flora token on forest".

    >>> _unit(SideRule(points=1, per=Unit.TOKEN, species="flora"))
    'Flora token'
    """
    terrain = terrain_name(rule.terrain) if rule.terrain is not None else None
    match rule.per, terrain:
        case Unit.TOKEN, _ if rule.species is not None:
            species = species_name(rule.species)
            if terrain is None:
                # TRANSLATORS: what an Oddland species card counts, after "3 points per".
                return _("%(species)s token", species=species)
            # TRANSLATORS: what an Oddland species card counts, after "3 points per".
            return _("%(species)s token on %(terrain)s", species=species, terrain=terrain)
        case Unit.TOKEN, None:
            # TRANSLATORS: what an Oddland species card counts, after "3 points per".
            return _("token")
        case Unit.TOKEN, _:
            # TRANSLATORS: what an Oddland species card counts, after "3 points per".
            return _("token on %(terrain)s", terrain=terrain)
        case Unit.TERRITORY, None:
            # TRANSLATORS: what an Oddland species card counts, after "3 points per".
            return _("territory")
        case Unit.TERRITORY, _:
            # TRANSLATORS: what an Oddland species card counts, after "3 points per".
            return _("%(terrain)s territory", terrain=terrain)
        case _, None:
            # TRANSLATORS: what an Oddland species card counts, after "3 points per".
            return _("space")
    # TRANSLATORS: what an Oddland species card counts, after "3 points per".
    return _("%(terrain)s space", terrain=terrain)


def count_phrase(rule: SideRule, count: int) -> str:
    """What a token counted under ``rule``, for a breakdown line.

    >>> forest = SideRule(points=1, per=Unit.TERRITORY, region=Region.ROW, terrain=Terrain.FOREST)
    >>> count_phrase(forest, 1)
    '1 forest territory in its row'
    >>> flora = SideRule(points=3, per=Unit.TOKEN, region=Region.SURROUNDING, species="flora")
    >>> count_phrase(flora, 2)
    '2 Flora tokens in its surrounding spaces'
    """
    # TRANSLATORS: what an Oddland token counted ("2 forest spaces") and where ("in its row").
    phrase = _(
        "%(counted)s %(region)s",
        counted=_counted(rule, count),
        region=_(REGION_PHRASES[rule.region]),
    )
    if not rule.count_own_space:
        # TRANSLATORS: what an Oddland token counted, leaving out the space it stands on.
        phrase = _("%(counted)s (not its own space)", counted=phrase)
    return phrase


def describe(rule: SideRule, species: str | None = None) -> str:
    """The whole side in one sentence, for rule pages and the settings screen.

    Naming the species adds which territory a two-space token counts as its own.

    >>> describe(SideRule(points=0))
    'no points'
    >>> describe(SideRule(points=1, region=Region.DIAGONALS, terrain=Terrain.FOREST))
    '1 point per forest space on its diagonals'
    >>> describe(SideRule(points=-2, solo_modifier=1), species="whalephant")
    '-2 points per space in its territory (the smallest of its territories) (solo modifier +1)'
    """
    if rule.points == 0 and rule.solo_modifier == 0:
        return _("no points")
    # TRANSLATORS: an Oddland species card side: "2 points per forest space in its row".
    text = ngettext(
        "%(num)s point per %(unit)s %(region)s",
        "%(num)s points per %(unit)s %(region)s",
        abs(rule.points),
        num=rule.points,
        unit=_unit(rule),
        region=_(REGION_PHRASES[rule.region]),
    )
    if not rule.count_own_space:
        text = _("%(counted)s (not its own space)", counted=text)
    if species in TWO_SPACE_SPECIES and rule.region in TERRITORY_REGIONS:
        if rule.two_space is TwoSpace.SMALLEST:
            # TRANSLATORS: a two-space token lying in two territories counts the smaller.
            text = _("%(side)s (the smallest of its territories)", side=text)
        else:
            # TRANSLATORS: a two-space token lying in two territories counts the larger.
            text = _("%(side)s (the largest of its territories)", side=text)
    if rule.solo_modifier:
        modifier = f"{rule.solo_modifier:+d}"
        text = _("%(side)s (solo modifier %(modifier)s)", side=text, modifier=modifier)
    return text
