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
from companion.games.text import N_, _, sentences

SLUG = "oddville"
MIN_PLAYERS, MAX_PLAYERS = 2, 4

#: The players' colours, in the order the app offers them to the seats (their keys).
COLOURS = ("purple", "blue", "red", "yellow")
#: The colours' names for people (English; translated where shown).
COLOUR_NAMES: dict[str, str] = {
    # TRANSLATORS: an OddVille player's colour, lower-case ("Two players chose purple").
    "purple": N_("purple"),
    # TRANSLATORS: an OddVille player's colour, lower-case ("Two players chose blue").
    "blue": N_("blue"),
    # TRANSLATORS: an OddVille player's colour, lower-case ("Two players chose red").
    "red": N_("red"),
    # TRANSLATORS: an OddVille player's colour, lower-case ("Two players chose yellow").
    "yellow": N_("yellow"),
}

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
    """How people name a victory-point type, its icon and letter, and its rules entry
    (names in English, translated where shown)."""

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
    Kind.DIAMOND: KindFacts(
        # TRANSLATORS: an OddVille victory-point type's name.
        N_("Diamond"),
        # TRANSLATORS: an OddVille victory-point type's short name, on the palette.
        N_("Diamond 5 or 4"),
        "◆",
        "D",
        "oddville/vp/diamond",
        (5, 4),
    ),
    Kind.DIAMONDS: KindFacts(
        # TRANSLATORS: an OddVille victory-point type's name.
        N_("Diamonds in the city"),
        # TRANSLATORS: an OddVille victory-point type's short name, on the palette.
        N_("3 + diamonds"),
        "◇",
        "DC",
        "oddville/vp/diamonds",
    ),
    Kind.ADJACENT: KindFacts(
        # TRANSLATORS: an OddVille victory-point type's name.
        N_("Adjacent cards"),
        # TRANSLATORS: an OddVille victory-point type's short name, on the palette.
        N_("1 + adjacent"),
        "✚",
        "A",
        "oddville/vp/adjacent",
    ),
    Kind.COLUMN: KindFacts(
        # TRANSLATORS: an OddVille victory-point type's name.
        N_("Its column"),
        # TRANSLATORS: an OddVille victory-point type's short name, on the palette.
        N_("1 + column"),
        "↕",
        "C",
        "oddville/vp/column",
    ),
    Kind.ROW: KindFacts(
        # TRANSLATORS: an OddVille victory-point type's name.
        N_("Its row"),
        # TRANSLATORS: an OddVille victory-point type's short name, on the palette.
        N_("2 + row"),
        "↔",
        "R",
        "oddville/vp/row",
    ),
    Kind.ADJACENT_X3: KindFacts(
        # TRANSLATORS: an OddVille victory-point type's name.
        N_("3 per adjacent card"),
        # TRANSLATORS: an OddVille victory-point type's short name, on the palette.
        N_("3 × adjacent"),  # noqa: RUF001 - the multiplication sign is meant
        "✱",
        "A3",
        "oddville/vp/adjacent-x3",
    ),
    Kind.SHIELDS: KindFacts(
        # TRANSLATORS: an OddVille victory-point type's name.
        N_("Adjacent shields"),
        # TRANSLATORS: an OddVille victory-point type's short name, on the palette.
        N_("shields around"),
        "◈",
        "S",
        "oddville/vp/shields",
    ),
    Kind.GUILD: KindFacts(
        # TRANSLATORS: an OddVille victory-point type's name.
        N_("Guild"),
        # TRANSLATORS: an OddVille victory-point type's short name, on the palette.
        N_("1 or 2 + guild"),
        "♣",
        "G",
        "oddville/vp/guild",
        (2, 1),
    ),
}

#: The four guilds: key -> name. The rulebook names the Mask and the Rooster; "Bells" and
#: "Lily" are the app's names for the other two (its ``app/guild-names`` entry says so).
GUILDS: dict[str, str] = {
    # TRANSLATORS: an OddVille guild.
    "mask": N_("Mask"),
    # TRANSLATORS: an OddVille guild.
    "rooster": N_("Rooster"),
    # TRANSLATORS: an OddVille guild (the app's name: the rulebook does not name it).
    "bells": N_("Bells"),
    # TRANSLATORS: an OddVille guild (the app's name: the rulebook does not name it).
    "lily": N_("Lily"),
}


def guild_name(key: str) -> str:
    """A guild's name in the reader's language (an unknown key as it is).

    >>> guild_name("mask"), guild_name("moon")
    ('Mask', 'moon')
    """
    return _(GUILDS[key]) if key in GUILDS else key


@dataclass(frozen=True)
class Character:
    """A Character card: its name, its power in our words and its end-of-game points
    (name and power in English, translated where shown)."""

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
        # TRANSLATORS: an OddVille Character card.
        N_("Human Resources Manager"),
        5,
        N_("Any of your Worker cards may take any resource."),
    ),
    Character(
        "ghost-of-lovely-spinster",
        # TRANSLATORS: an OddVille Character card.
        N_("Ghost of Lovely Spinster"),
        4,
        N_("Any of your Worker cards may take 3 Coins."),
    ),
    # TRANSLATORS: an OddVille Character card.
    Character("landowner", N_("Landowner"), 4, N_("Taking a resource costs you 1 Coin less.")),
    Character(
        "tax-collector",
        # TRANSLATORS: an OddVille Character card.
        N_("Tax Collector"),
        2,
        N_("Whenever someone else pays Coins, you draw 1 Coin."),
    ),
    Character(
        "seignior",
        # TRANSLATORS: an OddVille Character card.
        N_("Seignior"),
        3,
        N_(
            "A Worker card taking resources gives you 2 of those it shows (same or different);"
            " you pay for each."
        ),
    ),
    Character(
        "benefactor",
        # TRANSLATORS: an OddVille Character card.
        N_("Benefactor"),
        3,
        N_("You draw 1 Coin as each of your turns begins."),
    ),
    Character(
        "cheater",
        # TRANSLATORS: an OddVille Character card.
        N_("Cheater"),
        3,
        N_(
            "Once in each of your turns you may flip one of your Coin cards to its Building"
            " side, without peeking first."
        ),
    ),
    Character(
        LAMPLIGHTER,
        # TRANSLATORS: an OddVille Character card.
        N_("Lamplighter"),
        2,
        N_(
            "When you build, every adjacent building gives you its bonus, linked by a street"
            " or not."
        ),
    ),
    Character(
        "mistress",
        # TRANSLATORS: an OddVille Character card.
        N_("Mistress"),
        5,
        N_("Taking your Worker cards back costs you 1 Coin less."),
    ),
    Character(
        BUILDER,
        # TRANSLATORS: an OddVille Character card.
        N_("Builder"),
        4,
        N_(
            "When another player has built (even in the last turn), you may build too, paying"
            " 2 Coins and following the usual rules."
        ),
    ),
    Character(
        "bookkeeper",
        # TRANSLATORS: an OddVille Character card.
        N_("Bookkeeper"),
        2,
        N_(
            "Once in each of your turns you may exchange one of your Building cards with one"
            " of the six in the Buildings Row."
        ),
    ),
    Character(
        TRAVELLER,
        # TRANSLATORS: an OddVille Character card.
        N_("Traveller"),
        TRAVELLER_POINTS,
        N_(
            "In your turn you may pay a resource to put one of your workers on a free spot of"
            " that resource on the Main Square (one worker per player there). Worth 7 at the"
            " end, or 0 if you have a worker on the Main Square."
        ),
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


#: What each bonus gives, in our words (English; translated where shown).
BONUSES: dict[Bonus, str] = {
    # TRANSLATORS: an OddVille bonus ("it": the building), after "Your new card:".
    Bonus.RESOURCE: N_("take 1 of the resources it shows, free"),
    # TRANSLATORS: an OddVille bonus, after "Your new card:".
    Bonus.COIN: N_("draw 1 Coin"),
    # TRANSLATORS: an OddVille bonus, after "Your new card:".
    Bonus.TRANSFORM: N_("move 1 of your workers on the Resources Board to another resource, free"),
    # TRANSLATORS: an OddVille bonus, after "Your new card:".
    Bonus.ANY_RESOURCE: N_("take 1 resource of your choice, free"),
    # TRANSLATORS: an OddVille bonus, after "Your new card:".
    Bonus.DOUBLE: N_("take 1 more of a resource you already own, free"),
}
#: Short names of the bonuses, for the palette (English; translated where shown).
BONUS_NAMES: dict[Bonus, str] = {
    # TRANSLATORS: an OddVille bonus's short name on the palette.
    Bonus.RESOURCE: N_("1 resource"),
    # TRANSLATORS: an OddVille bonus's short name on the palette.
    Bonus.COIN: N_("1 Coin"),
    # TRANSLATORS: an OddVille bonus's short name on the palette (move a worker).
    Bonus.TRANSFORM: N_("transform"),
    # TRANSLATORS: an OddVille bonus's short name on the palette.
    Bonus.ANY_RESOURCE: N_("any resource"),
    # TRANSLATORS: an OddVille bonus's short name on the palette (1 more of a resource).
    Bonus.DOUBLE: N_("double"),
}


class Edge(StrEnum):
    """What a card shows along one of its edges."""

    HOUSE = "H"
    STREET = "S"


#: The order of a card's four edges in its ``edges`` text: top, right, bottom, left (keys).
SIDES = ("top", "right", "bottom", "left")
#: The four edges' names for people, in the same order (English; translated where shown).
SIDE_NAMES = (
    # TRANSLATORS: a card's edge, in "Its top edge shows houses".
    N_("top"),
    # TRANSLATORS: a card's edge, in "Its right edge shows houses".
    N_("right"),
    # TRANSLATORS: a card's edge, in "Its bottom edge shows houses".
    N_("bottom"),
    # TRANSLATORS: a card's edge, in "Its left edge shows houses".
    N_("left"),
)
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
    N_(
        "The Main Square's streets on its left, right and lower sides are the app's reading"
        " of the card's picture; the rulebook's text does not list them."
    ),
)
#: Why a building beside the Main Square gets no bonus from it (the verdict's reading).
MAIN_SQUARE_BONUS_READING = Reading(
    "oddville/main-square/no-bonus",
    N_(
        "The Main Square gives no bonus to a building laid next to it: this is the app's"
        " reading, as the rulebook only puts bonuses in the corner of Building cards and never"
        " gives the Main Square one."
    ),
)


#: A card's adjacency, row or column count includes the Main Square.
MAIN_SQUARE_COUNTS_READING = Reading(
    MAIN_SQUARE_CARD_RULE,
    N_(
        "Counting the Main Square as a card for adjacency, rows and columns is the app's"
        " reading: the scoring names it among the cards of the city, and nothing says to leave"
        " it out of those counts."
    ),
)
#: "Closest clockwise" in the tiebreak counts seats going clockwise from the ender.
CLOCKWISE_READING = Reading(
    "oddville/tiebreak/clockwise",
    N_(
        "Counting seats clockwise from the player who ended the game, so that the player right"
        " after them is the closest, is the app's reading: the rulebook's \"closest"
        ' (clockwise)" could also mean the player right before them.'
    ),
)
#: The player who ended the game may have 7 workers in the city, one on the Main Square.
SEVENTH_WORKER_READING = Reading(
    "oddville/app/too-many-workers",
    N_(
        "Seven workers in the city (six buildings and one on the Main Square) for the player"
        " who ended the game is the app's reading: the rulebook lets that player finish the"
        " turn of their 6th, and the Traveller acts at any time in its holder's turn, before"
        " or after that turn's building."
    ),
)


def said(message: str, reading: Reading | None) -> str:
    """A refusal's sentence, and the reading it rests on after it (when there is one).

    >>> said("No.", MAIN_SQUARE_READING)[:19], said("No.", None)
    ('No. The Main Square', 'No.')
    """
    return sentences(message, _(reading.text) if reading else "")
