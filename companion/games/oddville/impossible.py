"""OddVille tables the rules cannot produce, though every card and count is valid alone
(the API refuses them; the pages show them beside the standings).

- Two neighbouring cards whose shared edges differ: houses meet houses and streets meet
  streets when a building is laid, and a built card never moves.
- A player with more than 6 buildings, or more than 7 workers in the city: the game ends
  after the turn of a player's 6th worker there, and in that turn only the Traveller can
  still add one, on the Main Square.

Who ended the game with fewer than 6 workers in the city stays a warning: the contract's
own example (API.md) enters only part of a city with ``ended_by``.

>>> from companion.games.oddville.state import parse
>>> state = {"players": ["Ann", "Ben"], "city": [
...     {"at": [0, 0], "card": "main-square"},
...     {"at": [1, 0], "owner": "Ann", "points": {"kind": "row"}, "edges": "HHHH"}]}
>>> [p.path for p in table_problems(parse(state), state["city"])]
['city[1].edges']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.grid import Cell, step
from companion.games.oddville.construction import MAIN_SQUARE_READING, said
from companion.games.oddville.facts import (
    EDGE_NAMES,
    EDGES_RULE,
    FACING,
    SIDES,
    WORKERS_RULE,
    WORKERS_TO_END,
    Edge,
)
from companion.games.oddville.state import City
from companion.games.problems import Problem

#: The most buildings one player can own: the game ends after the turn of the 6th.
MOST_BUILDINGS = WORKERS_TO_END
#: The most workers one player can have in the city: 6, and one on the Main Square put
#: there by the Traveller in the same turn.
MOST_IN_CITY = WORKERS_TO_END + 1


def table_problems(city: City, listed: Sequence[Mapping[str, Any]]) -> list[Problem]:
    """Every way a valid ``city`` is still one the rules cannot produce (``listed``: the
    request's city, for the paths)."""
    index = _indices(listed)
    return [*_edge_problems(city, index), *_worker_problems(city)]


def _indices(listed: Sequence[Mapping[str, Any]]) -> dict[Cell, int]:
    """Each position's index in the request's city list."""
    found: dict[Cell, int] = {}
    for number, card in enumerate(listed):
        at = card.get("at")
        if isinstance(at, list) and len(at) == len(("row", "col")):
            found.setdefault((at[0], at[1]), number)
    return found


def _edge_problems(city: City, index: Mapping[Cell, int]) -> list[Problem]:
    problems = []
    for at, card in city.cards.items():
        # Each pair once: from the card above or on the left.
        for offset in ((1, 0), (0, 1)):
            other = city.cards.get(step(at, offset))
            if other is None or card.edges is None or other.edges is None:
                continue
            mine, theirs = FACING[offset]
            if card.edges[mine] == other.edges[theirs]:
                continue
            reading = MAIN_SQUARE_READING if card.main_square else None
            number = index.get(other.at)
            problems.append(
                Problem(
                    f"city[{number}].edges" if number is not None else "city",
                    f"The card on {city.place(other.at)} shows"
                    f" {EDGE_NAMES[Edge(other.edges[theirs])]} on its {SIDES[theirs]} edge,"
                    f" but the card on {city.place(at)} shows"
                    f" {EDGE_NAMES[Edge(card.edges[mine])]} there: houses meet houses and"
                    f" streets meet streets.{said(reading)}",
                    rule=EDGES_RULE,
                    reading=reading,
                )
            )
    return problems


def _worker_problems(city: City) -> list[Problem]:
    buildings = Counter(card.owner for card in city.cards.values() if card.owner is not None)
    problems = []
    for player in city.players:
        if buildings[player] > MOST_BUILDINGS:
            problems.append(
                Problem(
                    "city",
                    f"{player} owns {buildings[player]} buildings, but the game ends after the"
                    f" turn of a player's {WORKERS_TO_END}th worker in the city: at most"
                    f" {MOST_BUILDINGS}.",
                    rule=WORKERS_RULE,
                )
            )
        elif city.workers_in_city(player) > MOST_IN_CITY:
            problems.append(
                Problem(
                    "city",
                    f"{player} has {city.workers_in_city(player)} workers in the city, but the"
                    f" game ends after the turn of a player's {WORKERS_TO_END}th: at most"
                    f" {MOST_IN_CITY}, the last on the Main Square through the Traveller.",
                    rule=WORKERS_RULE,
                )
            )
    return problems
