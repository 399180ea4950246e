"""The Oddland map: limits, tokens, territories and the regions a species card counts."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, assert_never

from companion.games.grid import (
    Cell,
    block,
    components,
    lines,
    places_name,
)
from companion.games.names import spoken_names
from companion.games.oddland.species import (
    MAP_CARDS,
    SETS_IN_BOX,
    SPACES_PER_CARD,
    TOKENS_PER_SET,
    Region,
    Side,
    SideRule,
    Terrain,
    TwoSpace,
    Unit,
)
from companion.games.ranking import Tiebreak
from companion.games.text import N_, _

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


#: The tiebreaker's label: English, as the API's ``decided_by`` names it; translated where
#: shown.
TIEBREAK = N_("Territories holding tokens, largest first")


#: Where a token lies in words ("row 3, cols 4-5"); the grid module's, named as before.
describe_cells = places_name


#: After the score: the sizes of the territories holding the player's tokens, largest first.
def territory_words(value: int | tuple[int, ...]) -> str:
    """Territory sizes as the explanation says them.

    >>> territory_words((5, 3, 1)), territory_words((4,)), territory_words(())
    ('5, 3 and 1', '4', 'none')
    """
    sizes = [str(size) for size in (value if isinstance(value, tuple) else (value,))]
    # TRANSLATORS: the sizes of the Oddland territories holding a player's tokens: none.
    return spoken_names(sizes) if sizes else _("none")


TIEBREAK_RULE = "oddland/tiebreak/territories"
TERRITORY_TIEBREAK = Tiebreak(TIEBREAK, words=territory_words, rule=TIEBREAK_RULE)


#: The rules entries the placement referee applies.
EDGE_RULE = "oddland/placement/edge"


COVER_RULE = "oddland/placement/cover"


ROOM_RULE = "oddland/placement/room"


TOKEN_RULE = "oddland/placement/token"


TERRITORY_RULE = "oddland/placement/territory"


#: How many tokens (and Flora) each player has; how a two-space token lies; game end.
TOKENS_RULE = "oddland/tokens"
WHALEPHANT_RULE = "oddland/species/whalephant"
END_RULE = "oddland/end"


TRUE_WORDS = frozenset({"true", "on", "yes", "1"})


FALSE_WORDS = frozenset({"false", "off", "no", "0"})


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
    neighbors: list[set[int]] = [set() for _group in groups]
    for (r, c), here in territory_of.items():
        # Looking right and down only visits every shared edge once.
        for other in (territory_of.get((r + 1, c)), territory_of.get((r, c + 1))):
            if other is not None and other != here:
                neighbors[here].add(other)
                neighbors[other].add(here)
    token_at: dict[Cell, int] = {}
    holders: list[list[int]] = [[] for _group in groups]
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

    >>> from companion.games.oddland import analyse_map
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
            return _on_lines(analysis.rows, {r for r, _col in cells})
        case Region.COLUMN:
            return _on_lines(analysis.columns, {c for _row, c in cells})
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


#: The steps along the lines a region counts: its row, its column, both, its diagonals.
LINE_STEPS: dict[Region, tuple[Cell, ...]] = {
    Region.ROW: ((0, 1),),
    Region.COLUMN: ((1, 0),),
    Region.ROW_AND_COLUMN: ((0, 1), (1, 0)),
    Region.DIAGONALS: ((1, 1), (1, -1)),
}


def unbroken_lines(analysis: MapAnalysis, cells: Sequence[Cell], region: Region) -> set[Cell]:
    """The spaces of a token's lines (``region``: a key of :data:`LINE_STEPS`) up to the
    first place without a card each way: the lines as they would count if a gap between
    cards ended them.

    >>> from companion.games.oddland import analyse_map
    >>> sorted(unbroken_lines(analyse_map(["FF.FF", "FFFFF"]), [(0, 0)], Region.ROW))
    [(0, 0), (0, 1)]
    """
    found: set[Cell] = set()
    for start in cells:
        for dr, dc in LINE_STEPS[region]:
            for sign in (1, -1):
                cell = start
                while cell in analysis.spaces:
                    found.add(cell)
                    cell = (cell[0] + sign * dr, cell[1] + sign * dc)
    return found


def rule_count(
    analysis: MapAnalysis, index: int, rule: SideRule, *, unbroken: bool = False
) -> int:
    """How many units ``rule`` counts for token ``index`` (multiply by its points).

    A token's row, column and diagonals run across the whole map, gaps between cards
    included (the app's reading); with ``unbroken`` they stop at the first gap instead,
    to tell whether that reading changed the count.

    >>> from companion.games.oddland import analyse_map
    >>> a = analyse_map(["FFWW", "FSSW", "MM.."], [Token("Ann", "begator", ((0, 1),))])
    >>> rule_count(a, 0, SideRule(points=2, region=Region.NEIGHBORS))
    7
    >>> rule_count(a, 0, SideRule(points=1, per=Unit.TERRITORY, region=Region.MAP))
    4
    >>> b = analyse_map(["FF.FF", "FFFFF"], [Token("Ann", "owloose", ((0, 0),))])
    >>> row = SideRule(points=1, region=Region.ROW)
    >>> rule_count(b, 0, row), rule_count(b, 0, row, unbroken=True)
    (4, 2)
    """
    token = analysis.tokens[index]
    own = rule_territories(analysis, index, rule.two_space)
    if unbroken and rule.region in LINE_STEPS:
        cells = unbroken_lines(analysis, token.cells, rule.region)
    else:
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
