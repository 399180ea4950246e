"""Facts about each Oddland token (territory, neighbours, rows, columns...) for the pages."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.grid import (
    Cell,
)
from companion.games.oddland.map import MapAnalysis, Territory, Token, region_cells
from companion.games.oddland.species import (
    SPECIES,
    Region,
    Terrain,
)


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

    >>> from companion.games.oddland import analyse_map
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
