"""Owl About scoring: tricks played, trophy VP, the variants, game end and the ranking."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.owl_about.cards import (
    GAME_END_RULE,
    NIGHT_COLLECTION_4_RULE,
    NIGHT_COLLECTION_RESET,
    NIGHT_COLLECTION_VOID,
    NIGHT_SPEEDS,
    ROUND_VP_RULE,
    SAME_SPEED_VP,
    SLUG,
    ChartRow,
    Mode,
    NightCollection,
    PlayedTrick,
    Variant,
    _fastest,
    _rule_break_message,
    card,
    rule_breaks,
    rules_of,
    same_speed,
    trick_progress,
)
from companion.games.owl_about.readings import (
    FEWEST_VP_READING,
    round_readings,
    trick_readings,
)
from companion.games.owl_about.state import GameInput, RoundInput, TrickInput
from companion.games.problems import InvalidStateError, Problem
from companion.games.ranking import BreakdownLine, Entry, Result, ScoreOrder, rank
from companion.games.readings import Reading, unique_readings
from companion.games.text import N_, _, spoken_list


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
    #: The app's readings the round's night collections rest on (trick readings aside).
    readings: tuple[Reading, ...] = ()

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


def _night_collection(nights: int, rules: frozenset[Variant]) -> NightCollection | None:
    """What the night collections played do to a player who collected ``nights``.

    Collecting all 4 also means collecting 3: with Night Collection 3 alone, 4 night
    cards void the round too.
    """
    if nights >= NIGHT_COLLECTION_RESET and Variant.NIGHT_COLLECTION_4 in rules:
        return NightCollection.TOTAL_RESET
    if nights >= NIGHT_COLLECTION_VOID and Variant.NIGHT_COLLECTION_3 in rules:
        return NightCollection.ROUND_VOIDED
    return None


@dataclass(frozen=True)
class _Taken:
    """What each player took in a round, before any VP."""

    tricks: tuple[PlayedTrick, ...]
    trophies: dict[str, int]
    night_cards: dict[str, int] | None
    same_speed: dict[str, int]


def _taken(game: GameInput, round_: RoundInput, rules: frozenset[Variant]) -> _Taken:
    zero = dict.fromkeys(game.players, 0)
    if round_.tricks is None:
        assert round_.trophies is not None  # validation allows exactly one of the two
        return _Taken((), {**zero, **round_.trophies}, None, zero)
    count = len(game.players)
    # Validation judged each complete trick of a parsed game already (``played``); a
    # trick built by hand is judged here.
    played = tuple(
        t.played or play_trick(t, mode=game.mode, players=game.players)
        for t in round_.tricks
        if len(t.cards) == count
    )
    trophies, nights, bonus = dict(zero), dict(zero), dict(zero)
    same_speed_counts = Variant.SAME_SPEED in rules
    for trick in played:
        winner = trick.winner
        trophies[winner] += trick.trophies
        nights[winner] += trick.night_cards
        if same_speed_counts and trick.same_speed:
            bonus[winner] += SAME_SPEED_VP
    return _Taken(played, trophies, nights, bonus)


def score_round(
    game: GameInput,
    round_: RoundInput,
    *,
    number: int,
    totals_before: Mapping[str, int],
    rules: frozenset[Variant] | None = None,
) -> RoundScore:
    """Score one round on top of the totals before it (order of steps: module docstring).

    ``rules`` are the game's (:func:`rules_of` its variants), when the caller has them.

    >>> from companion.games.owl_about.state import parse
    >>> game = parse({"players": ["A", "B", "C"], "rounds": []})
    >>> r = RoundInput(None, {"A": 5, "B": 2, "C": 2}, {"C": 1})
    >>> s = score_round(game, r, number=1, totals_before={"A": 0, "B": 3, "C": 0})
    >>> s.vp, s.totals
    ({'A': 5, 'B': 3, 'C': 4}, {'A': 5, 'B': 6, 'C': 4})
    """
    if rules is None:
        rules = rules_of(game.variants)
    taken = _taken(game, round_, rules)
    base = trophy_vp(taken.trophies)
    collection: dict[str, NightCollection] = {}
    if taken.night_cards is not None and not rules.isdisjoint(_NIGHT_COLLECTIONS):
        for name, nights in taken.night_cards.items():
            # Fewer night cards than either collection needs change nothing.
            if nights >= _FEWEST_COLLECTED:
                effect = _night_collection(nights, rules)
                if effect is not None:
                    collection[name] = effect
    entered = round_.penalties
    penalties = {name: entered.get(name, 0) for name in game.players}
    bonus = taken.same_speed
    vp = {
        name: (0 if name in collection else base[name]) + bonus[name] + penalties[name]
        for name in game.players
    }
    totals = {name: totals_before[name] + vp[name] for name in game.players}
    for name, effect in collection.items():
        if effect is NightCollection.TOTAL_RESET:
            totals[name] = 0
    complete = round_.tricks is None or len(taken.tricks) == game.chart.tricks
    readings: tuple[Reading, ...] = ()
    if collection:
        gained = {name: bonus[name] + penalties[name] for name in collection}
        readings = round_readings(
            collection, night_cards=taken.night_cards, rules=rules, gained=gained
        )
    # Positional: a frozen dataclass is built noticeably faster so, once per round.
    return RoundScore(
        number,
        taken.tricks,
        taken.trophies,
        taken.night_cards,
        bonus,
        penalties,
        collection,
        vp,
        totals,
        complete,
        readings,
    )


#: The variants that look at the night cards each player collected, and the fewest
#: night cards that either does something with.
_NIGHT_COLLECTIONS = frozenset({Variant.NIGHT_COLLECTION_3, Variant.NIGHT_COLLECTION_4})
_FEWEST_COLLECTED = min(NIGHT_COLLECTION_VOID, NIGHT_COLLECTION_RESET)


def score_rounds(game: GameInput) -> list[RoundScore]:
    """Score every round in order, each on top of the totals of the ones before."""
    totals: Mapping[str, int] = dict.fromkeys(game.players, 0)
    rules = rules_of(game.variants)
    scored = []
    for number, round_ in enumerate(game.rounds, 1):
        result = score_round(game, round_, number=number, totals_before=totals, rules=rules)
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
    who = reached[0] if reached else ""
    for name in reached[1:]:
        # Each name joined by "and", as this sentence always said them ("A and B and C").
        who = _("%(items)s and %(last)s", items=who, last=name)
    return [
        Problem(
            f"rounds[{scored.number - 1}]",
            _(
                "The game ended after round %(round)s, when %(names)s reached the target of"
                " %(target)s VP, so no further round is played.",
                round=end,
                names=who,
                target=target,
            ),
            rule=GAME_END_RULE,
        )
        for scored in rounds[end:]
    ]


def _breakdowns(
    players: Sequence[str], rounds: Sequence[RoundScore]
) -> dict[str, tuple[BreakdownLine, ...]]:
    """Each player's breakdown: a line per round, and a line for a night-collection reset."""
    lines: dict[str, list[BreakdownLine]] = {name: [] for name in players}
    before = dict.fromkeys(players, 0)
    for scored in rounds:
        label = _("Round %(round)s", round=scored.number)
        for name in players:
            vp = scored.vp[name]
            lines[name].append(BreakdownLine(label, vp, ROUND_VP_RULE))
            if scored.night_collection.get(name) is NightCollection.TOTAL_RESET:
                lines[name].append(
                    BreakdownLine(
                        # TRANSLATORS: a breakdown line: Night Collection 4 set the player's
                        # total back to 0 after this round.
                        _("Round %(round)s: night collection reset", round=scored.number),
                        -(before[name] + vp),
                        NIGHT_COLLECTION_4_RULE,
                    )
                )
            before[name] = scored.totals[name]
    return {name: tuple(found) for name, found in lines.items()}


def _round_warnings(game: GameInput, rounds: Sequence[RoundScore]) -> list[str]:
    warnings = []
    for entered, scored in zip(game.rounds, rounds, strict=True):
        n = scored.number
        if not scored.complete:
            played = len(scored.tricks)
            warnings.append(
                _(
                    "Round %(round)s has %(played)s of %(tricks)s tricks so far; it is scored as"
                    " it stands.",
                    round=n,
                    played=played,
                    tricks=game.chart.tricks,
                )
            )
        if entered.trophies is not None:
            if game.variants:
                warnings.append(
                    _(
                        "Round %(round)s was entered as trophy counts, so the variants could not"
                        " be applied to it.",
                        round=n,
                    )
                )
            warnings += _trophy_total_warnings(n, trophies=entered.trophies, chart=game.chart)
        if entered.tricks is not None and game.mode is not Mode.ADVANCED:
            warnings += _round_rule_breaks(n, scored.tricks, mode=game.mode, hands=entered.hands)
    return warnings


def _trophy_total_warnings(
    number: int, *, trophies: Mapping[str, int], chart: ChartRow
) -> list[str]:
    """A round hands out one trophy per trick and two per night card dealt."""
    problem = _trophy_total_words(trophies, chart=chart, round_number=number)
    return [] if problem is None else [problem]


#: Why a round's trophies cannot add up to what was entered: with 6 players (``exact``,
#: every card dealt) or fewer (``choices``), on its own or in a round's warning
#: (``round``: its number).
_TROPHY_TOTALS = {
    ("exact", False): N_(
        "The trophies add up to %(total)s, but with %(players)s players every card is dealt,"
        " so a round's trophies add up to exactly %(possible)s: %(tricks)s tricks, plus 2 for"
        " each of the %(nights)s night cards."
    ),
    ("exact", True): N_(
        "Round %(round)s: the trophies add up to %(total)s, but with %(players)s players"
        " every card is dealt, so a round's trophies add up to exactly %(possible)s:"
        " %(tricks)s tricks, plus 2 for each of the %(nights)s night cards."
    ),
    # TRANSLATORS: "possible" lists the totals a round can hand out ("8, 10 or 12").
    ("choices", False): N_(
        "The trophies add up to %(total)s, but a round with %(players)s players hands out 1"
        " per trick (%(tricks)s) plus 2 per night card dealt, so %(possible)s."
    ),
    ("choices", True): N_(
        "Round %(round)s: the trophies add up to %(total)s, but a round with %(players)s"
        " players hands out 1 per trick (%(tricks)s) plus 2 per night card dealt, so"
        " %(possible)s."
    ),
}


def trophy_total_problem(trophies: Mapping[str, int], *, chart: ChartRow) -> str | None:
    """Why a whole round's trophies cannot add up to this, or ``None`` when they can.

    Every trick gives 1 trophy and every night card dealt 2 more: with 6 players every
    card is dealt, so a round's trophies add up to exactly the tricks + 8; with fewer,
    night cards may lie among the cards put aside.

    >>> from companion.games.owl_about.cards import PLAYER_CHART
    >>> trophy_total_problem({"A": 4, "B": 3, "C": 0, "D": 3}, chart=PLAYER_CHART[4]) is None
    True
    >>> six = {"A": 6, "B": 6, "C": 0, "D": 0, "E": 0, "F": 0}
    >>> trophy_total_problem(six, chart=PLAYER_CHART[6])[:60]
    'The trophies add up to 12, but with 6 players every card is '
    """
    return _trophy_total_words(trophies, chart=chart)


def _trophy_total_words(
    trophies: Mapping[str, int], *, chart: ChartRow, round_number: int | None = None
) -> str | None:
    """What :func:`trophy_total_problem` says, or (with ``round_number``) a round's
    warning saying it: each a whole sentence in the reader's language."""
    total = sum(trophies.values())
    possible = chart.trophy_totals
    if total in possible:
        return None
    kind = "exact" if len(possible) == 1 else "choices"
    return _(
        _TROPHY_TOTALS[kind, round_number is not None],
        round=round_number,
        total=total,
        players=chart.players,
        possible=spoken_list([str(n) for n in possible], joined_by="or"),
        tricks=chart.tricks,
        nights=len(NIGHT_SPEEDS),
    )


#: Marked for translation: said with ``_(WRONG_CARD_REMINDER)``.
WRONG_CARD_REMINDER = N_("A wrong card costs its player 1 VP as a penalty.")


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
                warnings.append(
                    # TRANSLATORS: "problem" is the rule a card broke, "reminder" what a wrong
                    # card costs (two sentences).
                    _(
                        "Round %(round)s, trick %(trick)s: %(problem)s %(reminder)s",
                        round=number,
                        trick=index,
                        problem=message,
                        reminder=_(WRONG_CARD_REMINDER),
                    )
                )
        for seat, code in zip(trick.seats, trick.cards, strict=True):
            still_to_play[seat].remove(code)
    return warnings


def score_game(game: GameInput) -> Result:
    """Score a validated game; rounds after the end of the game are a problem.

    >>> from companion.games.owl_about.state import parse
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
    breakdowns = _breakdowns(game.players, rounds)
    entries = [
        Entry(player=name, score=totals[name], breakdown=breakdowns[name]) for name in game.players
    ]
    ranking = rank(entries, order=ScoreOrder.LOWEST_FIRST)
    warnings = _round_warnings(game, rounds)
    if end is None:
        warnings.append(
            _(
                "Nobody has reached the target of %(target)s VP at the end of a round yet, so"
                " the game goes on.",
                target=game.target,
            )
        )
    return Result(
        SLUG,
        ranking.standings,
        ranking.decided_by,
        finished=end is not None,
        warnings=tuple(warnings),
        extra={
            "rounds": [r.to_json() for r in rounds],
            "target": game.target,
        },
        readings=unique_readings(
            [
                FEWEST_VP_READING,
                *(
                    reading
                    for scored in rounds
                    for trick in scored.tricks
                    for reading in trick_readings(game.mode, trick.cards, trick.fp)
                ),
                *(reading for scored in rounds for reading in scored.readings),
            ]
        ),
    )
