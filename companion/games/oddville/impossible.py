"""OddVille tables the rules cannot produce, though every card and count is valid alone
(the API refuses them; the pages show them beside their field and under the standings).

- Two neighbouring cards whose shared edges differ: houses meet houses and streets meet
  streets when a building is laid, and a built card never moves.
- A player with more than 6 buildings, or more than 7 workers in the city: the game ends
  after the turn of a player's 6th worker there, and in that turn only the Traveller can
  still add one, on the Main Square.
- More Character cards than buildings with a guild symbol: building such a card gives
  its builder one character, and nothing else does; a worker on the Main Square asks for
  one more when its owner no longer holds the Traveller, the only way onto the square.
- Who ended the game with fewer than 6 workers in the city: it ends with a player's 6th
  there, and a worker in the city never leaves it.
- Anyone else with 7 workers in the city, or 6 without a Character card: after the 6th
  worker of the player who ends the game, each other player adds at most one, by
  building with the Builder or, in their own turn, through the Traveller, and keeps a
  character either way. Without ``ended_by``, at most one player may be past that.

>>> from companion.games.oddville.state import parse
>>> state = {"players": ["Ann", "Ben"], "city": [
...     {"at": [0, 0], "card": "main-square"},
...     {"at": [1, 0], "owner": "Ann", "points": {"kind": "row"}, "edges": "HHHH"}]}
>>> [p.path for p in table_problems(parse(state), state)]
['city[1].edges']
>>> state = {"players": ["Ann", "Ben"], "ended_by": "Ben", "characters": {"Ann": ["mistress"]}}
>>> [p.path for p in table_problems(parse(state), state)]
['characters.Ann', 'ended_by']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.grid import Cell, step
from companion.games.names import Roster
from companion.games.oddville.facts import (
    EDGE_NAMES,
    EDGES_RULE,
    FACING,
    GAME_END_RULE,
    GUILD_CHARACTER_RULE,
    MAIN_SQUARE,
    MAIN_SQUARE_READING,
    SIDES,
    TRAVELLER,
    WORKERS_RULE,
    WORKERS_TO_END,
    Edge,
    said,
)
from companion.games.oddville.state import City
from companion.games.problems import Problem

#: The most buildings one player can own: the game ends after the turn of the 6th.
MOST_BUILDINGS = WORKERS_TO_END
#: The most workers one player can have in the city: 6, and one on the Main Square put
#: there by the Traveller in the same turn.
MOST_IN_CITY = WORKERS_TO_END + 1


def table_problems(city: City, state: Mapping[str, Any]) -> list[Problem]:
    """Every way a valid ``city`` is still one the rules cannot produce (``state``: the
    request it was parsed from, for the paths)."""
    listed = state.get("city", [])
    index = _indices(listed if isinstance(listed, list) else [])
    return [
        *_edge_problems(city, index),
        *_worker_problems(city),
        *character_problems(city, _character_paths(city, state), _square_path(state)),
        *end_problems(city),
    ]


def _indices(listed: Sequence[Any]) -> dict[Cell, int]:
    """Each position's index in the request's city list."""
    found: dict[Cell, int] = {}
    for number, card in enumerate(listed):
        at = card.get("at") if isinstance(card, Mapping) else None
        if isinstance(at, list) and len(at) == len(("row", "col")):
            found.setdefault((at[0], at[1]), number)
    return found


def _character_paths(city: City, state: Mapping[str, Any]) -> dict[str, str]:
    """Each player's path to their characters in the request (the first key naming them)."""
    roster = Roster.of(city.players)
    paths: dict[str, str] = {}
    raw = state.get("characters", {})
    for key in raw if isinstance(raw, Mapping) else ():
        player = roster.find(key)
        if player is not None:
            paths.setdefault(player, f"characters.{key}")
    return paths


def _square_path(state: Mapping[str, Any]) -> str:
    """The path of the Main Square's owners in the request (``city`` when it is left out)."""
    listed = state.get("city", [])
    for number, card in enumerate(listed if isinstance(listed, list) else []):
        if isinstance(card, Mapping) and card.get("card") == MAIN_SQUARE:
            return f"city[{number}].owners"
    return "city"


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


def _buildings(city: City) -> Counter[str | None]:
    """Each player's buildings (``None``: the buildings entered without an owner)."""
    return Counter(card.owner for card in city.cards.values() if not card.main_square)


def _beyond_the_end(city: City, player: str) -> bool:
    """Whether a player owns more buildings or workers in the city than anyone can."""
    buildings = _buildings(city)[player]
    return buildings > MOST_BUILDINGS or city.workers_in_city(player) > MOST_IN_CITY


def _worker_problems(city: City) -> list[Problem]:
    buildings = _buildings(city)
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


def _plural(count: int, word: str) -> str:
    """ "1 building", "2 buildings", "no building"."""
    if count == 0:
        return f"no {word}"
    return f"{count} {word}{'' if count == 1 else 's'}"


def characters_needed(city: City, player: str) -> int:
    """How many buildings with a guild symbol a player must have built: one per character
    held, and one for the Traveller that put their worker on the Main Square when they no
    longer hold it.

    >>> from companion.games.oddville.state import parse
    >>> city = parse({"players": ["Ann", "Ben"], "characters": {"Ann": ["mistress"]},
    ...               "city": [{"at": [0, 0], "card": "main-square", "owners": ["Ann"]}]})
    >>> characters_needed(city, "Ann"), characters_needed(city, "Ben")
    (2, 0)
    """
    held = city.characters.get(player, ())
    gone_traveller = player in city.main_square.owners and TRAVELLER not in held
    return len(held) + gone_traveller


def guild_buildings(city: City) -> Counter[str | None]:
    """Each player's buildings that show a guild symbol (``None``: without an owner)."""
    return Counter(card.owner for card in city.cards.values() if card.guild is not None)


def character_problems(
    city: City, paths: Mapping[str, str], square_path: str = "city"
) -> list[Problem]:
    """Players holding more characters than the buildings with a guild symbol they built
    can have given them (``paths``: each player's characters in the request). A building
    entered without an owner may be anyone's, so those make up for what they can."""
    built = guild_buildings(city)
    short = {
        player: characters_needed(city, player) - built[player]
        for player in city.players
        if characters_needed(city, player) > built[player]
    }
    if sum(short.values()) <= built[None]:
        return []
    return [_short_of_guild_buildings(city, player, paths, square_path) for player in short]


def _short_of_guild_buildings(
    city: City, player: str, paths: Mapping[str, str], square_path: str
) -> Problem:
    held = city.characters.get(player, ())
    owned = guild_buildings(city)[player]
    what = []
    if held:
        what.append(f"holds {_plural(len(held), 'Character card')}")
    if characters_needed(city, player) > len(held):
        what.append(
            "has a worker on the Main Square, which only the Traveller (a character) puts there"
        )
    return Problem(
        paths.get(player, square_path) if held else square_path,
        f"{player} {' and '.join(what)}, but owns {_plural(owned, 'building')} with a guild"
        " symbol: building such a card gives its builder one character, and no character"
        " comes any other way.",
        rule=GUILD_CHARACTER_RULE,
    )


def _past_a_non_ender(city: City, player: str) -> str | None:
    """What only the player who ended the game can have, when ``player`` has it: 7 workers
    in the city, or 6 without a Character card."""
    workers = city.workers_in_city(player)
    if workers > WORKERS_TO_END:
        return f"{workers} workers in the city"
    if workers == WORKERS_TO_END and not city.characters.get(player):
        return f"{WORKERS_TO_END} workers in the city and no Character card"
    return None


def end_problems(city: City) -> list[Problem]:
    """Who ended the game without a 6th worker in the city, and anyone else with what
    only that player can have (see the module's list)."""
    if city.ended_by is None:
        return _two_enders(city)
    problems = []
    ender = city.ended_by
    count = city.workers_in_city(ender)
    if count < WORKERS_TO_END:
        problems.append(
            Problem(
                "ended_by",
                f"{ender} is entered as the player who ended the game, but has"
                f" {_plural(count, 'worker')} in the city: the game ends when a player places"
                f" their {WORKERS_TO_END}th there, and a worker in the city never leaves it.",
                rule=GAME_END_RULE,
            )
        )
    for player in city.players:
        past = _past_a_non_ender(city, player)
        if player == ender or past is None or _beyond_the_end(city, player):
            continue
        problems.append(
            Problem(
                "city",
                f"{player} has {past}, but did not end the game ({ender} did): after the"
                f" {WORKERS_TO_END}th worker of the player who ends it, every other player, who"
                f" had at most {WORKERS_TO_END - 1} there, adds at most one, by building with the"
                " Builder or, in their own turn, through the Traveller, and keeps a character"
                " either way.",
                rule=GAME_END_RULE,
            )
        )
    return problems


def _two_enders(city: City) -> list[Problem]:
    """Without ``ended_by``: at most one player has what only the one who ended it can."""
    past = {
        player: found
        for player in city.players
        if (found := _past_a_non_ender(city, player)) and not _beyond_the_end(city, player)
    }
    if len(past) <= 1:
        return []
    return [
        Problem(
            "city",
            f"{'; '.join(f'{player} has {found}' for player, found in past.items())}: only the"
            f" player who ends the game can have 7 workers in the city, or {WORKERS_TO_END}"
            " without a Character card, and only one player ends it.",
            rule=GAME_END_RULE,
            # Entry passes through it (the characters not entered yet): shown once over.
            pending=True,
        )
    ]
