"""Legal Odd World end states, reached by playing a game out card by card.

A game is dealt as the rulebook deals it (72 cards in two piles; 3 cards each, 2 face up
and 1 face down) and played turn by turn: the player splits the last pile when one is
empty, may reveal a face-down card that is their missing ninth bird, draws from a pile
and keeps the card or gives it to an opponent. It ends the moment a display holds all
nine birds (by keeping, by receiving, by revealing) or when both piles are empty. Which
pile, who receives and whether to reveal are the random choices; a cautious table that
hands each card to someone who has that bird already plays until the piles run out.

The end state has two shapes the API accepts: each face-down card sent apart (``apart``;
a revealed one is already in its display), or every one already counted in its display
(``folded``).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from hypothesis import strategies as st

from companion.games.odd_world import BIRDS, CARDS_PER_BIRD

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve")
DEALT, FACE_UP = 3, 2


class Ending(StrEnum):
    """How a game ended."""

    KEPT = "kept"
    RECEIVED = "received"
    REVEALED = "revealed"
    PILES = "piles"


@dataclass(frozen=True)
class EndState:
    """The table when the game ended: displays as play revealed them, the face-down
    cards still hidden (``None``: revealed, so in the display), and how it ended."""

    displays: tuple[dict[str, int], ...]
    face_down: tuple[str | None, ...]
    ending: Ending

    @property
    def names(self) -> tuple[str, ...]:
        """The players, in seating order."""
        return NAMES[: len(self.displays)]

    def apart(self) -> dict[str, Any]:
        """The API state with each hidden card sent apart."""
        seats = zip(self.names, self.displays, self.face_down, strict=True)
        return {
            "players": [
                {"name": name, "display": dict(display), "face_down": hidden}
                for name, display, hidden in seats
            ]
        }

    def folded(self) -> dict[str, Any]:
        """The API state with every hidden card already counted in its display."""
        players = []
        for name, display, hidden in zip(self.names, self.displays, self.face_down, strict=True):
            counts = Counter(display)
            if hidden is not None:
                counts[hidden] += 1
            players.append({"name": name, "display": dict(counts), "face_down": None})
        return {"players": players}


def _complete(display: Counter[str]) -> bool:
    return all(display[bird] > 0 for bird in BIRDS)


def _receiver(
    rng: random.Random, displays: list[Counter[str]], me: int, bird: str, *, cautious: bool
) -> int:
    """Who gets the drawn card: anyone at random, or, at a cautious table, someone who
    has that bird already (else whoever it would not complete)."""
    seats = range(len(displays))
    if cautious:
        for pool in (
            [s for s in seats if displays[s][bird] > 0],
            [s for s in seats if not _complete(displays[s] + Counter([bird]))],
        ):
            if pool:
                return rng.choice(pool)
    return me if rng.random() < 0.5 else rng.choice([s for s in seats if s != me])


def _reveals(rng: random.Random, display: Counter[str], card: str, *, eager: bool) -> bool:
    """Whether a player reveals their face-down card this turn: only when it is their
    missing ninth bird, and not every player does at once."""
    if display[card] or not _complete(display + Counter([card])):
        return False
    return eager or rng.random() < 0.3


def play(rng: random.Random, players: int) -> EndState:
    """Deal and play one game with ``players`` players; the table when it ended."""
    deck = [bird for bird in BIRDS for _ in range(CARDS_PER_BIRD)]
    rng.shuffle(deck)
    displays: list[Counter[str]] = []
    hidden: list[str | None] = []
    for seat in range(players):
        hand = deck[seat * DEALT : (seat + 1) * DEALT]
        displays.append(Counter(hand[:FACE_UP]))
        hidden.append(hand[FACE_UP])
    rest = deck[players * DEALT :]
    half = len(rest) // 2
    piles = [rest[:half], rest[half:]]
    cautious = rng.random() < 0.4
    eager = rng.random() < 0.5
    me = rng.randrange(players)
    while True:
        if not piles[0] or not piles[1]:
            left = piles[0] or piles[1]
            piles = [left[: len(left) // 2], left[len(left) // 2 :]]
        card = hidden[me]
        if card is not None and _reveals(rng, displays[me], card, eager=eager):
            displays[me][card] += 1
            hidden[me] = None
            return _end(displays, hidden, Ending.REVEALED)
        bird = rng.choice([pile for pile in piles if pile]).pop()
        to = _receiver(rng, displays, me, bird, cautious=cautious)
        displays[to][bird] += 1
        if _complete(displays[to]):
            return _end(displays, hidden, Ending.KEPT if to == me else Ending.RECEIVED)
        if not piles[0] and not piles[1]:
            return _end(displays, hidden, Ending.PILES)
        me = (me + 1) % players


def _end(displays: list[Counter[str]], hidden: list[str | None], ending: Ending) -> EndState:
    return EndState(tuple(dict(+d) for d in displays), tuple(hidden), ending)


@st.composite
def end_states(draw: st.DrawFn) -> EndState:
    """A legal end state of a game of 2 to 5 players."""
    players = draw(st.integers(min_value=2, max_value=len(NAMES)))
    return play(draw(st.randoms(use_true_random=False)), players)
