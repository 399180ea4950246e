"""OddVille's facts, declared once: victory-point types, guilds, characters, bonuses,
edges, limits, the rules entries they belong to, and the app's readings where the rulebook
leaves room.

The printed building cards are not published, so nothing here describes one card: the
table enters what each card shows (its victory-point type, guild, shields, streets).

>>> CHARACTERS["traveller"].name, CHARACTERS["mistress"].points
('Traveller', 5)
>>> sorted(GUILDS)
['bells', 'lily', 'mask', 'rooster']
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from companion.games.readings import Reading

SLUG = "oddville"
MIN_PLAYERS, MAX_PLAYERS = 2, 4

#: The players' colours, in the order the app offers them to the seats.
COLOURS = ("purple", "blue", "red", "yellow")

#: The Main Square is worth this much to each of its owners.
MAIN_SQUARE_POINTS = 4
#: The card key of the Main Square in a city list.
MAIN_SQUARE = "main-square"
#: Where the Main Square lies when a city does not list it.
MAIN_SQUARE_AT = (0, 0)
#: Each player's workers (the game ends when one player has placed the 6th in the city).
WORKERS_PER_PLAYER = 9
WORKERS_TO_END = 6
#: A safety cap on the cards of one city (the box's deck is far smaller than this).
MAX_CITY_CARDS = 100
#: The shield points printed on one card are small; more is surely a typing slip.
MAX_SHIELD = 9
#: A card has four edges, so its ``edges`` text has four letters.
EDGE_COUNT = 4


class Kind(StrEnum):
    """A building's victory-point type (``points.kind`` in the API)."""

    DIAMOND = "diamond"
    DIAMONDS = "diamonds"
    ADJACENT = "adjacent"
    COLUMN = "column"
    ROW = "row"
    ADJACENT_X3 = "adjacent-x3"
    SHIELDS = "shields"
    GUILD = "guild"


@dataclass(frozen=True)
class KindFacts:
    """How people name a victory-point type, its icon and letter, and its rules entry."""

    name: str
    #: A short name for the palette ("3 + diamonds").
    short: str
    #: A symbol drawn on the card (never alone: the letters go with it).
    icon: str
    letters: str
    rule: str
    #: The printed values a card of this type may show (empty: none to choose).
    values: tuple[int, ...] = ()


KINDS: dict[Kind, KindFacts] = {
    Kind.DIAMOND: KindFacts("Diamond", "Diamond 5 or 4", "◆", "D", "oddville/vp/diamond", (5, 4)),
    Kind.DIAMONDS: KindFacts(
        "Diamonds in the city", "3 + diamonds", "◇", "DC", "oddville/vp/diamonds"
    ),
    Kind.ADJACENT: KindFacts("Adjacent cards", "1 + adjacent", "✚", "A", "oddville/vp/adjacent"),
    Kind.COLUMN: KindFacts("Its column", "1 + column", "↕", "C", "oddville/vp/column"),
    Kind.ROW: KindFacts("Its row", "2 + row", "↔", "R", "oddville/vp/row"),
    Kind.ADJACENT_X3: KindFacts(
        "3 per adjacent card",
        "3 × adjacent",  # noqa: RUF001 - the multiplication sign is meant
        "✱",
        "A3",
        "oddville/vp/adjacent-x3",
    ),
    Kind.SHIELDS: KindFacts("Adjacent shields", "shields around", "◈", "S", "oddville/vp/shields"),
    Kind.GUILD: KindFacts("Guild", "1 or 2 + guild", "♣", "G", "oddville/vp/guild", (2, 1)),
}

#: The four guilds: key -> name. The rulebook names the Mask and the Rooster; "Bells" and
#: "Lily" are the app's names for the other two (its ``app/guild-names`` entry says so).
GUILDS: dict[str, str] = {
    "mask": "Mask",
    "rooster": "Rooster",
    "bells": "Bells",
    "lily": "Lily",
}


@dataclass(frozen=True)
class Character:
    """A Character card: its name, its power in our words and its end-of-game points."""

    key: str
    name: str
    points: int
    power: str

    @property
    def rule(self) -> str:
        """Its rules entry."""
        return f"oddville/character/{self.key}"


TRAVELLER = "traveller"
LAMPLIGHTER = "lamplighter"
BUILDER = "builder"
#: The Traveller is worth this much only to a player without a worker on the Main Square.
TRAVELLER_POINTS = 7

_CHARACTERS = (
    Character(
        "hr-manager",
        "Human Resources Manager",
        5,
        "Any of your Worker cards may take any resource.",
    ),
    Character(
        "ghost-of-lovely-spinster",
        "Ghost of Lovely Spinster",
        4,
        "Any of your Worker cards may take 3 Coins.",
    ),
    Character("landowner", "Landowner", 4, "Taking a resource costs you 1 Coin less."),
    Character(
        "tax-collector",
        "Tax Collector",
        2,
        "Whenever someone else pays Coins, you draw 1 Coin.",
    ),
    Character(
        "seignior",
        "Seignior",
        3,
        "A Worker card taking resources gives you 2 of those it shows (same or different);"
        " you pay for each.",
    ),
    Character("benefactor", "Benefactor", 3, "You draw 1 Coin as each of your turns begins."),
    Character(
        "cheater",
        "Cheater",
        3,
        "Once in each of your turns you may flip one of your Coin cards to its Building side,"
        " without peeking first.",
    ),
    Character(
        LAMPLIGHTER,
        "Lamplighter",
        2,
        "When you build, every adjacent building gives you its bonus, linked by a street or not.",
    ),
    Character("mistress", "Mistress", 5, "Taking your Worker cards back costs you 1 Coin less."),
    Character(
        BUILDER,
        "Builder",
        4,
        "When another player has built (even in the last turn), you may build too, paying"
        " 2 Coins and following the usual rules.",
    ),
    Character(
        "bookkeeper",
        "Bookkeeper",
        2,
        "Once in each of your turns you may exchange one of your Building cards with one of"
        " the six in the Buildings Row.",
    ),
    Character(
        TRAVELLER,
        "Traveller",
        TRAVELLER_POINTS,
        "In your turn you may pay a resource to put one of your workers on a free spot of"
        " that resource on the Main Square (one worker per player there). Worth 7 at the"
        " end, or 0 if you have a worker on the Main Square.",
    ),
)
#: The 12 characters, each in the box once: key -> card.
CHARACTERS: dict[str, Character] = {c.key: c for c in _CHARACTERS}


class Bonus(StrEnum):
    """A building's bonus (its upper-right corner), collected when it is built."""

    RESOURCE = "resource"
    COIN = "coin"
    TRANSFORM = "transform"
    ANY_RESOURCE = "any-resource"
    DOUBLE = "double"


#: What each bonus gives, in our words.
BONUSES: dict[Bonus, str] = {
    Bonus.RESOURCE: "take 1 of the resources it shows, free",
    Bonus.COIN: "draw 1 Coin",
    Bonus.TRANSFORM: "move 1 of your workers on the Resources Board to another resource, free",
    Bonus.ANY_RESOURCE: "take 1 resource of your choice, free",
    Bonus.DOUBLE: "take 1 more of a resource you already own, free",
}
#: Short names of the bonuses, for the palette.
BONUS_NAMES: dict[Bonus, str] = {
    Bonus.RESOURCE: "1 resource",
    Bonus.COIN: "1 Coin",
    Bonus.TRANSFORM: "transform",
    Bonus.ANY_RESOURCE: "any resource",
    Bonus.DOUBLE: "double",
}


class Edge(StrEnum):
    """What a card shows along one of its edges."""

    HOUSE = "H"
    STREET = "S"


#: The order of a card's four edges in its ``edges`` text: top, right, bottom, left.
SIDES = ("top", "right", "bottom", "left")
#: The Main Square's edges: streets left, right and below (nothing is built above it), by
#: the app's reading of its picture (``MAIN_SQUARE_READING``).
MAIN_SQUARE_EDGES = "HSSS"
#: The side of a card facing a neighbour one step away, and the neighbour's facing side.
FACING: dict[tuple[int, int], tuple[int, int]] = {
    (-1, 0): (0, 2),
    (0, 1): (1, 3),
    (1, 0): (2, 0),
    (0, -1): (3, 1),
}
EDGE_NAMES = {Edge.HOUSE: "houses", Edge.STREET: "a street"}


# --- rules entries (each is in companion/rules/oddville.toml) ----------------------------

PLAYERS_RULE = "oddville/setup"
MAIN_SQUARE_RULE = "oddville/main-square"
MAIN_SQUARE_CARD_RULE = "oddville/main-square-counts"
COMPONENTS_RULE = "oddville/components"
WORKERS_RULE = "oddville/workers"
RESOURCES_BOARD_RULE = "oddville/score/resources-board"
CHARACTERS_RULE = "oddville/characters"
GAME_END_RULE = "oddville/game-end"
TIEBREAK_RULE = "oddville/tiebreak"
CONNECTED_RULE = "oddville/construction/adjacent"
TOP_ROW_RULE = "oddville/construction/top-row"
ROTATION_RULE = "oddville/construction/rotation"
EDGES_RULE = "oddville/construction/edges"
FIXED_RULE = "oddville/construction/fixed"
BONUS_RULE = "oddville/bonus"
GUILD_CHARACTER_RULE = "oddville/character-take"


# --- the app's readings (each is the clarification entry of the same id) ----------------

#: The Main Square's edges are read from the card's picture.
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


#: A card's adjacency, row or column count includes the Main Square.
MAIN_SQUARE_COUNTS_READING = Reading(
    MAIN_SQUARE_CARD_RULE,
    "Counting the Main Square as a card for adjacency, rows and columns is the app's"
    " reading: the scoring names it among the cards of the city, and nothing says to leave"
    " it out of those counts.",
)
#: "Closest clockwise" in the tiebreak counts seats going clockwise from the ender.
CLOCKWISE_READING = Reading(
    "oddville/tiebreak/clockwise",
    "Counting seats clockwise from the player who ended the game, so that the player right"
    " after them is the closest, is the app's reading: the rulebook's \"closest"
    ' (clockwise)" could also mean the player right before them.',
)
#: The player who ended the game may have 7 workers in the city, one on the Main Square.
SEVENTH_WORKER_READING = Reading(
    "oddville/app/too-many-workers",
    "Seven workers in the city (six buildings and one on the Main Square) for the player"
    " who ended the game is the app's reading: the rulebook lets that player finish the"
    " turn of their 6th, and the Traveller acts at any time in its holder's turn, before"
    " or after that turn's building.",
)


def said(reading: Reading | None) -> str:
    """A reading's words as they follow a refusal's sentence: nothing without one.

    >>> said(MAIN_SQUARE_READING)[:16], said(None)
    (' The Main Square', '')
    """
    return f" {reading.text}" if reading else ""
