"""Owl About facts and trick rules: the deck, the player chart, fighting power, who
wins a trick, the follow and night rules."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion.games.text import N_, _

SLUG = "owl-about"


MIN_PLAYERS, MAX_PLAYERS = 3, 6


class Mode(StrEnum):
    """How tricks are played and won."""

    BASIC = "basic"
    QUICK = "quick"
    ADVANCED = "advanced"


#: Each mode as the edit history names it (in English, marked for translation).
MODE_NAMES: dict[Mode, str] = {
    # TRANSLATORS: an Owl About mode of play, in the edit history ("mode: basic → quick").
    Mode.BASIC: N_("basic"),
    # TRANSLATORS: an Owl About mode of play: everyone plays a card at once.
    Mode.QUICK: N_("quick"),
    # TRANSLATORS: an Owl About mode of play, with special effects and variants.
    Mode.ADVANCED: N_("advanced"),
}


class Variant(StrEnum):
    """Optional scoring rules of the advanced mode.

    The rulebook lists Night Collection 3 and Night Collection 4 as two options;
    ``night-collection`` is the name of both together, kept from the first version.
    """

    SAME_SPEED = "same-speed"
    NIGHT_COLLECTION_3 = "night-collection-3"
    NIGHT_COLLECTION_4 = "night-collection-4"
    NIGHT_COLLECTION = "night-collection"


#: What each variant name switches on (``night-collection`` is both night collections).
VARIANT_RULES: dict[Variant, frozenset[Variant]] = {
    Variant.SAME_SPEED: frozenset({Variant.SAME_SPEED}),
    Variant.NIGHT_COLLECTION_3: frozenset({Variant.NIGHT_COLLECTION_3}),
    Variant.NIGHT_COLLECTION_4: frozenset({Variant.NIGHT_COLLECTION_4}),
    Variant.NIGHT_COLLECTION: frozenset({Variant.NIGHT_COLLECTION_3, Variant.NIGHT_COLLECTION_4}),
}


def rules_of(variants: Iterable[Variant]) -> frozenset[Variant]:
    """The rules a set of variant names switches on.

    >>> sorted(rule.value for rule in rules_of({Variant.NIGHT_COLLECTION}))
    ['night-collection-3', 'night-collection-4']
    """
    return frozenset(rule for variant in variants for rule in VARIANT_RULES[variant])


class RuleBreak(StrEnum):
    """A play rule that a card broke."""

    #: Held a card at least as fast as the fastest card in the trick, but played slower.
    FOLLOW = "follow"
    #: Played a night card while still holding the day card of the same speed.
    NIGHT = "night"

    @property
    def rule(self) -> str:
        """The rules entry of this play rule (``owl-about/follow``)."""
        return f"{SLUG}/{self.value}"


#: Rules entries (``owl-about/<entry>``) the engine and the pages name.
PENALTY_RULE = f"{SLUG}/penalty"
PLAYERS_RULE = f"{SLUG}/players"
ROUND_VP_RULE = f"{SLUG}/round-vp"
GAME_END_RULE = f"{SLUG}/game-end"
FEWEST_VP_RULE = f"{SLUG}/fewest-vp"
TRICK_WINNER_RULE = f"{SLUG}/trick-winner"
TROPHY_TOTALS_RULE = f"{SLUG}/trophy-totals"
ADVANCED_RULE = f"{SLUG}/mode/advanced"
COMPONENTS_RULE = f"{SLUG}/components"
NIGHT_COLLECTION_4_RULE = f"{SLUG}/variant/night-collection-4"


class NightCollection(StrEnum):
    """What the night-collection variant did to a player in a round."""

    ROUND_VOIDED = "round-voided"
    TOTAL_RESET = "total-reset"


#: Day cards: speed -> copies in the deck.
DAY_CARDS: dict[int, int] = {1: 4, 2: 4, 3: 3, 4: 3, 5: 4, 6: 4, 7: 3, 8: 3, 9: 2, 10: 2}


#: Night cards: one card of each of these speeds.
NIGHT_SPEEDS: tuple[int, ...] = (4, 5, 6, 7)


NIGHT_PREFIX = "N"


#: Every card code the API accepts -> copies in the 36-card deck.
DECK: dict[str, int] = {
    **{str(speed): copies for speed, copies in DAY_CARDS.items()},
    **{f"{NIGHT_PREFIX}{speed}": 1 for speed in NIGHT_SPEEDS},
}


DECK_SIZE = sum(DECK.values())


NIGHT_FP_BONUS = 2


#: The small owls that outfight the big ones: with a big one in the trick they gain FP.
SMALL_OWLS = frozenset({1, 2})


BIG_OWLS = frozenset({9, 10})


SMALL_OWL_FP_BONUS = 10


TROPHIES_PER_TRICK = 1


TROPHIES_PER_NIGHT_CARD = 2


SAME_SPEED_VP = 1


#: Night cards collected in one round that void its VP, and that reset the total.
NIGHT_COLLECTION_VOID = 3


NIGHT_COLLECTION_RESET = len(NIGHT_SPEEDS)


#: The target VP a table may choose.
MIN_TARGET, MAX_TARGET = 1, 99


#: Index of the lead's card in a trick (cards are listed in play order).
LEAD = 0


@dataclass(frozen=True)
class ChartRow:
    """One line of the player chart: how a round is dealt, and the default target."""

    players: int
    hand_cards: int
    face_up: int
    face_down: int
    target: int

    @property
    def tricks(self) -> int:
        """Tricks in a round: every card in hand is played, one per trick."""
        return self.hand_cards

    @property
    def max_trophies(self) -> int:
        """The most trophies one player can take in a round: every trick, every night card."""
        return self.tricks * TROPHIES_PER_TRICK + len(NIGHT_SPEEDS) * TROPHIES_PER_NIGHT_CARD

    @property
    def undealt(self) -> int:
        """Cards put aside each round (face up and face down): they may hold night cards."""
        return self.face_up + self.face_down

    @property
    def trophy_totals(self) -> tuple[int, ...]:
        """Every total the trophies of one whole round can add up to: one per trick, plus
        two per night card dealt (all four with 6 players, where every card is dealt).

        >>> PLAYER_CHART[6].trophy_totals, PLAYER_CHART[5].trophy_totals
        ((14,), (13, 15))
        >>> PLAYER_CHART[4].trophy_totals
        (8, 10, 12, 14, 16)
        """
        nights = len(NIGHT_SPEEDS)
        fewest = max(0, nights - self.undealt)
        return tuple(
            self.tricks * TROPHIES_PER_TRICK + dealt * TROPHIES_PER_NIGHT_CARD
            for dealt in range(fewest, nights + 1)
        )

    def to_json(self) -> dict[str, int]:
        """The chart line as JSON (for the rules page)."""
        return {
            "players": self.players,
            "hand_cards": self.hand_cards,
            "face_up": self.face_up,
            "face_down": self.face_down,
            "target": self.target,
        }


#: The player chart by player count; each row deals out exactly the 36 cards.
PLAYER_CHART: dict[int, ChartRow] = {
    row.players: row
    for row in (
        ChartRow(players=3, hand_cards=9, face_up=3, face_down=6, target=15),
        ChartRow(players=4, hand_cards=8, face_up=3, face_down=1, target=10),
        ChartRow(players=5, hand_cards=7, face_up=0, face_down=1, target=10),
        ChartRow(players=6, hand_cards=6, face_up=0, face_down=0, target=10),
    )
}


def player_chart() -> tuple[ChartRow, ...]:
    """The player chart, fewest players first.

    >>> [(row.players, row.hand_cards, row.face_up, row.face_down) for row in player_chart()]
    [(3, 9, 3, 6), (4, 8, 3, 1), (5, 7, 0, 1), (6, 6, 0, 0)]
    """
    return tuple(PLAYER_CHART[count] for count in sorted(PLAYER_CHART))


def default_target(players: int) -> int:
    """The VP that end the game with this many players.

    >>> default_target(3), default_target(5)
    (15, 10)
    """
    return PLAYER_CHART[players].target


@dataclass(frozen=True)
class Card:
    """One owl card: its code in the API, its speed, and whether it is a night card."""

    code: str
    speed: int
    night: bool

    @property
    def label(self) -> str:
        """How players name the card: ``"Night 6"``, or just the number for a day card
        (in the reader's language)."""
        # TRANSLATORS: an Owl About night card and its speed (the cards are "Night 4" to
        # "Night 7"; day cards are just their number).
        return _("Night %(speed)s", speed=self.speed) if self.night else str(self.speed)


#: Every card by its API code.
CARDS: dict[str, Card] = {
    code: Card(code, int(code.removeprefix(NIGHT_PREFIX)), code.startswith(NIGHT_PREFIX))
    for code in DECK
}


def card(code: str) -> Card:
    """The card with this API code; ``ValueError`` for anything else.

    >>> card("N6")
    Card(code='N6', speed=6, night=True)
    """
    try:
        return CARDS[code]
    except KeyError:
        raise ValueError(f"There is no Owl About card {code!r}.") from None


def fighting_power(card_code: str, trick_cards: Iterable[str]) -> int:
    """The FP of a card among the cards of its trick.

    A day card fights with its number and a night card with its number + 2; a 1 or a 2
    becomes 11 or 12 while a 9 or a 10 is in the same trick.

    >>> trick = ["6", "2", "8", "10"]
    >>> [fighting_power(c, trick) for c in trick]
    [6, 12, 8, 10]
    >>> fighting_power("N4", ["N4", "2"]), fighting_power("2", ["N4", "2"])
    (6, 2)
    """
    played = card(card_code)
    if played.night or played.speed not in SMALL_OWLS:
        return _power(played, big_owl=False)
    return _power(played, big_owl=any(card(c).speed in BIG_OWLS for c in trick_cards))


def _power(played: Card, *, big_owl: bool) -> int:
    """The FP of a card, given whether a big owl (9 or 10) is in its trick."""
    if played.night:
        return played.speed + NIGHT_FP_BONUS
    if big_owl and played.speed in SMALL_OWLS:
        return played.speed + SMALL_OWL_FP_BONUS
    return played.speed


@dataclass(frozen=True)
class TrickOutcome:
    """Who wins a trick: the index of the winning card in play order, and every FP."""

    winner: int
    fp: tuple[int, ...]


def trick_outcome(mode: Mode | str, cards: Sequence[str]) -> TrickOutcome:
    """The winning card of a trick (index in play order, 0 = the lead) and the FP list.

    Basic and advanced mode: the highest FP wins, and among equal FP the card played
    first. Quick mode: the highest FP that exactly one card has wins; when no FP is
    unique, the lead wins (beyond a second shared FP, the app's reading:
    ``owl-about/mode/quick/ties``). Works on a partial trick too (the card winning so
    far).

    >>> trick_outcome(Mode.BASIC, ["6", "2", "8", "10"])
    TrickOutcome(winner=1, fp=(6, 12, 8, 10))
    >>> trick_outcome("basic", ["6", "2", "8", "8"]).winner
    2
    >>> trick_outcome("quick", ["2", "2", "N4", "6"]).winner
    0
    """
    if not cards:
        raise ValueError("A trick needs at least one card.")
    played = [card(c) for c in cards]
    # Whether a big owl is in the trick is the same for every card: found once.
    big_owl = any(p.speed in BIG_OWLS for p in played)
    fp = tuple(_power(p, big_owl=big_owl) for p in played)
    return TrickOutcome(_winning_card(Mode(mode), fp), fp)


def _winning_card(mode: Mode, fp: Sequence[int]) -> int:
    """The index of the winning card, given every FP in play order."""
    if mode is Mode.QUICK:
        return _highest_unique(fp)
    # index() finds the first card with that FP, so ties go to the earlier card.
    return fp.index(max(fp))


def _highest_unique(fp: Sequence[int]) -> int:
    counts = Counter(fp)
    unique = [value for value, count in counts.items() if count == 1]
    return fp.index(max(unique)) if unique else LEAD


def trick_trophies(cards: Iterable[str]) -> int:
    """Trophies the winner of these cards takes: 1 for the trick, 2 per night card.

    >>> trick_trophies(["6", "N6", "2"]), trick_trophies(["1", "3", "5"])
    (3, 1)
    """
    nights = sum(1 for c in cards if card(c).night)
    return TROPHIES_PER_TRICK + TROPHIES_PER_NIGHT_CARD * nights


def same_speed(cards: Sequence[str]) -> bool:
    """Whether every card of a trick has the same speed (a night card counts its number).

    >>> same_speed(["6", "N6", "6"]), same_speed(["6", "7", "6"])
    (True, False)
    """
    return len({card(c).speed for c in cards}) == 1


def seating_from(players: Sequence[str], lead: str) -> tuple[str, ...]:
    """The players in play order for a trick: the lead, then clockwise.

    >>> seating_from(["Miu", "Carol", "Romi", "Tom"], "Romi")
    ('Romi', 'Tom', 'Miu', 'Carol')
    """
    start = list(players).index(lead)
    return tuple(players[start:]) + tuple(players[:start])


@dataclass(frozen=True)
class TrickProgress:
    """A trick so far: who played what, who is winning, and whose turn it is.

    ``winner`` is the player winning so far (``None`` before the first card);
    ``next_player`` is ``None`` once everyone has played.
    """

    seats: tuple[str, ...]
    cards: tuple[str, ...]
    fp: tuple[int, ...]
    winner: str | None
    trophies: int
    next_player: str | None

    @property
    def complete(self) -> bool:
        """Whether every player has played a card."""
        return self.next_player is None


def trick_progress(
    *, mode: Mode | str, players: Sequence[str], lead: str, cards: Sequence[str]
) -> TrickProgress:
    """Follow a trick card by card (the play-along): current winner, FP, next player.

    ``players`` are in seating order, ``cards`` in play order starting with ``lead``;
    fewer cards than players is a trick still being played. The names must be exactly
    those of ``players`` (the caller validates them; unknown ones raise ``ValueError``).

    >>> table = ["Miu", "Carol", "Romi", "Tom"]
    >>> now = trick_progress(mode="basic", players=table, lead="Miu", cards=["6", "2", "8"])
    >>> now.winner, now.fp, now.next_player
    ('Romi', (6, 2, 8), 'Tom')
    >>> done = trick_progress(mode="basic", players=table, lead="Miu", cards=["6", "2", "8", "10"])
    >>> done.winner, done.trophies, done.complete
    ('Carol', 1, True)
    """
    seats = seating_from(players, lead)
    if len(cards) > len(seats):
        raise ValueError("A trick has one card per player.")
    if not cards:
        return TrickProgress(seats, (), (), None, 0, seats[LEAD])
    outcome = trick_outcome(mode, cards)
    return TrickProgress(
        seats=seats,
        cards=tuple(cards),
        fp=outcome.fp,
        winner=seats[outcome.winner],
        trophies=trick_trophies(cards),
        next_player=seats[len(cards)] if len(cards) < len(seats) else None,
    )


@dataclass(frozen=True)
class PlayedTrick:
    """A scored trick: who took it, every FP, and what it was worth."""

    lead: str
    seats: tuple[str, ...]
    cards: tuple[str, ...]
    fp: tuple[int, ...]
    winner: str
    trophies: int
    night_cards: int
    same_speed: bool

    def to_json(self) -> dict[str, Any]:
        """The API shape of a scored trick."""
        return {
            "lead": self.lead,
            "winner": self.winner,
            "fp": list(self.fp),
            "trophies": self.trophies,
            "same_speed": self.same_speed,
        }


# What a trick needs of each card, looked up by code in C (``map``) rather than card by
# card in Python: judging every trick of a long game is most of scoring it.
_SPEED = {code: c.speed for code, c in CARDS.items()}
_NIGHT_COUNT = {code: int(c.night) for code, c in CARDS.items()}
_FP = {code: _power(c, big_owl=False) for code, c in CARDS.items()}
_FP_NEAR_BIG_OWL = {code: _power(c, big_owl=True) for code, c in CARDS.items()}
_BIG_OWL_CODES = frozenset(code for code, c in CARDS.items() if c.speed in BIG_OWLS)


def judge_trick(
    mode: Mode | str, *, seats: Sequence[str], cards: Sequence[str], taker: str | None = None
) -> PlayedTrick:
    """A complete trick judged in one pass over its cards: FP, winner, trophies, night
    cards and same speed, as :func:`trick_progress`, :func:`trick_trophies` and
    :func:`same_speed` find them one by one. Validation judges each trick with it once,
    and scoring and the play-along reuse the result.

    ``seats`` are the players in play order (the lead first, as :func:`seating_from`
    gives them) and ``cards`` known card codes, one per seat; ``taker`` is an
    advanced-mode override (``None``: the cards decide).

    >>> t = judge_trick(Mode.BASIC, seats=("Miu", "Carol", "Romi"), cards=("6", "N6", "8"))
    >>> t.winner, t.fp, t.trophies, t.night_cards, t.same_speed
    ('Carol', (6, 8, 8), 3, 1, False)
    >>> judge_trick("quick", seats=("Miu", "Carol", "Romi"), cards=("6", "N6", "8")).winner
    'Miu'
    """
    # Whether a big owl is in the trick is the same for every card: found once.
    powers = _FP if _BIG_OWL_CODES.isdisjoint(cards) else _FP_NEAR_BIG_OWL
    fp = tuple(map(powers.__getitem__, cards))
    nights = sum(map(_NIGHT_COUNT.__getitem__, cards))
    if taker is None:
        # As _winning_card, inlined: this runs for every trick of every round.
        taker = seats[_highest_unique(fp) if mode == Mode.QUICK else fp.index(max(fp))]
    # Positional: a frozen dataclass is built noticeably faster so, once per trick.
    return PlayedTrick(
        seats[LEAD],
        tuple(seats),
        tuple(cards),
        fp,
        taker,
        TROPHIES_PER_TRICK + TROPHIES_PER_NIGHT_CARD * nights,
        nights,
        # Mostly told by the first and last cards alone.
        _SPEED[cards[0]] == _SPEED[cards[-1]] and len(set(map(_SPEED.__getitem__, cards))) == 1,
    )


def rule_breaks(
    card_code: str, *, hand: Sequence[str], played_before: Sequence[str], mode: Mode | str
) -> list[RuleBreak]:
    """The play rules broken by playing a card from a hand (the card is in the hand).

    Follow rule (basic and advanced mode): a player holding a card at least as fast as
    the fastest card already in the trick must play such a card. Night rule (basic and
    advanced mode): a night card may only be played by a player who holds no day card
    of its speed. Quick mode breaks neither: its rules have every player play any one
    card at the same time.

    >>> rule_breaks("2", hand=["2", "8"], played_before=["6"], mode="basic")
    [<RuleBreak.FOLLOW: 'follow'>]
    >>> rule_breaks("N6", hand=["N6", "6"], played_before=[], mode="basic")
    [<RuleBreak.NIGHT: 'night'>]
    >>> rule_breaks("2", hand=["2", "8"], played_before=["6"], mode="quick")
    []
    >>> rule_breaks("N6", hand=["N6", "6"], played_before=[], mode="quick")
    []
    """
    broken: list[RuleBreak] = []
    played = card(card_code)
    if Mode(mode) is Mode.QUICK:
        return broken  # any one card, all at once
    if played_before:
        fastest = max(card(c).speed for c in played_before)
        if played.speed < fastest and any(card(c).speed >= fastest for c in hand):
            broken.append(RuleBreak.FOLLOW)
    if played.night and str(played.speed) in hand:
        broken.append(RuleBreak.NIGHT)
    return broken


def legal_cards(
    hand: Sequence[str], played_before: Sequence[str], *, mode: Mode | str
) -> list[str]:
    """The cards of a hand that may be played now, in hand order.

    >>> legal_cards(["2", "8", "10", "6", "N6"], ["6", "2", "8"], mode="basic")
    ['8', '10']
    >>> legal_cards(["2", "6", "N6"], [], mode="basic")
    ['2', '6']
    """
    return [
        c for c in hand if not rule_breaks(c, hand=hand, played_before=played_before, mode=mode)
    ]


def _rule_break_message(broken: RuleBreak, *, player: str, code: str, fastest: int) -> str:
    played = card(code)
    if broken is RuleBreak.FOLLOW:
        return _(
            "With a card of speed %(fastest)s or faster in hand, %(player)s had to play one of"
            " those instead of the %(card)s.",
            fastest=fastest,
            player=player,
            card=played.label,
        )
    # TRANSLATORS: "speed" is the number of a day card ("a day 6") with the night card's
    # speed: a night card may be played only by a player who holds no day card of its speed.
    return _(
        "While holding a day %(speed)s, %(player)s could not play the %(card)s yet.",
        speed=played.speed,
        player=player,
        card=played.label,
    )


def _fastest(cards: Sequence[str]) -> int:
    return max((card(c).speed for c in cards), default=0)
