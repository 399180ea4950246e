"""Owl About's request shapes (pydantic models of a state and of one trick) and their
sizes, checked before any item.
"""

from __future__ import annotations

import pydantic

from companion.games.limits import (
    MAX_FIELDS,
    STRICT,
    list_size,
    object_size,
    text_size,
)
from companion.games.names import players_size
from companion.games.owl_about.cards import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PLAYER_CHART,
    Mode,
)
from companion.games.text import _


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


#: The most cards a hand holds, and so the most tricks in a round (3 players: 9 each).
MAX_HAND_CARDS = max(row.hand_cards for row in PLAYER_CHART.values())


#: The most rounds a request may hold. Someone gains VP in every round, so a game to the
#: highest target (99 VP) ends long before this; it only keeps absurd requests out.
MAX_ROUNDS = 100


_CARD_CODES = list_size(
    MAX_PLAYERS,
    lambda n: _(
        "A trick has at most %(most)s cards, one per player, but %(count)s were entered.",
        most=MAX_PLAYERS,
        count=n,
    ),
    text_size(),
)


_HANDS_SIZE = object_size(
    each=list_size(
        MAX_HAND_CARDS,
        lambda n: _(
            "A hand holds at most %(most)s cards, but %(count)s were entered.",
            most=MAX_HAND_CARDS,
            count=n,
        ),
        text_size(),
    )
)


_ROUND_SIZE = object_size(
    {
        "tricks": list_size(
            MAX_HAND_CARDS,
            lambda n: _(
                "A round has at most %(most)s tricks, but %(count)s were entered.",
                most=MAX_HAND_CARDS,
                count=n,
            ),
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
            MAX_FIELDS,
            lambda n: _("List each variant once; %(count)s were entered.", count=n),
            text_size(),
        ),
        "rounds": list_size(
            MAX_ROUNDS,
            lambda n: _(
                "A game has at most %(most)s rounds here, but %(count)s were entered.",
                most=MAX_ROUNDS,
                count=n,
            ),
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
