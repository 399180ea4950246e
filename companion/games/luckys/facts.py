"""The cards of Lucky's Misadventures as data, declared once.

Everything the engine knows about the box lives here: the component counts, the Fate
deck (suits, values, which cards pass the Feed the Toad! card), the Junk kinds, the
Machine Matrix, the Hirelings and the victory points that never change. The tests
check these tables against the rulebook's list of components.

>>> MACHINES["tiny-tin"].vp, MACHINES["tiny-tin"].junk
(7, ('clockwork-gizmo', 'reactor-pump'))
>>> machine_for("reactor-pump", "clockwork-gizmo").name
'Tiny Tin'
>>> FATE["wands-5"].passes, FATE["cups-4"].passes, FATE["death"].passes
(True, False, True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

SLUG = "luckys-misadventures"
NAME = "Lucky's Misadventures"
MIN_PLAYERS, MAX_PLAYERS = 2, 4

#: Rounds in a whole game, in two halves (the Fate deck runs out after each half).
ROUNDS = 14
ROUNDS_PER_HALF = 7
#: Fate cards revealed each round, and put aside unseen after each shuffle.
FATE_PER_ROUND = 3
FATE_DISCARDED_UNSEEN = 3
#: Death does nothing in the game's first rounds.
DEATH_QUIET_ROUNDS = 2
#: Buying: at most this many cards per turn.
PURCHASES_PER_TURN = 2
#: Challenges: winning by this much or more is "crushed it"; a minor victory may take a
#: card costing at most this much (or the cheapest).
CRUSH_MARGIN = 2
MINOR_VICTORY_MOST_COST = 5

LUCKY_VP = 10
HIRELING_VP = 1
MAVEN_VP_RANGE = range(2, 7)
GIZMO_VP = 1
#: The printed VP of a Junk card (not listed in the rulebook per card): a bound that
#: keeps typing slips out.
JUNK_VP_RANGE = range(0, 10)


class Suit(StrEnum):
    """The three minor arcana suits."""

    CUPS = "cups"
    SWORDS = "swords"
    WANDS = "wands"


class Faction(StrEnum):
    """The three ally factions (Lucky has none)."""

    TINKERER = "tinkerer"
    WICKED = "wicked"
    ODDLING = "oddling"


class Challenge(StrEnum):
    """The two challenges of a round, in the order they are resolved."""

    TINKERER = "tinkerer"
    WICKED = "wicked"


class Escape(StrEnum):
    """The three ways out of Oddtopia (instant wins)."""

    TIME_MACHINE = "time-machine"
    THREE_SISTERS = "three-sisters"
    PUMPKIN_TED = "pumpkin-ted"


ESCAPE_NAMES: dict[Escape, str] = {
    Escape.TIME_MACHINE: "the Time Machine",
    Escape.THREE_SISTERS: "the Three Sisters",
    Escape.PUMPKIN_TED: "Pumpkin Ted's portal",
}

SUIT_NAMES: dict[Suit, str] = {Suit.CUPS: "Cups", Suit.SWORDS: "Swords", Suit.WANDS: "Wands"}
FACTION_NAMES: dict[Faction, str] = {
    Faction.TINKERER: "Tinkerer",
    Faction.WICKED: "Wicked",
    Faction.ODDLING: "Oddling",
}
#: What a challenge's winner takes from the bank.
CHALLENGE_PRIZES: dict[Challenge, str] = {
    Challenge.TINKERER: "Junk card",
    Challenge.WICKED: "Maven card",
}


@dataclass(frozen=True)
class FateCard:
    """One Fate card: its code, name, suit (minor arcana) and printed value.

    ``value`` is ``None`` for a major card whose value the rulebook does not print (only
    Fortune's, 5, is given). ``passes`` tells whether it carries the "pass the Feed the
    Toad!" symbol: every Wands card and every major card does.
    """

    code: str
    name: str
    suit: Suit | None
    value: int | None

    @property
    def major(self) -> bool:
        """Whether it is a major arcana card (no suit)."""
        return self.suit is None

    @property
    def passes(self) -> bool:
        """Whether revealing it passes the Feed the Toad! card one seat clockwise."""
        return self.major or self.suit is Suit.WANDS


MINOR_VALUES = range(1, 7)
#: The six major arcana with their values where the rulebook gives them.
MAJORS: dict[str, tuple[str, int | None]] = {
    "magician": ("Magician", None),
    "tower": ("Tower", None),
    "fool": ("Fool", None),
    "judgment": ("Judgment", None),
    "fortune": ("Fortune", 5),
    "death": ("Death", None),
}


def _fate_deck() -> dict[str, FateCard]:
    cards = {
        f"{suit.value}-{value}": FateCard(
            f"{suit.value}-{value}", f"{value} of {SUIT_NAMES[suit]}", suit, value
        )
        for suit in Suit
        for value in MINOR_VALUES
    }
    cards.update(
        {code: FateCard(code, name, None, value) for code, (name, value) in MAJORS.items()}
    )
    return cards


#: The 24 Fate cards by code: ``cups-1`` ... ``wands-6`` then the six majors.
FATE: dict[str, FateCard] = _fate_deck()


UNPRINTED_EFFECT = (
    "The rulebook does not print this card's effect: read it from the card. "
    "When two majors clash in timing, the lower Fate value goes first."
)

#: Fortune's bands: (lowest sum, highest sum, effect).
FORTUNE_BANDS: tuple[tuple[int, int, str], ...] = (
    (2, 5, "no Tinkerer challenge this round"),
    (6, 6, "no Wicked challenge this round"),
    (7, 9, "everyone must play 4 cards this round"),
    (10, 12, "Machines do not function this round"),
)
#: The highest sum whose band takes a challenge away (Tinkerer 2-5, Wicked 6).
FORTUNE_LAST_CHALLENGE_BAND = 6


class JunkKind(StrEnum):
    """The five kinds of Junk."""

    CLOCKWORK_GIZMO = "clockwork-gizmo"
    REACTOR_PUMP = "reactor-pump"
    ANALOG_ENCRYPTOR = "analog-encryptor"
    LUMINOUS_AETHER = "luminous-aether"
    FLUX_CAPACITOR = "flux-capacitor"


#: Junk kind -> (name, copies in the box).
JUNK: dict[str, tuple[str, int]] = {
    JunkKind.CLOCKWORK_GIZMO: ("Clockwork Gizmo", 16),
    JunkKind.REACTOR_PUMP: ("Reactor Pump", 12),
    JunkKind.ANALOG_ENCRYPTOR: ("Analog Encryptor", 10),
    JunkKind.LUMINOUS_AETHER: ("Luminous Aether", 7),
    JunkKind.FLUX_CAPACITOR: ("Flux Capacitor", 3),
}


def junk_name(kind: str) -> str:
    """A Junk kind's name ("Reactor Pump"); unknown kinds as given."""
    return JUNK[kind][0] if kind in JUNK else kind


@dataclass(frozen=True)
class Machine:
    """One Machine of the Machine Matrix: its name, the two Junk it takes, VP, copies."""

    key: str
    name: str
    junk: tuple[str, str]
    vp: int
    copies: int


MACHINE_COPIES = 4
TIME_MACHINE_COPIES = 1


def _machine(name: str, first: JunkKind, second: JunkKind, vp: int) -> Machine:
    key = name.lower().replace(" ", "-")
    copies = TIME_MACHINE_COPIES if key == "time-machine" else MACHINE_COPIES
    return Machine(key, name, (first.value, second.value), vp, copies)


K = JunkKind
#: The Machine Matrix: which two Junk build which Machine, and its VP.
MACHINES: dict[str, Machine] = {
    m.key: m
    for m in (
        _machine("Creepy Doll Bot", K.CLOCKWORK_GIZMO, K.CLOCKWORK_GIZMO, 6),
        _machine("Steam Golem", K.REACTOR_PUMP, K.ANALOG_ENCRYPTOR, 7),
        _machine("Tiny Tin", K.CLOCKWORK_GIZMO, K.REACTOR_PUMP, 7),
        _machine("Mech Dragon", K.REACTOR_PUMP, K.LUMINOUS_AETHER, 10),
        _machine("Dirigible", K.CLOCKWORK_GIZMO, K.ANALOG_ENCRYPTOR, 8),
        _machine("Electro Brain", K.ANALOG_ENCRYPTOR, K.ANALOG_ENCRYPTOR, 9),
        _machine("Plasma Cannon", K.REACTOR_PUMP, K.REACTOR_PUMP, 9),
        _machine("Dark Energy Machine", K.LUMINOUS_AETHER, K.LUMINOUS_AETHER, 9),
        _machine("Fate Clock", K.CLOCKWORK_GIZMO, K.LUMINOUS_AETHER, 9),
        _machine("Time Machine", K.FLUX_CAPACITOR, K.FLUX_CAPACITOR, 13),
    )
}
TIME_MACHINE = "time-machine"
FATE_CLOCK = "fate-clock"


def junk_trashed(machines: Mapping[str, int]) -> Counter[str]:
    """The Junk cards trashed to build these Machines (gone from the game for good).

    >>> junk_trashed({"dark-energy-machine": 4})["luminous-aether"]
    8
    """
    trashed: Counter[str] = Counter()
    for key, count in machines.items():
        machine = MACHINES.get(key)
        if machine is not None and count > 0:
            for kind in machine.junk:
                trashed[kind] += count
    return trashed


def machine_for(first: str, second: str) -> Machine | None:
    """The Machine two Junk kinds build (in either order), or ``None``.

    >>> machine_for("flux-capacitor", "clockwork-gizmo") is None
    True
    """
    pair = sorted((first, second))
    return next((m for m in MACHINES.values() if sorted(m.junk) == pair), None)


#: Hireling kind -> (name, faction, copies).
HIRELINGS: dict[str, tuple[str, Faction, int]] = {
    "winged-monkey": ("Winged Monkey", Faction.WICKED, 8),
    "clockmakers": ("Clockmakers", Faction.TINKERER, 8),
    "white-rabbit": ("White Rabbit", Faction.ODDLING, 8),
}
CLOCKMAKERS = "clockmakers"
WHITE_RABBIT_FIRST, WHITE_RABBIT_MORE = 2, 1

#: Mavens: copies per faction (the cards are not published one by one).
MAVENS: dict[Faction, int] = {Faction.TINKERER: 19, Faction.WICKED: 19, Faction.ODDLING: 21}
#: Sidekicks per kind in the box, and per player's starting deck.
SIDEKICKS: dict[str, int] = {"tinman": 12, "lion": 12, "scarecrow": 12}
SIDEKICKS_PER_PLAYER = 3
LUCKY_CARDS = 4
FEED_THE_TOAD_CARDS = 1
PLACARDS = 2
#: The starting deck: Lucky, 3 of each Sidekick, 1 Hireling.
STARTING_DECK = 1 + 3 * SIDEKICKS_PER_PLAYER + 1

#: Mavens the tiebreakers and escapes look for by name (case-insensitive, a leading
#: "The" left out: "The Queen of Spades" is the Queen of Spades).
PUMPKIN_TED = "pumpkin ted"
QUEEN_OF_SPADES = "queen of spades"
THREE_SISTERS = ("greed", "despair", "vanity")
#: The Mavens the rulebook names as single cards ("the Pumpkin Ted card", the three
#: Sisters): no two decks can hold the same one.
NAMED_MAVENS = (PUMPKIN_TED, QUEEN_OF_SPADES, *THREE_SISTERS)


#: The Sisters are Wicked cards: the Sister Pact symbol is part of a Wicked card.
SISTERS_FACTION = Faction.WICKED


class Holding(StrEnum):
    """Where a deck counts a card: among its Machines, Junk, Hirelings or Mavens."""

    MACHINE = "machine"
    JUNK = "junk"
    HIRELING = "hireling"
    MAVEN = "maven"


@dataclass(frozen=True)
class EscapeCard:
    """A card an escape needs in the escaper's play: where a deck counts it, its key
    there (a Maven's as :func:`maven_key` gives it), its name, and how a sentence names
    one ("a Fate Clock")."""

    holding: Holding
    key: str
    name: str
    one: str


def _maven_card(key: str) -> EscapeCard:
    return EscapeCard(Holding.MAVEN, key, key.title(), key.title())


#: What each escape needs in the escaper's play (Pumpkin Ted's trigger aside).
ESCAPE_CARDS: dict[Escape, tuple[EscapeCard, ...]] = {
    Escape.TIME_MACHINE: (
        EscapeCard(Holding.MACHINE, TIME_MACHINE, "Time Machine", "the Time Machine"),
        EscapeCard(Holding.JUNK, JunkKind.REACTOR_PUMP.value, "Reactor Pump", "a Reactor Pump"),
    ),
    Escape.THREE_SISTERS: tuple(_maven_card(sister) for sister in THREE_SISTERS),
    Escape.PUMPKIN_TED: (
        _maven_card(PUMPKIN_TED),
        EscapeCard(Holding.HIRELING, CLOCKMAKERS, "Clockmakers", "a Clockmakers Hireling"),
        EscapeCard(Holding.MACHINE, FATE_CLOCK, "Fate Clock", "a Fate Clock"),
    ),
}


def maven_key(name: str) -> str:
    """A Maven's name as the tiebreakers and escapes look it up.

    >>> maven_key("The  Queen of Spades"), maven_key("pumpkin TED"), maven_key("Theodora")
    ('queen of spades', 'pumpkin ted', 'theodora')
    """
    key = " ".join(name.split()).casefold()
    return key.removeprefix("the ") if key.startswith("the ") else key


#: The rulebook's list of components: the tests check the tables above against it.
COMPONENTS: dict[str, int] = {
    "fate": 24,
    "minor fate": 18,
    "major fate": 6,
    "lucky": 4,
    "sidekicks": 36,
    "hirelings": 24,
    "mavens": 59,
    "junk": 48,
    "machines": 37,
    "feed the toad": 1,
    "placards": 2,
}
