"""The cards of Lucky's Misadventures as data, declared once.

Everything the engine knows about the box lives here: the component counts, the Fate
deck (suits, values, which cards pass the Feed the Toad! card), the Junk kinds, the
Machine Matrix, the Hirelings and the victory points that never change. The tests
check these tables against the rulebook's list of components. Names and words are kept
in English (marked for translation) and said in the reader's language where they are
shown (:func:`fate_name`, :func:`junk_name`, ``_(machine.name)``).

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

from companion.games.text import N_, _

SLUG = "luckys-misadventures"
# TRANSLATORS: a game's name (the box's title).
NAME = N_("Lucky's Misadventures")
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
    # TRANSLATORS: a way out of Oddtopia, in "Carol escaped Oddtopia with the Time Machine".
    Escape.TIME_MACHINE: N_("the Time Machine"),
    # TRANSLATORS: a way out of Oddtopia, in "Carol escaped Oddtopia with the Three Sisters".
    Escape.THREE_SISTERS: N_("the Three Sisters"),
    # TRANSLATORS: a way out of Oddtopia, in "Carol escaped Oddtopia with Pumpkin Ted's portal".
    Escape.PUMPKIN_TED: N_("Pumpkin Ted's portal"),
}

SUIT_NAMES: dict[Suit, str] = {
    # TRANSLATORS: a suit of Lucky's Misadventures' Fate cards.
    Suit.CUPS: N_("Cups"),
    # TRANSLATORS: a suit of Lucky's Misadventures' Fate cards.
    Suit.SWORDS: N_("Swords"),
    # TRANSLATORS: a suit of Lucky's Misadventures' Fate cards.
    Suit.WANDS: N_("Wands"),
}
FACTION_NAMES: dict[Faction, str] = {
    # TRANSLATORS: a faction of Lucky's Misadventures' allies.
    Faction.TINKERER: N_("Tinkerer"),
    # TRANSLATORS: a faction of Lucky's Misadventures' allies.
    Faction.WICKED: N_("Wicked"),
    # TRANSLATORS: a faction of Lucky's Misadventures' allies.
    Faction.ODDLING: N_("Oddling"),
}
#: What a challenge's winner takes from the bank.
CHALLENGE_PRIZES: dict[Challenge, str] = {
    # TRANSLATORS: a Tinkerer challenge's prize, in "any Junk card from the bank".
    Challenge.TINKERER: N_("Junk card"),
    # TRANSLATORS: a Wicked challenge's prize, in "any Maven card from the bank".
    Challenge.WICKED: N_("Maven card"),
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
    # TRANSLATORS: a major Fate card of Lucky's Misadventures (a tarot trump).
    "magician": (N_("Magician"), None),
    # TRANSLATORS: a major Fate card of Lucky's Misadventures (a tarot trump).
    "tower": (N_("Tower"), None),
    # TRANSLATORS: a major Fate card of Lucky's Misadventures (a tarot trump).
    "fool": (N_("Fool"), None),
    # TRANSLATORS: a major Fate card of Lucky's Misadventures (a tarot trump).
    "judgment": (N_("Judgment"), None),
    # TRANSLATORS: a major Fate card of Lucky's Misadventures (a tarot trump).
    "fortune": (N_("Fortune"), 5),
    # TRANSLATORS: a major Fate card of Lucky's Misadventures (a tarot trump).
    "death": (N_("Death"), None),
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


def fate_name(code: str) -> str:
    """A Fate card's name in the reader's language ("5 of Wands"); an unknown code as it is.

    >>> fate_name("wands-5"), fate_name("death"), fate_name("joker")
    ('5 of Wands', 'Death', 'joker')
    """
    card = FATE.get(code)
    if card is None:
        return code
    if card.suit is None:
        return _(card.name)
    # TRANSLATORS: a minor Fate card: its value and its suit ("5 of Wands").
    return _("%(value)s of %(suit)s", value=card.value, suit=_(SUIT_NAMES[card.suit]))


UNPRINTED_EFFECT = N_(
    "The rulebook does not print this card's effect: read it from the card. "
    "When two majors clash in timing, the lower Fate value goes first."
)

#: Fortune's bands: (lowest sum, highest sum, effect).
FORTUNE_BANDS: tuple[tuple[int, int, str], ...] = (
    # TRANSLATORS: Fortune's effect when the other two Fate cards add up to 2 to 5.
    (2, 5, N_("no Tinkerer challenge this round")),
    # TRANSLATORS: Fortune's effect when the other two Fate cards add up to 6.
    (6, 6, N_("no Wicked challenge this round")),
    # TRANSLATORS: Fortune's effect when the other two Fate cards add up to 7 to 9.
    (7, 9, N_("everyone must play 4 cards this round")),
    # TRANSLATORS: Fortune's effect when the other two Fate cards add up to 10 to 12.
    (10, 12, N_("Machines do not function this round")),
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
    # TRANSLATORS: a kind of Junk card in Lucky's Misadventures.
    JunkKind.CLOCKWORK_GIZMO: (N_("Clockwork Gizmo"), 16),
    # TRANSLATORS: a kind of Junk card in Lucky's Misadventures.
    JunkKind.REACTOR_PUMP: (N_("Reactor Pump"), 12),
    # TRANSLATORS: a kind of Junk card in Lucky's Misadventures.
    JunkKind.ANALOG_ENCRYPTOR: (N_("Analog Encryptor"), 10),
    # TRANSLATORS: a kind of Junk card in Lucky's Misadventures.
    JunkKind.LUMINOUS_AETHER: (N_("Luminous Aether"), 7),
    # TRANSLATORS: a kind of Junk card in Lucky's Misadventures.
    JunkKind.FLUX_CAPACITOR: (N_("Flux Capacitor"), 3),
}


def junk_name(kind: str) -> str:
    """A Junk kind's name in the reader's language ("Reactor Pump"); unknown kinds as given.

    >>> junk_name("reactor-pump"), junk_name("spring")
    ('Reactor Pump', 'spring')
    """
    return _(JUNK[kind][0]) if kind in JUNK else kind


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
    # The names are the Machines' (translated where shown); their keys come from them.
    for m in (
        # TRANSLATORS: a Machine card of Lucky's Misadventures.
        _machine(N_("Creepy Doll Bot"), K.CLOCKWORK_GIZMO, K.CLOCKWORK_GIZMO, 6),
        # TRANSLATORS: a Machine card of Lucky's Misadventures.
        _machine(N_("Steam Golem"), K.REACTOR_PUMP, K.ANALOG_ENCRYPTOR, 7),
        # TRANSLATORS: a Machine card of Lucky's Misadventures.
        _machine(N_("Tiny Tin"), K.CLOCKWORK_GIZMO, K.REACTOR_PUMP, 7),
        # TRANSLATORS: a Machine card of Lucky's Misadventures.
        _machine(N_("Mech Dragon"), K.REACTOR_PUMP, K.LUMINOUS_AETHER, 10),
        # TRANSLATORS: a Machine card of Lucky's Misadventures.
        _machine(N_("Dirigible"), K.CLOCKWORK_GIZMO, K.ANALOG_ENCRYPTOR, 8),
        # TRANSLATORS: a Machine card of Lucky's Misadventures.
        _machine(N_("Electro Brain"), K.ANALOG_ENCRYPTOR, K.ANALOG_ENCRYPTOR, 9),
        # TRANSLATORS: a Machine card of Lucky's Misadventures.
        _machine(N_("Plasma Cannon"), K.REACTOR_PUMP, K.REACTOR_PUMP, 9),
        # TRANSLATORS: a Machine card of Lucky's Misadventures.
        _machine(N_("Dark Energy Machine"), K.LUMINOUS_AETHER, K.LUMINOUS_AETHER, 9),
        # TRANSLATORS: a Machine card of Lucky's Misadventures.
        _machine(N_("Fate Clock"), K.CLOCKWORK_GIZMO, K.LUMINOUS_AETHER, 9),
        # TRANSLATORS: a Machine card of Lucky's Misadventures.
        _machine(N_("Time Machine"), K.FLUX_CAPACITOR, K.FLUX_CAPACITOR, 13),
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
    # TRANSLATORS: a Hireling card of Lucky's Misadventures.
    "winged-monkey": (N_("Winged Monkey"), Faction.WICKED, 8),
    # TRANSLATORS: a Hireling card of Lucky's Misadventures (one card, a plural name).
    "clockmakers": (N_("Clockmakers"), Faction.TINKERER, 8),
    # TRANSLATORS: a Hireling card of Lucky's Misadventures.
    "white-rabbit": (N_("White Rabbit"), Faction.ODDLING, 8),
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
#: Their names as printed (translated where shown).
MAVEN_NAMES: dict[str, str] = {
    # TRANSLATORS: a Maven card of Lucky's Misadventures.
    PUMPKIN_TED: N_("Pumpkin Ted"),
    # TRANSLATORS: a Maven card of Lucky's Misadventures.
    QUEEN_OF_SPADES: N_("Queen of Spades"),
    # TRANSLATORS: a Maven card of Lucky's Misadventures, one of the three Sisters.
    "greed": N_("Greed"),
    # TRANSLATORS: a Maven card of Lucky's Misadventures, one of the three Sisters.
    "despair": N_("Despair"),
    # TRANSLATORS: a Maven card of Lucky's Misadventures, one of the three Sisters.
    "vanity": N_("Vanity"),
}


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
    one ("a Fate Clock"); both in English, translated where shown."""

    holding: Holding
    key: str
    name: str
    one: str


def _maven_card(key: str) -> EscapeCard:
    return EscapeCard(Holding.MAVEN, key, MAVEN_NAMES[key], MAVEN_NAMES[key])


#: What each escape needs in the escaper's play (Pumpkin Ted's trigger aside).
ESCAPE_CARDS: dict[Escape, tuple[EscapeCard, ...]] = {
    Escape.TIME_MACHINE: (
        EscapeCard(
            Holding.MACHINE,
            TIME_MACHINE,
            N_("Time Machine"),
            # TRANSLATORS: a card an escape needs, in "it needs the Time Machine in Lewis's play".
            N_("the Time Machine"),
        ),
        EscapeCard(
            Holding.JUNK,
            JunkKind.REACTOR_PUMP.value,
            N_("Reactor Pump"),
            # TRANSLATORS: a card an escape needs, in "it needs a Reactor Pump in Lewis's play".
            N_("a Reactor Pump"),
        ),
    ),
    Escape.THREE_SISTERS: tuple(_maven_card(sister) for sister in THREE_SISTERS),
    Escape.PUMPKIN_TED: (
        _maven_card(PUMPKIN_TED),
        EscapeCard(
            Holding.HIRELING,
            CLOCKMAKERS,
            N_("Clockmakers"),
            # TRANSLATORS: a card an escape needs, in "it needs a Clockmakers Hireling in ...".
            N_("a Clockmakers Hireling"),
        ),
        EscapeCard(
            Holding.MACHINE,
            FATE_CLOCK,
            N_("Fate Clock"),
            # TRANSLATORS: a card an escape needs, in "it needs a Fate Clock in Lewis's play".
            N_("a Fate Clock"),
        ),
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
