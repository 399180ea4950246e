"""The Owl About play-along picture: rounds trick by trick, whose turn, cards used up."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from companion.games.owl_about.cards import (
    DECK,
    LEAD,
    Mode,
    TrickProgress,
    _fastest,
    _rule_break_message,
    card,
    legal_cards,
    rule_breaks,
    same_speed,
    seating_from,
    trick_progress,
)
from companion.games.owl_about.edits import _card_from_text
from companion.games.owl_about.readings import trick_readings
from companion.games.owl_about.scoring import RoundScore, game_end, score_rounds
from companion.games.owl_about.state import GameInput, TrickInput, parse
from companion.games.readings import Reading


@dataclass(frozen=True)
class CardPlay:
    """One card down in a trick: who played it, its FP, and the rules it broke (sentences,
    and in ``rules`` the rules entry of each)."""

    player: str
    code: str
    fp: int
    broken: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """The card as players name it."""
        return card(self.code).label


@dataclass(frozen=True)
class TrickView:
    """A trick as the table sees it while playing along.

    ``winner`` is who takes it (or is winning so far), an override included;
    ``beats`` is who the cards alone would give it to when an override changed that;
    ``readings`` the app's readings its FP and winner rest on.
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
    readings: tuple[Reading, ...] = ()

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
    ``playable`` the cards the next player may play, when their hand is known;
    ``entered`` who entered a hand (what every phone may know).

    Hands are secret at the table: :meth:`seen_by` is what one phone may show.
    """

    number: int
    tricks: tuple[TrickView, ...]
    current: TrickView | None
    left: Mapping[str, int]
    hands: Mapping[str, tuple[str, ...]]
    playable: tuple[str, ...] | None
    complete: bool
    entered: tuple[str, ...] = ()

    def seen_by(self, player: str | None) -> RoundView:
        """The round as the phone of ``player`` may show it (``None``: a phone of nobody's
        in particular): only that player's own hand, and the cards they may play only
        when it is their turn. Whether a card played broke a rule stays: the table sees it.

        >>> g = parse({"players": ["A", "B", "C"], "rounds": [{"open": True,
        ...     "tricks": [{"lead": "A", "cards": []}], "hands": {"A": ["2", "6"]}}]})
        >>> view = round_view(g, 0)
        >>> view.seen_by("A").hands, view.seen_by("A").playable
        ({'A': ('2', '6')}, ('2', '6'))
        >>> view.seen_by("B").hands, view.seen_by("B").playable, view.seen_by(None).entered
        ({}, None, ('A',))
        """
        hands = {player: self.hands[player]} if player is not None and player in self.hands else {}
        current = self.current
        mine = current is not None and player is not None and current.next_player == player
        return replace(self, hands=hands, playable=self.playable if mine else None)

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
    progress = _progress(trick, game=game)
    plays = []
    check = game.mode is not Mode.ADVANCED
    for index, (seat, code) in enumerate(zip(progress.seats, trick.cards, strict=False)):
        before = trick.cards[:index]
        hand = hands.get(seat)
        broken = []
        if hand is not None and check:
            broken = rule_breaks(code, hand=hand, played_before=before, mode=game.mode)
        messages = tuple(
            _rule_break_message(rule, player=seat, code=code, fastest=_fastest(before))
            for rule in broken
        )
        rules = tuple(rule.rule for rule in broken)
        plays.append(CardPlay(seat, code, progress.fp[index], messages, rules))
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
        readings=trick_readings(game.mode, trick.cards, progress.fp),
    )


def _progress(trick: TrickInput, *, game: GameInput) -> TrickProgress:
    """The trick so far. A complete trick that validation judged is not judged again,
    unless an override hides who the cards chose."""
    played = trick.played
    if played is None or trick.winner is not None:
        return trick_progress(
            mode=game.mode, players=game.players, lead=trick.lead, cards=trick.cards
        )
    return TrickProgress(
        played.seats, played.cards, played.fp, played.winner, played.trophies, None
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
        view = _view_trick(trick, number=number, game=game, hands=hands)
        views.append(view)
        for seat, code in zip(view.seats, trick.cards, strict=False):
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
        entered=tuple(name for name in game.players if name in round_.hands),
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

    @property
    def last_taker(self) -> str | None:
        """Who took the last trick of the last round, when it was played trick by trick
        (a round entered as trophies does not tell)."""
        return self.current.last_taker if self.current is not None else None

    def next_lead(self) -> str:
        """Who leads a new round: the taker of the last trick, else the first player."""
        return self.last_taker or self.game.players[LEAD]

    def seen_by(self, player: str | None) -> Board:
        """The board as the phone of ``player`` may show it (see :meth:`RoundView.seen_by`)."""
        current = self.current.seen_by(player) if self.current is not None else None
        return replace(self, current=current)


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


def parse_hand(raw: str, *, where: str) -> list[str]:
    """The cards of a hand typed as codes separated by spaces or commas.

    >>> parse_hand("2, 6 n6  10", where="hand")
    ['2', '6', 'N6', '10']
    """
    codes = raw.replace(",", " ").split()
    return [_card_from_text(where, code) for code in codes]
