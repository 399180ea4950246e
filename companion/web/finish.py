"""Whether a play is over by its own rules, in words, for the Finish button.

Read from the engine's result (its ``finished`` flag and standings), never by asking the
engine again: a game that is over is said so prominently ("Ann holds all nine birds: the
game is over."); finishing one that is not asks first, saying why it is not over yet.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.games import odd_world
from companion.games.oddland.species import tokens_per_player
from companion.services.explain import names

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


Words = Callable[[Mapping[str, Any]], str]


def _odd_world_over(result: Mapping[str, Any]) -> str:
    holders = [
        s["player"]
        for s in result["standings"]
        if any(
            t["label"] == odd_world.SPECIES_TIEBREAK and t["value"] == len(odd_world.BIRDS)
            for t in s["tiebreak"]
        )
    ]
    verb = "holds" if len(holders) == 1 else "hold"
    return f"{names(holders) or 'Someone'} {verb} all nine birds: the game is over."


def _odd_world_on(result: Mapping[str, Any]) -> str:
    return "nobody holds all nine birds yet, so it is only over if both draw piles ran out"


def _owl_about_over(result: Mapping[str, Any]) -> str:
    target = result.get("target", 0)
    reached = [s["player"] for s in result["standings"] if s["score"] >= target]
    return f"{names(reached) or 'Someone'} reached the target of {target} VP: the game is over."


def _owl_about_on(result: Mapping[str, Any]) -> str:
    target = result.get("target")
    return f"nobody has reached the target of {target} VP at the end of a round yet"


def _oddland_over(result: Mapping[str, Any]) -> str:
    needed = tokens_per_player(len(result["standings"]))
    return f"Every player has placed all {needed} tokens: the game is over."


def _oddland_on(result: Mapping[str, Any]) -> str:
    needed = tokens_per_player(len(result["standings"]))
    return f"not every player has placed all {needed} tokens yet"


#: Per game: the sentence when the rules say it is over, the reason when they do not.
WORDS: dict[str, tuple[Words, Words]] = {
    "odd-world": (_odd_world_over, _odd_world_on),
    "owl-about": (_owl_about_over, _owl_about_on),
    "oddland": (_oddland_over, _oddland_on),
}


def _generic_over(result: Mapping[str, Any]) -> str:
    return "By its rules, the game is over."


def _generic_on(result: Mapping[str, Any]) -> str:
    return "its rules do not say it is over yet"


def ending(slug: str, result: Mapping[str, Any] | None) -> Ending:
    """Whether the game ``slug`` is over by its rules, from its scored ``result``.

    >>> ending("odd-world", None)
    Ending(over=False, words='the entered state cannot be scored yet')
    >>> ending("chess", {"finished": True, "standings": []}).words
    'By its rules, the game is over.'
    """
    if result is None:
        return Ending(over=False, words=UNSCORED)
    over, going_on = WORDS.get(slug, (_generic_over, _generic_on))
    if result.get("finished"):
        return Ending(over=True, words=over(result))
    return Ending(over=False, words=going_on(result))
