"""Lucky's referee checks: Feed the Toad, the rounds, challenges, buying, Machines, escapes.

Each check has a pure function on plain values (used by the pages) and an endpoint that
validates a JSON body first (used by the API).

>>> feed_the_toad(["Lewis", "Carol"], "Lewis", ["cups-4", "wands-5", "death"])
ToadPass(holder='Lewis', passes=2, turn_order=('Lewis', 'Carol'))
>>> challenge({"Lewis": 2, "Carol": 1}, ["Lewis", "Carol"]).outcome
'minor-victory'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import pydantic

from companion.games.limits import STRICT, list_size, object_size, text_size, validate_model
from companion.games.luckys import facts as f
from companion.games.luckys import readings as app
from companion.games.luckys.state import (
    STATE_SIZE,
    StateModel,
    Table,
    fate_count_message,
    not_fate_message,
    not_junk_message,
    parse,
)
from companion.games.luckys.supply import shortages
from companion.games.names import (
    NAME_SIZE,
    Roster,
    name_problems,
    player_count_problems,
    players_size,
    spoken_names,
)
from companion.games.problems import InvalidStateError, Problem
from companion.games.readings import Reading, readings_json, unique_readings
from companion.games.text import N_, _

RULE_TOAD = "luckys-misadventures/feed-the-toad"
RULE_TRIGGERS = "luckys-misadventures/triggers"
RULE_CHALLENGE = "luckys-misadventures/challenges"
RULE_CHALLENGE_TIE = "luckys-misadventures/challenges/tie"
RULE_BUY = "luckys-misadventures/buying"
RULE_MACHINE = "luckys-misadventures/machines"
RULE_ESCAPE = "luckys-misadventures/escapes"
RULE_DEATH = "luckys-misadventures/fate/death"
RULE_FORTUNE = "luckys-misadventures/fate/fortune"

#: The most challenge power one player could type (far above any real table).
MAX_POWER = 99
MAX_ODDLING_POWER = 9
MAX_IN_PLAY = 20


def _player_problems(players: Sequence[str], path: str = "players") -> list[Problem]:
    counted = player_count_problems(
        len(players), minimum=f.MIN_PLAYERS, maximum=f.MAX_PLAYERS, path=path
    )
    problems = [
        Problem(p.path, app.said(p.message, app.PLAYERS), reading=app.PLAYERS) for p in counted
    ]
    return problems + name_problems(players, path=lambda i: f"{path}[{i}]")


# --- Feed the Toad ----------------------------------------------------------------------


@dataclass(frozen=True)
class ToadPass:
    """Who holds the Feed the Toad! card after a reveal, how far it moved, the turn order."""

    holder: str
    passes: int
    turn_order: tuple[str, ...]


def passes(fate: Sequence[str]) -> int:
    """How many revealed cards pass the Feed the Toad! card (Wands and majors).

    >>> passes(["cups-4", "wands-5", "death"]), passes(["cups-1", "swords-2"])
    (2, 0)
    """
    return sum(1 for code in fate if f.FATE[code].passes)


def turn_order(players: Sequence[str], first: str) -> tuple[str, ...]:
    """Clockwise from the first player.

    >>> turn_order(["A", "B", "C"], "B")
    ('B', 'C', 'A')
    """
    seat = list(players).index(first)
    return tuple(players[seat:]) + tuple(players[:seat])


def feed_the_toad(players: Sequence[str], holder: str, fate: Sequence[str]) -> ToadPass:
    """Pass the Feed the Toad! card one seat clockwise per passing card revealed."""
    moves = passes(fate)
    seat = (list(players).index(holder) + moves) % len(players)
    return ToadPass(players[seat], moves, turn_order(players, players[seat]))


class ToadModel(pydantic.BaseModel):
    """A Feed the Toad request."""

    model_config = STRICT

    players: list[str]
    holder: str
    fate: list[str]


TOAD_SIZE = object_size(
    {
        "players": players_size(f.MIN_PLAYERS, f.MAX_PLAYERS),
        "holder": NAME_SIZE,
        "fate": list_size(f.FATE_PER_ROUND, fate_count_message, text_size()),
    }
)


def fate_problems(fate: Sequence[str], path: str = "fate", *, whole: bool = True) -> list[Problem]:
    """Unknown cards, a card twice, or (``whole``) not exactly three cards."""
    problems = []
    if whole and len(fate) != f.FATE_PER_ROUND:
        problems.append(Problem(path, fate_count_message(len(fate)), rule=RULE_TOAD))
    seen: set[str] = set()
    for index, code in enumerate(fate):
        if code not in f.FATE:
            problems.append(Problem(f"{path}[{index}]", not_fate_message(code), rule=RULE_TOAD))
        elif code in seen:
            problems.append(
                Problem(
                    f"{path}[{index}]",
                    _(
                        "The %(card)s cannot come up twice in one round.",
                        card=f.fate_name(code),
                    ),
                    rule=RULE_TOAD,
                )
            )
        seen.add(code)
    return problems


def feed_the_toad_endpoint(body: object) -> dict[str, Any]:
    """``POST .../feed-the-toad``: the holder after the reveal and the passes."""
    model = validate_model(ToadModel, body, TOAD_SIZE)
    problems = _player_problems(model.players) + fate_problems(model.fate)
    roster = Roster.of(model.players)
    holder = roster.find(model.holder)
    if holder is None:
        problems.append(
            Problem(
                "holder", _('"%(name)s" is not one of the players.', name=model.holder.strip())
            )
        )
    if problems:
        raise InvalidStateError(problems)
    assert holder is not None
    moved = feed_the_toad(roster.names, holder, model.fate)
    round_ = fate_round(model.fate, round_number=None)
    return {
        "holder": moved.holder,
        "passes": moved.passes,
        "turn_order": list(moved.turn_order),
        "suits": [s.value for s in round_.suits],
        "effects": [e.words for e in round_.effects],
        "readings": readings_json(round_.readings),
    }


# --- one round's Fate cards ------------------------------------------------------------------


@dataclass(frozen=True)
class Effect:
    """Something a revealed Fate card does this round, in words, with its rules entry and
    the app's reading it rests on, if any."""

    card: str
    words: str
    rule: str
    reading: Reading | None = None


@dataclass(frozen=True)
class FateRound:
    """What three revealed Fate cards mean: suits in play, triggers, majors' effects."""

    cards: tuple[str, ...]
    suits: tuple[f.Suit, ...]
    effects: tuple[Effect, ...]

    @property
    def passes(self) -> int:
        """How far these cards pass the Feed the Toad! card."""
        return passes(self.cards)

    @property
    def readings(self) -> tuple[Reading, ...]:
        """The app's readings this round rests on: which cards pass the Feed the Toad!
        card (every reveal moves it by that reading), and any an effect rests on."""
        return unique_readings([app.TOAD, *(e.reading for e in self.effects)])


def suits_in_play(fate: Sequence[str]) -> tuple[f.Suit, ...]:
    """The suits of the minor cards revealed, each once, in suit order."""
    present = {f.FATE[c].suit for c in fate}
    return tuple(s for s in f.Suit if s in present)


def fortune_words(fate: Sequence[str]) -> str:
    """Fortune's band from the other two cards' values (when the app knows them).

    >>> fortune_words(["fortune", "cups-4", "wands-5"])
    'Fortune: the other two cards add up to 9: everyone must play 4 cards this round.'
    >>> fortune_words(["fortune", "cups-4", "death"])
    'Fortune: add 4 and the value printed on Death, then read the band on Fortune.'
    """
    others = [f.FATE[c] for c in fate if c != "fortune"]
    if any(card.value is None for card in others) or len(others) != f.FATE_PER_ROUND - 1:
        # What to add up: the values the app knows, then those only the cards print.
        parts = [str(c.value) for c in others if c.value is not None]
        parts += [
            # TRANSLATORS: what to add up for Fortune: "the value printed on Death".
            _("the value printed on %(card)s", card=f.fate_name(c.code))
            for c in others
            if c.value is None
        ]
        added = parts[0] if parts else ""
        for part in parts[1:]:
            # Each one more "and" (not the commas of a spoken list): "4 and 5 and ...".
            added = _("%(items)s and %(last)s", items=added, last=part)
        return _("Fortune: add %(values)s, then read the band on Fortune.", values=added)
    total = fortune_total(fate)
    band = next((text for low, high, text in f.FORTUNE_BANDS if low <= total <= high), None)
    if band is None:
        return _("Fortune: the other two cards add up to %(total)s: no band applies.", total=total)
    return _(
        "Fortune: the other two cards add up to %(total)s: %(band)s.", total=total, band=_(band)
    )


def fortune_total(fate: Sequence[str]) -> int:
    """The sum of the other two cards' values (0 for a value the rulebook does not print).

    >>> fortune_total(["fortune", "cups-4", "wands-5"])
    9
    """
    return sum(f.FATE[c].value or 0 for c in fate if c != "fortune")


def fortune_reading(fate: Sequence[str]) -> Reading | None:
    """The reading Fortune's effect rests on: its "no Tinkerer" and "no Wicked" bands read
    as no challenge of that faction (only when the app applies one of those bands).

    >>> fortune_reading(["fortune", "cups-1", "swords-2"]).id
    'luckys-misadventures/fate/fortune-phases'
    >>> fortune_reading(["fortune", "cups-4", "wands-5"]) is None
    True
    """
    others = [f.FATE[c] for c in fate if c != "fortune"]
    if len(others) != f.FATE_PER_ROUND - 1 or any(card.value is None for card in others):
        return None
    return app.FORTUNE if fortune_total(fate) <= f.FORTUNE_LAST_CHALLENGE_BAND else None


def death_words(round_number: int | None) -> str:
    """Death's effect in a given round of the game (rounds 1 and 2: none).

    >>> death_words(2)
    'Death: no effect in round 2 (rounds 1 and 2 are spared).'
    """
    if round_number is not None and round_number <= f.DEATH_QUIET_ROUNDS:
        return _(
            "Death: no effect in round %(number)s (rounds 1 and 2 are spared).",
            number=round_number,
        )
    if round_number is None:
        return _(
            "Death: in the discard phase everyone trashes the cards left in their hand (not in"
            " rounds 1 and 2); Junk and Machines in it are discarded instead."
        )
    return _(
        "Death: in the discard phase everyone trashes the cards left in their hand; Junk and"
        " Machines in it are discarded instead."
    )


def trigger_words(suit: f.Suit) -> str:
    """What a suit in play lets allies do."""
    return _(
        "%(suit)s: actions with a %(suit)s trigger may be used, once per card even with two"
        " %(suit)s cards; the %(suit)s Scarecrow adds 1 more Buy Point.",
        suit=_(f.SUIT_NAMES[suit]),
    )


def fate_round(fate: Sequence[str], *, round_number: int | None) -> FateRound:
    """The meaning of the revealed cards (valid codes, no repeats) in a round of the game.

    >>> r = fate_round(["cups-4", "wands-5", "death"], round_number=5)
    >>> [s.value for s in r.suits], r.passes, r.effects[-1].words.startswith("Death: in")
    (['cups', 'wands'], 2, True)
    """
    suits = suits_in_play(fate)
    effects = [Effect(s.value, trigger_words(s), RULE_TRIGGERS) for s in suits]
    majors = sorted(
        (f.FATE[c] for c in fate if f.FATE[c].major),
        key=lambda card: card.value if card.value is not None else 0,
    )
    for card in majors:
        if card.code == "fortune":
            effects.append(
                Effect(card.code, fortune_words(fate), RULE_FORTUNE, fortune_reading(fate))
            )
        elif card.code == "death":
            effects.append(Effect(card.code, death_words(round_number), RULE_DEATH))
        else:
            # TRANSLATORS: a major Fate card, and that the rulebook does not print its effect.
            words = _(
                "%(card)s: %(effect)s", card=f.fate_name(card.code), effect=_(f.UNPRINTED_EFFECT)
            )
            effects.append(Effect(card.code, words, RULE_TRIGGERS))
    return FateRound(tuple(fate), suits, tuple(effects))


# --- the rounds of a game (the round companion) ------------------------------------------


@dataclass(frozen=True)
class RoundView:
    """One round of the companion: its cards and who held the Toad before and after."""

    number: int
    half: int
    cards: tuple[str, ...]
    holder_before: str
    holder: str | None
    turn_order: tuple[str, ...]
    fate: FateRound | None

    @property
    def complete(self) -> bool:
        """Whether all three Fate cards are in."""
        return len(self.cards) == f.FATE_PER_ROUND


@dataclass(frozen=True)
class Companion:
    """The rounds so far and what comes next."""

    rounds: tuple[RoundView, ...]
    holder: str
    #: The round the next tap goes to (1-14), or ``None`` when all 14 are done.
    next_round: int | None
    #: The reshuffle reminder is due (the first half's last round is complete).
    reshuffle_due: bool

    @property
    def current(self) -> RoundView | None:
        """The round being revealed or last revealed."""
        return self.rounds[-1] if self.rounds else None


def companion(
    players: Sequence[str], toad: str | None, rounds: Sequence[Sequence[str]]
) -> Companion:
    """Follow the Feed the Toad! card through the rounds (codes already validated).

    >>> c = companion(["Lewis", "Carol"], "Lewis", [["cups-4", "wands-5", "death"], ["wands-1"]])
    >>> [(r.number, r.holder) for r in c.rounds], c.holder, c.next_round
    ([(1, 'Lewis'), (2, None)], 'Lewis', 2)
    """
    holder = toad if toad is not None else players[0]
    views = []
    for number, cards in enumerate(rounds, 1):
        half = 1 if number <= f.ROUNDS_PER_HALF else 2
        before = holder
        if len(cards) == f.FATE_PER_ROUND:
            holder = feed_the_toad(players, holder, cards).holder
            view = RoundView(
                number,
                half,
                tuple(cards),
                before,
                holder,
                turn_order(players, holder),
                fate_round(cards, round_number=number),
            )
        else:
            view = RoundView(number, half, tuple(cards), before, None, (), None)
        views.append(view)
    last = views[-1] if views else None
    if last is None:
        next_round: int | None = 1
    elif not last.complete:
        next_round = last.number
    else:
        next_round = last.number + 1 if last.number < f.ROUNDS else None
    reshuffle = last is not None and last.complete and last.number == f.ROUNDS_PER_HALF
    return Companion(tuple(views), holder, next_round, reshuffle)


def last_turn_order(
    players: Sequence[str], toad: str | None, rounds: Sequence[Sequence[str]]
) -> tuple[str, ...]:
    """The turn order of the last complete round (seating order before any)."""
    done = [r for r in companion(players, toad, rounds).rounds if r.complete]
    return done[-1].turn_order if done else tuple(players)


# --- challenges --------------------------------------------------------------------------


class Outcome(StrEnum):
    """How a challenge ends."""

    NO_WINNER = "no-winner"
    TIE = "tie"
    MINOR_VICTORY = "minor-victory"
    CRUSHED_IT = "crushed-it"


@dataclass(frozen=True)
class ChallengeResult:
    """A challenge's outcome, its winners (in turn order) and the winning margin."""

    outcome: str
    winners: tuple[str, ...]
    margin: int
    words: str
    #: The rules entry of the outcome (not part of the API shape).
    rule: str = RULE_CHALLENGE
    #: The app's readings the outcome rests on (the margin against the runner-up).
    readings: tuple[Reading, ...] = ()


def challenge(
    powers: Mapping[str, int], order: Sequence[str], kind: f.Challenge = f.Challenge.TINKERER
) -> ChallengeResult:
    """Resolve one challenge from each player's total power in play.

    >>> won = challenge({"Lewis": 2, "Carol": 0}, ["Lewis", "Carol"])
    >>> won.outcome, won.winners, won.margin
    ('crushed-it', ('Lewis',), 2)
    >>> won.words
    'Lewis crushed it by 2: any Junk card from the bank.'
    >>> challenge({"A": 2, "B": 2, "C": 1}, ["B", "C", "A"]).winners
    ('B', 'A')
    """
    prize = _(f.CHALLENGE_PRIZES[kind])
    top = max(powers.values(), default=0)
    if top <= 0:
        return ChallengeResult(
            Outcome.NO_WINNER.value, (), 0, _("Nobody has power in play: no winner.")
        )
    best = tuple(name for name in order if powers.get(name, 0) == top)
    if len(best) > 1:
        words = _(
            "%(players)s tie on %(power)s: each may take the cheapest %(prize)s in the bank, in"
            " turn order.",
            players=spoken_names(list(best)),
            power=top,
            prize=prize,
        )
        return ChallengeResult(Outcome.TIE.value, best, 0, words, RULE_CHALLENGE_TIE)
    second = max((p for name, p in powers.items() if name != best[0]), default=0)
    margin = top - second
    # With two players the margin is plain; with more, it is counted against the runner-up.
    readings = (app.MARGIN,) if len(powers) > 2 else ()
    if margin >= f.CRUSH_MARGIN:
        words = _(
            "%(player)s crushed it by %(margin)s: any %(prize)s from the bank.",
            player=best[0],
            margin=margin,
            prize=prize,
        )
        return ChallengeResult(Outcome.CRUSHED_IT.value, best, margin, words, readings=readings)
    words = _(
        "%(player)s wins by 1, a minor victory: a %(prize)s costing %(cost)s or less (or the"
        " cheapest one).",
        player=best[0],
        prize=prize,
        cost=f.MINOR_VICTORY_MOST_COST,
    )
    return ChallengeResult(Outcome.MINOR_VICTORY.value, best, margin, words, readings=readings)


class ChallengeModel(pydantic.BaseModel):
    """A challenge request."""

    model_config = STRICT

    kind: str = f.Challenge.TINKERER.value
    powers: dict[str, int]
    turn_order: list[str] | None = None


CHALLENGE_SIZE = object_size(
    {
        "kind": text_size(),
        "powers": object_size(each=None, most=f.MAX_PLAYERS),
        "turn_order": players_size(f.MIN_PLAYERS, f.MAX_PLAYERS),
    }
)


def challenge_endpoint(body: object) -> dict[str, Any]:
    """``POST .../challenge``: outcome, winners in turn order, margin (and words)."""
    model = validate_model(ChallengeModel, body, CHALLENGE_SIZE)
    problems = []
    if model.kind not in set(f.Challenge):
        # TRANSLATORS: the challenges are keys to type, left in English.
        problems.append(
            Problem("kind", _("A challenge is tinkerer or wicked."), rule=RULE_CHALLENGE)
        )
    names = list(model.powers)
    problems += _player_problems(names, path="powers")
    for name, power in model.powers.items():
        if not 0 <= power <= MAX_POWER:
            problems.append(
                Problem(f"powers.{name}", _("Enter a power from 0 to %(most)s.", most=MAX_POWER))
            )
    roster = Roster.of(names)
    order = list(roster.names)
    if model.turn_order is not None:
        found = [roster.find(n) for n in model.turn_order]
        if None in found or sorted(n or "" for n in found) != sorted(roster.names):
            problems.append(
                Problem(
                    "turn_order", _("The turn order names every player of powers exactly once.")
                )
            )
        else:
            order = [n or "" for n in found]
    if problems:
        raise InvalidStateError(problems)
    powers = {name.strip(): power for name, power in model.powers.items()}
    result = challenge(powers, order, f.Challenge(model.kind))
    answer: dict[str, Any] = {
        "outcome": result.outcome,
        "winners": list(result.winners),
        "margin": result.margin,
        "words": result.words,
    }
    if result.readings:
        answer["readings"] = readings_json(result.readings)
    return answer


# --- buying --------------------------------------------------------------------------------


@dataclass(frozen=True)
class BuyPoints:
    """A player's Buy Points this turn, line by line (labels in the reader's language)."""

    total: int
    lines: tuple[tuple[str, int], ...]
    reminder: str


#: Said with every Buy Points answer (the 2 is :data:`~.facts.PURCHASES_PER_TURN`; a
#: constant, so that the pages can translate it too).
BUY_REMINDER = N_("At most 2 cards may be bought per turn.")


def buy_points(
    *,
    lucky: bool,
    scarecrows: Sequence[f.Suit],
    white_rabbits: int,
    oddlings: Sequence[int],
    suits: Sequence[f.Suit],
) -> BuyPoints:
    """Buy Points from the cards in play, with the suits the Fate cards put in play.

    Carol's turn in the rulebook's example (Cups and Wands in play):

    >>> carol = buy_points(lucky=False, scarecrows=[f.Suit.WANDS, f.Suit.SWORDS],
    ...     white_rabbits=0, oddlings=[], suits=[f.Suit.CUPS, f.Suit.WANDS])
    >>> carol.total, carol.lines
    (3, (('Wands Scarecrow (triggered)', 2), ('Swords Scarecrow', 1)))
    """
    lines: list[tuple[str, int]] = []
    if lucky:
        lines.append((_("Lucky"), 1))
    for suit in scarecrows:
        name = _(f.SUIT_NAMES[suit])
        if suit in suits:
            # TRANSLATORS: a Scarecrow whose suit a Fate card put in play: "Wands Scarecrow".
            lines.append((_("%(suit)s Scarecrow (triggered)", suit=name), 2))
        else:
            lines.append((_("%(suit)s Scarecrow", suit=name), 1))
    if white_rabbits:
        lines.append((_("White Rabbit"), f.WHITE_RABBIT_FIRST))
    for number in range(2, white_rabbits + 1):
        # TRANSLATORS: the second, third... White Rabbit a player has in play.
        lines.append((_("White Rabbit %(number)s", number=number), f.WHITE_RABBIT_MORE))
    for index, power in enumerate(oddlings, 1):
        # TRANSLATORS: the first, second... Oddling a player has in play.
        lines.append((_("Oddling %(number)s", number=index), power))
    return BuyPoints(sum(p for _label, p in lines), tuple(lines), _(BUY_REMINDER))


class BuyModel(pydantic.BaseModel):
    """A buy-points request."""

    model_config = STRICT

    lucky: bool = False
    scarecrows: list[str] = []
    white_rabbits: int = 0
    oddlings: list[int] = []
    fate: list[str] = []


BUY_SIZE = object_size(
    {
        "scarecrows": list_size(
            3, lambda n: _("A player has 3 Scarecrows, not %(count)s.", count=n), text_size()
        ),
        "oddlings": list_size(
            MAX_IN_PLAY,
            lambda n: _(
                "At most %(most)s Oddlings fit in play, not %(count)s.", most=MAX_IN_PLAY, count=n
            ),
        ),
        "fate": list_size(f.FATE_PER_ROUND, fate_count_message, text_size()),
    }
)


def buy_points_endpoint(body: object) -> dict[str, Any]:
    """``POST .../buy-points``: the Buy Points of the cards in play."""
    model = validate_model(BuyModel, body, BUY_SIZE)
    problems = fate_problems(model.fate, whole=False)
    for index, suit in enumerate(model.scarecrows):
        if suit not in set(f.Suit):
            problems.append(
                Problem(
                    f"scarecrows[{index}]",
                    # TRANSLATORS: the suits are keys to type, left in English.
                    _("A Scarecrow's trigger is cups, swords or wands."),
                    rule=RULE_BUY,
                )
            )
    if len(set(model.scarecrows)) != len(model.scarecrows):
        problems.append(
            Problem(
                "scarecrows",
                _("Each player's three Scarecrows have different triggers."),
                rule=RULE_BUY,
            )
        )
    if not 0 <= model.white_rabbits <= f.HIRELINGS["white-rabbit"][2]:
        problems.append(Problem("white_rabbits", _("Enter 0 to 8 White Rabbits."), rule=RULE_BUY))
    for index, power in enumerate(model.oddlings):
        if not 0 <= power <= MAX_ODDLING_POWER:
            problems.append(
                Problem(
                    f"oddlings[{index}]",
                    _("An Oddling adds 0 to %(most)s Buy Points.", most=MAX_ODDLING_POWER),
                )
            )
    if problems:
        raise InvalidStateError(problems)
    result = buy_points(
        lucky=model.lucky,
        scarecrows=[f.Suit(s) for s in model.scarecrows],
        white_rabbits=model.white_rabbits,
        oddlings=model.oddlings,
        suits=suits_in_play(model.fate),
    )
    return {
        "points": result.total,
        "lines": [{"label": label, "points": points} for label, points in result.lines],
        "most_purchases": f.PURCHASES_PER_TURN,
        "reminder": result.reminder,
    }


# --- machines ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Build:
    """What two Junk kinds build, and how many of that Machine are left."""

    machine: f.Machine | None
    left: int
    words: str


def build_machine(first: str, second: str, built: Mapping[str, int]) -> Build:
    """The Machine two Junk kinds build, given the Machines already built.

    ``left`` counts the Machines of that kind still in the Machine deck that the Junk not
    yet trashed can build (the Junk trashed for every Machine built is gone).

    >>> build_machine("flux-capacitor", "flux-capacitor", {"time-machine": 1}).words
    'Flux Capacitor + Flux Capacitor build the Time Machine (13 VP); none is left to build.'
    >>> aether = build_machine("luminous-aether", "luminous-aether", {"dark-energy-machine": 3})
    >>> aether.left, aether.words.split(": ")[1]
    (0, 'the box has 7 Luminous Aether and 6 were trashed for the Machines built.')
    """
    machine = f.machine_for(first, second)
    junk = {"first": f.junk_name(first), "second": f.junk_name(second)}
    if machine is None:
        return Build(None, 0, _("%(first)s + %(second)s build no Machine.", **junk))
    built_one = {"machine": _(machine.name), "vp": machine.vp, **junk}
    left = max(0, machine.copies - built.get(machine.key, 0))
    short = _short_junk(machine, built)
    if left == 0:
        words = _(
            "%(first)s + %(second)s build the %(machine)s (%(vp)s VP); none is left to build.",
            **built_one,
        )
    elif short is not None:
        kind, trashed = short
        left = 0
        words = _(
            "%(first)s + %(second)s build the %(machine)s (%(vp)s VP); none can be built: the"
            " box has %(copies)s %(junk)s and %(trashed)s were trashed for the Machines built.",
            copies=f.JUNK[kind][1],
            junk=f.junk_name(kind),
            trashed=trashed,
            **built_one,
        )
    else:
        words = _(
            "%(first)s + %(second)s build the %(machine)s (%(vp)s VP); %(left)s left.",
            left=left,
            **built_one,
        )
    return Build(machine, left, words)


def _short_junk(machine: f.Machine, built: Mapping[str, int]) -> tuple[str, int] | None:
    """A Junk kind the box no longer holds enough of to build ``machine`` once more."""
    trashed = f.junk_trashed(built)
    for kind, need in f.junk_trashed({machine.key: 1}).items():
        if trashed[kind] + need > f.JUNK[kind][1]:
            return kind, trashed[kind]
    return None


def machine_junk_message(count: int) -> str:
    """A Machine asked of more or fewer than its 2 Junk cards.

    >>> machine_junk_message(3)
    'A Machine takes 2 Junk cards, not 3.'
    """
    return _("A Machine takes 2 Junk cards, not %(count)s.", count=count)


class BuildModel(pydantic.BaseModel):
    """A build-machine request."""

    model_config = STRICT

    junk: list[str]
    built: dict[str, int] = {}


BUILD_SIZE = object_size(
    {
        "junk": list_size(2, lambda n: machine_junk_message(n), text_size()),
        "built": object_size(),
    }
)


def build_machine_endpoint(body: object) -> dict[str, Any]:
    """``POST .../build-machine``: the Machine, its VP and how many are left."""
    model = validate_model(BuildModel, body, BUILD_SIZE)
    problems = []
    if len(model.junk) != 2:
        problems.append(Problem("junk", machine_junk_message(len(model.junk)), rule=RULE_MACHINE))
    for index, kind in enumerate(model.junk):
        if kind not in f.JUNK:
            problems.append(Problem(f"junk[{index}]", not_junk_message(kind), rule=RULE_MACHINE))
    for key, count in model.built.items():
        if key not in f.MACHINES:
            problems.append(Problem(f"built.{key}", _('"%(key)s" is not a Machine.', key=key)))
        elif not 0 <= count <= f.MACHINES[key].copies:
            most = f.MACHINES[key]
            problems.append(
                Problem(
                    f"built.{key}",
                    # TRANSLATORS: how many of a Machine the box holds: "Only 4 Tiny Tin exist."
                    _(
                        "Only %(copies)s %(machine)s exist.",
                        copies=most.copies,
                        machine=_(most.name),
                    ),
                )
            )
    if not problems:
        trashed = f.junk_trashed(model.built)
        for kind, (name, copies) in f.JUNK.items():
            if trashed[kind] > copies:
                problems.append(
                    Problem(
                        "built",
                        _(
                            "Only %(copies)s %(junk)s cards exist, but the Machines built took"
                            " %(trashed)s (each Machine trashes its 2 Junk cards).",
                            copies=copies,
                            junk=_(name),
                            trashed=trashed[kind],
                        ),
                        rule=RULE_MACHINE,
                    )
                )
    if problems:
        raise InvalidStateError(problems)
    result = build_machine(model.junk[0], model.junk[1], model.built)
    machine = result.machine
    return {
        "machine": machine.key if machine else None,
        "name": _(machine.name) if machine else None,
        "vp": machine.vp if machine else None,
        "left": result.left,
        "can_build": machine is not None and result.left > 0,
        "words": result.words,
    }


# --- escapes ---------------------------------------------------------------------------------


class InPlay(StrEnum):
    """The cards the escape conditions look at."""

    TIME_MACHINE = "time-machine"
    REACTOR_PUMP = "reactor-pump"
    GREED = "greed"
    DESPAIR = "despair"
    VANITY = "vanity"
    PUMPKIN_TED = "pumpkin-ted"
    CLOCKMAKERS = "clockmakers"
    FATE_CLOCK = "fate-clock"


#: The cards as the escape check names them (English; translated where shown).
IN_PLAY_NAMES: dict[InPlay, str] = {
    InPlay.TIME_MACHINE: N_("Time Machine"),
    InPlay.REACTOR_PUMP: N_("Reactor Pump"),
    InPlay.GREED: N_("Greed"),
    InPlay.DESPAIR: N_("Despair"),
    InPlay.VANITY: N_("Vanity"),
    InPlay.PUMPKIN_TED: N_("Pumpkin Ted"),
    InPlay.CLOCKMAKERS: N_("a Clockmakers Hireling"),
    InPlay.FATE_CLOCK: N_("a Fate Clock"),
}
# TRANSLATORS: what an escape by Pumpkin Ted's portal still needs.
PUMPKIN_TED_TRIGGERED = N_("Pumpkin Ted's action triggered")


def _in_play(card: f.EscapeCard) -> InPlay:
    """The escape check's name of a card an escape needs ("pumpkin ted": pumpkin-ted)."""
    return InPlay(card.key.replace(" ", "-"))


#: What each escape needs in play (one source: ``facts.ESCAPE_CARDS``).
ESCAPE_NEEDS: dict[f.Escape, tuple[InPlay, ...]] = {
    by: tuple(_in_play(card) for card in cards) for by, cards in f.ESCAPE_CARDS.items()
}
#: The card of the box each card the escape check asks about is.
ESCAPE_CARD_OF: dict[InPlay, f.EscapeCard] = {
    _in_play(card): card for cards in f.ESCAPE_CARDS.values() for card in cards
}
ESCAPE_REMINDER = N_(
    "An escape is an action on your own turn: it ends the game at once, and no VP are counted."
)


@dataclass(frozen=True)
class EscapeCheck:
    """One escape: met or not, and what is missing (in the reader's language)."""

    by: f.Escape
    met: bool
    missing: tuple[str, ...]


def escape_checks(in_play: set[InPlay], *, pumpkin_ted_triggered: bool) -> tuple[EscapeCheck, ...]:
    """Each escape condition for the cards one player has in play.

    >>> [c.met for c in escape_checks({InPlay.TIME_MACHINE, InPlay.REACTOR_PUMP},
    ...     pumpkin_ted_triggered=False)]
    [True, False, False]
    """
    checks = []
    for by, needs in ESCAPE_NEEDS.items():
        missing = [_(IN_PLAY_NAMES[card]) for card in needs if card not in in_play]
        if by is f.Escape.PUMPKIN_TED and not pumpkin_ted_triggered:
            missing.append(_(PUMPKIN_TED_TRIGGERED))
        checks.append(EscapeCheck(by, not missing, tuple(missing)))
    return tuple(checks)


def in_play_problems(cards: Sequence[InPlay | None], table: Table, player: str) -> list[Problem]:
    """The cards said to be in ``player``'s play that cannot be there, given the table's
    decks: every copy is in other decks, or (Junk, Machines) trashed or used up to build
    the Machines entered. ``None`` stands for a card that is not one of them (skipped);
    a problem's path is ``in_play[i]`` by the card's place.

    >>> t = parse({"players": ["Lewis", "Carol"], "decks": {
    ...     "Carol": {"hirelings": {"clockmakers": 8}}}})
    >>> [problem] = in_play_problems([InPlay.FATE_CLOCK, InPlay.CLOCKMAKERS], t, "Lewis")
    >>> problem.path, problem.message.split(": ")[1]
    ('in_play[1]', 'all 8 Clockmakers cards are in other decks (Carol 8).')
    """
    first_at: dict[InPlay, int] = {}
    for index, card in enumerate(cards):
        if card is not None:
            first_at.setdefault(card, index)
    ticked = [ESCAPE_CARD_OF[card] for card in first_at]
    places = list(first_at.values())
    return [
        Problem(
            f"in_play[{places[index]}]",
            app.said(
                _(
                    "%(player)s cannot have %(card)s in play: %(reason)s.",
                    player=player,
                    card=_(ticked[index].one),
                    reason=short.reason,
                ),
                short.reading,
            ),
            rule=RULE_ESCAPE,
            reading=short.reading,
        )
        for index, short in shortages(table.decks, player, ticked)
    ]


class EscapeModel(pydantic.BaseModel):
    """An escape-check request: the cards one player has in play, and optionally the
    table (a score request's state) and which of its players that is."""

    model_config = STRICT

    in_play: list[str]
    pumpkin_ted_triggered: bool = False
    player: str | None = None
    table: StateModel | None = None


ESCAPE_SIZE = object_size(
    {
        "in_play": list_size(
            len(InPlay),
            lambda n: _(
                "At most %(most)s cards are asked about, not %(count)s.", most=len(InPlay), count=n
            ),
            text_size(),
        ),
        "player": NAME_SIZE,
        "table": STATE_SIZE,
    }
)


def _escape_table(body: object, model: EscapeModel) -> tuple[Table, str] | list[Problem] | None:
    """The table and whose cards are in play, when the request gives them; else the
    problems with them (``table``'s under ``table.``), or ``None`` when it gives neither."""
    if model.table is None and model.player is None:
        return None
    if model.table is None or model.player is None:
        missing = "table" if model.table is None else "player"
        return [
            Problem(missing, _("Give both the table and whose cards are in play, or neither."))
        ]
    assert isinstance(body, Mapping)
    try:
        table = parse(body["table"])
    except InvalidStateError as invalid:
        return [
            Problem(
                f"table.{p.path}" if p.path else "table",
                p.message,
                rule=p.rule,
                reading=p.reading,
            )
            for p in invalid.problems
        ]
    player = Roster.of(table.players).find(model.player)
    if player is None:
        return [
            Problem(
                "player",
                _('"%(name)s" is not one of the table\'s players.', name=model.player.strip()),
            )
        ]
    return table, player


def escape_endpoint(body: object) -> dict[str, Any]:
    """``POST .../escape``: which escapes the cards in play allow (refusing, with a table,
    a card that cannot be in that player's play)."""
    model = validate_model(EscapeModel, body, ESCAPE_SIZE)
    problems = [
        Problem(
            f"in_play[{i}]",
            _('"%(card)s" is not a card any escape needs.', card=card),
            rule=RULE_ESCAPE,
        )
        for i, card in enumerate(model.in_play)
        if card not in set(InPlay)
    ]
    found = _escape_table(body, model)
    if isinstance(found, list):
        problems += found
    elif found is not None:
        cards = [InPlay(c) if c in set(InPlay) else None for c in model.in_play]
        problems += in_play_problems(cards, *found)
    if problems:
        raise InvalidStateError(problems)
    checks = escape_checks(
        {InPlay(c) for c in model.in_play}, pumpkin_ted_triggered=model.pumpkin_ted_triggered
    )
    return {
        "escapes": [c.by.value for c in checks if c.met],
        "conditions": [
            {"by": c.by.value, "met": c.met, "missing": list(c.missing)} for c in checks
        ],
        "reminder": _(ESCAPE_REMINDER),
    }
