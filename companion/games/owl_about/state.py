"""Owl About states: validation of a request (shapes in ``requests.py``) into a parsed game.

Validation collects every problem at once. A round without problems (the usual case) is
checked, built and its tricks judged in one pass, and remembered: a game's requests send
its finished rounds again and again (see :func:`_clean_round`).
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.games.limits import (
    validate_model,
)
from companion.games.names import Roster as BaseRoster
from companion.games.names import name_problems, player_count_problems
from companion.games.owl_about.cards import (
    ADVANCED_RULE,
    COMPONENTS_RULE,
    DECK,
    MAX_PLAYERS,
    MAX_TARGET,
    MIN_PLAYERS,
    MIN_TARGET,
    NIGHT_SPEEDS,
    PENALTY_RULE,
    PLAYER_CHART,
    PLAYERS_RULE,
    TRICK_WINNER_RULE,
    TROPHY_TOTALS_RULE,
    ChartRow,
    Mode,
    PlayedTrick,
    Variant,
    card,
    default_target,
    judge_trick,
    seating_from,
    trick_progress,
)
from companion.games.owl_about.requests import STATE_SIZE, RoundModel, StateModel, TrickModel
from companion.games.problems import InvalidStateError, Problem, path_of
from companion.games.text import _, ngettext


@dataclass(frozen=True)
class Roster(BaseRoster):
    """The players of a request (see :class:`~companion.games.names.Roster`) and their chart.

    ``exact`` maps each name exactly as seated to the player it finds: a request names
    players hundreds of times, nearly always as seated, and those need no casefolding.
    """

    exact: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, raw: Sequence[str]) -> Roster:
        """The roster of names as entered."""
        names = tuple(name.strip() for name in raw)
        seated = BaseRoster(names)
        exact = {name: found for name in names if (found := seated.find(name)) is not None}
        return cls(names, exact)

    def find(self, name: str) -> str | None:
        """The player a name refers to, or ``None`` (as :meth:`BaseRoster.find`).

        >>> roster = Roster.of(["Ann", "Ben"])
        >>> roster.find("Ann"), roster.find(" ben "), roster.find("Cy")
        ('Ann', 'Ben', None)
        """
        found = self.exact.get(name)
        return found if found is not None else super().find(name)

    @property
    def chart(self) -> ChartRow | None:
        """The chart line for this many players (``None`` for an impossible count)."""
        return PLAYER_CHART.get(len(self.names))


def _unknown_player(name: str) -> str:
    return _('No player at this table is called "%(name)s".', name=name)


def _entered_twice(player: str) -> str:
    # Names match regardless of case, so "Tom" and "tom" are the same key.
    return _("This names %(player)s a second time; enter each player once.", player=player)


def _unknown_card(code: str) -> str:
    # TRANSLATORS: the card codes (1 to 10, N4 to N7) are typed as they are.
    return _(
        'There is no card "%(code)s"; enter 1 to 10, or N4 to N7 for a night card.', code=code
    )


#: Where cards were counted too often, for the sentence that says so.
CountedIn = Literal["trick", "hands and trick", "round", "hands"]


def _too_many_copies(code: str, *, count: int, where: CountedIn) -> str:
    """The sentence refusing more copies of a card than the deck holds: ``copies`` in the
    deck (singular or plural), ``count`` of them counted ``where``."""
    copies, label = DECK[code], card(code).label
    if where == "trick":
        return ngettext(
            'Only %(num)s "%(card)s" card exists, but %(count)s are in this trick.',
            'Only %(num)s "%(card)s" cards exist, but %(count)s are in this trick.',
            copies,
            card=label,
            count=count,
        )
    if where == "hands and trick":
        return ngettext(
            'Only %(num)s "%(card)s" card exists, but %(count)s were entered in the hands and'
            " the trick.",
            'Only %(num)s "%(card)s" cards exist, but %(count)s were entered in the hands and'
            " the trick.",
            copies,
            card=label,
            count=count,
        )
    if where == "round":
        return ngettext(
            'Only %(num)s "%(card)s" card exists, but %(count)s were played in this round.',
            'Only %(num)s "%(card)s" cards exist, but %(count)s were played in this round.',
            copies,
            card=label,
            count=count,
        )
    return ngettext(
        'Only %(num)s "%(card)s" card exists, but %(count)s were entered in the hands.',
        'Only %(num)s "%(card)s" cards exist, but %(count)s were entered in the hands.',
        copies,
        card=label,
        count=count,
    )


def _roster_problems(players: Sequence[str], *, path: str = "players") -> list[Problem]:
    problems = player_count_problems(len(players), minimum=MIN_PLAYERS, maximum=MAX_PLAYERS)
    return problems + name_problems(players, path=lambda i: f"{path}[{i}]")


def _mode_problem(mode: str) -> list[Problem]:
    if mode in set(Mode):
        return []
    modes = ", ".join(m.value for m in Mode)
    # TRANSLATORS: "modes" lists the modes' names as a request types them (basic, quick...).
    return [
        Problem(
            "mode", _('The mode must be one of %(modes)s, not "%(mode)s".', modes=modes, mode=mode)
        )
    ]


def _options_problems(model: StateModel) -> list[Problem]:
    problems = _mode_problem(model.mode)
    names = ", ".join(v.value for v in Variant)
    for index, variant in enumerate(model.variants):
        if variant not in set(Variant):
            problems.append(
                Problem(
                    f"variants[{index}]",
                    # TRANSLATORS: "names" lists the variants as a request types them.
                    _(
                        'There is no variant "%(variant)s"; use %(names)s.',
                        variant=variant,
                        names=names,
                    ),
                )
            )
    if model.variants and model.mode != Mode.ADVANCED:
        problems.append(
            Problem(
                "variants", _("Variants are only played in advanced mode."), rule=ADVANCED_RULE
            )
        )
    if model.target is not None and not MIN_TARGET <= model.target <= MAX_TARGET:
        problems.append(
            Problem(
                "target",
                _(
                    "The target must be from %(minimum)s to %(maximum)s VP.",
                    minimum=MIN_TARGET,
                    maximum=MAX_TARGET,
                ),
            )
        )
    return problems


def _cards_problems(cards: Sequence[str], location: Sequence[str | int]) -> list[Problem]:
    return [
        Problem(path_of([*location, index]), _unknown_card(code))
        for index, code in enumerate(cards)
        if code not in DECK
    ]


def _copies_problems(
    places: Iterable[tuple[tuple[str | int, ...], str]], where: CountedIn
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
        Problem(
            path_of(location),
            _too_many_copies(code, count=seen[code], where=where),
            rule=COMPONENTS_RULE,
        )
        for code, location in first_extra.items()
    ]


@dataclass(frozen=True)
class TrickInput:
    """A trick after validation: names are the players' names as shown.

    ``played`` is the complete trick as validation judged it (:func:`parse` judges each
    trick once; scoring and the play-along reuse it); ``None`` for a trick still being
    played or one built by hand, which scoring then judges itself. It is left out of
    comparisons: it follows from the other fields.
    """

    lead: str
    cards: tuple[str, ...]
    winner: str | None
    played: PlayedTrick | None = field(default=None, compare=False, repr=False)


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
    """What every round of a request is checked against.

    ``known_mode`` is the mode when it is one (else validation reports it);
    ``seatings`` each player -> the seats of a trick they lead, in play order.
    """

    roster: Roster
    mode: str
    known_mode: Mode | None = None
    seatings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def of(cls, roster: Roster, mode: str) -> _Context:
        """The context of a request, its seatings found once."""
        names = roster.names
        seatings = {name: seating_from(names, name) for name in names}
        return cls(roster, mode, Mode(mode) if mode in _MODES else None, seatings)


_MODES = frozenset(Mode)


_CODES = frozenset(DECK)


def _player_map_problems(
    values: Mapping[str, int], location: Sequence[str | int], *, roster: Roster, negative: str
) -> list[Problem]:
    """Per-player values: known players, each once, none below 0 (``negative`` says so,
    in the reader's language)."""
    problems = []
    seen: set[str] = set()
    for name, value in values.items():
        player = roster.find(name)
        if player is None:
            problems.append(Problem(path_of([*location, name]), _unknown_player(name)))
        elif player in seen:
            problems.append(Problem(path_of([*location, name]), _entered_twice(player)))
        elif value < 0:
            problems.append(Problem(path_of([*location, name]), negative))
        seen.add(player or name)
    return problems


def _trophies_problems(
    trophies: Mapping[str, int], *, location: Sequence[str | int], roster: Roster
) -> list[Problem]:
    problems = _player_map_problems(
        trophies, location, roster=roster, negative=_("Trophies cannot be negative.")
    )
    chart = roster.chart
    if chart is None:
        return problems
    limit = chart.max_trophies
    for name, value in trophies.items():
        if value > limit and roster.find(name) is not None:
            problems.append(
                Problem(
                    path_of([*location, name]),
                    _(
                        "A player can win at most %(most)s trophies in a round with %(players)s"
                        " players (%(tricks)s tricks, plus 2 for each of the %(nights)s night"
                        " cards).",
                        most=limit,
                        players=chart.players,
                        tricks=chart.tricks,
                        nights=len(NIGHT_SPEEDS),
                    ),
                    rule=TROPHY_TOTALS_RULE,
                )
            )
    return problems


def _penalties_problems(
    penalties: Mapping[str, int], *, location: Sequence[str | int], roster: Roster
) -> list[Problem]:
    """Penalties are whole numbers from 0 to the cards a player plays in a round (one
    wrong card each at most)."""
    problems = _player_map_problems(
        penalties, location, roster=roster, negative=_("A penalty cannot be negative.")
    )
    chart = roster.chart
    if chart is None:
        return problems
    for name, value in penalties.items():
        if value > chart.hand_cards and roster.find(name) is not None:
            problems.append(
                Problem(
                    path_of([*location, name]),
                    _(
                        "A penalty is at most %(most)s VP in a round with %(players)s players"
                        " (1 VP per wrong card, and each player plays %(most)s cards), but"
                        " %(value)s was entered.",
                        most=chart.hand_cards,
                        players=chart.players,
                        value=value,
                    ),
                    rule=PENALTY_RULE,
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
                ngettext(
                    "Each of the %(players)s players plays one card in a trick, but %(num)s card"
                    " was entered.",
                    "Each of the %(players)s players plays one card in a trick, but %(num)s cards"
                    " were entered.",
                    len(trick.cards),
                    players=count,
                ),
            )
        )
    problems += _cards_problems(trick.cards, [*location, "cards"])
    if context.roster.find(trick.lead) is None:
        problems.append(Problem(path_of([*location, "lead"]), _unknown_player(trick.lead)))
    if trick.winner is not None:
        where = path_of([*location, "winner"])
        if len(trick.cards) != count:
            problems.append(Problem(where, _("A trick still being played has no taker yet.")))
        elif context.mode != Mode.ADVANCED:
            problems.append(
                Problem(
                    where,
                    _(
                        "Only special effects can change who takes a trick, and they are played"
                        " in advanced mode only."
                    ),
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
                _(
                    "A round with %(players)s players has %(tricks)s tricks, but %(count)s were"
                    " entered.",
                    players=chart.players,
                    tricks=chart.tricks,
                    count=len(tricks),
                ),
                rule=PLAYERS_RULE,
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
                    _(
                        "The previous trick went to %(taker)s, so %(taker)s leads this one, not"
                        " %(lead)s.",
                        taker=previous_taker,
                        lead=lead,
                    ),
                    rule=TRICK_WINNER_RULE,
                )
            )
        previous_taker = _taker(trick, context)
    places = (
        ((*location, "tricks", t, "cards", c), code)
        for t, trick in enumerate(tricks)
        for c, code in enumerate(trick.cards)
    )
    return problems + _copies_problems(places, "round")


def _round_problems(
    round_: RoundModel, *, index: int, context: _Context, last: bool
) -> list[Problem]:
    location: list[str | int] = ["rounds", index]
    problems = []
    if round_.open and round_.tricks is None:
        problems.append(
            Problem(
                path_of([*location, "open"]),
                _("Only a round entered trick by trick can be played along."),
            )
        )
    if round_.tricks is not None and round_.trophies is not None:
        problems.append(
            Problem(
                path_of(location),
                _("Enter this round either trick by trick or as trophy counts, not both."),
            )
        )
    elif round_.tricks is None and round_.trophies is None:
        problems.append(
            Problem(path_of(location), _("Enter this round's tricks or its trophy counts."))
        )
    if round_.tricks is not None:
        problems += _tricks_problems(
            round_.tricks, location=location, context=context, open_round=round_.open and last
        )
    if round_.trophies is not None:
        problems += _trophies_problems(
            round_.trophies, location=[*location, "trophies"], roster=context.roster
        )
    problems += _penalties_problems(
        round_.penalties, location=[*location, "penalties"], roster=context.roster
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
                _(
                    "With %(players)s players a hand holds at most %(most)s cards, but"
                    " %(count)s were entered.",
                    players=chart.players,
                    most=chart.hand_cards,
                    count=len(hand),
                ),
                rule=PLAYERS_RULE,
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
    problems += _copies_problems(places, "hands")
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
                    _(
                        "%(player)s's entered hand has no %(card)s left to play. Check the"
                        " card, or correct the hand.",
                        player=seat,
                        card=card(code).label,
                    ),
                )
            )
    return problems


def _too_many_copies_of_any(codes: Sequence[str]) -> bool:
    """Whether known card codes hold a card more often than the deck has it."""
    return any(count > DECK[code] for code, count in Counter(codes).items())


def _clean_tricks(
    tricks: Sequence[TrickModel], *, context: _Context, open_round: bool
) -> tuple[TrickInput, ...] | None:
    """The tricks of a round with no problem, each complete one judged; ``None`` when
    :func:`_tricks_problems` or :func:`_trick_problems` may find one."""
    roster = context.roster
    chart = roster.chart
    mode = context.known_mode
    if chart is None or mode is None or len(tricks) > chart.tricks:
        return None
    find, seatings, count = roster.find, context.seatings, len(roster.names)
    built = []
    played_cards: list[str] = []
    taker: str | None = None  # of the trick before
    for trick in tricks:
        cards = tuple(trick.cards)
        played_cards += cards
        lead = find(trick.lead)
        # The first trick may be led by anyone; later ones by the last taker.
        if lead is None or (taker is not None and lead != taker) or not _CODES.issuperset(cards):
            return None
        if len(cards) != count:
            # Only the last trick of an open round may be short, and it has no taker yet.
            if not (open_round and trick is tricks[-1] and len(cards) < count):
                return None
            if trick.winner is not None:
                return None
            built.append(TrickInput(lead, cards, None))
            continue
        override = None
        if trick.winner is not None:
            override = find(trick.winner) if mode is Mode.ADVANCED else None
            if override is None:
                return None
        played = judge_trick(mode, seats=seatings[lead], cards=cards, taker=override)
        taker = played.winner
        built.append(TrickInput(lead, cards, override, played))
    if _too_many_copies_of_any(played_cards):
        return None
    return tuple(built)


def _clean_hands(round_: RoundModel, *, context: _Context) -> dict[str, tuple[str, ...]] | None:
    """The round's hands by player (names as shown) when :func:`_round_hands_problems`
    finds nothing in them; ``None`` when it may find something."""
    roster = context.roster
    chart = roster.chart
    hands = round_.hands or {}
    found: dict[str, tuple[str, ...]] = {}
    for name, hand in hands.items():
        player = roster.find(name)
        if player is None or player in found:
            return None
        if not _CODES.issuperset(hand) or (chart is not None and len(hand) > chart.hand_cards):
            return None
        found[player] = tuple(hand)
    if _too_many_copies_of_any([code for hand in hands.values() for code in hand]):
        return None
    if context.mode == Mode.ADVANCED or not round_.tricks:
        return found
    return None if _played_from_hands_problems(round_, location=(), roster=roster) else found


#: A round as :func:`_clean_round` reads it: the names as seated, the mode, whether its
#: last trick may be short, and what was entered (tricks, trophies, penalties, hands).
RoundKey = tuple[
    tuple[str, ...],
    str,
    bool,
    bool,
    tuple[tuple[str, tuple[str, ...], str | None], ...] | None,
    tuple[tuple[str, int], ...] | None,
    tuple[tuple[str, int], ...],
    tuple[tuple[str, tuple[str, ...]], ...] | None,
]


#: How many checked rounds one process remembers. An entry (key and round, tricks and
#: hands included) takes about 6 KB, so the whole stays under about 7 MB.
CHECKED_ROUNDS_SIZE = 1024


#: Rounds found without problems, built and their tricks judged, by :data:`RoundKey`,
#: least recently used first. Every request of a game sends its finished rounds again (a
#: tap of a play-along game scores the whole game, often more than once), and the same
#: round always checks and judges the same, so a remembered round is not checked again.
#: A :class:`RoundInput` is never changed once built, so requests share it safely.
CHECKED_ROUNDS: OrderedDict[RoundKey, RoundInput] = OrderedDict()


def forget_checked_rounds() -> None:
    """Forget every remembered round (each is then checked and judged again)."""
    CHECKED_ROUNDS.clear()


def _remembered(key: RoundKey) -> RoundInput | None:
    """The round remembered under ``key`` (now the most recently used), or ``None``."""
    # Taken out and put back at the end: two atomic steps, so that threads may share
    # the memory (another thread missing the round meanwhile only checks it again).
    found = CHECKED_ROUNDS.pop(key, None)
    if found is not None:
        CHECKED_ROUNDS[key] = found
    return found


def _remember(key: RoundKey, round_: RoundInput) -> None:
    """Remember a checked round, dropping the least recently used beyond the size."""
    CHECKED_ROUNDS[key] = round_
    while len(CHECKED_ROUNDS) > CHECKED_ROUNDS_SIZE:
        try:
            CHECKED_ROUNDS.popitem(last=False)
        except KeyError:  # emptied by another thread meanwhile
            break


def _round_key(round_: RoundModel, *, context: _Context, last: bool) -> RoundKey:
    """Everything :func:`_checked_round` reads of a round and its request."""
    tricks, trophies, hands = round_.tricks, round_.trophies, round_.hands
    return (
        context.roster.names,
        context.mode,
        round_.open,
        last,
        None if tricks is None else tuple((t.lead, tuple(t.cards), t.winner) for t in tricks),
        None if trophies is None else tuple(trophies.items()),
        tuple(round_.penalties.items()),
        None if hands is None else tuple((name, tuple(hand)) for name, hand in hands.items()),
    )


def _clean_round(round_: RoundModel, *, context: _Context, last: bool) -> RoundInput | None:
    """The round built, its complete tricks judged, when :func:`_round_problems` would
    find no problem in it; ``None`` when it may find one. Remembered in
    :data:`CHECKED_ROUNDS`."""
    key = _round_key(round_, context=context, last=last)
    done = _remembered(key)
    if done is None:
        done = _checked_round(round_, context=context, last=last)
        if done is not None:
            _remember(key, done)
    return done


def _checked_round(round_: RoundModel, *, context: _Context, last: bool) -> RoundInput | None:
    """What :func:`_clean_round` remembers, worked out."""
    roster = context.roster
    if (round_.tricks is None) == (round_.trophies is None):
        return None
    tricks = None
    if round_.tricks is not None:
        tricks = _clean_tricks(round_.tricks, context=context, open_round=round_.open and last)
        if tricks is None:
            return None
    elif round_.open:
        return None
    trophies = round_.trophies
    if trophies is not None and _trophies_problems(trophies, location=(), roster=roster):
        return None
    if _penalties_problems(round_.penalties, location=(), roster=roster):
        return None
    hands = None
    if round_.hands is not None:
        hands = _clean_hands(round_, context=context)
        if hands is None:
            return None
    return _round_input(round_, roster=roster, tricks=tricks, hands=hands)


def _by_player(values: Mapping[str, int], roster: Roster) -> dict[str, int]:
    """Per-player values under the names as shown; a missing player has 0."""
    # Keys may differ in case from the names.
    totals = dict.fromkeys(roster.names, 0)
    for name, value in values.items():
        totals[roster.find(name) or name] = value
    return totals


def _round_input(
    round_: RoundModel,
    *,
    roster: Roster,
    tricks: tuple[TrickInput, ...] | None,
    hands: Mapping[str, tuple[str, ...]] | None = None,
) -> RoundInput:
    """A validated round, with its tricks (and its hands, by player) already built."""
    if hands is None:
        hands = {
            roster.find(name) or name: tuple(hand) for name, hand in (round_.hands or {}).items()
        }
    return RoundInput(
        tricks,
        None if round_.trophies is None else _by_player(round_.trophies, roster),
        _by_player(round_.penalties, roster),
        round_.open,
        hands,
    )


def _trick_input(entered: TrickModel, roster: Roster) -> TrickInput:
    """A validated trick, left for scoring to judge."""
    winner = roster.find(entered.winner) if entered.winner is not None else None
    return TrickInput(roster.find(entered.lead) or entered.lead, tuple(entered.cards), winner)


def _game_input(model: StateModel, built: Sequence[RoundInput | None]) -> GameInput:
    """Build the validated game (only called once every problem check passed), from the
    rounds :func:`_clean_round` built, and the others."""
    roster = Roster.of(model.players)
    rounds = tuple(
        done
        if done is not None
        else _round_input(
            r,
            roster=roster,
            tricks=None if r.tricks is None else tuple(_trick_input(t, roster) for t in r.tricks),
        )
        for r, done in zip(model.rounds, built, strict=True)
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

    Each complete trick is judged once here (:attr:`TrickInput.played`). Game end
    (rounds played after the game ended) needs the scores; :func:`score_game` checks it.
    """
    model = validate_model(StateModel, state, STATE_SIZE)
    roster = Roster.of(model.players)
    context = _Context.of(roster, model.mode)
    problems = _roster_problems(model.players) + _options_problems(model)
    built = []
    for index, round_ in enumerate(model.rounds):
        last = index == len(model.rounds) - 1
        clean = _clean_round(round_, context=context, last=last)
        if clean is None:
            problems += _round_problems(round_, index=index, context=context, last=last)
        built.append(clean)
    if problems:
        raise InvalidStateError(problems)
    return _game_input(model, built)


def open_round(*, lead: str) -> dict[str, Any]:
    """A round to play along, with its first trick led by ``lead`` and no card yet.

    >>> open_round(lead="B")["tricks"]
    [{'lead': 'B', 'cards': []}]
    """
    return {
        "tricks": [{"lead": lead, "cards": []}],
        "trophies": None,
        "penalties": {},
        "open": True,
        "hands": {},
    }
