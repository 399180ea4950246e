"""The construction referee: may this building go there, and what does building it earn?

Paired as :func:`check_construction` (every broken rule) and :func:`apply_construction`
(the city with the card added), with :func:`bonuses` listing what a legal placement
earns: the new card's own bonus, the bonus of each adjacent building linked to it by a
street (every adjacent building with the Lamplighter), and the Character card to take
when the new card shows a guild.

>>> from companion.games.oddville.state import parse
>>> city = parse({"players": ["Ann", "Ben"], "city": [
...     {"at": [0, 1], "owner": "Ben", "points": {"kind": "row"}, "edges": "HHSS",
...      "bonus": "coin"}]})
>>> new = building((1, 1), owner="Ann", edges="SHHH", bonus="double")
>>> check_construction(city, new)
[]
>>> for gain in bonuses(city, new):
...     print(gain.words)
Your new card: take 1 more of a resource you already own, free.
Row 1, col 2, linked by a street: draw 1 Coin.
>>> [p.message for p in check_construction(city, building((1, 1), owner="Ann", edges="HHHH"))]
['Its top edge shows houses, but the card on row 1, col 2 shows a street there: houses \
meet houses and streets meet streets.']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.games.grid import Cell, step
from companion.games.oddville.facts import (
    BONUS_RULE,
    BONUSES,
    CONNECTED_RULE,
    EDGE_NAMES,
    EDGES_RULE,
    FACING,
    FIXED_RULE,
    GUILD_CHARACTER_RULE,
    GUILDS,
    LAMPLIGHTER,
    ROTATION_RULE,
    SIDES,
    TOP_ROW_RULE,
    WORKERS_PER_PLAYER,
    WORKERS_RULE,
    WORKERS_TO_END,
    Bonus,
    Edge,
    Kind,
)
from companion.games.oddville.state import Card, City, place_words
from companion.games.problems import Problem
from companion.games.readings import Reading


def building(
    at: Cell,
    *,
    owner: str | None,
    edges: str | None,
    bonus: str | None = None,
    guild: str | None = None,
    kind: Kind = Kind.ADJACENT,
) -> Card:
    """A building for examples and tests (the referee reads only these fields)."""
    return Card(
        at,
        owner=owner,
        edges=edges,
        bonus=Bonus(bonus) if bonus else None,
        guild=guild,
        kind=kind,
        counts=guild if kind is Kind.GUILD else None,
        value=1 if kind is Kind.GUILD else None,
    )


def _place(city: City, cell: Cell) -> str:
    return place_words(cell, min(city.left, cell[1]))


def check_construction(city: City, new: Card, *, rotated: bool = False) -> list[Problem]:
    """Every construction rule the new building breaks (empty: legal).

    It must touch the city by an edge, lie no higher than the Main Square's row, not be
    turned, and every edge it shares must match (houses to houses, streets to streets).
    """
    where = _place(city, new.at)
    problems = []
    if new.at in city.cards:
        problems.append(
            Problem(
                "card.at",
                f"{where.capitalize()} already holds a card, and built cards never move.",
                rule=FIXED_RULE,
            )
        )
    if new.at[0] < city.main_square.at[0]:
        problems.append(
            Problem(
                "card.at",
                f"{where.capitalize()} is above the Main Square's row: nothing is built above it.",
                rule=TOP_ROW_RULE,
            )
        )
    if not any(step(new.at, offset) in city.cards for offset in FACING):
        problems.append(
            Problem(
                "card.at",
                f"{where.capitalize()} touches no card of the city by an edge (a corner is not"
                " enough).",
                rule=CONNECTED_RULE,
            )
        )
    if rotated:
        problems.append(
            Problem(
                "rotated",
                "Building cards are never turned: lay it the way it is printed.",
                rule=ROTATION_RULE,
            )
        )
    if new.edges is None:
        problems.append(
            Problem(
                "card.edges", "Enter the new card's four edges to check them.", rule=EDGES_RULE
            )
        )
    elif new.at not in city.cards:
        problems += _edge_problems(city, new)
    problems += _worker_problems(city, new)
    return problems


#: The Main Square's edges and its missing bonus are read from the card's picture.
MAIN_SQUARE_READING = Reading(
    "oddville/main-square/streets",
    "The Main Square's streets on its left, right and lower sides are the app's reading"
    " of the card's picture; the rulebook's text does not list them.",
)


#: Why a building beside the Main Square gets no bonus from it (the verdict's reading).
MAIN_SQUARE_BONUS_READING = Reading(
    "oddville/main-square/no-bonus",
    "The Main Square gives no bonus to a building laid next to it: this is the app's"
    " reading, as the rulebook only puts bonuses in the corner of Building cards and never"
    " gives the Main Square one.",
)


def said(reading: Reading | None) -> str:
    """A reading's words as they follow a refusal's sentence: nothing without one.

    >>> said(MAIN_SQUARE_READING)[:16], said(None)
    (' The Main Square', '')
    """
    return f" {reading.text}" if reading else ""


def build_readings(city: City, new: Card) -> list[Reading]:
    """The app's readings a verdict on building ``new`` rests on: none, or the Main
    Square's missing bonus when ``new`` shares an edge with it.

    >>> from companion.games.oddville.state import parse
    >>> city = parse({"players": ["Ann", "Ben"], "city": [{"at": [0, 0], "card": "main-square"}]})
    >>> [r.text[:31] for r in build_readings(city, building((1, 0), owner="Ann", edges="SHHH"))]
    ['The Main Square gives no bonus ']
    >>> build_readings(city, building((1, 1), owner="Ann", edges="SHHH"))
    []
    """
    beside = (city.cards.get(step(new.at, offset)) for offset in FACING)
    return [MAIN_SQUARE_BONUS_READING] if any(c and c.main_square for c in beside) else []


def _edge_problems(city: City, new: Card) -> list[Problem]:
    assert new.edges is not None
    problems = []
    for offset, (mine, theirs) in FACING.items():
        other = city.cards.get(step(new.at, offset))
        if other is None or other.edges is None:
            continue
        if new.edges[mine] != other.edges[theirs]:
            reading = MAIN_SQUARE_READING if other.main_square else None
            problems.append(
                Problem(
                    "card.edges",
                    f"Its {SIDES[mine]} edge shows {EDGE_NAMES[Edge(new.edges[mine])]}, but"
                    f" the card on {_place(city, other.at)} shows"
                    f" {EDGE_NAMES[Edge(other.edges[theirs])]} there: houses meet houses and"
                    f" streets meet streets.{said(reading)}",
                    rule=EDGES_RULE,
                    reading=reading,
                )
            )
    return problems


def _worker_problems(city: City, new: Card) -> list[Problem]:
    if new.owner is None:
        return [
            Problem(
                "card.owner",
                "Name who builds it: their worker goes on the card.",
                rule=WORKERS_RULE,
            )
        ]
    used = city.workers_in_city(new.owner) + city.resource_workers.get(new.owner, 0)
    if used >= WORKERS_PER_PLAYER:
        return [
            Problem(
                "card.owner",
                f"{new.owner} has no worker left: all {WORKERS_PER_PLAYER} are in the city or"
                " on the Resources Board.",
                rule=WORKERS_RULE,
            )
        ]
    return []


def construction_warnings(city: City, new: Card) -> list[str]:
    """What a placement makes worth noticing: unchecked edges, more than 6 workers."""
    found = []
    for offset in FACING:
        other = city.cards.get(step(new.at, offset))
        if other is not None and other.edges is None:
            found.append(
                f"The edges of the card on {_place(city, other.at)} are not entered: the edge"
                " it shares was not checked."
            )
    if new.owner is not None:
        count = city.workers_in_city(new.owner) + 1
        if count > WORKERS_TO_END:
            found.append(
                f"{new.owner} would have {count} workers in the city: the game ends when a"
                f" player places the {WORKERS_TO_END}th."
            )
        elif count == WORKERS_TO_END:
            found.append(
                f"This is {new.owner}'s {WORKERS_TO_END}th worker in the city: the game ends"
                " after this turn."
            )
    return found


@dataclass(frozen=True)
class Gain:
    """One thing a placement earns: a bonus (from the new card or a neighbour) or a
    Character card to take."""

    words: str
    rule: str
    #: Where the bonus comes from (``None``: a Character card).
    source: Cell | None = None
    bonus: Bonus | None = None
    guild: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The API shape of one gain."""
        return {
            "from": list(self.source) if self.source is not None else None,
            "bonus": self.bonus.value if self.bonus is not None else None,
            "guild": self.guild,
            "words": self.words,
        }


def _bonus_words(card: Card) -> str:
    if card.bonus is None:
        return "the bonus printed on it (not entered)."
    return f"{BONUSES[card.bonus]}."


def bonuses(city: City, new: Card) -> list[Gain]:
    """What building ``new`` earns (read for a legal placement).

    Its own bonus; each adjacent building's bonus when a street links the two (any
    adjacent building's with the Lamplighter; never the Main Square's, which has none);
    the top Character card of the guild it shows.
    """
    lamplighter = new.owner is not None and LAMPLIGHTER in city.characters.get(new.owner, ())
    gains = [Gain(f"Your new card: {_bonus_words(new)}", BONUS_RULE, new.at, new.bonus)]
    for offset, (mine, theirs) in FACING.items():
        other = city.cards.get(step(new.at, offset))
        if other is None or other.main_square:
            continue
        place = _place(city, other.at).capitalize()
        if lamplighter:
            how = "next to it (Lamplighter)"
        elif other.edges is None or new.edges is None:
            how = "if a street links them (its edges are not entered)"
        elif new.edges[mine] == other.edges[theirs] == Edge.STREET:
            how = "linked by a street"
        else:
            continue
        rule = f"oddville/character/{LAMPLIGHTER}" if lamplighter else BONUS_RULE
        gains.append(Gain(f"{place}, {how}: {_bonus_words(other)}", rule, other.at, other.bonus))
    if new.guild is not None:
        name = GUILDS[new.guild]
        gains.append(
            Gain(
                f"Take the top {name} Character card (when that pile is empty, everyone gives"
                f" back their {name} characters, shuffled into a new pile first).",
                GUILD_CHARACTER_RULE,
                guild=new.guild,
            )
        )
    return gains


def apply_construction(city: City, new: Card) -> City:
    """The city with ``new`` built (after :func:`check_construction` found it legal)."""
    cards = dict(city.cards)
    cards[new.at] = new
    return replace(city, cards=cards)


def lamplighter_of(characters: Mapping[str, tuple[str, ...]], player: str) -> bool:
    """Whether a player holds the Lamplighter."""
    return LAMPLIGHTER in characters.get(player, ())
