"""Oddland: a shared map of 2x2 cards, territories of one terrain, and species tokens.

The engine reads the map as rows of letters (``F`` forest, ``S`` shore, ``W`` water,
``M`` mountain, ``.`` or a space for no card; rows may differ in length), finds the
territories (maximal orthogonally connected spaces of one terrain) and scores each
token by its species card side. It also referees a single turn of a play-along game:
is this card and this token placed legally, and what does the map look like after.

>>> result = GAME.score({
...     "players": ["Ann", "Ben"],
...     "map": ["FFWW", "FSSW", "MM.."],
...     "tokens": [
...         {"player": "Ann", "species": "begator", "cells": [[0, 1]]},
...         {"player": "Ben", "species": "flora", "cells": [[2, 0]]},
...     ],
...     "sides": {"begator": "A", "flora": "A"},
... })
>>> [(s.player, s.score) for s in result.standings]
[('Ann', 14), ('Ben', 0)]
>>> result.standing("Ann").breakdown[0].label
'Begator (A) at row 1, col 2: 7 spaces in neighbouring territories, 2 points each'

Sentences count rows and columns from 1 (the top-left space is "row 1, col 1"); JSON
positions are ``[row, col]`` counted from 0, as everywhere in the API.

Score request (``POST /api/v1/games/oddland/score``), beyond ``../shared/API.md``:

- ``definitions`` (optional): ``{"owloose": {"B": {"points": 1, "per": "space",
  "region": "diagonals", "terrain": "F"}}}`` teaches the app how a species card side
  scores, in the vocabulary of :class:`~companion.games.oddland_species.SideRule`
  (``points``, ``per``, ``region``, ``terrain``, ``species``, ``count_own_space``,
  ``two_space``, ``solo_modifier``). A definition replaces a built-in side of the same
  name. Built in: Begator A (2 points per space in neighbouring territories, solo
  modifier -3) and Flora A (no points).
- ``sides`` values are ``"A"``, ``"B"`` or ``null`` (not chosen yet). A token whose
  species has no side, or a side the app cannot compute, is scored 0 and named in
  ``warnings``, unless ``points`` gives that player's points for the species.
- ``points`` values are whole numbers or ``null`` (not entered). They are the number
  written on the scoreboard for that player and species, so they replace the computed
  value, solo modifier included. Negative points are accepted in solo mode only.
- ``solo`` (optional): defaults to true with one player and false otherwise; true needs
  exactly one player. In solo mode each species card's solo modifier is added once to
  the species' computed score (a breakdown line of its own) for every species the
  player has at least one token of. The result otherwise reads like a normal game: the
  solo player is ranked first and ``decided_by`` is ``"score"``.
- Limits: each player has 7 tokens, 2 of them Flora; with 4-5 players one Flora goes
  back to the box (6 tokens, 1 Flora). Species the app does not list come one per
  player. ``finished`` is true when every player has placed all their tokens.
- Breakdown: one line per token (``"Begator (A) at row 1, col 2: 6 spaces in
  neighbouring territories, 2 points each"``), one line per species entered in
  ``points``, and one per solo modifier. Lines come species by species (the app's
  order, then others alphabetically), tokens in reading order, so the result does not
  depend on the order tokens are listed in.
- Tiebreak ``"Territories holding tokens, largest first"``: for each token the size of
  its territory (the larger one for a two-space token lying in two), sorted largest
  first; a merged territory holding two of a player's tokens counts once per token.

Map analysis (``POST /api/v1/games/oddland/map``): ``{"map": [...], "tokens": [...],
"players": [...]}`` (``tokens`` and ``players`` optional; with ``players``, every token
must belong to one of them). The response is ``{"territories": [...]}`` as API.md says;
a territory's ``tokens`` are indexes into the request's ``tokens``.

Placement check (``POST /api/v1/games/oddland/placement``)::

    {"map": ["FFWW", "FSSW"], "tokens": [...], "players": ["Ann", "Ben"],
     "card": {"at": [2, 0], "terrains": ["MM", "WS"]},
     "token": {"player": "Ann", "species": "begator", "cells": [[2, 1]]}}

``card.at`` is the card's top-left position (it may be negative: above or left of the
map), ``card.terrains`` its two rows as laid on the table. ``token`` (optional) is the
token placed this turn; ``players`` (optional) enables the token-supply check. The
response is ``{"legal": true, "problems": [], "map": [...], "tokens": [...],
"shift": [0, 0]}``: ``problems`` lists every broken rule (``path`` and ``message``);
when legal, ``map`` and ``tokens`` are the table after the turn and ``shift`` is how far
every earlier position moved down and right because the card lies above or left of
the old map (``null`` for all three when not legal). A malformed request (unknown
letters, positions that are not pairs...) is a 422 like any invalid state.

Play-along games (stored state, also accepted by ``oddland/score``): ``cards`` (optional)
lists the turns in order, each ``{"card": {"at": [r, c], "terrains": ["FS", "WM"]},
"token": {"player": ..., "species": ..., "cells": [[r, c]]}}`` with positions as the
placement check reads them (relative to the map before that card). The map and tokens
are then built by laying the cards one by one, so ``map`` and ``tokens`` stay empty;
every turn must be legal, and a problem names the card (``cards[2].card``).

Interpretations where the rulebook is silent: a two-space token must lie entirely on
the card just played, on two spaces sharing an edge, and neither of its territories
may already hold a token; a card that overlaps the map touches it; a card is only legal
if at least one of its spaces (two adjacent ones for a two-space token) could take a
token.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, assert_never

import pydantic

from companion.games.base import (
    STRICT,
    BreakdownLine,
    Entry,
    Game,
    InvalidStateError,
    Problem,
    Result,
    Roster,
    Tiebreak,
    list_size,
    name_problems,
    object_size,
    path_of,
    player_count_problems,
    players_size,
    problems_of,
    rank,
    text_size,
    validate_model,
    whole_number,
)
from companion.games.grid import (
    Cell,
    block,
    components,
    lines,
    neighbours,
    place_name,
    places_name,
    shift_for,
    shifted,
    shifted_spaces,
)
from companion.games.oddland_species import (
    BEGATOR,
    FLORA,
    MAP_CARDS,
    SETS_IN_BOX,
    SPACES_PER_CARD,
    SPECIES,
    TOKENS_PER_SET,
    TWO_SPACE_SPECIES,
    Region,
    Side,
    SideRule,
    Terrain,
    TwoSpace,
    Unit,
    count_phrase,
    is_species_key,
    spaces_of,
    species_name,
    token_limit,
    tokens_per_player,
)

SLUG = "oddland"
MIN_PLAYERS, MAX_PLAYERS = 1, 5

#: Characters that mark a position without a card.
EMPTY = frozenset({".", " "})
EMPTY_MARK = "."
TERRAIN_LETTERS = frozenset(t.value for t in Terrain)
SIDE_LETTERS = frozenset(s.value for s in Side)
MAX_SPACES = MAP_CARDS * SPACES_PER_CARD
CARD_SIZE = 2
#: What the map cards can make. The first card spans 2 rows and 2 columns; every further
#: card shares an edge with the map (or overlaps it), so it stretches the box around the
#: spaces by at most 2 in one direction and 1 in the other. The spaces therefore span at
#: most 2 + 36 x 2 = 74 rows or columns, and 4 + 36 x 3 = 112 rows and columns together
#: (a staircase of cards reaches both).
MAX_CARD_EXTENT = CARD_SIZE + (MAP_CARDS - 1) * CARD_SIZE
MAX_CARD_SPAN = 2 * CARD_SIZE + (MAP_CARDS - 1) * (CARD_SIZE + 1)
#: How many rows, or positions in a row, a map's text may span: generous, so that empty
#: rows and columns a table left around its spaces still fit; the spaces themselves must
#: stay within what the cards make (above).
MAX_MAP_EXTENT = MAX_SPACES
POSITION_LENGTH = 2  # [row, col]
MAX_TOKEN_SPACES = 2
MAX_COVERED_SPACES = 2
MAX_SPECIES_POINTS = 999
#: Every token in the box: each of the 5 sets holds 7.
MAX_TOKENS = SETS_IN_BOX * TOKENS_PER_SET

BEGATOR_POINTS_PER_SPACE = 2
BEGATOR_A_SOLO_MODIFIER = -3
FLORA_A_SOLO_MODIFIER = 0  # the rulebook shows none; assumed 0

TIEBREAK = "Territories holding tokens, largest first"
#: Where a token lies in words ("row 3, cols 4-5"); the grid module's, named as before.
describe_cells = places_name

#: After the score: the sizes of the territories holding the player's tokens, largest first.
TERRITORY_TIEBREAK = Tiebreak(TIEBREAK, rule="oddland/tiebreak/territories")

#: The rules entries the placement referee applies.
EDGE_RULE = "oddland/placement/edge"
COVER_RULE = "oddland/placement/cover"
ROOM_RULE = "oddland/placement/room"
TOKEN_RULE = "oddland/placement/token"
TERRITORY_RULE = "oddland/placement/territory"

TRUE_WORDS = frozenset({"true", "on", "yes", "1"})
FALSE_WORDS = frozenset({"false", "off", "no", "0"})


# --- the things on the table ------------------------------------------------------------


@dataclass(frozen=True)
class Token:
    """A species token: its owner, species key and the space(s) it covers."""

    player: str
    species: str
    cells: tuple[Cell, ...]

    def to_json(self) -> dict[str, Any]:
        """The API shape of a token."""
        return {
            "player": self.player,
            "species": self.species,
            "cells": [list(cell) for cell in self.cells],
        }


@dataclass(frozen=True)
class Territory:
    """A maximal orthogonally connected set of spaces of one terrain."""

    id: int
    terrain: Terrain
    cells: tuple[Cell, ...]
    neighbors: tuple[int, ...]
    tokens: tuple[int, ...]

    @property
    def size(self) -> int:
        """How many spaces the territory has."""
        return len(self.cells)

    def to_json(self) -> dict[str, Any]:
        """The API shape of a territory (``tokens`` are indexes into the token list)."""
        return {
            "id": self.id,
            "terrain": self.terrain.value,
            "size": self.size,
            "cells": [list(cell) for cell in self.cells],
            "neighbors": list(self.neighbors),
            "tokens": list(self.tokens),
        }


@dataclass(frozen=True)
class MapAnalysis:
    """A map cut into territories, with the tokens on it and lines for quick look-ups."""

    spaces: Mapping[Cell, Terrain]
    territories: tuple[Territory, ...]
    territory_of: Mapping[Cell, int]
    tokens: tuple[Token, ...]
    token_at: Mapping[Cell, int]
    rows: Mapping[int, tuple[Cell, ...]]
    columns: Mapping[int, tuple[Cell, ...]]
    #: Spaces on each down-right diagonal (keyed by row - col) and down-left one (row + col).
    falling: Mapping[int, tuple[Cell, ...]]
    rising: Mapping[int, tuple[Cell, ...]]

    def territories_of(self, index: int) -> tuple[int, ...]:
        """The territories under a token, ascending (two for a two-space token across two)."""
        return tuple(sorted({self.territory_of[cell] for cell in self.tokens[index].cells}))

    def neighbors_of(self, own: Iterable[int]) -> tuple[int, ...]:
        """The territories sharing an edge with any of ``own``, other than ``own`` itself."""
        mine = set(own)
        found = {n for t in mine for n in self.territories[t].neighbors}
        return tuple(sorted(found - mine))

    def to_json(self) -> dict[str, Any]:
        """The ``oddland/map`` response."""
        return {"territories": [t.to_json() for t in self.territories]}


def analyse_map(rows: Sequence[str], tokens: Sequence[Token] = ()) -> MapAnalysis:
    """Find the territories of a map and where the tokens lie.

    Territories are numbered in reading order of their first space; their cells are in
    reading order and their neighbours ascending. Raises :class:`InvalidStateError` with
    every problem when the map or the tokens are impossible.

    >>> analysis = analyse_map(["FFW", "FWW", ".MM"])
    >>> [(t.id, t.terrain.value, t.size, t.neighbors) for t in analysis.territories]
    [(0, 'F', 3, (1,)), (1, 'W', 3, (0, 2)), (2, 'M', 2, (1,))]
    >>> analysis.territories[0].cells
    ((0, 0), (0, 1), (1, 0))
    """
    problems = map_problems(rows)
    if not problems:
        problems = token_problems(tokens, rows=rows)
    if problems:
        raise InvalidStateError(problems)
    return _analyse(_terrain_map(rows), tokens)


def _terrain_map(rows: Sequence[str]) -> dict[Cell, Terrain]:
    return {
        (r, c): Terrain(letter)
        for r, row in enumerate(rows)
        for c, letter in enumerate(row)
        if letter not in EMPTY
    }


def _analyse(spaces: Mapping[Cell, Terrain], tokens: Sequence[Token]) -> MapAnalysis:
    """Analyse spaces given by position (positions may be negative while placing a card)."""
    order = sorted(spaces)
    groups = components(spaces, spaces.__getitem__)
    territory_of = {cell: number for number, cells in enumerate(groups) for cell in cells}
    neighbors: list[set[int]] = [set() for _ in groups]
    for (r, c), here in territory_of.items():
        # Looking right and down only visits every shared edge once.
        for other in (territory_of.get((r + 1, c)), territory_of.get((r, c + 1))):
            if other is not None and other != here:
                neighbors[here].add(other)
                neighbors[other].add(here)
    token_at: dict[Cell, int] = {}
    holders: list[list[int]] = [[] for _ in groups]
    for index, token in enumerate(tokens):
        for cell in token.cells:
            token_at[cell] = index
        for territory in sorted({territory_of[cell] for cell in token.cells}):
            holders[territory].append(index)
    territories = tuple(
        Territory(
            id=number,
            terrain=spaces[cells[0]],
            cells=cells,
            neighbors=tuple(sorted(neighbors[number])),
            tokens=tuple(holders[number]),
        )
        for number, cells in enumerate(groups)
    )
    return MapAnalysis(
        spaces=spaces,
        territories=territories,
        territory_of=territory_of,
        tokens=tuple(tokens),
        token_at=token_at,
        rows=lines(order, lambda cell: cell[0]),
        columns=lines(order, lambda cell: cell[1]),
        falling=lines(order, lambda cell: cell[0] - cell[1]),
        rising=lines(order, lambda cell: cell[0] + cell[1]),
    )


def region_cells(
    analysis: MapAnalysis, cells: Sequence[Cell], region: Region, own: Collection[int]
) -> set[Cell]:
    """The spaces of ``region`` seen from a token on ``cells`` whose territories are ``own``.

    Lines and blocks of a two-space token are those of both its spaces together; the
    token's own spaces are always part of its row, column, diagonals and surroundings.

    >>> a = analyse_map(["FFW", "SWW"])
    >>> sorted(region_cells(a, [(0, 0)], Region.DIAGONALS, [0]))
    [(0, 0), (1, 1)]
    """
    match region:
        case Region.TERRITORY:
            return {cell for t in own for cell in analysis.territories[t].cells}
        case Region.NEIGHBORS:
            neighbors = analysis.neighbors_of(own)
            return {cell for t in neighbors for cell in analysis.territories[t].cells}
        case Region.ROW:
            return _on_lines(analysis.rows, {r for r, _ in cells})
        case Region.COLUMN:
            return _on_lines(analysis.columns, {c for _, c in cells})
        case Region.ROW_AND_COLUMN:
            return region_cells(analysis, cells, Region.ROW, own) | region_cells(
                analysis, cells, Region.COLUMN, own
            )
        case Region.DIAGONALS:
            return _on_lines(analysis.falling, {r - c for r, c in cells}) | _on_lines(
                analysis.rising, {r + c for r, c in cells}
            )
        case Region.SURROUNDING:
            around = {near for cell in cells for near in block(cell)}
            return {cell for cell in around if cell in analysis.spaces}
        case Region.MAP:
            return set(analysis.spaces)
        case _:  # pragma: no cover - every region is handled above
            assert_never(region)


def _on_lines(found: Mapping[int, tuple[Cell, ...]], keys: Iterable[int]) -> set[Cell]:
    return {cell for key in keys for cell in found.get(key, ())}


def rule_territories(analysis: MapAnalysis, index: int, pick: TwoSpace) -> tuple[int, ...]:
    """The territory a rule treats as the token's own (one; see ``SideRule.two_space``)."""
    mine = analysis.territories_of(index)
    if len(mine) <= 1:
        return mine
    size = {t: analysis.territories[t].size for t in mine}
    if pick is TwoSpace.SMALLEST:
        return (min(mine, key=lambda t: (size[t], t)),)
    return (max(mine, key=lambda t: (size[t], -t)),)


def rule_count(analysis: MapAnalysis, index: int, rule: SideRule) -> int:
    """How many units ``rule`` counts for token ``index`` (multiply by its points).

    >>> a = analyse_map(["FFWW", "FSSW", "MM.."], [Token("Ann", "begator", ((0, 1),))])
    >>> rule_count(a, 0, SideRule(points=2, region=Region.NEIGHBORS))
    7
    >>> rule_count(a, 0, SideRule(points=1, per=Unit.TERRITORY, region=Region.MAP))
    4
    """
    token = analysis.tokens[index]
    own = rule_territories(analysis, index, rule.two_space)
    cells = region_cells(analysis, token.cells, rule.region, own)
    if not rule.count_own_space:
        cells.difference_update(token.cells)
    if rule.terrain is not None:
        cells = {cell for cell in cells if analysis.spaces[cell] is rule.terrain}
    match rule.per:
        case Unit.SPACE:
            return len(cells)
        case Unit.TERRITORY:
            return len({analysis.territory_of[cell] for cell in cells})
        case Unit.TOKEN:
            found = {analysis.token_at[cell] for cell in cells if cell in analysis.token_at}
            if rule.species is not None:
                found = {t for t in found if analysis.tokens[t].species == rule.species}
            return len(found)
        case _:  # pragma: no cover - every unit is handled above
            assert_never(rule.per)


# --- token facts ---------------------------------------------------------------------


@dataclass(frozen=True)
class AreaCounts:
    """What lies in one region around a token: spaces by terrain, territories, tokens."""

    spaces: int
    terrains: Mapping[Terrain, int]
    territories: int
    tokens: int
    species: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        """The API shape (every terrain letter present, species in the app's order)."""
        return {
            "spaces": self.spaces,
            "terrains": {t.value: self.terrains.get(t, 0) for t in Terrain},
            "territories": self.territories,
            "tokens": self.tokens,
            "species": {key: self.species[key] for key in sorted(self.species, key=_by_species)},
        }


@dataclass(frozen=True)
class TokenFacts:
    """Everything a species card could ask about one token, counted for the table."""

    index: int
    token: Token
    territories: tuple[Territory, ...]
    neighbors: tuple[Territory, ...]
    areas: Mapping[Region, AreaCounts]

    def to_json(self) -> dict[str, Any]:
        """The API shape: territories and neighbours as id, terrain and size."""
        return {
            "token": self.index,
            **self.token.to_json(),
            "territories": [_territory_ref(t) for t in self.territories],
            "neighbors": [_territory_ref(t) for t in self.neighbors],
            "areas": {region.value: counts.to_json() for region, counts in self.areas.items()},
        }


def _territory_ref(territory: Territory) -> dict[str, Any]:
    return {"id": territory.id, "terrain": territory.terrain.value, "size": territory.size}


def token_facts(analysis: MapAnalysis) -> tuple[TokenFacts, ...]:
    """For every token: its territories, neighbours, and counts in every region.

    Regions are those of the scoring vocabulary (own territory, neighbouring
    territories, row, column, row and column, diagonals, surrounding 3x3 block, whole
    map). Counts include the token's own space(s) and the token itself, as the rulebook
    counts them; for a two-space token the own territory and neighbours cover both its
    territories.

    >>> a = analyse_map(["FFWW", "FSSW"], [Token("Ann", "begator", ((0, 1),))])
    >>> facts = token_facts(a)[0]
    >>> [t.size for t in facts.neighbors], facts.areas[Region.ROW].terrains[Terrain.WATER]
    ([3, 2], 2)
    >>> facts.areas[Region.SURROUNDING].spaces, dict(facts.areas[Region.MAP].species)
    (6, {'begator': 1})
    """
    # The whole map looks the same from every token: count it once.
    whole = _area_counts(analysis, analysis.spaces.keys())
    return tuple(_facts(analysis, index, whole) for index in range(len(analysis.tokens)))


def _facts(analysis: MapAnalysis, index: int, whole: AreaCounts) -> TokenFacts:
    token = analysis.tokens[index]
    own = analysis.territories_of(index)
    areas = {
        region: whole
        if region is Region.MAP
        else _area_counts(analysis, region_cells(analysis, token.cells, region, own))
        for region in Region
    }
    return TokenFacts(
        index=index,
        token=token,
        territories=tuple(analysis.territories[t] for t in own),
        neighbors=tuple(analysis.territories[t] for t in analysis.neighbors_of(own)),
        areas=areas,
    )


def _area_counts(analysis: MapAnalysis, cells: Collection[Cell]) -> AreaCounts:
    tokens = {analysis.token_at[cell] for cell in cells if cell in analysis.token_at}
    return AreaCounts(
        spaces=len(cells),
        terrains=Counter(analysis.spaces[cell] for cell in cells),
        territories=len({analysis.territory_of[cell] for cell in cells}),
        tokens=len(tokens),
        species=Counter(analysis.tokens[t].species for t in tokens),
    )


_SPECIES_ORDER = {key: position for position, key in enumerate(SPECIES)}


def _by_species(key: str) -> tuple[int, str]:
    """Known species in the app's order, then the others alphabetically."""
    return (_SPECIES_ORDER.get(key, len(_SPECIES_ORDER)), key)


# --- describing places ----------------------------------------------------------------


# --- request shapes -------------------------------------------------------------------


class TokenModel(pydantic.BaseModel):
    """A token as entered: owner, species key and ``[row, col]`` positions."""

    model_config = STRICT

    player: str
    species: str
    cells: list[list[int]]


class StateModel(pydantic.BaseModel):
    """A whole Oddland table at scoring time (shape only; rules are checked afterwards)."""

    model_config = STRICT

    players: list[str]
    map: list[str] = []
    tokens: list[TokenModel] = []
    sides: dict[str, str | None] = {}
    points: dict[str, dict[str, int | None]] = {}
    solo: bool | None = None
    definitions: dict[str, dict[str, SideRule]] = {}
    cards: list[TurnModel] = []


class MapModel(pydantic.BaseModel):
    """The ``oddland/map`` request."""

    model_config = STRICT

    map: list[str]
    tokens: list[TokenModel] = []
    players: list[str] | None = None


class CardModel(pydantic.BaseModel):
    """A map card as laid: top-left ``[row, col]`` and its two rows of terrain letters."""

    model_config = STRICT

    at: list[int]
    terrains: list[str]


class TurnModel(pydantic.BaseModel):
    """One turn of a play-along game: the card laid and the token placed on it."""

    model_config = STRICT

    card: CardModel
    token: TokenModel | None = None


class PlacementModel(pydantic.BaseModel):
    """The ``oddland/placement`` request."""

    model_config = STRICT

    map: list[str] = []
    tokens: list[TokenModel] = []
    players: list[str] | None = None
    card: CardModel
    token: TokenModel | None = None


# --- sizes, checked before any item -----------------------------------------------------


ROWS_TOO_MANY = "A map can span at most {most} rows, not {count}."
ROW_TOO_LONG = "A row can span at most {most} spaces."
POSITION_NOT_PAIR = "A position is a pair [row, col]."
CARD_NOT_2X2 = "A card has 2 rows of 2 spaces."
CARD_ROW_WRONG = "A card row has 2 spaces, each F, S, W or M."

_MAP_SIZE = list_size(
    MAX_MAP_EXTENT,
    lambda n: ROWS_TOO_MANY.format(most=MAX_MAP_EXTENT, count=n),
    text_size(MAX_MAP_EXTENT, lambda n: ROW_TOO_LONG.format(most=MAX_MAP_EXTENT)),
)
_POSITION_SIZE = list_size(POSITION_LENGTH, lambda n: POSITION_NOT_PAIR)
_TOKEN_SIZE = object_size(
    {
        "player": text_size(),
        "species": text_size(),
        "cells": list_size(
            MAX_TOKEN_SPACES,
            lambda n: f"A token covers at most {MAX_TOKEN_SPACES} spaces, not {n}.",
            _POSITION_SIZE,
        ),
    }
)
_TOKENS_SIZE = list_size(
    MAX_TOKENS,
    lambda n: f"The box holds {MAX_TOKENS} tokens, but {n} were entered.",
    _TOKEN_SIZE,
)
_CARD_SIZE = object_size(
    {
        "at": _POSITION_SIZE,
        "terrains": list_size(
            CARD_SIZE, lambda n: CARD_NOT_2X2, text_size(CARD_SIZE, lambda n: CARD_ROW_WRONG)
        ),
    }
)
_PLAYERS_SIZE = players_size(MIN_PLAYERS, MAX_PLAYERS)
#: Sizes of a score request: players, map rows and their length, tokens, species
#: entries, definitions and play-along turns (no more than the box has cards).
STATE_SIZE = object_size(
    {
        "players": _PLAYERS_SIZE,
        "map": _MAP_SIZE,
        "tokens": _TOKENS_SIZE,
        "sides": object_size(each=text_size()),
        "points": object_size(each=object_size()),
        "definitions": object_size(each=object_size(each=object_size(each=text_size()))),
        "cards": list_size(
            MAP_CARDS,
            lambda n: f"The box has {MAP_CARDS} map cards, but {n} turns were entered.",
            object_size({"card": _CARD_SIZE, "token": _TOKEN_SIZE}),
        ),
    }
)
MAP_REQUEST_SIZE = object_size(
    {"map": _MAP_SIZE, "tokens": _TOKENS_SIZE, "players": _PLAYERS_SIZE}
)
PLACEMENT_SIZE = object_size(
    {
        "map": _MAP_SIZE,
        "tokens": _TOKENS_SIZE,
        "players": _PLAYERS_SIZE,
        "card": _CARD_SIZE,
        "token": _TOKEN_SIZE,
    }
)


# --- validation -----------------------------------------------------------------------


def map_problems(rows: Sequence[str], *, path: str = "map") -> list[Problem]:
    """Every problem with map rows: unknown letters, too big for the box.

    >>> print(*[p.message for p in map_problems(["FFx", "WW"])])
    Row 1 has "x"; use F (forest), S (shore), W (water), M (mountain) or "." for no card.
    """
    if len(rows) > MAX_MAP_EXTENT:
        return [Problem(path, ROWS_TOO_MANY.format(most=MAX_MAP_EXTENT, count=len(rows)))]
    problems = []
    for r, row in enumerate(rows):
        if len(row) > MAX_MAP_EXTENT:
            problems.append(Problem(f"{path}[{r}]", ROW_TOO_LONG.format(most=MAX_MAP_EXTENT)))
            continue
        bad = sorted({ch for ch in row if ch not in EMPTY and ch not in TERRAIN_LETTERS})
        if bad:
            shown = ", ".join(f'"{ch}"' for ch in bad)
            problems.append(
                Problem(
                    f"{path}[{r}]",
                    f"Row {r + 1} has {shown}; use F (forest), S (shore), W (water), "
                    'M (mountain) or "." for no card.',
                )
            )
    count = sum(1 for row in rows for ch in row if ch not in EMPTY)
    if count > MAX_SPACES:
        problems.append(
            Problem(
                path,
                f"The {MAP_CARDS} map cards in the box make at most {MAX_SPACES} spaces, "
                f"but this map has {count}.",
            )
        )
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch not in EMPTY]
    too_wide = extent_message(cells)
    if too_wide is not None:
        problems.append(Problem(path, f"The spaces of this map span {too_wide}"))
    return problems


def extent_message(cells: Collection[Cell]) -> str | None:
    """The end of a sentence when ``cells`` span more than the map cards can make.

    >>> extent_message([(0, 0), (74, 0)])
    '75 rows and 1 column; the 37 map cards make at most 74 rows or columns, and 112 together.'
    >>> extent_message([(0, 0), (73, 37)]) is None
    True
    """
    if not cells:
        return None
    rows = max(r for r, _ in cells) - min(r for r, _ in cells) + 1
    cols = max(c for _, c in cells) - min(c for _, c in cells) + 1
    if max(rows, cols) <= MAX_CARD_EXTENT and rows + cols <= MAX_CARD_SPAN:
        return None
    return (
        f"{rows} row{'s' if rows > 1 else ''} and {cols} column{'s' if cols > 1 else ''}; "
        f"the {MAP_CARDS} map cards make at most {MAX_CARD_EXTENT} rows or columns, "
        f"and {MAX_CARD_SPAN} together."
    )


def token_problems(
    tokens: Sequence[Token], *, rows: Sequence[str], path: str = "tokens"
) -> list[Problem]:
    """Every problem with where tokens lie: species keys, shapes, off-map, shared spaces.

    >>> bad = [Token("Ann", "whalephant", ((0, 0), (1, 1))), Token("Ben", "flora", ((0, 0),))]
    >>> for problem in token_problems(bad, rows=["FF", "FF"]):
    ...     print(problem.path, problem.message)
    tokens[0].cells A Whalephant's two spaces must share an edge.
    tokens[1].cells[0] Another token (tokens[0]) already lies on row 1, col 1.
    """
    problems: list[Problem] = []
    taken: dict[Cell, int] = {}
    for index, token in enumerate(tokens):
        where = f"{path}[{index}]"
        if not is_species_key(token.species):
            problems.append(Problem(f"{where}.species", _species_key_message(token.species)))
        problems += shape_problems(token, path=f"{where}.cells")
        for number, cell in enumerate(token.cells):
            problem = _cell_problem(cell, rows)
            if problem is None and cell in taken and taken[cell] != index:
                problem = (
                    f"Another token ({path}[{taken[cell]}]) already lies on {place_name(cell)}."
                )
            if problem is not None:
                problems.append(Problem(f"{where}.cells[{number}]", problem))
            taken.setdefault(cell, index)
    return problems


def _cell_problem(cell: Cell, rows: Sequence[str]) -> str | None:
    r, c = cell
    if not (0 <= r < len(rows) and 0 <= c < len(rows[r])):
        return f"Row {r + 1}, col {c + 1} is outside the map."
    if rows[r][c] in EMPTY:
        return f"There is no map card at {place_name(cell)}; a token must lie on a space."
    return None


def shape_problems(token: Token, *, path: str) -> list[Problem]:
    """A token covers one space, or two sharing an edge for a two-space species.

    >>> [p.message for p in shape_problems(Token("Ann", "begator", ()), path="token.cells")]
    ['A Begator covers exactly 1 space, not 0.']
    """
    name = species_name(token.species)
    need = spaces_of(token.species)
    if len(token.cells) != need:
        noun = "space" if need == 1 else "spaces"
        return [Problem(path, f"A {name} covers exactly {need} {noun}, not {len(token.cells)}.")]
    if token.species in TWO_SPACE_SPECIES:
        (r1, c1), (r2, c2) = token.cells
        if abs(r1 - r2) + abs(c1 - c2) != 1:
            return [Problem(path, f"A {name}'s two spaces must share an edge.")]
    return []


def _species_key_message(key: str) -> str:
    return f'"{key}" is not a species key; use lower-case letters, digits and hyphens.'


def _cells(raw: Sequence[Sequence[int]], *, path: str) -> tuple[tuple[Cell, ...], list[Problem]]:
    """Positions as pairs; malformed ones are reported and left out."""
    cells: list[Cell] = []
    problems = []
    for number, pair in enumerate(raw):
        if len(pair) == POSITION_LENGTH:
            cells.append((pair[0], pair[1]))
        else:
            problems.append(Problem(f"{path}[{number}]", POSITION_NOT_PAIR))
    return tuple(cells), problems


def _token(
    model: TokenModel, *, path: str, names: Mapping[str, str] | None
) -> tuple[Token, list[Problem]]:
    """A token from its model, its owner matched to ``names`` (casefolded -> as seated)."""
    cells, problems = _cells(model.cells, path=f"{path}.cells")
    owner = model.player.strip()
    if names is not None:
        seated = names.get(owner.casefold())
        if seated is None:
            problems.append(Problem(f"{path}.player", f'"{owner}" is not one of the players.'))
        owner = seated or owner
    elif not owner:
        problems.append(Problem(f"{path}.player", "A token needs its owner's name."))
    return Token(owner, model.species, cells), problems


def _tokens(
    models: Sequence[TokenModel], *, names: Mapping[str, str] | None
) -> tuple[list[Token], list[Problem]]:
    """Tokens from their models, and every problem with owners and position pairs."""
    tokens: list[Token] = []
    problems: list[Problem] = []
    for index, model in enumerate(models):
        token, bad = _token(model, path=f"tokens[{index}]", names=names)
        tokens.append(token)
        problems += bad
    return tokens, problems


def _where_tokens_lie(
    tokens: Sequence[Token], *, rows: Sequence[str], entry_problems: Sequence[Problem]
) -> list[Problem]:
    """Location and shape problems, minus shape noise where a position was malformed."""
    malformed = {p.path.rsplit("[", 1)[0] for p in entry_problems if p.path.endswith("]")}
    return [p for p in token_problems(tokens, rows=rows) if p.path not in malformed]


def _seating(players: Sequence[str]) -> dict[str, str]:
    """Casefolded name -> name as seated (the first of duplicates, already reported)."""
    return Roster.of(players).seated


def supply_problems(
    tokens: Sequence[Token], *, player_count: int, path: str = "tokens"
) -> list[Problem]:
    """Nobody places more tokens, in all or of one species, than their set holds.

    >>> two = [Token("Ann", "begator", ((0, 0),)), Token("Ann", "begator", ((0, 1),))]
    >>> [p.message for p in supply_problems(two, player_count=2)]
    ['Ann has only 1 Begator token.']
    """
    problems = []
    per_species: Counter[tuple[str, str]] = Counter()
    per_player: Counter[str] = Counter()
    total = tokens_per_player(player_count)
    for index, token in enumerate(tokens):
        per_species[token.player, token.species] += 1
        per_player[token.player] += 1
        limit = token_limit(token.species, player_count=player_count)
        if per_species[token.player, token.species] > limit:
            problems.append(
                Problem(f"{path}[{index}].species", _limit_message(token, limit, player_count))
            )
        elif per_player[token.player] > total:
            problems.append(
                Problem(
                    f"{path}[{index}]",
                    f"With {player_count} player{'s' if player_count > 1 else ''} each player "
                    f"has {total} tokens; this is {token.player}'s token number "
                    f"{per_player[token.player]}.",
                )
            )
    return problems


def _limit_message(token: Token, limit: int, player_count: int) -> str:
    noun = "token" if limit == 1 else "tokens"
    message = f"{token.player} has only {limit} {species_name(token.species)} {noun}"
    if token.species == FLORA and limit == 1:
        message += f" (with {player_count} players one Flora goes back to the box)"
    return message + "."


def _is_solo(model: StateModel) -> bool:
    return model.solo if model.solo is not None else len(model.players) == 1


def _board(
    model: StateModel, names: Mapping[str, str]
) -> tuple[Sequence[str], list[Token], list[Problem]]:
    """The map rows and tokens of a state (laid card by card for a play-along game)."""
    if model.cards:
        rows, tokens, problems = replay(model.cards, players=model.players)
        if model.map or model.tokens:
            problems.append(Problem("cards", PLAY_ALONG_BOARD))
        return rows, tokens, problems
    problems = map_problems(model.map)
    tokens, entry = _tokens(model.tokens, names=names)
    problems += entry
    problems += _where_tokens_lie(tokens, rows=model.map, entry_problems=entry)
    return model.map, tokens, problems


def _state_problems(
    model: StateModel, *, tokens: Sequence[Token], board: Sequence[Problem]
) -> list[Problem]:
    count = len(model.players)
    problems = player_count_problems(count, minimum=MIN_PLAYERS, maximum=MAX_PLAYERS)
    problems += name_problems(model.players, path=lambda i: f"players[{i}]")
    if model.solo and count != 1:
        problems.append(
            Problem("solo", f"Solo mode is for 1 player, but {count} players were entered.")
        )
    names = _seating(model.players)
    problems += board
    problems += supply_problems(tokens, player_count=max(count, MIN_PLAYERS))
    problems += _side_problems(model.sides)
    problems += _points_problems(model.points, names=names, solo=_is_solo(model))
    problems += _definition_problems(model.definitions)
    return problems


def _side_problems(sides: Mapping[str, str | None]) -> list[Problem]:
    problems = []
    for species, side in sides.items():
        where = path_of(["sides", species])
        if not is_species_key(species):
            problems.append(Problem(where, _species_key_message(species)))
        elif side is not None and side not in SIDE_LETTERS:
            problems.append(Problem(where, f'A species card has side "A" or "B", not "{side}".'))
    return problems


def _points_problems(
    points: Mapping[str, Mapping[str, int | None]], *, names: Mapping[str, str], solo: bool
) -> list[Problem]:
    problems = []
    for player, entries in points.items():
        if player.strip().casefold() not in names:
            problems.append(
                Problem(path_of(["points", player]), f'"{player}" is not one of the players.')
            )
        for species, value in entries.items():
            where = path_of(["points", player, species])
            if not is_species_key(species):
                problems.append(Problem(where, _species_key_message(species)))
            elif value is None:
                continue
            elif value < 0 and not solo:
                problems.append(Problem(where, "Points cannot be negative outside solo mode."))
            elif abs(value) > MAX_SPECIES_POINTS:
                problems.append(
                    Problem(where, f"One species scores at most {MAX_SPECIES_POINTS} points.")
                )
    return problems


def _definition_problems(definitions: Mapping[str, Mapping[str, SideRule]]) -> list[Problem]:
    problems = []
    for species, sides in definitions.items():
        if not is_species_key(species):
            problems.append(
                Problem(path_of(["definitions", species]), _species_key_message(species))
            )
        for side in sides:
            if side not in SIDE_LETTERS:
                problems.append(
                    Problem(
                        path_of(["definitions", species, side]),
                        f'A species card has side "A" or "B", not "{side}".',
                    )
                )
    return problems


# --- a parsed table -------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """A validated Oddland table, ready to score."""

    players: tuple[str, ...]
    analysis: MapAnalysis
    sides: Mapping[str, Side]
    points: Mapping[tuple[str, str], int]
    definitions: Mapping[tuple[str, Side], SideRule]
    solo: bool


def parse(state: object) -> Table:
    """Validate a score request and return the table; raises with every problem.

    >>> table = parse({"players": ["Ann"], "map": ["FS"], "tokens": []})
    >>> table.solo, [t.size for t in table.analysis.territories]
    (True, [1, 1])
    """
    model = validate_model(StateModel, state, STATE_SIZE)
    names = _seating(model.players)
    rows, tokens, board = _board(model, names)
    problems = _state_problems(model, tokens=tokens, board=board)
    if problems:
        raise InvalidStateError(problems)
    points = {
        (names[player.strip().casefold()], species): value
        for player, entries in model.points.items()
        for species, value in entries.items()
        if value is not None
    }
    return Table(
        players=tuple(names.values()),
        analysis=_analyse(_terrain_map(rows), tokens),
        sides={key: Side(side) for key, side in model.sides.items() if side is not None},
        points=points,
        definitions={
            (species, Side(side)): rule
            for species, sides in model.definitions.items()
            for side, rule in sides.items()
        },
        solo=_is_solo(model),
    )


# --- scoring --------------------------------------------------------------------------


@dataclass(frozen=True)
class TokenScore:
    """A token's points and what was counted, for its breakdown line."""

    points: int
    detail: str


Scorer = Callable[[MapAnalysis, int], TokenScore]


@dataclass(frozen=True)
class SideScoring:
    """How one species card side scores a token, and its solo modifier."""

    scorer: Scorer
    solo_modifier: int


def begator_a(analysis: MapAnalysis, index: int) -> TokenScore:
    """Begator A: 2 points per space in the territories neighbouring its territory.

    >>> a = analyse_map(["FFWW", "FSSW", "MM.."], [Token("Ann", "begator", ((1, 1),))])
    >>> begator_a(a, 0)
    TokenScore(points=16, detail='8 spaces in neighbouring territories, 2 points each')
    """
    own = analysis.territories_of(index)
    spaces = sum(analysis.territories[t].size for t in analysis.neighbors_of(own))
    noun = "space" if spaces == 1 else "spaces"
    return TokenScore(
        BEGATOR_POINTS_PER_SPACE * spaces,
        f"{spaces} {noun} in neighbouring territories, {BEGATOR_POINTS_PER_SPACE} points each",
    )


def flora_a(analysis: MapAnalysis, index: int) -> TokenScore:
    """Flora A has no scoring effect."""
    return TokenScore(0, "no scoring effect")


#: Sides the app scores without a definition.
BUILT_IN: dict[tuple[str, Side], SideScoring] = {
    (BEGATOR, Side.A): SideScoring(begator_a, BEGATOR_A_SOLO_MODIFIER),
    (FLORA, Side.A): SideScoring(flora_a, FLORA_A_SOLO_MODIFIER),
}


def rule_score(analysis: MapAnalysis, index: int, rule: SideRule) -> TokenScore:
    """Score a token by a declared side.

    >>> a = analyse_map(["FFWW", "FSSW", "MM.."], [Token("Ann", "owloose", ((0, 0),))])
    >>> rule_score(a, 0, SideRule(points=3, region=Region.ROW, terrain=Terrain.WATER))
    TokenScore(points=6, detail='2 water spaces in its row, 3 points each')
    """
    count = rule_count(analysis, index, rule)
    if rule.points == 0:
        return TokenScore(0, "no points")
    detail = count_phrase(rule, count)
    if rule.points != 1:
        detail += f", {rule.points} points each"
    return TokenScore(rule.points * count, detail)


def _rule_scoring(rule: SideRule) -> SideScoring:
    return SideScoring(
        lambda analysis, index: rule_score(analysis, index, rule), rule.solo_modifier
    )


def side_scoring(table: Table, species: str) -> tuple[Side | None, SideScoring | None, str]:
    """The side in play for a species, how it scores, and why not when it cannot."""
    name = species_name(species)
    side = table.sides.get(species)
    if side is None:
        return None, None, f"no side was chosen for {name}"
    rule = table.definitions.get((species, side))
    if rule is not None:
        return side, _rule_scoring(rule), ""
    built_in = BUILT_IN.get((species, side))
    if built_in is not None:
        return side, built_in, ""
    return side, None, f"the app does not know how {name} {side.value} scores"


@dataclass(frozen=True)
class PlayerScore:
    """A player's breakdown lines and the warnings their tokens raised."""

    lines: tuple[BreakdownLine, ...]
    warnings: tuple[str, ...]


def score_player(table: Table, player: str) -> PlayerScore:
    """Breakdown lines for one player, species by species, tokens in reading order."""
    mine = [i for i, token in enumerate(table.analysis.tokens) if token.player == player]
    by_species: dict[str, list[int]] = {}
    for index in sorted(mine, key=lambda i: table.analysis.tokens[i].cells):
        by_species.setdefault(table.analysis.tokens[index].species, []).append(index)
    entered = {species for who, species in table.points if who == player}
    lines: list[BreakdownLine] = []
    warnings: list[str] = []
    for species in sorted(set(by_species) | entered, key=_by_species):
        manual = table.points.get((player, species))
        if manual is not None:
            lines.append(
                BreakdownLine(f"{species_name(species)}: entered on the scoreboard", manual)
            )
            continue
        more, warned = _species_lines(table, player, species, by_species[species])
        lines += more
        warnings += warned
    return PlayerScore(tuple(lines), tuple(warnings))


def _species_lines(
    table: Table, player: str, species: str, indexes: Sequence[int]
) -> tuple[list[BreakdownLine], list[str]]:
    side, scoring, reason = side_scoring(table, species)
    name = species_name(species)
    title = f"{name} ({side.value})" if side is not None else name
    lines, warnings = [], []
    for index in indexes:
        where = describe_cells(table.analysis.tokens[index].cells)
        if scoring is None:
            lines.append(BreakdownLine(f"{title} at {where}: not scored", 0))
            warnings.append(
                f"{player}'s {name} at {where} scored 0: {reason}; "
                f"enter {player}'s {name} points instead."
            )
            continue
        scored = scoring.scorer(table.analysis, index)
        lines.append(BreakdownLine(f"{title} at {where}: {scored.detail}", scored.points))
    if table.solo and scoring is not None and scoring.solo_modifier:
        lines.append(BreakdownLine(f"{title}: solo modifier", scoring.solo_modifier))
    return lines, warnings


def tiebreak_sizes(analysis: MapAnalysis, player: str) -> tuple[int, ...]:
    """Sizes of the territories holding a player's tokens, largest first (one per token).

    >>> tokens = [Token("A", "flora", ((0, 0),)), Token("A", "begator", ((0, 2),))]
    >>> a = analyse_map(["FFW"], tokens)
    >>> tiebreak_sizes(a, "A")
    (2, 1)
    """
    sizes = [
        max(analysis.territories[t].size for t in analysis.territories_of(index))
        for index, token in enumerate(analysis.tokens)
        if token.player == player
    ]
    return tuple(sorted(sizes, reverse=True))


def score_table(table: Table) -> Result:
    """Score a parsed table: standings, tiebreak by territory sizes, warnings."""
    scores = [score_player(table, player) for player in table.players]
    sizes = [tiebreak_sizes(table.analysis, player) for player in table.players]
    # Equal lengths make "no token at all" compare as the smallest territory.
    width = max((len(s) for s in sizes), default=0)
    entries = [
        Entry(
            player=player,
            score=sum(line.points for line in score.lines),
            tiebreak=(own + (0,) * (width - len(own)),),
            breakdown=score.lines,
        )
        for player, score, own in zip(table.players, scores, sizes, strict=True)
    ]
    ranking = rank(entries, tiebreaks=(TERRITORY_TIEBREAK,))
    needed = tokens_per_player(len(table.players))
    placed = Counter(token.player for token in table.analysis.tokens)
    finished = all(placed[player] == needed for player in table.players)
    warnings = [w for score in scores for w in score.warnings]
    if table.analysis.tokens and not finished:
        warnings.append(f"Not every player has placed all {needed} tokens yet: the game goes on.")
    return Result(SLUG, ranking.standings, ranking.decided_by, finished, tuple(warnings))


# --- placement referee ----------------------------------------------------------------


@dataclass(frozen=True)
class Card:
    """A 2x2 map card as laid: its top-left position and its two rows of terrain."""

    at: Cell
    rows: tuple[str, str]

    def spaces(self) -> dict[Cell, Terrain]:
        """The card's four spaces by position."""
        top, left = self.at
        return {
            (top + dr, left + dc): Terrain(self.rows[dr][dc])
            for dr in range(CARD_SIZE)
            for dc in range(CARD_SIZE)
        }


@dataclass(frozen=True)
class Placement:
    """The table after a legal turn; ``shift`` moved every earlier position."""

    rows: tuple[str, ...]
    tokens: tuple[Token, ...]
    shift: Cell

    def to_json(self) -> dict[str, Any]:
        """The map, tokens and shift of a legal placement response."""
        return {
            "map": list(self.rows),
            "tokens": [token.to_json() for token in self.tokens],
            "shift": list(self.shift),
        }


def card_problems(card: Card, *, path: str = "card") -> list[Problem]:
    """Shape problems of a card: position range and four terrain letters.

    >>> [p.message for p in card_problems(Card((0, 0), ("FS", "W.")))]
    ['A card row has 2 spaces, each F, S, W or M.']
    """
    problems = []
    if any(abs(x) > MAX_MAP_EXTENT for x in card.at):
        problems.append(Problem(f"{path}.at", "The card lies too far from the map."))
    for number, row in enumerate(card.rows):
        if len(row) != CARD_SIZE or any(ch not in TERRAIN_LETTERS for ch in row):
            problems.append(Problem(f"{path}.terrains[{number}]", CARD_ROW_WRONG))
    return problems


def check_placement(
    rows: Sequence[str],
    *,
    card: Card,
    tokens: Sequence[Token] = (),
    token: Token | None = None,
    players: Sequence[str] | None = None,
) -> list[Problem]:
    """Every rule a turn breaks: the card, then the token (if one is given).

    The card must share an edge with the map (the first card goes anywhere), may cover
    at most 2 spaces and never a token, and must leave room for a token. The token goes
    on the new card, into a territory without tokens; with ``players`` its owner must
    still have one of that species. Raises :class:`InvalidStateError` when the map,
    tokens or card themselves are malformed.

    >>> card = Card((2, 0), ("MM", "WS"))
    >>> check_placement(["FFWW", "FSSW"], card=card, token=Token("Ann", "begator", ((3, 1),)))
    []
    >>> far = Card((5, 5), ("MM", "WS"))
    >>> [p.message for p in check_placement(["FFWW", "FSSW"], card=far)]
    ['The card must share an edge with a space of the map.']
    """
    analysis = analyse_map(rows, tokens)
    shape = card_problems(card)
    if shape:
        raise InvalidStateError(shape)
    footprint = card.spaces()
    problems = _card_rule_problems(analysis, footprint)
    # A covered token is already reported; leaving it out keeps the rest meaningful.
    uncovered = [t for t in tokens if not any(cell in footprint for cell in t.cells)]
    after = _analyse({**analysis.spaces, **footprint}, uncovered)
    problems += _room_problems(after, footprint, token)
    if token is not None:
        problems += _token_rule_problems(after, footprint, token)
        if players is not None:
            problems += _supply_for(token, tokens, players)
    return problems


def _card_rule_problems(analysis: MapAnalysis, footprint: Mapping[Cell, Terrain]) -> list[Problem]:
    spaces = analysis.spaces
    covered = [cell for cell in footprint if cell in spaces]
    problems = []
    touches = bool(covered) or any(
        near in spaces for cell in footprint for near in neighbours(cell)
    )
    if spaces and not touches:
        problems.append(
            Problem("card", "The card must share an edge with a space of the map.", rule=EDGE_RULE)
        )
    if len(covered) > MAX_COVERED_SPACES:
        problems.append(
            Problem(
                "card",
                f"The card covers {len(covered)} spaces of the map; "
                f"at most {MAX_COVERED_SPACES} may be covered.",
                rule=COVER_RULE,
            )
        )
    for cell in covered:
        if cell in analysis.token_at:
            owner = analysis.tokens[analysis.token_at[cell]]
            problems.append(
                Problem(
                    "card",
                    f"The card would cover {owner.player}'s {species_name(owner.species)} at "
                    f"{place_name(cell)}; tokens are never covered.",
                    rule=COVER_RULE,
                )
            )
    after = set(spaces) | set(footprint)
    if len(after) > MAX_SPACES:
        problems.append(
            Problem("card", f"The {MAP_CARDS} cards of the box cannot make a map this big.")
        )
    too_wide = extent_message(after)
    if too_wide is not None:
        problems.append(Problem("card", f"With this card the map would span {too_wide}"))
    return problems


def _open(after: MapAnalysis, cell: Cell) -> bool:
    """Whether a token may go on ``cell``: its territory holds no token yet."""
    return cell in after.spaces and not after.territories[after.territory_of[cell]].tokens


def _room_problems(
    after: MapAnalysis, footprint: Mapping[Cell, Terrain], token: Token | None
) -> list[Problem]:
    free = [cell for cell in footprint if _open(after, cell)]
    if token is not None and token.species in TWO_SPACE_SPECIES:
        pairs = [
            (a, b)
            for a in free
            for b in free
            if a < b and abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
        ]
        if not pairs:
            return [
                Problem(
                    "card",
                    f"No two adjacent spaces of this card lie in territories without a token, "
                    f"so the {species_name(token.species)} has no room; move the card.",
                    rule=ROOM_RULE,
                )
            ]
        return []
    if not free:
        return [
            Problem(
                "card",
                "Every space of this card lies in a territory that already holds a token, "
                "so no token could go on it; move the card.",
                rule=ROOM_RULE,
            )
        ]
    return []


def _token_rule_problems(
    after: MapAnalysis, footprint: Mapping[Cell, Terrain], token: Token
) -> list[Problem]:
    problems = []
    if not is_species_key(token.species):
        problems.append(Problem("token.species", _species_key_message(token.species)))
    problems += shape_problems(token, path="token.cells")
    for number, cell in enumerate(token.cells):
        where = f"token.cells[{number}]"
        if cell not in footprint:
            problems.append(
                Problem(
                    where,
                    "A token goes on one of the 4 spaces of the card just played.",
                    rule=TOKEN_RULE,
                )
            )
        elif not _open(after, cell):
            holders = after.territories[after.territory_of[cell]].tokens
            first = after.tokens[holders[0]]
            problems.append(
                Problem(
                    where,
                    f"{place_name(cell).capitalize()} is in a territory that already holds "
                    f"{first.player}'s {species_name(first.species)}; a new token needs a "
                    "territory of its own.",
                    rule=TERRITORY_RULE,
                )
            )
    return problems


def _supply_for(token: Token, tokens: Sequence[Token], players: Sequence[str]) -> list[Problem]:
    names = _seating(players)
    owner = names.get(token.player.strip().casefold())
    if owner is None:
        return [Problem("token.player", f'"{token.player}" is not one of the players.')]
    count = len(players)
    mine = [t for t in tokens if t.player.strip().casefold() == owner.casefold()]
    same = sum(1 for t in mine if t.species == token.species)
    limit = token_limit(token.species, player_count=count)
    if same >= limit:
        placed = Token(owner, token.species, token.cells)
        return [Problem("token.species", _limit_message(placed, limit, count))]
    if len(mine) >= tokens_per_player(count):
        return [Problem("token", f"{owner} has already placed all {len(mine)} tokens.")]
    return []


def apply_placement(
    rows: Sequence[str],
    *,
    card: Card,
    tokens: Sequence[Token] = (),
    token: Token | None = None,
    players: Sequence[str] | None = None,
) -> Placement:
    """The table after a legal turn; raises :class:`InvalidStateError` for an illegal one.

    A card above or left of the map shifts every earlier position so that rows and
    columns start at 0 again.

    >>> after = apply_placement(
    ...     ["FFWW", "FSSW"], card=Card((-2, 1), ("MM", "WS")),
    ...     token=Token("Ann", "begator", ((-2, 1),)),
    ... )
    >>> after.rows, after.shift, after.tokens[0].cells
    (('.MM', '.WS', 'FFWW', 'FSSW'), (2, 0), ((0, 1),))
    """
    problems = check_placement(rows, card=card, tokens=tokens, token=token, players=players)
    if problems:
        raise InvalidStateError(problems)
    return _placed(rows, card=card, tokens=tokens, token=token)


def _placed(
    rows: Sequence[str], *, card: Card, tokens: Sequence[Token], token: Token | None
) -> Placement:
    """The table after a turn already checked."""
    spaces = {**_terrain_map(rows), **card.spaces()}
    placed = [*tokens, token] if token is not None else list(tokens)
    shift = shift_for([card.at])
    return Placement(
        rows=tuple(render_rows(shifted_spaces(spaces, shift))),
        tokens=tuple(Token(t.player, t.species, shifted(t.cells, shift)) for t in placed),
        shift=shift,
    )


def render_rows(spaces: Mapping[Cell, Terrain]) -> list[str]:
    """Map rows from spaces at non-negative positions (``.`` where there is no card).

    >>> render_rows({(0, 1): Terrain.FOREST, (2, 0): Terrain.WATER})
    ['.F', '', 'W']
    """
    if not spaces:
        return []
    width: dict[int, int] = {}
    for r, c in spaces:
        width[r] = max(width.get(r, 0), c + 1)
    return [
        "".join(
            spaces[(r, c)].value if (r, c) in spaces else EMPTY_MARK
            for c in range(width.get(r, 0))
        )
        for r in range(max(width) + 1)
    ]


PLAY_ALONG_BOARD = "A play-along game builds its map from its cards: leave map and tokens empty."


def replay(
    turns: Sequence[TurnModel], *, players: Sequence[str] | None = None
) -> tuple[list[str], list[Token], list[Problem]]:
    """Lay a play-along game's cards one by one: the map, the tokens, and what went wrong.

    Each turn is checked like ``oddland/placement`` against the table the turns before it
    left; replaying stops at the first illegal turn (later turns would be checked against
    a table that never existed). Problems are at ``cards[i].card``/``cards[i].token``.

    >>> turns = [TurnModel.model_validate({"card": {"at": [0, 0], "terrains": ["FS", "WM"]}}),
    ...          TurnModel.model_validate({"card": {"at": [-2, 0], "terrains": ["FF", "FF"]}})]
    >>> rows, tokens, problems = replay(turns)
    >>> rows, problems
    (['FF', 'FF', 'FS', 'WM'], [])
    """
    rows: list[str] = []
    tokens: list[Token] = []
    for number, turn in enumerate(turns):
        problems = check_turn(rows, turn, tokens=tokens, players=players)
        if problems:
            return rows, tokens, [_turn_problem(number, f"cards[{number}]", p) for p in problems]
        card, token, _ = read_turn(turn, players=players)
        after = _placed(rows, card=card, tokens=tokens, token=token)
        rows, tokens = list(after.rows), list(after.tokens)
    return rows, tokens, []


def read_turn(
    turn: TurnModel, *, players: Sequence[str] | None = None
) -> tuple[Card, Token | None, list[Problem]]:
    """The card and token of a turn, and every problem with their shape or owner."""
    names = _seating(players) if players is not None else None
    card, problems = _card(turn.card)
    token: Token | None = None
    if turn.token is not None:
        token, bad = _token(turn.token, path="token", names=names)
        problems += bad
    return card, token, problems


def check_turn(
    rows: Sequence[str],
    turn: TurnModel,
    *,
    tokens: Sequence[Token] = (),
    players: Sequence[str] | None = None,
) -> list[Problem]:
    """Every problem with the next turn of a play-along game (``card``/``token`` paths).

    >>> turn = TurnModel.model_validate({"card": {"at": [0, 3], "terrains": ["FS", "WM"]}})
    >>> [p.message for p in check_turn(["FF"], turn)]
    ['The card must share an edge with a space of the map.']
    """
    card, token, problems = read_turn(turn, players=players)
    if problems:
        return problems
    return check_placement(rows, card=card, tokens=tokens, token=token, players=players)


def _turn_problem(number: int, where: str, problem: Problem) -> Problem:
    return Problem(f"{where}.{problem.path}", f"Card {number + 1}: {problem.message}")


# --- endpoints ------------------------------------------------------------------------


def map_endpoint(body: object) -> dict[str, Any]:
    """The ``oddland/map`` handler: territories of a map (and where tokens lie).

    >>> map_endpoint({"map": ["FW"]})["territories"][1]
    {'id': 1, 'terrain': 'W', 'size': 1, 'cells': [[0, 1]], 'neighbors': [0], 'tokens': []}
    """
    model = validate_model(MapModel, body, MAP_REQUEST_SIZE)
    problems = map_problems(model.map)
    names = None
    if model.players is not None:
        problems += name_problems(model.players, path=lambda i: f"players[{i}]")
        names = _seating(model.players)
    tokens, shape = _tokens(model.tokens, names=names)
    problems += shape
    if problems:
        raise InvalidStateError(problems)
    return analyse_map(model.map, tokens).to_json()


def placement_endpoint(body: object) -> dict[str, Any]:
    """The ``oddland/placement`` handler: every broken rule, and the table after a legal turn.

    >>> reply = placement_endpoint({"map": [], "card": {"at": [0, 0], "terrains": ["FS", "WM"]}})
    >>> reply["legal"], reply["map"], reply["shift"]
    (True, ['FS', 'WM'], [0, 0])
    """
    model = validate_model(PlacementModel, body, PLACEMENT_SIZE)
    problems = map_problems(model.map)
    names = None
    if model.players is not None:
        problems += player_count_problems(
            len(model.players), minimum=MIN_PLAYERS, maximum=MAX_PLAYERS
        )
        problems += name_problems(model.players, path=lambda i: f"players[{i}]")
        names = _seating(model.players)
    tokens, shape = _tokens(model.tokens, names=names)
    problems += shape
    token: Token | None = None
    if model.token is not None:
        token, bad = _token(model.token, path="token", names=None)
        problems += bad
    card, card_shape = _card(model.card)
    problems += card_shape
    if problems:
        raise InvalidStateError(problems)
    rule_problems = check_placement(
        model.map, card=card, tokens=tokens, token=token, players=model.players
    )
    reply: dict[str, Any] = {
        "legal": not rule_problems,
        "problems": [p.to_json() for p in rule_problems],
        "map": None,
        "tokens": None,
        "shift": None,
    }
    if not rule_problems:
        reply.update(apply_placement(model.map, card=card, tokens=tokens, token=token).to_json())
    return reply


def _card(model: CardModel) -> tuple[Card, list[Problem]]:
    problems = []
    if len(model.at) != POSITION_LENGTH:
        problems.append(Problem("card.at", POSITION_NOT_PAIR))
    if len(model.terrains) != CARD_SIZE:
        problems.append(Problem("card.terrains", CARD_NOT_2X2))
    if problems:
        return Card((0, 0), ("FF", "FF")), problems
    card = Card((model.at[0], model.at[1]), (model.terrains[0], model.terrains[1]))
    return card, card_problems(card)


# --- the engine -----------------------------------------------------------------------


class Oddland(Game):
    """The Oddland engine, registered under ``oddland``."""

    slug = SLUG
    name = "Oddland"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    engine_version = 1
    tiebreaks = (TERRITORY_TIEBREAK,)
    has_play_along = True

    def is_play_along(self, state: Mapping[str, Any]) -> bool:
        """Whether the play is entered card by card (its map is built from ``cards``)."""
        return "cards" in state

    def validate(self, state: object) -> list[Problem]:
        """Every problem with a state; empty when it can be scored."""
        return problems_of(parse, state)

    def score(self, state: object) -> Result:
        """Score a table (see the module example)."""
        return score_table(parse(state))

    def new_state(self, players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
        """An empty map for these players; ``options["sides"]`` or every known species on A.

        >>> GAME.new_state(["Ann"], {"sides": {"begator": "B"}})["sides"]
        {'begator': 'B'}
        """
        sides = options.get("sides")
        if not isinstance(sides, Mapping):
            sides = dict.fromkeys(SPECIES, Side.A.value)
        definitions = options.get("definitions")
        solo = options.get("solo")
        state: dict[str, Any] = {
            "players": list(players),
            "map": [],
            "tokens": [],
            "sides": dict(sides),
            "points": {},
            "solo": solo if isinstance(solo, bool) else len(players) == 1,
            "definitions": dict(definitions) if isinstance(definitions, Mapping) else {},
        }
        if options.get(PLAY_ALONG_OPTION) is True:
            state["cards"] = []
        return state

    def describe_path(self, state: Mapping[str, Any], parts: Sequence[str | int]) -> str:
        """A field's name for the edit history and conflict messages.

        >>> GAME.describe_path({}, ["map", 2])
        'map row 3'
        >>> GAME.describe_path({}, ["points", "Ben", "owloose"])
        "Ben's Owloose points"
        """
        match list(parts):
            case ["map", int(row)]:
                return f"map row {row + 1}"
            case ["points", str(player), str(species)]:
                return f"{player}'s {species_name(species)} points"
            case ["sides", str(species)]:
                return f"the {species_name(species)} side"
            case [str(field)] if field in FIELD_NAMES:
                return FIELD_NAMES[field]
        return path_of(parts)

    def display_value(self, parts: Sequence[str | int], value: object) -> str:
        """A stored value as people read it (lists are counted, rows shown as letters).

        >>> GAME.display_value(["tokens"], [{}, {}]), GAME.display_value(["map", 0], "")
        ('2 tokens', 'no spaces')
        """
        if value is None:
            return "nothing"
        match list(parts), value:
            case ["map", int()], str(row):
                return row if row.strip(".") else "no spaces"
            case ["map"], list(rows):
                spaces = sum(1 for row in rows for ch in str(row) if ch not in EMPTY)
                return f"{spaces} space{'s' if spaces != 1 else ''}"
            case ["tokens" | "cards" as field], list(items):
                noun = "token" if field == "tokens" else "card"
                return f"{len(items)} {noun}{'s' if len(items) != 1 else ''}"
            case ["points" | "definitions" | "sides"], dict(entries):
                return _summary(entries)
        return str(value)

    def parse_edit(self, path: Sequence[str | int], raw: str) -> object:
        """The value of one edit: scoreboard points, a side, solo, a map row or a token field.

        >>> GAME.parse_edit(["points", "Ben", "pangeroo"], "4")
        4
        >>> GAME.parse_edit(["sides", "flora"], "b")
        'B'
        """
        where = path_of(path)
        match list(path):
            case ["points", str(), str(species)] if is_species_key(species):
                return _points_from_text(where, raw)
            case ["sides", str(species)] if is_species_key(species):
                return _side_from_text(where, raw)
            case ["solo"]:
                return _solo_from_text(where, raw)
            case ["map", int()]:
                return _row_from_text(where, raw)
            case ["tokens", int(), "player"] if raw.strip():
                return raw.strip()
            case ["tokens", int(), "species"] if is_species_key(raw.strip()):
                return raw.strip()
            case ["tokens", int(), "cells"]:
                return _cells_from_text(where, raw)
        raise InvalidStateError([Problem(where, "This cannot be changed here.")])

    def api_endpoints(self) -> dict[str, Callable[[object], dict[str, Any]]]:
        """The JSON endpoints of this game: name -> handler of a parsed body."""
        return {
            "score": lambda body: self.score(body).to_json(),
            "map": map_endpoint,
            "placement": placement_endpoint,
        }


#: Names of whole fields for the edit history.
FIELD_NAMES: dict[str, str] = {
    "map": "the map",
    "tokens": "the tokens",
    "cards": "the play-along cards",
    "points": "the scoreboard points",
    "sides": "the species sides",
    "definitions": "the species definitions",
    "solo": "solo mode",
}
#: ``new_state`` option that starts a play-along game (cards entered one by one).
PLAY_ALONG_OPTION = "play_along"


def _summary(entries: Mapping[str, Any]) -> str:
    """A short reading of a small nested mapping (points, sides, definitions).

    >>> _summary({"Ben": {"owloose": 4}, "Ann": {}})
    'Ben: owloose 4'
    """
    parts = []
    for key, value in entries.items():
        if isinstance(value, Mapping):
            inner = ", ".join(
                f"{k} {v if not isinstance(v, Mapping) else 'defined'}"
                for k, v in value.items()
                if v is not None
            )
            if inner:
                parts.append(f"{key}: {inner}")
        elif value is not None:
            parts.append(f"{key} {value}")
    return "; ".join(parts) or "nothing"


def _points_from_text(where: str, raw: str) -> int | None:
    if not raw.strip():
        return None
    return whole_number(
        where,
        raw,
        minimum=-MAX_SPECIES_POINTS,
        maximum=MAX_SPECIES_POINTS,
        unit="points",
        out_of_range=f"One species scores at most {MAX_SPECIES_POINTS} points.",
    )


def _side_from_text(where: str, raw: str) -> str | None:
    text = raw.strip().upper()
    if not text:
        return None
    if text in SIDE_LETTERS:
        return text
    raise InvalidStateError([Problem(where, 'Pick side "A" or "B".')])


def _solo_from_text(where: str, raw: str) -> bool | None:
    text = raw.strip().casefold()
    if not text:
        return None
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    raise InvalidStateError([Problem(where, "Enter true or false.")])


def _row_from_text(where: str, raw: str) -> str:
    row = raw.rstrip("\r\n").upper()
    problems = map_problems([row])
    if problems:
        raise InvalidStateError([Problem(where, p.message) for p in problems])
    return row


def _cells_from_text(where: str, raw: str) -> list[list[int]]:
    """Positions from ``"2,3"``, ``"2,3;2,4"`` or JSON ``[[2, 3], [2, 4]]`` (counted from 0)."""
    wrong = InvalidStateError([Problem(where, 'Enter positions as "row,col", separated by ";".')])
    value: object
    try:
        if raw.strip().startswith("["):
            value = json.loads(raw)
        else:
            value = [[int(x) for x in pair.split(",")] for pair in raw.split(";") if pair.strip()]
    except (ValueError, RecursionError):  # absurdly nested JSON is just as wrong
        raise wrong from None
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_TOKEN_SPACES:
        raise wrong
    cells: list[list[int]] = []
    for pair in value:
        if not (
            isinstance(pair, list)
            and len(pair) == POSITION_LENGTH
            and all(type(x) is int for x in pair)
        ):
            raise wrong
        cells.append([pair[0], pair[1]])
    return cells


GAME = Oddland()
