"""Whether a play is over by its own rules, in words, for the Finish button.

Read from the engine's result (its ``finished`` flag and standings), never by asking the
engine again: a game that is over is said so prominently ("Ann holds all nine birds: the
game is over."); finishing one that is not asks first, saying why it is not over yet.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games import Game

#: Field of the finish form that says "finish even though the rules say it goes on".
CONFIRM_FIELD = "confirm"
UNSCORED = "the entered state cannot be scored yet"


@dataclass(frozen=True)
class Ending:
    """Whether the rules say the game is over, and why (or why not), in words."""

    over: bool
    #: Over: a sentence ("Ann holds all nine birds: the game is over.").
    #: Not over: a reason to go on ("nobody holds all nine birds yet").
    words: str


def ending(game: Game, result: Mapping[str, Any] | None) -> Ending:
    """Whether a game is over by its rules, from its scored ``result``, in the engine's
    words.

    >>> from companion.games import GAMES
    >>> ending(GAMES["odd-world"], None)
    Ending(over=False, words='the entered state cannot be scored yet')
    >>> ending(GAMES["oddland"], {"finished": True, "standings": [{"player": "Ann"}]}).words
    'Every player has placed all 7 tokens: the game is over.'
    """
    if result is None:
        return Ending(over=False, words=UNSCORED)
    if result.get("finished"):
        return Ending(over=True, words=game.over_words(result))
    return Ending(over=False, words=game.going_on_words(result))
