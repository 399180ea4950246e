"""OddVille states: request shapes, sizes, validation with every problem, and the parsed city.

A city lists cards by position (``[row, col]``); the Main Square's row is row 0 and
nothing lies above it. The Main Square may be left out of the list: it then lies at
``[0, 0]``. Its column may be any, so a whole city moved sideways is the same city.

>>> city = parse({"players": ["Ann", "Ben"], "city": [
...     {"at": [1, 0], "owner": "ann", "points": {"kind": "diamond", "value": 5}}]})
>>> city.main_square.at, city.cards[(1, 0)].owner
((0, 0), 'Ann')
>>> [p.message for p in problems_in({"players": ["Ann"], "city": [
...     {"at": [-1, 0], "owner": "Cy", "points": {"kind": "diamond", "value": 7}}]})]
... # doctest: +NORMALIZE_WHITESPACE
['This game is for 2 to 4 players, not 1.', '"Cy" is not one of the players.',
 'A Diamond card is worth 5 or 4, not 7.',
 "This card lies above the Main Square's row: nothing is built above the Main Square."]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import pydantic

from companion.games.grid import Cell, neighbours
from companion.games.limits import (
    STRICT,
    list_size,
    object_size,
    problems_of,
    text_size,
    validate_model,
)
from companion.games.names import (
    NAME_SIZE,
    Roster,
    name_problems,
    player_count_problems,
    players_size,
)
from companion.games.oddville.facts import (
    CHARACTERS,
    CHARACTERS_RULE,
    COLOUR_NAMES,
    COLOURS,
    COMPONENTS_RULE,
    CONNECTED_RULE,
    EDGE_COUNT,
    GAME_END_RULE,
    GUILDS,
    KINDS,
    MAIN_SQUARE,
    MAIN_SQUARE_AT,
    MAIN_SQUARE_EDGES,
    MAIN_SQUARE_READING,
    MAIN_SQUARE_RULE,
    MAX_CITY_CARDS,
    MAX_PLAYERS,
    MAX_SHIELD,
    MIN_PLAYERS,
    PLAYERS_RULE,
    TOP_ROW_RULE,
    WORKERS_PER_PLAYER,
    WORKERS_RULE,
    Bonus,
    Edge,
    Kind,
    guild_name,
    said,
)
from companion.games.problems import InvalidStateError, Problem
from companion.games.text import _

POSITION_LENGTH = 2


class PointsModel(pydantic.BaseModel):
    """A building's victory points as printed: its type, and the value or guild it shows."""

    model_config = STRICT

    kind: str
    value: int | None = None
    guild: str | None = None


class CardModel(pydantic.BaseModel):
    """One card of the city as entered: the Main Square (``card``) or a building."""

    model_config = STRICT

    at: list[int]
    card: str | None = None
    owners: list[str] | None = None
    owner: str | None = None
    guild: str | None = None
    shield: int = 0
    points: PointsModel | None = None
    edges: str | None = None
    bonus: str | None = None


class StateModel(pydantic.BaseModel):
    """A whole OddVille table at scoring time (shape only; rules are checked afterwards)."""

    model_config = STRICT

    players: list[str]
    ended_by: str | None = None
    city: list[CardModel] = []
    characters: dict[str, list[str]] = {}
    resource_workers: dict[str, int] = {}
    colours: dict[str, str] = {}


POSITION_SIZE = list_size(POSITION_LENGTH, lambda _n: _("A position is a [row, col] pair."))
CARD_SIZE = object_size(
    {
        "at": POSITION_SIZE,
        "card": text_size(),
        "owners": list_size(
            MAX_PLAYERS, lambda _n: _("Each player has at most one worker there."), NAME_SIZE
        ),
        "owner": NAME_SIZE,
        "guild": text_size(),
        "points": object_size({"kind": text_size(), "guild": text_size()}),
        "edges": text_size(),
        "bonus": text_size(),
    }
)
#: Sizes checked before any card is: a city of absurd size is refused at once.
STATE_SIZE = object_size(
    {
        "players": players_size(MIN_PLAYERS, MAX_PLAYERS),
        "ended_by": NAME_SIZE,
        "city": list_size(
            MAX_CITY_CARDS,
            lambda n: _(
                "A city of %(count)s cards is more than the app takes (%(most)s).",
                count=n,
                most=MAX_CITY_CARDS,
            ),
            CARD_SIZE,
        ),
        "characters": object_size(
            each=list_size(
                len(CHARACTERS),
                lambda _n: _("Only %(most)s characters exist.", most=len(CHARACTERS)),
                text_size(),
            )
        ),
        "resource_workers": object_size(),
        "colours": object_size(each=text_size()),
    }
)


@dataclass(frozen=True)
class Card:
    """A card of a valid city: the Main Square (``owners``) or a building (``owner``)."""

    at: Cell
    main_square: bool = False
    owner: str | None = None
    owners: tuple[str, ...] = ()
    guild: str | None = None
    shield: int = 0
    kind: Kind | None = None
    value: int | None = None
    #: The guild a guild-type card counts.
    counts: str | None = None
    #: Top, right, bottom, left: ``H`` houses, ``S`` a street; ``None`` when not entered.
    edges: str | None = None
    bonus: Bonus | None = None

    @property
    def workers(self) -> tuple[str, ...]:
        """Whose workers stand on the card."""
        if self.main_square:
            return self.owners
        return (self.owner,) if self.owner is not None else ()


MAIN_SQUARE_CARD = Card(MAIN_SQUARE_AT, main_square=True, edges=MAIN_SQUARE_EDGES)


@dataclass(frozen=True)
class City:
    """A valid table: players in seating order, the city, characters and board workers."""

    players: tuple[str, ...]
    ended_by: str | None
    #: The cards by position, in the order entered (the Main Square first when implied).
    cards: Mapping[Cell, Card]
    characters: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    resource_workers: Mapping[str, int] = field(default_factory=dict)
    #: Each player's colour (purple, blue, red or yellow).
    colours: Mapping[str, str] = field(default_factory=dict)

    @property
    def main_square(self) -> Card:
        """The Main Square."""
        return next(card for card in self.cards.values() if card.main_square)

    @cached_property
    def left(self) -> int:
        """The leftmost column of the city (sentences count columns from it)."""
        return min(c for _row, c in self.cards)

    def place(self, cell: Cell, *, capital: bool = False) -> str:
        """A position as people say it: rows from the Main Square's (1), columns from the
        leftmost card of the city (1); ``capital`` to start a sentence.

        >>> City(("A", "B"), None, {(0, -2): MAIN_SQUARE_CARD, (1, 0): MAIN_SQUARE_CARD}
        ...      ).place((1, 0))
        'row 2, col 3'
        """
        return place_words(cell, self.left, capital=capital)

    @cached_property
    def worker_counts(self) -> Counter[str]:
        """Each player's workers in the city (Main Square included)."""
        return Counter(w for card in self.cards.values() for w in card.workers)

    def workers_in_city(self, player: str) -> int:
        """How many of a player's workers stand in the city (Main Square included)."""
        return self.worker_counts[player]


def place_words(cell: Cell, left: int, *, capital: bool = False) -> str:
    """A position counted from 1: row from the Main Square's row, column from ``left``;
    ``capital`` to start a sentence with it.

    >>> place_words((0, -1), -1), place_words((1, 0), 0, capital=True)
    ('row 1, col 1', 'Row 2, col 1')
    """
    row, col = cell[0] + 1, cell[1] - left + 1
    if capital:
        # TRANSLATORS: a place in the city, starting a sentence ("Row 2, col 1 is now ...").
        return _("Row %(row)s, col %(col)s", row=row, col=col)
    # TRANSLATORS: a place in the city (rows and columns counted from 1).
    return _("row %(row)s, col %(col)s", row=row, col=col)


# --- validation ------------------------------------------------------------------------


def problems_in(state: object) -> list[Problem]:
    """Every problem with a state; empty when it can be scored."""
    return problems_of(parse, state)


def parse(state: object) -> City:
    """Validate a state (every problem at once) and return the city."""
    model = validate_model(StateModel, state, STATE_SIZE)
    roster = Roster.of(model.players)
    problems = player_count_problems(len(model.players), minimum=MIN_PLAYERS, maximum=MAX_PLAYERS)
    problems += name_problems(model.players, path=lambda i: f"players[{i}]")
    problems = [_with_rule(p, PLAYERS_RULE) for p in problems]
    ended_by = None
    if model.ended_by is not None:
        ended_by = roster.find(model.ended_by)
        if ended_by is None:
            problems.append(_unknown_player("ended_by", model.ended_by, GAME_END_RULE))
    cards, card_problems = _cards(model.city, roster)
    problems += card_problems
    characters, held = _characters(model.characters, roster)
    problems += held
    workers, counted = _resource_workers(model.resource_workers, roster)
    problems += counted
    colours, chosen = _colours(model.colours, roster)
    problems += chosen
    if not problems:
        problems += _worker_supply_problems(roster.names, cards, workers)
        problems += _characters_in_play_problems(len(roster.names), model.characters)
    if problems:
        raise InvalidStateError(problems)
    return City(roster.names, ended_by, cards, characters, workers, colours)


#: Characters set aside at set-up from each of the 4 guild piles (of 3), by player count.
CHARACTERS_SET_ASIDE = {2: 2, 3: 1, 4: 0}
CHARACTERS_PER_GUILD = 3


def characters_in_play(players: int) -> int:
    """How many Character cards are in play with this many players.

    >>> characters_in_play(2), characters_in_play(3), characters_in_play(4)
    (4, 8, 12)
    """
    return len(GUILDS) * (CHARACTERS_PER_GUILD - CHARACTERS_SET_ASIDE.get(players, 0))


def _characters_in_play_problems(players: int, raw: Mapping[str, Sequence[str]]) -> list[Problem]:
    """More characters held than the player count leaves in play (fewer players set some
    aside from every guild pile at set-up, and they never come back)."""
    most = characters_in_play(players)
    entered = [(key, number) for key, held in raw.items() for number in range(len(held))]
    if len(entered) <= most:
        return []
    key, number = entered[-1]
    return [
        Problem(
            f"characters.{key}[{number}]",
            _(
                "With %(players)s players only %(most)s Character cards are in play (set-up"
                " sets %(aside)s aside from each guild pile), but %(count)s are entered.",
                players=players,
                most=most,
                aside=CHARACTERS_SET_ASIDE[players],
                count=len(entered),
            ),
            rule=CHARACTERS_RULE,
        )
    ]


def colours_for(players: Sequence[str], chosen: Mapping[str, str]) -> dict[str, str]:
    """Each player's colour: the chosen one, else the first colour nobody chose, by seat.

    >>> colours_for(["Ann", "Ben", "Cy"], {"Ben": "purple"})
    {'Ann': 'blue', 'Ben': 'purple', 'Cy': 'red'}
    """
    free = [c for c in COLOURS if c not in chosen.values()]
    colours = {}
    for player in players:
        if player in chosen:
            colours[player] = chosen[player]
        elif free:  # more players than colours is refused elsewhere
            colours[player] = free.pop(0)
    return colours


def _colours(raw: Mapping[str, str], roster: Roster) -> tuple[dict[str, str], list[Problem]]:
    """The players' colours: each one of the four, no two players the same."""
    problems = []
    chosen: dict[str, str] = {}
    for key, colour in raw.items():
        player = roster.find(key)
        path = f"colours.{key}"
        if player is None:
            problems.append(_unknown_player(path, key, PLAYERS_RULE))
        elif colour not in COLOURS:
            problems.append(
                Problem(
                    path,
                    # TRANSLATORS: the colours listed are keys to type, left in English.
                    _(
                        '"%(colour)s" is not a colour; pick %(colours)s.',
                        colour=colour,
                        colours=", ".join(COLOURS),
                    ),
                )
            )
        elif colour in chosen.values():
            problems.append(
                Problem(
                    path,
                    _(
                        "Two players chose %(colour)s: each colour goes to one player.",
                        colour=_(COLOUR_NAMES[colour]),
                    ),
                    rule=PLAYERS_RULE,
                )
            )
        else:
            chosen[player] = colour
    if problems or len(roster.names) > len(COLOURS):
        return {}, problems
    return colours_for(roster.names, chosen), problems


def _with_rule(problem: Problem, rule: str) -> Problem:
    return Problem(problem.path, problem.message, rule=rule)


def _unknown_player(path: str, name: str, rule: str) -> Problem:
    return Problem(path, _('"%(name)s" is not one of the players.', name=name.strip()), rule=rule)


def _cards(models: Sequence[CardModel], roster: Roster) -> tuple[dict[Cell, Card], list[Problem]]:
    """The cards by position, and every problem with them one by one and together.

    Places are checked for every card with a position, even one with other mistakes, so
    that one answer lists them all.
    """
    problems: list[Problem] = []
    cards: list[Card] = []
    places: list[tuple[int, Cell, bool]] = []
    for index, model in enumerate(models):
        card, found = read_card(model, f"city[{index}]", roster)
        problems += found
        at = _position(model.at)
        if at is not None:
            places.append((index, at, model.card == MAIN_SQUARE))
        if card is not None:
            cards.append(card)
    squares = [(index, at) for index, at, square in places if square]
    if not any(square for _index, _at, square in places) and not any(
        m.card == MAIN_SQUARE for m in models
    ):
        places.insert(0, (-1, MAIN_SQUARE_AT, True))
        cards.insert(0, MAIN_SQUARE_CARD)
    for index, _at in squares[1:]:
        problems.append(
            Problem(f"city[{index}]", _("There is only one Main Square."), rule=COMPONENTS_RULE)
        )
    if places:
        problems += _place_problems(places)
    by_place: dict[Cell, Card] = {}
    for card in cards:
        by_place.setdefault(card.at, card)
    return by_place, problems


def _place_problems(places: Sequence[tuple[int, Cell, bool]]) -> list[Problem]:
    """Cards on one place, above the Main Square's row, or not connected to it."""
    square_index, square_at = next(((i, at) for i, at, sq in places if sq), (-1, MAIN_SQUARE_AT))
    left = min(at[1] for _index, at, _square in places)
    problems = []
    if square_at[0] != 0:
        problems.append(
            Problem(
                f"city[{square_index}].at",
                _("The Main Square's row is row 0 (rows are counted down from it)."),
                rule=MAIN_SQUARE_RULE,
            )
        )
    seen: dict[Cell, int] = {}
    for index, at, _square in places:
        if at in seen:
            where = place_words(at, left)
            problems.append(
                Problem(
                    f"city[{index}].at",
                    _("Two cards lie on %(place)s.", place=where),
                    rule=COMPONENTS_RULE,
                )
            )
            continue
        seen[at] = index
        if at[0] < square_at[0]:
            problems.append(
                Problem(
                    f"city[{index}].at",
                    _(
                        "This card lies above the Main Square's row: nothing is built above the"
                        " Main Square."
                    ),
                    rule=TOP_ROW_RULE,
                )
            )
    connected = _connected_to(set(seen), square_at)
    for cell, index in seen.items():
        if cell not in connected and cell[0] >= square_at[0]:
            problems.append(
                Problem(
                    f"city[{index}].at",
                    _(
                        "The card on %(place)s does not connect to the Main Square through"
                        " cards (each card touches one by an edge).",
                        place=place_words(cell, left),
                    ),
                    rule=CONNECTED_RULE,
                )
            )
    return problems


def _connected_to(cells: set[Cell], start: Cell) -> set[Cell]:
    """The cells connected to ``start`` through cells sharing edges.

    >>> sorted(_connected_to({(0, 0), (0, 1), (1, 1), (3, 3)}, (0, 0)))
    [(0, 0), (0, 1), (1, 1)]
    """
    if start not in cells:
        return set()
    seen, stack = {start}, [start]
    while stack:
        for near in neighbours(stack.pop()):
            if near in cells and near not in seen:
                seen.add(near)
                stack.append(near)
    return seen


def read_card(model: CardModel, base: str, roster: Roster) -> tuple[Card | None, list[Problem]]:
    """One card of a city (``base`` is its path), or every problem with it."""
    problems: list[Problem] = []
    at = _position(model.at)
    if at is None:
        problems.append(
            Problem(f"{base}.at", _("A position is a [row, col] pair of whole numbers."))
        )
    if model.card == MAIN_SQUARE:
        card, found = _main_square(model, base, roster, at)
    elif model.card is not None:
        found = [
            Problem(
                f"{base}.card",
                _(
                    '"%(card)s" is not a card the app knows: leave "card" out for a building.',
                    card=model.card,
                ),
            )
        ]
        card = None
    else:
        card, found = _building(model, base, roster, at)
    problems += found
    return (card if not problems else None), problems


def _position(pair: Sequence[int]) -> Cell | None:
    if len(pair) != POSITION_LENGTH:
        return None
    return (pair[0], pair[1])


def _main_square(
    model: CardModel, base: str, roster: Roster, at: Cell | None
) -> tuple[Card | None, list[Problem]]:
    problems = []
    for name, given in (
        ("owner", model.owner is not None),
        ("guild", model.guild is not None),
        ("shield", model.shield != 0),
        ("points", model.points is not None),
        ("bonus", model.bonus is not None),
    ):
        if given:
            problems.append(
                Problem(
                    f"{base}.{name}",
                    # TRANSLATORS: the field is a key of the request ("owner", "guild",
                    # "shield", "points" or "bonus"), left in English.
                    _(
                        'The Main Square has no %(field)s (its owners are in "owners").',
                        field=name,
                    ),
                    rule=MAIN_SQUARE_RULE,
                )
            )
    if model.edges is not None and model.edges.upper() != MAIN_SQUARE_EDGES:
        problems.append(
            Problem(
                f"{base}.edges",
                said(
                    _(
                        "The Main Square's edges are %(edges)s: streets left, right and below.",
                        edges=MAIN_SQUARE_EDGES,
                    ),
                    MAIN_SQUARE_READING,
                ),
                rule=MAIN_SQUARE_READING.rule,
                reading=MAIN_SQUARE_READING,
            )
        )
    owners: list[str] = []
    for number, raw in enumerate(model.owners or []):
        owner = roster.find(raw)
        if owner is None:
            problems.append(_unknown_player(f"{base}.owners[{number}]", raw, WORKERS_RULE))
        elif owner in owners:
            problems.append(
                Problem(
                    f"{base}.owners[{number}]",
                    _("%(player)s can have only one worker on the Main Square.", player=owner),
                    rule="oddville/character/traveller",
                )
            )
        else:
            owners.append(owner)
    if problems or at is None:
        return None, problems
    return Card(at, main_square=True, owners=tuple(owners), edges=MAIN_SQUARE_EDGES), []


def _building(
    model: CardModel, base: str, roster: Roster, at: Cell | None
) -> tuple[Card | None, list[Problem]]:
    problems = []
    if model.owners is not None:
        problems.append(
            Problem(
                f"{base}.owners",
                _('Only the Main Square has several owners: a building has one "owner".'),
                rule=WORKERS_RULE,
            )
        )
    owner = None
    if model.owner is not None:
        owner = roster.find(model.owner)
        if owner is None:
            problems.append(_unknown_player(f"{base}.owner", model.owner, WORKERS_RULE))
    if model.guild is not None and model.guild not in GUILDS:
        problems.append(Problem(f"{base}.guild", _guild_message(model.guild)))
    if not 0 <= model.shield <= MAX_SHIELD:
        problems.append(
            Problem(
                f"{base}.shield", _("A card's shield shows 0 to %(most)s points.", most=MAX_SHIELD)
            )
        )
    edges = model.edges.upper() if model.edges is not None else None
    if edges is not None and not _edges_ok(edges):
        problems.append(
            Problem(
                f"{base}.edges",
                # TRANSLATORS: H and S are the letters to type in every language.
                _(
                    "Enter the four edges (top, right, bottom, left) as H for houses and S for"
                    ' a street, like "SHSH".'
                ),
            )
        )
    bonus = None
    if model.bonus is not None:
        if model.bonus in BONUS_KEYS:
            bonus = Bonus(model.bonus)
        else:
            known = ", ".join(b.value for b in Bonus)
            problems.append(
                Problem(
                    f"{base}.bonus",
                    _(
                        '"%(bonus)s" is not a bonus; pick one of %(known)s.',
                        bonus=model.bonus,
                        known=known,
                    ),
                )
            )
    kind, value, counts, found = _points(model, base)
    problems += found
    if problems or at is None or kind is None:
        return None, problems
    card = Card(
        at,
        owner=owner,
        guild=model.guild,
        shield=model.shield,
        kind=kind,
        value=value,
        counts=counts,
        edges=edges,
        bonus=bonus,
    )
    return card, []


EDGE_LETTERS = frozenset(e.value for e in Edge)
BONUS_KEYS = frozenset(b.value for b in Bonus)
KIND_KEYS = frozenset(k.value for k in Kind)
#: A victory-point type by its key (a lookup is cheaper than ``Kind(key)`` per card).
KIND_BY_KEY: dict[str, Kind] = {k.value: k for k in Kind}


def _edges_ok(edges: str) -> bool:
    return len(edges) == EDGE_COUNT and EDGE_LETTERS.issuperset(edges)


def _guild_message(guild: str) -> str:
    # TRANSLATORS: the guilds listed are keys to type, left in English.
    return _(
        '"%(guild)s" is not a guild; the guilds are %(guilds)s.',
        guild=guild,
        guilds=", ".join(GUILDS),
    )


def _points(
    model: CardModel, base: str
) -> tuple[Kind | None, int | None, str | None, list[Problem]]:
    """A building's victory-point type, its printed value and the guild it counts."""
    points = model.points
    where = f"{base}.points"
    if points is None:
        return None, None, None, [Problem(where, _("Enter the card's victory points."))]
    kind = KIND_BY_KEY.get(points.kind)
    if kind is None:
        known = ", ".join(k.value for k in Kind)
        return (
            None,
            None,
            None,
            [
                Problem(
                    f"{where}.kind",
                    _(
                        '"%(kind)s" is not a victory-point type (%(known)s).',
                        kind=points.kind,
                        known=known,
                    ),
                )
            ],
        )
    facts = KINDS[kind]
    problems = []
    if facts.values and points.value not in facts.values:
        first, second = facts.values
        if points.value is None:
            message = _(
                "A %(kind)s card is worth %(first)s or %(second)s, not nothing.",
                kind=_(facts.name),
                first=first,
                second=second,
            )
        else:
            message = _(
                "A %(kind)s card is worth %(first)s or %(second)s, not %(value)s.",
                kind=_(facts.name),
                first=first,
                second=second,
                value=points.value,
            )
        problems.append(Problem(f"{where}.value", message, rule=facts.rule))
    elif not facts.values and points.value is not None:
        problems.append(
            Problem(
                f"{where}.value",
                _(
                    'A card of type "%(kind)s" shows no value to choose: leave "value" out.',
                    kind=kind.value,
                ),
                rule=facts.rule,
            )
        )
    counts = None
    if kind is Kind.GUILD:
        counts, found = _counted_guild(model, where)
        problems += found
    elif points.guild is not None:
        problems.append(
            Problem(f"{where}.guild", _("Only a guild card counts the cards of a guild."))
        )
    return kind, points.value, counts, problems


def _counted_guild(model: CardModel, where: str) -> tuple[str | None, list[Problem]]:
    """A guild card counts its own guild (it is one card of it), so it needs a guild."""
    assert model.points is not None
    named = model.points.guild if model.points.guild is not None else model.guild
    rule = KINDS[Kind.GUILD].rule
    if named is None:
        # TRANSLATORS: the guilds listed are keys to type, left in English.
        message = _("A guild card needs its guild (mask, rooster, bells or lily).")
        return None, [Problem(f"{where}.guild", message, rule=rule)]
    if named not in GUILDS:
        return None, [Problem(f"{where}.guild", _guild_message(named), rule=rule)]
    if model.guild is None or model.guild != named:
        if model.guild is None:
            message = _(
                "This card counts %(guild)s cards and is one itself, but it shows no guild.",
                guild=guild_name(named),
            )
        else:
            # TRANSLATORS: "shown" is the key of the guild the card shows ("mask").
            message = _(
                "This card counts %(guild)s cards and is one itself, but it shows the"
                " %(shown)s guild.",
                guild=guild_name(named),
                shown=model.guild,
            )
        return None, [Problem(f"{where}.guild", message, rule=rule)]
    return named, []


def _characters(
    raw: Mapping[str, Sequence[str]], roster: Roster
) -> tuple[dict[str, tuple[str, ...]], list[Problem]]:
    """Each player's characters; every character exists once."""
    problems = []
    held: dict[str, tuple[str, ...]] = {}
    holder: dict[str, str] = {}
    for key, characters in raw.items():
        player = roster.find(key)
        if player is None:
            problems.append(_unknown_player(f"characters.{key}", key, CHARACTERS_RULE))
            continue
        mine: list[str] = []
        for number, character in enumerate(characters):
            path = f"characters.{key}[{number}]"
            if character not in CHARACTERS:
                problems.append(
                    Problem(
                        path,
                        _('"%(character)s" is not an OddVille character.', character=character),
                    )
                )
            elif character in holder:
                first = holder[character]
                name = _(CHARACTERS[character].name)
                if first == player:
                    message = _(
                        "Only one %(character)s exists, but it is entered for %(player)s twice.",
                        character=name,
                        player=first,
                    )
                else:
                    message = _(
                        "Only one %(character)s exists, but it is entered for %(first)s and"
                        " %(second)s.",
                        character=name,
                        first=first,
                        second=player,
                    )
                problems.append(Problem(path, message, rule=CHARACTERS_RULE))
            else:
                holder[character] = player
                mine.append(character)
        held[player] = held.get(player, ()) + tuple(mine)
    return held, problems


def _resource_workers(
    raw: Mapping[str, int], roster: Roster
) -> tuple[dict[str, int], list[Problem]]:
    problems = []
    workers: dict[str, int] = {}
    for key, count in raw.items():
        player = roster.find(key)
        path = f"resource_workers.{key}"
        if player is None:
            problems.append(_unknown_player(path, key, WORKERS_RULE))
        elif not 0 <= count <= WORKERS_PER_PLAYER:
            problems.append(
                Problem(
                    path,
                    _(
                        "Enter 0 to %(most)s workers (each player has %(most)s).",
                        most=WORKERS_PER_PLAYER,
                    ),
                    rule=WORKERS_RULE,
                )
            )
        else:
            workers[player] = workers.get(player, 0) + count
    return workers, problems


def _worker_supply_problems(
    players: Sequence[str], cards: Mapping[Cell, Card], board: Mapping[str, int]
) -> list[Problem]:
    """Nobody has more than their 9 workers in the city and on the Resources Board."""
    in_city: Counter[str] = Counter(w for card in cards.values() for w in card.workers)
    problems = []
    for player in players:
        total = in_city[player] + board.get(player, 0)
        if total > WORKERS_PER_PLAYER:
            problems.append(
                Problem(
                    "city",
                    _(
                        "%(player)s has %(most)s workers, but %(total)s are entered (%(city)s in"
                        " the city, %(board)s on the Resources Board).",
                        player=player,
                        most=WORKERS_PER_PLAYER,
                        total=total,
                        city=in_city[player],
                        board=board.get(player, 0),
                    ),
                    rule=WORKERS_RULE,
                )
            )
    return problems
