"""Legal Owl About games, played out round by round as a table would play them.

Each round deals the 36 cards as the player chart says (the rest put aside), everyone
passes 2 cards to the player on their right, and the tricks are played: in basic and
advanced mode every card obeys the follow and night rules, in quick mode any card goes.
The taker of a trick leads the next one; in advanced mode a special effect now and then
hands a trick to someone else (the ``winner`` override). Rounds go on until one ends with
someone at the target. A round may be given as its trophy counts instead of its tricks,
carry the hands after passing, and penalties; the game may stop in the middle of its last
round (an ``open`` round), as a table playing along sends it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from companion.games import owl_about as oa

NAMES = ("Miu", "Carol", "Romi", "Tom", "Ann", "Ben")
PASSED = 2
#: Rounds played at most: a game that reaches no target by then is sent as it stands.
MOST_ROUNDS = 12


@dataclass(frozen=True)
class Table:
    """How a simulated game is played: seats, mode, variants, target and the choices."""

    players: tuple[str, ...]
    mode: oa.Mode
    variants: tuple[str, ...]
    target: int


def _deal(rng: random.Random, players: int) -> list[list[str]]:
    """Each player's hand after the deal and the pass to the right."""
    deck = [code for code, copies in oa.DECK.items() for _ in range(copies)]
    rng.shuffle(deck)
    size = oa.PLAYER_CHART[players].hand_cards
    hands = [deck[seat * size : (seat + 1) * size] for seat in range(players)]
    passed = [rng.sample(hand, PASSED) for hand in hands]
    for seat, cards in enumerate(passed):
        for code in cards:
            hands[seat].remove(code)
        # To the right: the previous seat, counting clockwise.
        hands[(seat - 1) % players].extend(cards)
    return hands


def _play_round(
    rng: random.Random, table: Table, lead: str, *, stop: int | None
) -> dict[str, Any]:
    """One round from its first lead; ``stop``: end it after that many cards (open)."""
    names = list(table.players)
    hands = dict(zip(names, _deal(rng, len(names)), strict=True))
    after_passing = {name: list(hand) for name, hand in hands.items()}
    tricks: list[dict[str, Any]] = []
    played = 0
    for _ in range(oa.PLAYER_CHART[len(names)].tricks):
        trick: dict[str, Any] = {"lead": lead, "cards": []}
        tricks.append(trick)
        for seat in oa.seating_from(names, lead):
            if stop is not None and played == stop:
                return _round(table, tricks, after_passing, rng, open_=True)
            choices = oa.legal_cards(hands[seat], trick["cards"], mode=table.mode)
            code = rng.choice(choices)
            hands[seat].remove(code)
            trick["cards"].append(code)
            played += 1
        lead = _taker(table, trick)
        if table.mode is oa.Mode.ADVANCED and rng.random() < 0.1:
            lead = trick["winner"] = rng.choice(names)
    return _round(table, tricks, after_passing, rng, open_=False)


def _round(
    table: Table,
    tricks: list[dict[str, Any]],
    hands: dict[str, list[str]],
    rng: random.Random,
    *,
    open_: bool,
) -> dict[str, Any]:
    penalties = {name: rng.choice((0, 0, 0, 1, 2)) for name in table.players}
    entered: dict[str, Any] = {"tricks": tricks, "penalties": penalties}
    if open_:
        entered["open"] = True
    if table.mode is not oa.Mode.ADVANCED and rng.random() < 0.5:
        entered["hands"] = {name: hand for name, hand in hands.items() if rng.random() < 0.7}
    return entered


def _as_trophies(table: Table, entered: dict[str, Any]) -> dict[str, Any]:
    """The same whole round, given as its trophy counts."""
    trophies = dict.fromkeys(table.players, 0)
    for trick in entered["tricks"]:
        trophies[trick.get("winner") or _taker(table, trick)] += oa.trick_trophies(trick["cards"])
    return {"tricks": None, "trophies": trophies, "penalties": entered["penalties"]}


def play(rng: random.Random, table: Table) -> dict[str, Any]:
    """Play a game at this table; the score request a table would send for it."""
    state: dict[str, Any] = {
        "players": list(table.players),
        "mode": table.mode.value,
        "variants": list(table.variants),
        "target": table.target,
        "rounds": [],
    }
    lead = rng.choice(table.players)
    cut_short = rng.random() < 0.2
    cards = len(table.players) * oa.PLAYER_CHART[len(table.players)].tricks
    for _ in range(MOST_ROUNDS):
        entered = _play_round(rng, table, lead, stop=None)
        whole = _as_trophies(table, entered) if rng.random() < 0.2 else entered
        state["rounds"].append(whole)
        if oa.GAME.score(state).finished:
            if cut_short:  # sent while its last round was being played
                state["rounds"][-1] = _play_round(rng, table, lead, stop=rng.randrange(cards))
            return state
        last = entered["tricks"][-1]
        lead = last.get("winner") or _taker(table, last)
    return state


def _taker(table: Table, trick: dict[str, Any]) -> str:
    """Who the cards give a complete trick to."""
    progress = oa.trick_progress(
        mode=table.mode, players=table.players, lead=trick["lead"], cards=trick["cards"]
    )
    assert progress.winner is not None
    return progress.winner


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    """A legal game of 3 to 6 players in any mode, scored as a table would send it."""
    count = draw(st.integers(min_value=oa.MIN_PLAYERS, max_value=oa.MAX_PLAYERS))
    mode = draw(st.sampled_from(list(oa.Mode)))
    variants: list[str] = []
    if mode is oa.Mode.ADVANCED:
        rules = [v.value for v in oa.Variant if v is not oa.Variant.NIGHT_COLLECTION]
        variants = draw(st.lists(st.sampled_from(rules), unique=True))
    target = draw(st.sampled_from([oa.default_target(count), 5, 20]))
    table = Table(NAMES[:count], mode, tuple(variants), target)
    return play(draw(st.randoms(use_true_random=False)), table)
