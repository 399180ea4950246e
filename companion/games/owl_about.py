"""Owl About: a trick-taking game in which the owl with the fewest victory points wins.

Each round deals the whole hand out and plays it trick by trick. Winning a trick earns
trophies (one for the trick, two more for each night card in it); at the end of the
round the player(s) with the most trophies gain that many VP and everyone else gains
the gap to them. Nobody wants to become the owls' tribal leader, so the game ends after
the first round in which someone reaches the target, and the fewest VP wins.

The state is the list of rounds, each entered trick by trick (``tricks``) or summarised
as trophy counts (``trophies``), with optional wrong-card penalties. Shapes follow the
"Owl About" section of the API contract.

Playing along: a round marked ``"open": true`` is being played trick by trick at the
table, so its last trick may still be short of cards (even have none yet: it then only
names its lead). Only complete tricks count for trophies. Such a round may also carry
``"hands"``: the cards each player held after the draft, from which the referee tells
which plays broke the follow or night rule. :func:`round_view` is the play-along
picture of a round: every trick with its FP and winner, whose turn it is, and which
cards are used up.

>>> result = GAME.score({
...     "players": ["Miu", "Carol", "Romi", "Tom"],
...     "rounds": [{"trophies": {"Miu": 4, "Carol": 3, "Tom": 3, "Romi": 0}}],
... })
>>> [(s.player, s.score, s.rank) for s in result.standings]
[('Carol', 1, 1), ('Tom', 1, 1), ('Miu', 4, 3), ('Romi', 4, 3)]
>>> result.decided_by, result.finished
('shared', False)

How one round's VP are worked out, in this order (documented once, here):

1. Trophy VP: the most trophies anyone has (``most``); a player with ``most`` gains
   ``most``, everyone else gains ``most - own``.
2. ``night-collection`` with 3 or more night cards collected: the trophy VP of step 1
   become 0 for that player. Only the end-of-round scoring is voided: the bonuses of
   step 3 were gained on the spot during the round, so they stay.
3. Gains made during the round are added: 1 VP per ``same-speed`` trick won and the
   round's wrong-card ``penalties``.
4. ``night-collection`` with all 4 night cards collected: after the round, the player's
   total is set back to 0, whatever the round added. The breakdown then shows the
   round's gain as usual plus a line ``"Round N: night collection reset"`` whose
   negative points bring the total to 0, so that the lines still add up to the score.

Every gain is at least 0 (penalties cannot be negative), so a total never drops below 0.
Rounds entered as trophy counts carry no night-card or trick information, so the
variants cannot be applied to them (a warning says so).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import pydantic

from companion.games.base import (
    MAX_FIELDS,
    STRICT,
    BreakdownLine,
    Entry,
    Game,
    InvalidStateError,
    Problem,
    Result,
    ScoreOrder,
    list_size,
    name_problems,
    object_size,
    path_of,
    player_count_problems,
    players_size,
    problems_of,
    rank,
    text_size,
    validate_model,
    whole_number,
)
from companion.games.base import Roster as BaseRoster

SLUG = "owl-about"
MIN_PLAYERS, MAX_PLAYERS = 3, 6


class Mode(StrEnum):
    """How tricks are played and won."""

    BASIC = "basic"
    QUICK = "quick"
    ADVANCED = "advanced"


class Variant(StrEnum):
    """Optional scoring rules of the advanced mode."""

    SAME_SPEED = "same-speed"
    NIGHT_COLLECTION = "night-collection"


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


class NightCollection(StrEnum):
    """What the night-collection variant did to a player in a round."""

    ROUND_VOIDED = "round-voided"
    TOTAL_RESET = "total-reset"


# --- game facts ------------------------------------------------------------------------

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


# --- cards and tricks --------------------------------------------------------------------


@dataclass(frozen=True)
class Card:
    """One owl card: its code in the API, its speed, and whether it is a night card."""

    code: str
    speed: int
    night: bool

    @property
    def label(self) -> str:
        """How players name the card: ``"Night 6"``, or just the number for a day card."""
        return f"Night {self.speed}" if self.night else str(self.speed)


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
    if played.night:
        return played.speed + NIGHT_FP_BONUS
    if played.speed in SMALL_OWLS and any(card(c).speed in BIG_OWLS for c in trick_cards):
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
    unique, the lead wins. Works on a partial trick too (the card winning so far).

    >>> trick_outcome(Mode.BASIC, ["6", "2", "8", "10"])
    TrickOutcome(winner=1, fp=(6, 12, 8, 10))
    >>> trick_outcome("basic", ["6", "2", "8", "8"]).winner
    2
    >>> trick_outcome("quick", ["2", "2", "N4", "6"]).winner
    0
    """
    if not cards:
        raise ValueError("A trick needs at least one card.")
    fp = tuple(fighting_power(c, cards) for c in cards)
    if Mode(mode) is Mode.QUICK:
        return TrickOutcome(_highest_unique(fp), fp)
    # index() finds the first card with that FP, so ties go to the earlier card.
    return TrickOutcome(fp.index(max(fp)), fp)


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


def rule_breaks(
    card_code: str, *, hand: Sequence[str], played_before: Sequence[str], mode: Mode | str
) -> list[RuleBreak]:
    """The play rules broken by playing a card from a hand (the card is in the hand).

    Follow rule (basic and advanced mode; in quick mode everyone plays at once, so speed
    does not matter): a player holding a card at least as fast as the fastest card
    already in the trick must play such a card. Night rule (every mode): a night card
    may only be played by a player who holds no day card of its speed.

    >>> rule_breaks("2", hand=["2", "8"], played_before=["6"], mode="basic")
    [<RuleBreak.FOLLOW: 'follow'>]
    >>> rule_breaks("2", hand=["2", "8"], played_before=["6"], mode="quick")
    []
    >>> rule_breaks("N6", hand=["N6", "6"], played_before=[], mode="quick")
    [<RuleBreak.NIGHT: 'night'>]
    """
    broken = []
    played = card(card_code)
    if played_before and Mode(mode) is not Mode.QUICK:
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
        return (
            f"With a card of speed {fastest} or faster in hand, {player} had to play one "
            f"of those instead of the {played.label}."
        )
    return f"While holding a day {played.speed}, {player} could not play the {played.label} yet."


def _fastest(cards: Sequence[str]) -> int:
    return max((card(c).speed for c in cards), default=0)


# --- JSON shapes (checked strictly; rules are checked afterwards) ---------------------------


class TrickModel(pydantic.BaseModel):
    """One trick as entered: its lead, the cards in play order, an optional override."""

    model_config = STRICT

    lead: str
    cards: list[str]
    winner: str | None = None


class RoundModel(pydantic.BaseModel):
    """One round: tricks one by one, or trophy counts only, plus penalties.

    ``open`` marks a round being played along (its last trick may be short of cards);
    ``hands`` are the hands after the draft, when players entered them.
    """

    model_config = STRICT

    tricks: list[TrickModel] | None = None
    trophies: dict[str, int] | None = None
    penalties: dict[str, int] = {}
    open: bool = False
    hands: dict[str, list[str]] | None = None


class StateModel(pydantic.BaseModel):
    """A whole Owl About game as entered."""

    model_config = STRICT

    players: list[str]
    mode: str = Mode.BASIC.value
    variants: list[str] = []
    target: int | None = None
    rounds: list[RoundModel] = []


class TrickRequestModel(pydantic.BaseModel):
    """The body of the one-trick referee check."""

    model_config = STRICT

    mode: str = Mode.BASIC.value
    lead: str
    players: list[str]
    cards: list[str]
    hands: dict[str, list[str]] | None = None


# --- sizes, checked before any item ---------------------------------------------------------

#: The most cards a hand holds, and so the most tricks in a round (3 players: 9 each).
MAX_HAND_CARDS = max(row.hand_cards for row in PLAYER_CHART.values())
#: The most rounds a request may hold. Someone gains VP in every round, so a game to the
#: highest target (99 VP) ends long before this; it only keeps absurd requests out.
MAX_ROUNDS = 100

_CARD_CODES = list_size(
    MAX_PLAYERS,
    lambda n: f"A trick has at most {MAX_PLAYERS} cards, one per player, but {n} were entered.",
    text_size(),
)
_HANDS_SIZE = object_size(
    each=list_size(
        MAX_HAND_CARDS,
        lambda n: f"A hand holds at most {MAX_HAND_CARDS} cards, but {n} were entered.",
        text_size(),
    )
)
_ROUND_SIZE = object_size(
    {
        "tricks": list_size(
            MAX_HAND_CARDS,
            lambda n: f"A round has at most {MAX_HAND_CARDS} tricks, but {n} were entered.",
            object_size({"lead": text_size(), "cards": _CARD_CODES, "winner": text_size()}),
        ),
        "trophies": object_size(),
        "penalties": object_size(),
        "hands": _HANDS_SIZE,
    }
)
#: Sizes of a score request: players, variants, rounds, tricks, cards and hands.
STATE_SIZE = object_size(
    {
        "players": players_size(MIN_PLAYERS, MAX_PLAYERS),
        "mode": text_size(),
        # Generous: variants may come under several names (and repeated).
        "variants": list_size(
            MAX_FIELDS, lambda n: f"List each variant once; {n} were entered.", text_size()
        ),
        "rounds": list_size(
            MAX_ROUNDS,
            lambda n: f"A game has at most {MAX_ROUNDS} rounds here, but {n} were entered.",
            _ROUND_SIZE,
        ),
    }
)
#: Sizes of a one-trick request.
TRICK_REQUEST_SIZE = object_size(
    {
        "mode": text_size(),
        "lead": text_size(),
        "players": players_size(MIN_PLAYERS, MAX_PLAYERS),
        "cards": _CARD_CODES,
        "hands": _HANDS_SIZE,
    }
)


# --- validation ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Roster(BaseRoster):
    """The players of a request (see :class:`~companion.games.base.Roster`) and their chart."""

    @classmethod
    def of(cls, raw: Sequence[str]) -> Roster:
        """The roster of names as entered."""
        return cls(tuple(name.strip() for name in raw))

    @property
    def chart(self) -> ChartRow | None:
        """The chart line for this many players (``None`` for an impossible count)."""
        return PLAYER_CHART.get(len(self.names))


def _unknown_player(name: str) -> str:
    return f'No player at this table is called "{name}".'


def _entered_twice(player: str) -> str:
    # Names match regardless of case, so "Tom" and "tom" are the same key.
    return f"This names {player} a second time; enter each player once."


def _unknown_card(code: str) -> str:
    return f'There is no card "{code}"; enter 1 to 10, or N4 to N7 for a night card.'


def _too_many_copies(code: str, *, count: int, where: str) -> str:
    copies = DECK[code]
    exist = "card exists" if copies == 1 else "cards exist"
    return f'Only {copies} "{card(code).label}" {exist}, but {count} {where}.'


def _roster_problems(players: Sequence[str], *, path: str = "players") -> list[Problem]:
    problems = player_count_problems(len(players), minimum=MIN_PLAYERS, maximum=MAX_PLAYERS)
    return problems + name_problems(players, path=lambda i: f"{path}[{i}]")


def _mode_problem(mode: str) -> list[Problem]:
    if mode in set(Mode):
        return []
    modes = ", ".join(m.value for m in Mode)
    return [Problem("mode", f'The mode must be one of {modes}, not "{mode}".')]


def _options_problems(model: StateModel) -> list[Problem]:
    problems = _mode_problem(model.mode)
    names = ", ".join(v.value for v in Variant)
    for index, variant in enumerate(model.variants):
        if variant not in set(Variant):
            problems.append(
                Problem(f"variants[{index}]", f'There is no variant "{variant}"; use {names}.')
            )
    if model.variants and model.mode != Mode.ADVANCED:
        problems.append(Problem("variants", "Variants are only played in advanced mode."))
    if model.target is not None and model.target < 1:
        problems.append(Problem("target", "The target must be at least 1 VP."))
    return problems


def _cards_problems(cards: Sequence[str], location: Sequence[str | int]) -> list[Problem]:
    return [
        Problem(path_of([*location, index]), _unknown_card(code))
        for index, code in enumerate(cards)
        if code not in DECK
    ]


def _copies_problems(
    places: Iterable[tuple[tuple[str | int, ...], str]], where: str
) -> list[Problem]:
    """One problem per card entered more often than the deck has it, at the extra copy."""
    seen: Counter[str] = Counter()
    first_extra: dict[str, tuple[str | int, ...]] = {}
    for location, code in places:
        if code in DECK:
            seen[code] += 1
            if seen[code] > DECK[code]:
                first_extra.setdefault(code, location)
    return [
        Problem(path_of(location), _too_many_copies(code, count=seen[code], where=where))
        for code, location in first_extra.items()
    ]


@dataclass(frozen=True)
class TrickInput:
    """A trick after validation: names are the players' names as shown."""

    lead: str
    cards: tuple[str, ...]
    winner: str | None


@dataclass(frozen=True)
class RoundInput:
    """A round after validation: exactly one of ``tricks`` and ``trophies`` is set.

    ``open`` rounds are being played along (their last trick may be short of cards);
    ``hands`` maps players (names as shown) to the hands they entered.
    """

    tricks: tuple[TrickInput, ...] | None
    trophies: Mapping[str, int] | None
    penalties: Mapping[str, int]
    open: bool = False
    hands: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class GameInput:
    """A whole game after validation (structure and references, not game end)."""

    players: tuple[str, ...]
    mode: Mode
    variants: frozenset[Variant]
    target: int
    rounds: tuple[RoundInput, ...]

    @property
    def chart(self) -> ChartRow:
        """The chart line for this table."""
        return PLAYER_CHART[len(self.players)]


@dataclass(frozen=True)
class _Context:
    roster: Roster
    mode: str


def _player_map_problems(
    values: Mapping[str, int], location: Sequence[str | int], *, roster: Roster, what: str
) -> list[Problem]:
    problems = []
    seen: set[str] = set()
    for name, value in values.items():
        path = path_of([*location, name])
        player = roster.find(name)
        if player is None:
            problems.append(Problem(path, _unknown_player(name)))
        elif player in seen:
            problems.append(Problem(path, _entered_twice(player)))
        elif value < 0:
            problems.append(Problem(path, f"{what} cannot be negative."))
        seen.add(player or name)
    return problems


def _trophies_problems(
    trophies: Mapping[str, int], *, location: Sequence[str | int], roster: Roster
) -> list[Problem]:
    problems = _player_map_problems(trophies, location, roster=roster, what="Trophies")
    chart = roster.chart
    if chart is None:
        return problems
    limit = chart.max_trophies
    for name, value in trophies.items():
        if value > limit and roster.find(name) is not None:
            problems.append(
                Problem(
                    path_of([*location, name]),
                    f"A player can win at most {limit} trophies in a round with "
                    f"{chart.players} players ({chart.tricks} tricks, plus 2 for each "
                    f"of the {len(NIGHT_SPEEDS)} night cards).",
                )
            )
    return problems


def _trick_problems(
    trick: TrickModel, *, location: Sequence[str | int], context: _Context, in_play: bool
) -> list[Problem]:
    problems = []
    count = len(context.roster.names)
    short_allowed = in_play and len(trick.cards) < count
    if len(trick.cards) != count and not short_allowed:
        problems.append(
            Problem(
                path_of([*location, "cards"]),
                f"Each of the {count} players plays one card in a trick, "
                f"but {len(trick.cards)} cards were entered.",
            )
        )
    problems += _cards_problems(trick.cards, [*location, "cards"])
    if context.roster.find(trick.lead) is None:
        problems.append(Problem(path_of([*location, "lead"]), _unknown_player(trick.lead)))
    if trick.winner is not None:
        where = path_of([*location, "winner"])
        if len(trick.cards) != count:
            problems.append(Problem(where, "A trick still being played has no taker yet."))
        elif context.mode != Mode.ADVANCED:
            problems.append(
                Problem(
                    where,
                    "Only special effects can change who takes a trick, and they are "
                    "played in advanced mode only.",
                )
            )
        elif context.roster.find(trick.winner) is None:
            problems.append(Problem(where, _unknown_player(trick.winner)))
    return problems


def _taker(trick: TrickModel, context: _Context) -> str | None:
    """Who took a trick entered without problems, or ``None`` when that cannot be told."""
    lead = context.roster.find(trick.lead)
    count = len(context.roster.names)
    if lead is None or len(trick.cards) != count or any(c not in DECK for c in trick.cards):
        return None
    if trick.winner is not None and context.mode == Mode.ADVANCED:
        return context.roster.find(trick.winner)
    if context.mode not in set(Mode):
        return None
    progress = trick_progress(
        mode=context.mode, players=context.roster.names, lead=lead, cards=trick.cards
    )
    return progress.winner


def _tricks_problems(
    tricks: Sequence[TrickModel],
    *,
    location: Sequence[str | int],
    context: _Context,
    open_round: bool,
) -> list[Problem]:
    problems = []
    chart = context.roster.chart
    if chart is not None and len(tricks) > chart.tricks:
        problems.append(
            Problem(
                path_of([*location, "tricks"]),
                f"A round with {chart.players} players has {chart.tricks} tricks, "
                f"but {len(tricks)} were entered.",
            )
        )
    previous_taker: str | None = None
    for index, trick in enumerate(tricks):
        here = [*location, "tricks", index]
        in_play = open_round and index == len(tricks) - 1
        problems += _trick_problems(trick, location=here, context=context, in_play=in_play)
        lead = context.roster.find(trick.lead)
        # The first trick of a round may be led by anyone; later ones by the last taker.
        if index > 0 and previous_taker is not None and lead not in (None, previous_taker):
            problems.append(
                Problem(
                    path_of([*here, "lead"]),
                    f"The previous trick went to {previous_taker}, so {previous_taker} "
                    f"leads this one, not {lead}.",
                )
            )
        previous_taker = _taker(trick, context)
    places = (
        ((*location, "tricks", t, "cards", c), code)
        for t, trick in enumerate(tricks)
        for c, code in enumerate(trick.cards)
    )
    return problems + _copies_problems(places, "were played in this round")


def _round_problems(
    round_: RoundModel, *, index: int, context: _Context, last: bool
) -> list[Problem]:
    location: list[str | int] = ["rounds", index]
    problems = []
    if round_.open and round_.tricks is None:
        problems.append(
            Problem(
                path_of([*location, "open"]),
                "Only a round entered trick by trick can be played along.",
            )
        )
    if round_.tricks is not None and round_.trophies is not None:
        problems.append(
            Problem(
                path_of(location),
                "Enter this round either trick by trick or as trophy counts, not both.",
            )
        )
    elif round_.tricks is None and round_.trophies is None:
        problems.append(
            Problem(path_of(location), "Enter this round's tricks or its trophy counts.")
        )
    if round_.tricks is not None:
        problems += _tricks_problems(
            round_.tricks, location=location, context=context, open_round=round_.open and last
        )
    if round_.trophies is not None:
        problems += _trophies_problems(
            round_.trophies, location=[*location, "trophies"], roster=context.roster
        )
    problems += _player_map_problems(
        round_.penalties, [*location, "penalties"], roster=context.roster, what="A penalty"
    )
    if round_.hands is not None:
        problems += _round_hands_problems(round_, location=location, context=context)
    return problems


def _each_hand(
    hands: Mapping[str, Sequence[str]],
    *,
    roster: Roster,
    location: Sequence[str | int],
    into: list[Problem],
) -> Iterator[tuple[list[str | int], str, Sequence[str]]]:
    """Each entered hand of a known player, once: ``(path, player, hand)``.

    Hands of unknown players, or a player's second hand, are reported ``into`` problems
    and skipped.
    """
    seen: set[str] = set()
    for name, hand in hands.items():
        where: list[str | int] = [*location, "hands", name]
        player = roster.find(name)
        if player is None or player in seen:
            message = _unknown_player(name) if player is None else _entered_twice(player)
            into.append(Problem(path_of(where), message))
            continue
        seen.add(player)
        yield where, player, hand


def _hand_size_problems(
    hand: Sequence[str], where: Sequence[str | int], *, roster: Roster
) -> list[Problem]:
    """Real cards, and no more of them than the player chart deals."""
    problems = _cards_problems(hand, where)
    chart = roster.chart
    if chart is not None and len(hand) > chart.hand_cards:
        problems.append(
            Problem(
                path_of(where),
                f"With {chart.players} players a hand holds at most {chart.hand_cards} "
                f"cards, but {len(hand)} were entered.",
            )
        )
    return problems


def _round_hands_problems(
    round_: RoundModel, *, location: Sequence[str | int], context: _Context
) -> list[Problem]:
    """Entered hands: known players, real cards, a hand's size, and the deck's copies.

    Outside advanced mode (where special effects may move cards between hands) every
    card a player plays must also come from their entered hand.
    """
    hands = round_.hands or {}
    roster = context.roster
    problems: list[Problem] = []
    for where, _player, hand in _each_hand(hands, roster=roster, location=location, into=problems):
        problems += _hand_size_problems(hand, where, roster=roster)
    places = (
        ((*location, "hands", name, i), code)
        for name, hand in hands.items()
        for i, code in enumerate(hand)
    )
    problems += _copies_problems(places, "were entered in the hands")
    if problems or context.mode == Mode.ADVANCED or not round_.tricks:
        return problems
    return _played_from_hands_problems(round_, location=location, roster=roster)


def _played_from_hands_problems(
    round_: RoundModel, *, location: Sequence[str | int], roster: Roster
) -> list[Problem]:
    left = {roster.find(name): list(hand) for name, hand in (round_.hands or {}).items()}
    problems: list[Problem] = []
    for t, trick in enumerate(round_.tricks or []):
        lead = roster.find(trick.lead)
        if lead is None:
            return problems
        for c, (seat, code) in enumerate(
            zip(seating_from(roster.names, lead), trick.cards, strict=False)
        ):
            hand = left.get(seat)
            if hand is None or code not in DECK:
                continue
            if code in hand:
                hand.remove(code)
                continue
            problems.append(
                Problem(
                    path_of([*location, "tricks", t, "cards", c]),
                    f"{seat}'s entered hand has no {card(code).label} left to play. "
                    "Check the card, or correct the hand.",
                )
            )
    return problems


def _game_input(model: StateModel) -> GameInput:
    """Build the validated game (only called once every problem check passed)."""
    roster = Roster.of(model.players)

    def by_player(values: Mapping[str, int]) -> dict[str, int]:
        # Keys may differ in case from the names; a missing player has 0.
        totals = dict.fromkeys(roster.names, 0)
        for name, value in values.items():
            totals[roster.find(name) or name] = value
        return totals

    def trick(entered: TrickModel) -> TrickInput:
        winner = roster.find(entered.winner) if entered.winner is not None else None
        return TrickInput(roster.find(entered.lead) or entered.lead, tuple(entered.cards), winner)

    rounds = tuple(
        RoundInput(
            tricks=None if r.tricks is None else tuple(trick(t) for t in r.tricks),
            trophies=None if r.trophies is None else by_player(r.trophies),
            penalties=by_player(r.penalties),
            open=r.open,
            hands={
                roster.find(name) or name: tuple(hand) for name, hand in (r.hands or {}).items()
            },
        )
        for r in model.rounds
    )
    count = len(roster.names)
    return GameInput(
        players=roster.names,
        mode=Mode(model.mode),
        variants=frozenset(Variant(v) for v in model.variants),
        target=model.target if model.target is not None else default_target(count),
        rounds=rounds,
    )


def parse(state: object) -> GameInput:
    """Validate a state's shape and references; raise every problem at once.

    Game end (rounds played after the game ended) needs the scores; :func:`score_game`
    checks it.
    """
    model = validate_model(StateModel, state, STATE_SIZE)
    roster = Roster.of(model.players)
    context = _Context(roster, model.mode)
    problems = _roster_problems(model.players) + _options_problems(model)
    for index, round_ in enumerate(model.rounds):
        last = index == len(model.rounds) - 1
        problems += _round_problems(round_, index=index, context=context, last=last)
    if problems:
        raise InvalidStateError(problems)
    return _game_input(model)


# --- scoring ---------------------------------------------------------------------------------


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


def play_trick(trick: TrickInput, *, mode: Mode, players: Sequence[str]) -> PlayedTrick:
    """Score one complete trick; an advanced-mode ``winner`` override takes it instead.

    Here the Night 6 and the 8 both fight with 8 FP, so the earlier card takes the trick
    (and its 2 extra trophies for the night card).

    >>> t = play_trick(TrickInput("Miu", ("6", "N6", "8"), None), mode=Mode.BASIC,
    ...                players=["Miu", "Carol", "Romi"])
    >>> t.winner, t.fp, t.trophies
    ('Carol', (6, 8, 8), 3)
    """
    progress = trick_progress(mode=mode, players=players, lead=trick.lead, cards=trick.cards)
    taker = progress.winner if trick.winner is None else trick.winner
    assert taker is not None  # a complete trick always has a winner
    return PlayedTrick(
        lead=trick.lead,
        seats=progress.seats,
        cards=trick.cards,
        fp=progress.fp,
        winner=taker,
        trophies=progress.trophies,
        night_cards=sum(1 for c in trick.cards if card(c).night),
        same_speed=same_speed(trick.cards),
    )


def trophy_vp(trophies: Mapping[str, int]) -> dict[str, int]:
    """VP from trophies: the most trophies score that many, the others the gap to them.

    >>> trophy_vp({"Miu": 4, "Carol": 3, "Tom": 3, "Romi": 0})
    {'Miu': 4, 'Carol': 1, 'Tom': 1, 'Romi': 4}
    """
    most = max(trophies.values(), default=0)
    return {name: most if own == most else most - own for name, own in trophies.items()}


@dataclass(frozen=True)
class RoundScore:
    """One scored round: trophies, the VP it added and the totals after it.

    ``vp`` is what the round added (trophy VP, or 0 when night collection voided them,
    plus same-speed bonuses and penalties); ``totals`` are the running totals after
    the round (0 after a night-collection reset).
    ``night_cards`` is ``None`` for a round entered as trophy counts.
    """

    number: int
    tricks: tuple[PlayedTrick, ...]
    trophies: Mapping[str, int]
    night_cards: Mapping[str, int] | None
    same_speed: Mapping[str, int]
    penalties: Mapping[str, int]
    night_collection: Mapping[str, NightCollection]
    vp: Mapping[str, int]
    totals: Mapping[str, int]
    complete: bool

    def to_json(self) -> dict[str, Any]:
        """The API shape of a scored round (``trophies``, ``vp``, ``tricks`` and more)."""
        return {
            "trophies": dict(self.trophies),
            "vp": dict(self.vp),
            "totals": dict(self.totals),
            "tricks": [t.to_json() for t in self.tricks],
            "night_cards": None if self.night_cards is None else dict(self.night_cards),
            "same_speed": dict(self.same_speed),
            "penalties": dict(self.penalties),
            "night_collection": {n: what.value for n, what in self.night_collection.items()},
            "complete": self.complete,
        }


def _night_collection(nights: int) -> NightCollection | None:
    if nights >= NIGHT_COLLECTION_RESET:
        return NightCollection.TOTAL_RESET
    if nights >= NIGHT_COLLECTION_VOID:
        return NightCollection.ROUND_VOIDED
    return None


@dataclass(frozen=True)
class _Taken:
    """What each player took in a round, before any VP."""

    tricks: tuple[PlayedTrick, ...]
    trophies: dict[str, int]
    night_cards: dict[str, int] | None
    same_speed: dict[str, int]


def _taken(game: GameInput, round_: RoundInput) -> _Taken:
    zero = dict.fromkeys(game.players, 0)
    if round_.tricks is None:
        assert round_.trophies is not None  # validation allows exactly one of the two
        return _Taken((), {**zero, **round_.trophies}, None, zero)
    played = tuple(
        play_trick(t, mode=game.mode, players=game.players)
        for t in round_.tricks
        if len(t.cards) == len(game.players)
    )
    trophies, nights, bonus = dict(zero), dict(zero), dict(zero)
    for trick in played:
        trophies[trick.winner] += trick.trophies
        nights[trick.winner] += trick.night_cards
        if trick.same_speed and Variant.SAME_SPEED in game.variants:
            bonus[trick.winner] += SAME_SPEED_VP
    return _Taken(played, trophies, nights, bonus)


def score_round(
    game: GameInput, round_: RoundInput, *, number: int, totals_before: Mapping[str, int]
) -> RoundScore:
    """Score one round on top of the totals before it (order of steps: module docstring).

    >>> game = parse({"players": ["A", "B", "C"], "rounds": []})
    >>> r = RoundInput(None, {"A": 5, "B": 2, "C": 2}, {"C": 1})
    >>> s = score_round(game, r, number=1, totals_before={"A": 0, "B": 3, "C": 0})
    >>> s.vp, s.totals
    ({'A': 5, 'B': 3, 'C': 4}, {'A': 5, 'B': 6, 'C': 4})
    """
    taken = _taken(game, round_)
    base = trophy_vp(taken.trophies)
    collection: dict[str, NightCollection] = {}
    if Variant.NIGHT_COLLECTION in game.variants and taken.night_cards is not None:
        for name, nights in taken.night_cards.items():
            effect = _night_collection(nights)
            if effect is not None:
                collection[name] = effect
    vp, totals = {}, {}
    for name in game.players:
        earned = 0 if name in collection else base[name]
        vp[name] = earned + taken.same_speed[name] + round_.penalties.get(name, 0)
        reset = collection.get(name) is NightCollection.TOTAL_RESET
        totals[name] = 0 if reset else totals_before[name] + vp[name]
    complete = round_.tricks is None or len(taken.tricks) == game.chart.tricks
    return RoundScore(
        number=number,
        tricks=taken.tricks,
        trophies=taken.trophies,
        night_cards=taken.night_cards,
        same_speed=taken.same_speed,
        penalties={name: round_.penalties.get(name, 0) for name in game.players},
        night_collection=collection,
        vp=vp,
        totals=totals,
        complete=complete,
    )


def score_rounds(game: GameInput) -> list[RoundScore]:
    """Score every round in order, each on top of the totals of the ones before."""
    totals: Mapping[str, int] = dict.fromkeys(game.players, 0)
    scored = []
    for number, round_ in enumerate(game.rounds, 1):
        result = score_round(game, round_, number=number, totals_before=totals)
        scored.append(result)
        totals = result.totals
    return scored


def game_end(rounds: Sequence[RoundScore], target: int) -> int | None:
    """The number of the round that ended the game, or ``None`` while it goes on.

    The game ends only at the end of a round: the first complete round after which
    someone has at least ``target`` VP.
    """
    for scored in rounds:
        if scored.complete and max(scored.totals.values(), default=0) >= target:
            return scored.number
    return None


def _after_end_problems(rounds: Sequence[RoundScore], *, end: int, target: int) -> list[Problem]:
    ender = rounds[end - 1]
    reached = [n for n, total in ender.totals.items() if total >= target]
    who = " and ".join(reached)
    return [
        Problem(
            f"rounds[{scored.number - 1}]",
            f"The game ended after round {end}, when {who} reached the target of "
            f"{target} VP, so no further round is played.",
        )
        for scored in rounds[end:]
    ]


def _breakdown(name: str, rounds: Sequence[RoundScore]) -> tuple[BreakdownLine, ...]:
    lines = []
    before = 0
    for scored in rounds:
        lines.append(BreakdownLine(f"Round {scored.number}", scored.vp[name]))
        if scored.night_collection.get(name) is NightCollection.TOTAL_RESET:
            lines.append(
                BreakdownLine(
                    f"Round {scored.number}: night collection reset",
                    -(before + scored.vp[name]),
                )
            )
        before = scored.totals[name]
    return tuple(lines)


def _round_warnings(game: GameInput, rounds: Sequence[RoundScore]) -> list[str]:
    warnings = []
    for entered, scored in zip(game.rounds, rounds, strict=True):
        n = scored.number
        if not scored.complete:
            played = len(scored.tricks)
            warnings.append(
                f"Round {n} has {played} of {game.chart.tricks} tricks so far; "
                "it is scored as it stands."
            )
        if entered.trophies is not None:
            if game.variants:
                warnings.append(
                    f"Round {n} was entered as trophy counts, so the variants could not "
                    "be applied to it."
                )
            warnings += _trophy_total_warnings(n, trophies=entered.trophies, chart=game.chart)
        if entered.tricks is not None and game.mode is not Mode.ADVANCED:
            warnings += _round_rule_breaks(n, scored.tricks, mode=game.mode, hands=entered.hands)
    return warnings


def _trophy_total_warnings(
    number: int, *, trophies: Mapping[str, int], chart: ChartRow
) -> list[str]:
    """A round hands out one trophy per trick and two per night card taken."""
    total = sum(trophies.values())
    extra = total - chart.tricks * TROPHIES_PER_TRICK
    nights = len(NIGHT_SPEEDS)
    if 0 <= extra <= nights * TROPHIES_PER_NIGHT_CARD and extra % TROPHIES_PER_NIGHT_CARD == 0:
        return []
    low = chart.tricks * TROPHIES_PER_TRICK
    high = low + nights * TROPHIES_PER_NIGHT_CARD
    return [
        f"Round {number}'s trophies add up to {total}, but a round with {chart.players} "
        f"players hands out {low} (one per trick) plus 2 per night card dealt, "
        f"so {low}, {low + 2}, ... up to {high}."
    ]


WRONG_CARD_REMINDER = "A wrong card costs its player 1 VP as a penalty."


def _round_rule_breaks(
    number: int,
    tricks: Sequence[PlayedTrick],
    *,
    mode: Mode,
    hands: Mapping[str, Sequence[str]],
) -> list[str]:
    """Wrong cards that the recorded tricks prove.

    The known part of a hand is the entered hand, else the cards the player plays later
    (they were already in the hand). (Not in advanced mode: special effects, which the
    app does not model, may move cards between hands.)
    """
    still_to_play: dict[str, list[str]] = {name: list(hand) for name, hand in hands.items()}
    for trick in tricks:
        for seat, code in zip(trick.seats, trick.cards, strict=True):
            if seat not in hands:
                still_to_play.setdefault(seat, []).append(code)
    warnings = []
    for index, trick in enumerate(tricks, 1):
        for position, (seat, code) in enumerate(zip(trick.seats, trick.cards, strict=True)):
            hand = still_to_play[seat]
            before = trick.cards[:position]
            for broken in rule_breaks(code, hand=hand, played_before=before, mode=mode):
                message = _rule_break_message(
                    broken, player=seat, code=code, fastest=_fastest(before)
                )
                warnings.append(f"Round {number}, trick {index}: {message} {WRONG_CARD_REMINDER}")
        for seat, code in zip(trick.seats, trick.cards, strict=True):
            still_to_play[seat].remove(code)
    return warnings


def score_game(game: GameInput) -> Result:
    """Score a validated game; rounds after the end of the game are a problem.

    >>> game = parse({"players": ["A", "B", "C"], "target": 5,
    ...               "rounds": [{"trophies": {"A": 6, "B": 2, "C": 1}}]})
    >>> r = score_game(game)
    >>> [(s.player, s.score) for s in r.standings], r.winners, r.finished
    ([('B', 4), ('C', 5), ('A', 6)], ['B'], True)
    """
    rounds = score_rounds(game)
    end = game_end(rounds, game.target)
    if end is not None and end < len(rounds):
        raise InvalidStateError(_after_end_problems(rounds, end=end, target=game.target))
    totals = rounds[-1].totals if rounds else dict.fromkeys(game.players, 0)
    entries = [
        Entry(player=name, score=totals[name], breakdown=_breakdown(name, rounds))
        for name in game.players
    ]
    ranking = rank(entries, order=ScoreOrder.LOWEST_FIRST)
    warnings = _round_warnings(game, rounds)
    if end is None:
        warnings.append(
            f"Nobody has reached the target of {game.target} VP at the end of a round yet, "
            "so the game goes on."
        )
    return Result(
        SLUG,
        ranking.standings,
        ranking.decided_by,
        finished=end is not None,
        warnings=tuple(warnings),
        extra={"rounds": [r.to_json() for r in rounds], "target": game.target},
    )


# --- the one-trick referee check ----------------------------------------------------------


def _hands_problems(
    request: TrickRequestModel, *, roster: Roster, seats: Sequence[str] | None
) -> list[Problem]:
    hands = request.hands or {}
    problems: list[Problem] = []
    played_by: dict[str, str] = {}
    if seats is not None:
        played_by = dict(zip(seats, request.cards, strict=False))
    for where, player, hand in _each_hand(hands, roster=roster, location=(), into=problems):
        problems += _hand_size_problems(hand, where, roster=roster)
        played = played_by.get(player)
        if played in DECK and played not in hand:
            problems.append(
                Problem(
                    path_of(where),
                    f"The hand must include the {card(played).label} that {player} "
                    "played: enter each hand as it was before the trick.",
                )
            )
    return problems


def _trick_request_problems(request: TrickRequestModel) -> list[Problem]:
    roster = Roster.of(request.players)
    problems = _roster_problems(request.players) + _mode_problem(request.mode)
    lead = roster.find(request.lead)
    if lead is None:
        problems.append(Problem("lead", _unknown_player(request.lead)))
    if not request.cards:
        problems.append(Problem("cards", "Enter at least the card the lead played."))
    elif len(request.cards) > len(request.players):
        problems.append(
            Problem(
                "cards",
                f"Each of the {len(request.players)} players plays one card, "
                f"but {len(request.cards)} cards were entered.",
            )
        )
    problems += _cards_problems(request.cards, ["cards"])
    problems += _copies_problems(
        ((("cards", i), code) for i, code in enumerate(request.cards)), "are in this trick"
    )
    seats = seating_from(roster.names, lead) if lead is not None else None
    problems += _hands_problems(request, roster=roster, seats=seats)
    if not problems:
        problems += _all_hands_copies_problems(request, roster=roster, seats=seats)
    return problems


def _all_hands_copies_problems(
    request: TrickRequestModel, *, roster: Roster, seats: Sequence[str] | None
) -> list[Problem]:
    """Hands and cards together cannot hold more copies of a card than the deck."""
    hands = {roster.find(name): hand for name, hand in (request.hands or {}).items()}
    places: list[tuple[tuple[str | int, ...], str]] = [
        (("hands", name, i), code)
        for name, hand in (request.hands or {}).items()
        for i, code in enumerate(hand)
    ]
    # A played card of a player whose hand is given is already in that hand.
    places += [
        (("cards", i), code)
        for i, (seat, code) in enumerate(zip(seats or (), request.cards, strict=False))
        if seat not in hands
    ]
    return _copies_problems(places, "were entered in the hands and the trick")


def check_trick(data: object) -> dict[str, Any]:
    """The ``owl-about/trick`` referee check: winner, FP and trophies, and broken rules.

    ``cards`` may hold fewer cards than there are players (a trick being played); the
    answer then names the player winning so far, ``"complete": false`` and the
    ``"next"`` player. When ``hands`` are given (each hand as held before the trick,
    the played card included), ``problems`` lists the follow and night rules broken,
    and ``"playable"`` the cards the next player may play (else ``null``).

    >>> answer = check_trick({
    ...     "mode": "basic", "lead": "Miu", "players": ["Miu", "Carol", "Romi", "Tom"],
    ...     "cards": ["6", "2", "8", "10"], "hands": {"Carol": ["2", "5"]},
    ... })
    >>> answer["winner"], answer["fp"], answer["trophies"], answer["problems"]
    ('Carol', [6, 12, 8, 10], 1, [])
    """
    request = validate_model(TrickRequestModel, data, TRICK_REQUEST_SIZE)
    problems = _trick_request_problems(request)
    if problems:
        raise InvalidStateError(problems)
    roster = Roster.of(request.players)
    lead = roster.find(request.lead)
    assert lead is not None  # checked above
    progress = trick_progress(
        mode=request.mode, players=roster.names, lead=lead, cards=request.cards
    )
    hands = {roster.find(name): hand for name, hand in (request.hands or {}).items()}
    broken = []
    for index, (seat, code) in enumerate(zip(progress.seats, progress.cards, strict=False)):
        hand = hands.get(seat)
        if hand is None:
            continue
        before = progress.cards[:index]
        for rule in rule_breaks(code, hand=hand, played_before=before, mode=request.mode):
            message = _rule_break_message(rule, player=seat, code=code, fastest=_fastest(before))
            broken.append(Problem(f"cards[{index}]", message, rule=rule.rule).to_json())
    next_hand = hands.get(progress.next_player) if progress.next_player else None
    return {
        "winner": progress.winner,
        "fp": list(progress.fp),
        "trophies": progress.trophies,
        "problems": broken,
        "complete": progress.complete,
        "next": progress.next_player,
        "playable": (
            None
            if next_hand is None
            else legal_cards(next_hand, progress.cards, mode=request.mode)
        ),
    }


# --- the play-along picture -------------------------------------------------------------------


@dataclass(frozen=True)
class CardPlay:
    """One card down in a trick: who played it, its FP, and the rules it broke (sentences)."""

    player: str
    code: str
    fp: int
    broken: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """The card as players name it."""
        return card(self.code).label


@dataclass(frozen=True)
class TrickView:
    """A trick as the table sees it while playing along.

    ``winner`` is who takes it (or is winning so far), an override included;
    ``beats`` is who the cards alone would give it to when an override changed that.
    """

    number: int
    lead: str
    seats: tuple[str, ...]
    plays: tuple[CardPlay, ...]
    winner: str | None
    beats: str | None
    next_player: str | None
    trophies: int
    same_speed: bool

    @property
    def complete(self) -> bool:
        """Whether everyone has played."""
        return self.next_player is None


@dataclass(frozen=True)
class RoundView:
    """One round while playing along: its tricks, the trick being played, used cards.

    ``current`` is the trick being played or about to be led (``None`` once every trick
    of the round is complete); ``left`` is how many copies of each card are not played
    yet this round; ``hands`` are the entered hands minus the cards played from them;
    ``playable`` the cards the next player may play, when their hand is known.
    """

    number: int
    tricks: tuple[TrickView, ...]
    current: TrickView | None
    left: Mapping[str, int]
    hands: Mapping[str, tuple[str, ...]]
    playable: tuple[str, ...] | None
    complete: bool

    @property
    def done(self) -> tuple[TrickView, ...]:
        """The complete tricks."""
        return tuple(t for t in self.tricks if t.complete)

    @property
    def last_taker(self) -> str | None:
        """Who took the last complete trick (and leads the next one)."""
        return self.done[-1].winner if self.done else None


def _view_trick(
    trick: TrickInput,
    *,
    number: int,
    game: GameInput,
    hands: Mapping[str, list[str]],
) -> TrickView:
    progress = trick_progress(
        mode=game.mode, players=game.players, lead=trick.lead, cards=trick.cards
    )
    plays = []
    check = game.mode is not Mode.ADVANCED
    for index, (seat, code) in enumerate(zip(progress.seats, trick.cards, strict=False)):
        before = trick.cards[:index]
        hand = hands.get(seat)
        broken: list[str] = []
        if hand is not None and check:
            broken = [
                _rule_break_message(rule, player=seat, code=code, fastest=_fastest(before))
                for rule in rule_breaks(code, hand=hand, played_before=before, mode=game.mode)
            ]
        plays.append(CardPlay(seat, code, progress.fp[index], tuple(broken)))
    taker = trick.winner if trick.winner is not None and progress.complete else progress.winner
    return TrickView(
        number=number,
        lead=trick.lead,
        seats=progress.seats,
        plays=tuple(plays),
        winner=taker,
        beats=progress.winner if taker != progress.winner else None,
        next_player=progress.next_player,
        trophies=progress.trophies,
        same_speed=bool(trick.cards) and progress.complete and same_speed(trick.cards),
    )


def round_view(game: GameInput, index: int) -> RoundView:
    """The play-along picture of a round entered trick by trick (index from 0).

    >>> g = parse({"players": ["Miu", "Carol", "Romi", "Tom"], "rounds": [
    ...     {"open": True, "tricks": [{"lead": "Miu", "cards": ["6", "2", "8", "10"]},
    ...                               {"lead": "Carol", "cards": ["9"]}]}]})
    >>> view = round_view(g, 0)
    >>> view.current.lead, view.current.next_player, view.current.winner
    ('Carol', 'Romi', 'Carol')
    >>> view.left["10"], view.left["9"], view.complete
    (1, 1, False)
    """
    round_ = game.rounds[index]
    tricks = round_.tricks or ()
    hands = {name: list(hand) for name, hand in round_.hands.items()}
    left = dict(DECK)
    views = []
    for number, trick in enumerate(tricks, 1):
        views.append(_view_trick(trick, number=number, game=game, hands=hands))
        for seat, code in zip(seating_from(game.players, trick.lead), trick.cards, strict=False):
            left[code] -= 1
            if code in hands.get(seat, ()):
                hands[seat].remove(code)
    complete = len([v for v in views if v.complete]) == game.chart.tricks
    current = _current_trick(views, game=game, complete=complete)
    next_hand = None
    if current is not None and current.next_player is not None and game.mode is not Mode.ADVANCED:
        next_hand = hands.get(current.next_player)
    playable = None
    if next_hand is not None and current is not None:
        before = [p.code for p in current.plays]
        playable = tuple(legal_cards(next_hand, before, mode=game.mode))
    return RoundView(
        number=index + 1,
        tricks=tuple(views),
        current=current,
        left=left,
        hands={name: tuple(hand) for name, hand in hands.items()},
        playable=playable,
        complete=complete,
    )


def _current_trick(
    views: Sequence[TrickView], *, game: GameInput, complete: bool
) -> TrickView | None:
    """The trick being played, or the next one, led by the last taker, before its first card."""
    if complete:
        return None
    if views and not views[-1].complete:
        return views[-1]
    lead = views[-1].winner if views else game.players[LEAD]
    assert lead is not None  # a complete trick always has a taker
    seats = seating_from(game.players, lead)
    return TrickView(len(views) + 1, lead, seats, (), None, None, lead, 0, same_speed=False)


@dataclass(frozen=True)
class Board:
    """Everything the play page shows: the game, its scored rounds, the round in play.

    ``current`` is the last round's play-along picture (``None`` when there is no round
    yet or the last one was entered as trophies); ``ended_after`` the number of the
    round that ended the game.
    """

    game: GameInput
    rounds: tuple[RoundScore, ...]
    current: RoundView | None
    ended_after: int | None

    @property
    def last_round(self) -> RoundScore | None:
        """The last round scored, if any."""
        return self.rounds[-1] if self.rounds else None

    @property
    def round_open(self) -> bool:
        """Whether the last round still has tricks to play."""
        return self.last_round is not None and not self.last_round.complete

    @property
    def can_start_round(self) -> bool:
        """A new round may start: the last one is complete and the game goes on."""
        return self.ended_after is None and not self.round_open

    def next_lead(self) -> str:
        """Who leads a new round: the taker of the last trick, else the first player."""
        if self.current is not None and self.current.last_taker is not None:
            return self.current.last_taker
        return self.game.players[LEAD]


def board(state: object) -> Board:
    """The play-along picture of a valid state (``InvalidStateError`` otherwise).

    >>> b = board({"players": ["A", "B", "C"], "rounds": []})
    >>> b.current, b.can_start_round, b.next_lead()
    (None, True, 'A')
    """
    game = parse(state)
    rounds = tuple(score_rounds(game))
    current = None
    if game.rounds and game.rounds[-1].tricks is not None:
        current = round_view(game, len(game.rounds) - 1)
    return Board(game, rounds, current, game_end(rounds, game.target))


def open_round(players: Sequence[str], *, lead: str) -> dict[str, Any]:
    """A round to play along, with its first trick led by ``lead`` and no card yet.

    >>> open_round(["A", "B", "C"], lead="B")["tricks"]
    [{'lead': 'B', 'cards': []}]
    """
    return {
        "tricks": [{"lead": lead, "cards": []}],
        "trophies": None,
        "penalties": {},
        "open": True,
        "hands": {},
    }


def parse_hand(raw: str, *, where: str) -> list[str]:
    """The cards of a hand typed as codes separated by spaces or commas.

    >>> parse_hand("2, 6 n6  10", where="hand")
    ['2', '6', 'N6', '10']
    """
    codes = raw.replace(",", " ").split()
    return [_card_from_text(where, code) for code in codes]


# --- form edits -------------------------------------------------------------------------------


def _card_from_text(where: str, raw: str) -> str:
    code = raw.strip().upper()
    if code not in DECK:
        raise InvalidStateError([Problem(where, _unknown_card(raw.strip()))])
    return code


def _name_from_text(where: str, raw: str) -> str:
    name = raw.strip()
    if not name:
        raise InvalidStateError([Problem(where, "Pick a player.")])
    return name


def new_round(players: Sequence[str], *, summarised: bool = False) -> dict[str, Any]:
    """An empty round to append to ``rounds``: no tricks yet, or zero trophies each.

    >>> new_round(["A", "B", "C"])
    {'tricks': [], 'trophies': None, 'penalties': {}}
    >>> new_round(["A", "B", "C"], summarised=True)["trophies"]
    {'A': 0, 'B': 0, 'C': 0}
    """
    if summarised:
        return {"tricks": None, "trophies": dict.fromkeys(players, 0), "penalties": {}}
    return {"tricks": [], "trophies": None, "penalties": {}}


#: A player's entry in a per-player field of a round, named for the history.
_SINGULAR = {"penalties": "penalty", "trophies": "trophies", "hands": "hand"}


def _label(code: object) -> str:
    return card(code).label if isinstance(code, str) and code in DECK else str(code)


def _tricks_in_words(tricks: Sequence[Any]) -> str:
    if not tricks:
        return "no trick"
    last = tricks[-1]
    if not isinstance(last, dict):
        return f"{len(tricks)} tricks"
    cards = ", ".join(_label(c) for c in last.get("cards", [])) or "no card yet"
    count = f"{len(tricks)} trick{'s' if len(tricks) != 1 else ''}"
    return f"{count} (the last led by {last.get('lead')}: {cards})"


class OwlAbout(Game):
    """The Owl About engine, registered under ``owl-about``."""

    slug = SLUG
    name = "Owl About"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    engine_version = 1
    has_play_along = True
    #: The deck (card code -> copies) and the cards by code, for the card pickers.
    deck = DECK
    cards = CARDS

    def validate(self, state: object) -> list[Problem]:
        """Every problem with a state, game end included; empty when it can be scored."""
        return problems_of(self.score, state)

    def score(self, state: object) -> Result:
        """Score a game (see the module example)."""
        return score_game(parse(state))

    def new_state(self, players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
        """A game with no rounds yet; options ``mode``, ``variants`` and ``target``.

        The target defaults to the player chart's. Raises :class:`InvalidStateError`
        when the players or options cannot make a game.

        >>> state = GAME.new_state(["A", "B", "C"], {"mode": "advanced"})
        >>> state["mode"], state["variants"], state["target"], state["rounds"]
        ('advanced', [], 15, [])
        """
        variants = options.get("variants", [])
        target = options.get("target")
        if isinstance(target, str):
            target = whole_number("target", target, minimum=1) if target.strip() else None
        if target is None and len(players) in PLAYER_CHART:
            target = default_target(len(players))
        state = {
            "players": list(players),
            "mode": options.get("mode", Mode.BASIC.value),
            "variants": [variants] if isinstance(variants, str) else list(variants),
            "target": target,
            "rounds": [],
        }
        problems = self.validate(state)
        if problems:
            raise InvalidStateError(problems)
        return state

    def parse_edit(self, path: Sequence[str | int], raw: str) -> object:
        """The value of one form edit: target, mode, a trophy or penalty count, or a
        trick's lead, winner (empty = none) or card.

        >>> GAME.parse_edit(["rounds", 0, "penalties", "Tom"], " 2 ")
        2
        >>> GAME.parse_edit(["rounds", 0, "tricks", 3, "cards", 1], "n6")
        'N6'
        """
        where = path_of(path)
        match list(path):
            case ["target"]:
                return whole_number(where, raw, minimum=1)
            case ["mode"]:
                if raw.strip() in set(Mode):
                    return raw.strip()
                raise InvalidStateError(_mode_problem(raw.strip()))
            case ["rounds", int(), "penalties" | "trophies", str()]:
                return whole_number(where, raw, minimum=0)
            case ["rounds", int(), "tricks", int(), "cards", int()]:
                return _card_from_text(where, raw)
            case ["rounds", int(), "tricks", int(), "lead"]:
                return _name_from_text(where, raw)
            case ["rounds", int(), "tricks", int(), "winner"]:
                return _name_from_text(where, raw) if raw.strip() else None
        raise InvalidStateError([Problem(where, "This cannot be changed here.")])

    def chart(self) -> tuple[ChartRow, ...]:
        """The player chart (for the options page)."""
        return player_chart()

    def board(self, state: object) -> Board:
        """The play-along picture of a state (see :func:`board`)."""
        return board(state)

    def describe_path(self, state: Mapping[str, Any], path: Sequence[str | int]) -> str:
        """A field's name for the edit history and conflict messages.

        >>> GAME.describe_path({}, ["rounds", 0, "tricks", 2, "cards"])
        'Round 1, trick 3'
        """
        match list(path):
            case ["rounds"]:
                return "Rounds"
            case ["rounds", int(r)]:
                return f"Round {r + 1}"
            case ["rounds", int(r), "tricks"]:
                return f"Round {r + 1} tricks"
            case ["rounds", int(r), "tricks", int(t), "cards"] | [
                "rounds",
                int(r),
                "tricks",
                int(t),
            ]:
                return f"Round {r + 1}, trick {t + 1}"
            case ["rounds", int(r), "tricks", int(t), "winner"]:
                return f"Round {r + 1}, trick {t + 1} taker"
            case ["rounds", int(r), "tricks", int(t), "lead"]:
                return f"Round {r + 1}, trick {t + 1} lead"
            case ["rounds", int(r), str(key)]:
                return f"Round {r + 1} {key}"
            case ["rounds", int(r), str(key), str(name)]:
                return f"Round {r + 1}: {name}'s {_SINGULAR.get(key, key)}"
        return path_of(path)

    def describe_change(
        self, state: Mapping[str, Any], path: Sequence[str | int], previous: Any, value: Any
    ) -> str | None:
        """A card played (or taken back) in words, naming the player; ``None`` otherwise.

        >>> state = {"players": ["Miu", "Carol", "Tom"],
        ...          "rounds": [{"tricks": [{"lead": "Carol", "cards": ["6", "2"]}]}]}
        >>> GAME.describe_change(state, ["rounds", 0, "tricks", 0, "cards"], ["6"], ["6", "2"])
        'Round 1, trick 1: Tom played 2'
        >>> GAME.describe_change(state, ["rounds", 0, "tricks", 0, "cards"], ["6", "2"], ["6"])
        "Round 1, trick 1: Tom's 2 taken back"
        """
        match list(path):
            case ["rounds", int(r), "tricks", int(t), "cards"]:
                return _card_change(state, r, t, previous, value)
            case ["rounds", int(r), "tricks"] if isinstance(previous, list) and isinstance(
                value, list
            ):
                longer, shorter = (
                    (value, previous)
                    if len(value) > len(previous)
                    else (
                        previous,
                        value,
                    )
                )
                if len(longer) == len(shorter) + 1 and longer[:-1] == shorter:
                    new = longer[-1].get("cards", []) if isinstance(longer[-1], dict) else []
                    before, after = ([], new) if longer is value else (new, [])
                    return _card_change(state, r, len(shorter), before, after)
        return None

    def display_value(self, path: Sequence[str | int], value: Any) -> str:
        """A stored value in words; hands are never shown (they are secret at the table).

        >>> GAME.display_value(["rounds", 0, "tricks", 0, "cards"], ["6", "N6"])
        '6, Night 6'
        >>> GAME.display_value(["rounds", 0, "penalties"], {"Tom": 1})
        'Tom +1'
        """
        parts = list(path)
        key = parts[-1] if parts else None
        if value is None or value == "nothing":
            return "nothing" if key != "winner" else "the cards decide"
        if key == "rounds" and isinstance(value, list):
            return f"{len(value)} round{'s' if len(value) != 1 else ''}"
        if key == "cards" and isinstance(value, list):
            return ", ".join(_label(c) for c in value) or "no card yet"
        if key == "tricks" and isinstance(value, list):
            return _tricks_in_words(value)
        if key == "hands" and isinstance(value, dict):
            return "entered for " + (", ".join(value) or "nobody")
        if key == "penalties" and isinstance(value, dict):
            return ", ".join(f"{n} +{v}" for n, v in value.items() if v) or "none"
        if key == "trophies" and isinstance(value, dict):
            return ", ".join(f"{n} {v}" for n, v in value.items())
        if isinstance(value, dict) and "cards" in value:
            cards = self.display_value(["cards"], value["cards"])
            taker = value.get("winner")
            return (
                f"{cards}, taken by {taker} (override)"
                if taker
                else f"{cards}, as the cards decide"
            )
        if isinstance(value, dict) and "tricks" in value:
            if value.get("trophies") is not None:
                return "trophies " + self.display_value(["trophies"], value["trophies"])
            return "played trick by trick"
        return str(value)

    def api_endpoints(self) -> dict[str, Callable[[object], dict[str, Any]]]:
        """The JSON endpoints of this game: name -> handler of a parsed body."""
        return {
            "score": lambda body: self.score(body).to_json(),
            "trick": check_trick,
        }


def _card_change(
    state: Mapping[str, Any], round_index: int, trick_index: int, previous: Any, value: Any
) -> str | None:
    """ "Tom played 2" when one card was added to a trick, "Tom's 2 taken back" when removed."""
    if not (isinstance(previous, list) and isinstance(value, list)):
        return None
    played = len(value) == len(previous) + 1 and value[:-1] == previous
    taken_back = len(previous) == len(value) + 1 and previous[:-1] == value
    if not (played or taken_back):
        return None
    cards, code = (value, value[-1]) if played else (previous, previous[-1])
    try:
        players = [str(name) for name in state["players"]]
        lead = state["rounds"][round_index]["tricks"][trick_index]["lead"]
        player = seating_from(players, lead)[len(cards) - 1]
        label = card(code).label
    except (LookupError, TypeError, ValueError):
        return None
    where = f"Round {round_index + 1}, trick {trick_index + 1}"
    return (
        f"{where}: {player} played {label}"
        if played
        else f"{where}: {player}'s {label} taken back"
    )


GAME = OwlAbout()
