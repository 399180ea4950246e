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
    BUILDER,
    CHARACTERS,
    CONNECTED_RULE,
    EDGES_RULE,
    FACING,
    FIXED_RULE,
    GAME_END_RULE,
    GUILD_CHARACTER_RULE,
    LAMPLIGHTER,
    MAIN_SQUARE_BONUS_READING,
    MAIN_SQUARE_READING,
    ROTATION_RULE,
    SEVENTH_WORKER_READING,
    SIDE_NAMES,
    TOP_ROW_RULE,
    WORKERS_PER_PLAYER,
    WORKERS_RULE,
    WORKERS_TO_END,
    Bonus,
    Edge,
    Kind,
    guild_name,
    said,
)
from companion.games.oddville.state import Card, City, place_words
from companion.games.problems import Problem
from companion.games.readings import Reading
from companion.games.text import _


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


def _place(city: City, cell: Cell, *, capital: bool = False) -> str:
    return place_words(cell, min(city.left, cell[1]), capital=capital)


def check_construction(city: City, new: Card, *, rotated: bool = False) -> list[Problem]:
    """Every construction rule the new building breaks (empty: legal).

    It must touch the city by an edge, lie no higher than the Main Square's row, not be
    turned, and every edge it shares must match (houses to houses, streets to streets).
    """
    where = _place(city, new.at, capital=True)
    problems = []
    if new.at in city.cards:
        problems.append(
            Problem(
                "card.at",
                _("%(place)s already holds a card, and built cards never move.", place=where),
                rule=FIXED_RULE,
            )
        )
    if new.at[0] < city.main_square.at[0]:
        problems.append(
            Problem(
                "card.at",
                _(
                    "%(place)s is above the Main Square's row: nothing is built above it.",
                    place=where,
                ),
                rule=TOP_ROW_RULE,
            )
        )
    if not any(step(new.at, offset) in city.cards for offset in FACING):
        problems.append(
            Problem(
                "card.at",
                _(
                    "%(place)s touches no card of the city by an edge (a corner is not enough).",
                    place=where,
                ),
                rule=CONNECTED_RULE,
            )
        )
    if rotated:
        problems.append(
            Problem(
                "rotated",
                _("Building cards are never turned: lay it the way it is printed."),
                rule=ROTATION_RULE,
            )
        )
    if new.edges is None:
        problems.append(
            Problem(
                "card.edges",
                _("Enter the new card's four edges to check them."),
                rule=EDGES_RULE,
            )
        )
    elif new.at not in city.cards:
        problems += _edge_problems(city, new)
    problems += _worker_problems(city, new)
    return problems


def build_readings(city: City, new: Card) -> list[Reading]:
    """The app's readings a legal verdict on building ``new`` rests on: beside the Main
    Square, its streets (when the new card's edges are entered) and its missing bonus; and
    a 7th worker in the city for the builder.

    >>> from companion.games.oddville.state import parse
    >>> city = parse({"players": ["Ann", "Ben"], "city": [{"at": [0, 0], "card": "main-square"}]})
    >>> [r.id for r in build_readings(city, building((1, 0), owner="Ann", edges="SHHH"))]
    ['oddville/main-square/streets', 'oddville/main-square/no-bonus']
    >>> build_readings(city, building((1, 1), owner="Ann", edges="SHHH"))
    []
    """
    beside = any(
        card is not None and card.main_square
        for card in (city.cards.get(step(new.at, offset)) for offset in FACING)
    )
    readings = []
    if beside and new.edges is not None:
        readings.append(MAIN_SQUARE_READING)
    if beside:
        readings.append(MAIN_SQUARE_BONUS_READING)
    if _workers_after(city, new) > WORKERS_TO_END:
        readings.append(SEVENTH_WORKER_READING)
    return readings


def _workers_after(city: City, new: Card) -> int:
    """The builder's workers in the city once ``new`` is built (0 without a builder)."""
    return 0 if new.owner is None else city.workers_in_city(new.owner) + 1


def _edge_problems(city: City, new: Card) -> list[Problem]:
    assert new.edges is not None
    problems = []
    for offset, (mine, theirs) in FACING.items():
        other = city.cards.get(step(new.at, offset))
        if other is None or other.edges is None:
            continue
        if new.edges[mine] != other.edges[theirs]:
            reading = MAIN_SQUARE_READING if other.main_square else None
            side, place = _(SIDE_NAMES[mine]), _place(city, other.at)
            if new.edges[mine] == Edge.HOUSE:
                message = _(
                    "Its %(side)s edge shows houses, but the card on %(place)s shows a street"
                    " there: houses meet houses and streets meet streets.",
                    side=side,
                    place=place,
                )
            else:
                message = _(
                    "Its %(side)s edge shows a street, but the card on %(place)s shows houses"
                    " there: houses meet houses and streets meet streets.",
                    side=side,
                    place=place,
                )
            problems.append(
                Problem("card.edges", said(message, reading), rule=EDGES_RULE, reading=reading)
            )
    return problems


def _worker_problems(city: City, new: Card) -> list[Problem]:
    if new.owner is None:
        return [
            Problem(
                "card.owner",
                _("Name who builds it: their worker goes on the card."),
                rule=WORKERS_RULE,
            )
        ]
    used = city.workers_in_city(new.owner) + city.resource_workers.get(new.owner, 0)
    if used >= WORKERS_PER_PLAYER:
        return [
            Problem(
                "card.owner",
                _(
                    "%(player)s has no worker left: all %(most)s are in the city or on the"
                    " Resources Board.",
                    player=new.owner,
                    most=WORKERS_PER_PLAYER,
                ),
                rule=WORKERS_RULE,
            )
        ]
    return _last_turn_problems(city, new.owner)


def _last_turn_problems(city: City, owner: str) -> list[Problem]:
    """Builds the end of the game rules out: every player starts the last turn with at most
    5 workers in the city and builds at most once in it; once a player has placed their
    6th, only the Builder's holder can still build; only who ended the game has a 7th."""
    owned = sum(1 for card in city.cards.values() if card.owner == owner)
    if owned >= WORKERS_TO_END:
        return [
            Problem(
                "card.owner",
                _(
                    "%(player)s already owns %(count)s buildings: every player starts the"
                    " game's last turn with at most %(most)s workers in the city and builds at"
                    " most once in it, so nobody builds a 7th.",
                    player=owner,
                    count=owned,
                    most=WORKERS_TO_END - 1,
                ),
                rule=GAME_END_RULE,
            )
        ]
    ender = city.ended_by
    if ender is not None and ender != owner and city.workers_in_city(owner) >= WORKERS_TO_END:
        return [
            Problem(
                "card.owner",
                _(
                    "%(player)s already has %(count)s workers in the city and did not end the"
                    " game (%(ender)s did): only that player can have a 7th.",
                    player=owner,
                    count=city.workers_in_city(owner),
                    ender=ender,
                ),
                rule=GAME_END_RULE,
            )
        ]
    done = [p for p in city.players if p != owner and city.workers_in_city(p) >= WORKERS_TO_END]
    if done and BUILDER not in city.characters.get(owner, ()):
        builder = CHARACTERS[BUILDER]
        return [
            Problem(
                "card.owner",
                _(
                    "%(done)s already has %(count)s workers in the city, so this is the game's"
                    " last turn, when only the %(builder)s's holder can still build after"
                    " another player; %(player)s does not hold the %(builder)s.",
                    done=done[0],
                    count=city.workers_in_city(done[0]),
                    builder=_(builder.name),
                    player=owner,
                ),
                rule=builder.rule,
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
                _(
                    "The edges of the card on %(place)s are not entered: the edge it shares was"
                    " not checked.",
                    place=_place(city, other.at),
                )
            )
    if new.owner is not None:
        count = _workers_after(city, new)
        if count > WORKERS_TO_END:
            found.append(
                _(
                    "This is %(player)s's %(count)sth worker in the city: only the player who"
                    " ends the game has one, having put their %(last)sth on the Main Square"
                    " with the Traveller earlier in this same turn.",
                    player=new.owner,
                    count=count,
                    last=WORKERS_TO_END,
                )
            )
        elif count == WORKERS_TO_END:
            found.append(
                _(
                    "This is %(player)s's %(count)sth worker in the city: the game ends after"
                    " this turn.",
                    player=new.owner,
                    count=WORKERS_TO_END,
                )
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
        # TRANSLATORS: an OddVille bonus not entered, after "Your new card:".
        return _("the bonus printed on it (not entered)")
    return _(BONUSES[card.bonus])


def bonuses(city: City, new: Card) -> list[Gain]:
    """What building ``new`` earns (read for a legal placement).

    Its own bonus; each adjacent building's bonus when a street links the two (any
    adjacent building's with the Lamplighter; never the Main Square's, which has none);
    the top Character card of the guild it shows.
    """
    lamplighter = new.owner is not None and LAMPLIGHTER in city.characters.get(new.owner, ())
    gains = [
        Gain(
            _("Your new card: %(bonus)s.", bonus=_bonus_words(new)), BONUS_RULE, new.at, new.bonus
        )
    ]
    for offset, (mine, theirs) in FACING.items():
        other = city.cards.get(step(new.at, offset))
        if other is None or other.main_square:
            continue
        place, bonus = _place(city, other.at, capital=True), _bonus_words(other)
        if lamplighter:
            # TRANSLATORS: a neighbour's bonus the Lamplighter's holder takes.
            words = _("%(place)s, next to it (Lamplighter): %(bonus)s.", place=place, bonus=bonus)
        elif other.edges is None or new.edges is None:
            words = _(
                "%(place)s, if a street links them (its edges are not entered): %(bonus)s.",
                place=place,
                bonus=bonus,
            )
        elif new.edges[mine] == other.edges[theirs] == Edge.STREET:
            words = _("%(place)s, linked by a street: %(bonus)s.", place=place, bonus=bonus)
        else:
            continue
        rule = f"oddville/character/{LAMPLIGHTER}" if lamplighter else BONUS_RULE
        gains.append(Gain(words, rule, other.at, other.bonus))
    if new.guild is not None:
        gains.append(
            Gain(
                _(
                    "Take the top %(guild)s Character card (when that pile is empty, everyone"
                    " gives back their %(guild)s characters, shuffled into a new pile first).",
                    guild=guild_name(new.guild),
                ),
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
