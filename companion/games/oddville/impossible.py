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
    EDGES_RULE,
    FACING,
    GAME_END_RULE,
    GUILD_CHARACTER_RULE,
    MAIN_SQUARE,
    MAIN_SQUARE_READING,
    SIDE_NAMES,
    TRAVELLER,
    WORKERS_RULE,
    WORKERS_TO_END,
    Edge,
    said,
)
from companion.games.oddville.state import City
from companion.games.problems import Problem
from companion.games.text import _, ngettext

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
            places = {
                "place": city.place(other.at),
                "side": _(SIDE_NAMES[theirs]),
                "other": city.place(at),
            }
            if other.edges[theirs] == Edge.HOUSE:
                message = _(
                    "The card on %(place)s shows houses on its %(side)s edge, but the card on"
                    " %(other)s shows a street there: houses meet houses and streets meet"
                    " streets.",
                    **places,
                )
            else:
                message = _(
                    "The card on %(place)s shows a street on its %(side)s edge, but the card"
                    " on %(other)s shows houses there: houses meet houses and streets meet"
                    " streets.",
                    **places,
                )
            problems.append(
                Problem(
                    f"city[{number}].edges" if number is not None else "city",
                    said(message, reading),
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
                    _(
                        "%(player)s owns %(count)s buildings, but the game ends after the turn"
                        " of a player's %(last)sth worker in the city: at most %(most)s.",
                        player=player,
                        count=buildings[player],
                        last=WORKERS_TO_END,
                        most=MOST_BUILDINGS,
                    ),
                    rule=WORKERS_RULE,
                )
            )
        elif city.workers_in_city(player) > MOST_IN_CITY:
            problems.append(
                Problem(
                    "city",
                    _(
                        "%(player)s has %(count)s workers in the city, but the game ends after"
                        " the turn of a player's %(last)sth: at most %(most)s, the last on the"
                        " Main Square through the Traveller.",
                        player=player,
                        count=city.workers_in_city(player),
                        last=WORKERS_TO_END,
                        most=MOST_IN_CITY,
                    ),
                    rule=WORKERS_RULE,
                )
            )
    return problems


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
    if not owned:
        # TRANSLATORS: what a player owns, ending "..., but owns %(owned)s with a guild symbol".
        buildings = _("no building")
    else:
        buildings = ngettext("%(num)s building", "%(num)s buildings", owned)
    square = characters_needed(city, player) > len(held)
    cards = ngettext("%(num)s Character card", "%(num)s Character cards", len(held))
    if held and square:
        message = _(
            "%(player)s holds %(cards)s and has a worker on the Main Square, which only the"
            " Traveller (a character) puts there, but owns %(owned)s with a guild symbol:"
            " building such a card gives its builder one character, and no character comes"
            " any other way.",
            player=player,
            cards=cards,
            owned=buildings,
        )
    elif held:
        message = _(
            "%(player)s holds %(cards)s, but owns %(owned)s with a guild symbol: building such"
            " a card gives its builder one character, and no character comes any other way.",
            player=player,
            cards=cards,
            owned=buildings,
        )
    else:
        message = _(
            "%(player)s has a worker on the Main Square, which only the Traveller (a character)"
            " puts there, but owns %(owned)s with a guild symbol: building such a card gives"
            " its builder one character, and no character comes any other way.",
            player=player,
            owned=buildings,
        )
    return Problem(
        paths.get(player, square_path) if held else square_path,
        message,
        rule=GUILD_CHARACTER_RULE,
    )


def _past_a_non_ender(city: City, player: str) -> str | None:
    """What only the player who ended the game can have, when ``player`` has it: 7 workers
    in the city, or 6 without a Character card."""
    workers = city.workers_in_city(player)
    if workers > WORKERS_TO_END:
        # TRANSLATORS: what a player has, in "Ann has 7 workers in the city, but ...".
        return _("%(count)s workers in the city", count=workers)
    if workers == WORKERS_TO_END and not city.characters.get(player):
        # TRANSLATORS: what a player has, in "Ann has 6 workers in the city and no ...".
        return _("%(count)s workers in the city and no Character card", count=WORKERS_TO_END)
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
        workers = (
            # TRANSLATORS: how many workers a player has in the city: none.
            _("no worker") if not count else ngettext("%(num)s worker", "%(num)s workers", count)
        )
        problems.append(
            Problem(
                "ended_by",
                _(
                    "%(player)s is entered as the player who ended the game, but has"
                    " %(workers)s in the city: the game ends when a player places their"
                    " %(last)sth there, and a worker in the city never leaves it.",
                    player=ender,
                    workers=workers,
                    last=WORKERS_TO_END,
                ),
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
                _(
                    "%(player)s has %(what)s, but did not end the game (%(ender)s did): after"
                    " the %(last)sth worker of the player who ends it, every other player, who"
                    " had at most %(most)s there, adds at most one, by building with the"
                    " Builder or, in their own turn, through the Traveller, and keeps a"
                    " character either way.",
                    player=player,
                    what=past,
                    ender=ender,
                    last=WORKERS_TO_END,
                    most=WORKERS_TO_END - 1,
                ),
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
            _(
                "%(players)s: only the player who ends the game can have 7 workers in the city,"
                " or %(last)s without a Character card, and only one player ends it.",
                players="; ".join(
                    # TRANSLATORS: one of several players and what they have, joined by "; ".
                    _("%(player)s has %(what)s", player=player, what=found)
                    for player, found in past.items()
                ),
                last=WORKERS_TO_END,
            ),
            rule=GAME_END_RULE,
            # Entry passes through it (the characters not entered yet): shown once over.
            pending=True,
        )
    ]
