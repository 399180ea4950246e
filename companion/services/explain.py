"""Results in words: who won and what decided it, for the standings panel, and whether
the game is over by its own rules (for the Finish button)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from companion.games import GAMES, Game
from companion.games.names import spoken_names
from companion.games.ranking import Decision, Tiebreak

#: Names joined as people say them ("Ann, Ben and Cy").
names = spoken_names


def points(score: int) -> str:
    """A score with its unit.

    >>> points(1), points(7)
    ('1 point', '7 points')
    """
    return f"{score} point" if score == 1 else f"{score} points"


def decision(result: Mapping[str, Any], *, over: bool = False) -> str:
    """One sentence saying who leads (or won, when the game is ``over``) and what decided it.

    Tied players are followed through the tiebreakers in order; each tiebreaker that
    leaves some of them behind is named with everyone's value in the game's words.

    >>> decision({"standings": [
    ...     {"player": "Ann", "score": 7, "winner": True, "tiebreak": [
    ...         {"label": "Bird species in display", "value": 6}]},
    ...     {"player": "Ben", "score": 7, "winner": False, "tiebreak": [
    ...         {"label": "Bird species in display", "value": 5}]}],
    ...     "winners": ["Ann"], "decided_by": "Bird species in display", "finished": True})
    'Ann and Ben tie on 7 points; Bird species in display decides: Ann 6, Ben 5. Ann wins.'
    >>> tie = {"standings": [
    ...     {"player": p, "score": 3, "winner": p != "Cy",
    ...      "tiebreak": [{"label": "T", "value": v}]}
    ...     for p, v in [("Ann", 3), ("Ben", 3), ("Cy", 1)]],
    ...     "winners": ["Ann", "Ben"], "decided_by": "shared", "finished": True}
    >>> decision(tie).split("; ")[1]
    'T leaves Ann and Ben: Ann 3, Ben 3, Cy 1. Ann and Ben share the victory.'
    """
    standings = result["standings"]
    if not standings:
        return "No players."
    # A game may word its own decision (an instant win: Lucky's escapes).
    if isinstance(result.get("decided_words"), str):
        return str(result["decided_words"])
    winners = result["winners"]
    verb = "wins" if len(winners) == 1 else "share the victory"
    if not (over or result.get("finished", False)):
        verb = "leads" if len(winners) == 1 else "share the lead"
    top = standings[0]["score"]
    if result["decided_by"] == Decision.SCORE.value:
        return f"{names(winners)} {verb} with {points(top)}."
    tied = [s for s in standings if s["score"] == top]
    tied_names = names([s["player"] for s in tied])
    steps = _steps(tied, winners)
    if not steps:
        if not tied[0]["tiebreak"]:
            return f"{tied_names} tie on {points(top)}: they {verb}."
        return f"{tied_names} tie on {points(top)} and on every tiebreaker: they {verb}."
    words = _words(result)
    said = []
    for step in steps:
        values = ", ".join(f"{s['player']} {words(step, s)}" for s in step.before)
        if len(step.after) == 1:
            said.append(f"{step.label} decides: {values}")
        else:
            said.append(
                f"{step.label} leaves {names([s['player'] for s in step.after])}: {values}"
            )
    ending = f"{names(winners)} {verb}."
    if len(winners) > 1 and steps[-1].index < len(tied[0]["tiebreak"]) - 1:
        ending = f"{names(winners)} tie on every later tiebreaker: they {verb}."
    return f"{tied_names} tie on {points(top)}; {'; '.join(said)}. {ending}"


@dataclass(frozen=True)
class _Step:
    """A tiebreaker that left some of the tied players behind."""

    index: int
    label: str
    before: list[Mapping[str, Any]]
    after: list[Mapping[str, Any]]


def _steps(tied: Sequence[Mapping[str, Any]], winners: Sequence[str]) -> list[_Step]:
    """Follow the players tied on score through each tiebreaker, as the ranking did.

    The winners hold the best value of every tiebreaker, so a player stays in the running
    exactly as long as their values match a winner's.
    """
    winner = next((s for s in tied if s["player"] in winners), None)
    if winner is None:
        return []
    steps = []
    group = list(tied)
    for index, item in enumerate(winner["tiebreak"]):
        staying = [s for s in group if _value(s, index) == item["value"]]
        if len(staying) < len(group):
            steps.append(_Step(index, item["label"], group, staying))
        group = staying
    return steps


def _value(standing: Mapping[str, Any], index: int) -> Any:
    values = standing["tiebreak"]
    return values[index]["value"] if index < len(values) else None


def _words(result: Mapping[str, Any]) -> Callable[[_Step, Mapping[str, Any]], str]:
    """A player's value at a step, in the words of the game's tiebreaker of that label."""
    game = GAMES.get(str(result.get("game", "")))
    tiebreaks = {t.label: t for t in game.tiebreaks} if game is not None else {}

    def say(step: _Step, standing: Mapping[str, Any]) -> str:
        value = _value(standing, step.index)
        tiebreak = tiebreaks.get(step.label, Tiebreak(step.label))
        return tiebreak.say(value) if value is not None else "?"

    return say


def pairs(result: Mapping[str, Any]) -> list[str]:
    """One short line per pair of neighbours in the standings: why the one is ahead of
    the other (points, or the first tiebreaker that parts them), or that they tie.

    >>> pairs({"game": "odd-world", "standings": [
    ...     {"player": "Ana", "score": 9, "rank": 1, "tiebreak": [
    ...         {"label": "Bird species in display", "value": 9}]},
    ...     {"player": "Cleo", "score": 9, "rank": 2, "tiebreak": [
    ...         {"label": "Bird species in display", "value": 8}]},
    ...     {"player": "Ben", "score": 4, "rank": 3, "tiebreak": [
    ...         {"label": "Bird species in display", "value": 4}]}]})
    ... # doctest: +NORMALIZE_WHITESPACE
    ['Ana ahead of Cleo: both on 9 points, Bird species in display 9 to 8.',
     'Cleo ahead of Ben: 9 points to 4.']
    """
    standings = list(result.get("standings") or [])
    words = _words(result)
    return [_pair(ahead, behind, words) for ahead, behind in pairwise(standings)]


def _pair(
    ahead: Mapping[str, Any],
    behind: Mapping[str, Any],
    words: Callable[[_Step, Mapping[str, Any]], str],
) -> str:
    a, b = ahead["player"], behind["player"]
    if ahead["score"] != behind["score"]:
        return f"{a} ahead of {b}: {points(ahead['score'])} to {behind['score']}."
    tied = f"both on {points(ahead['score'])}"
    for index, item in enumerate(ahead.get("tiebreak") or []):
        if _value(behind, index) != item["value"]:
            step = _Step(index, item["label"], [], [])
            told = f"{words(step, ahead)} to {words(step, behind)}"
            if ahead.get("rank") == behind.get("rank"):
                break
            return f"{a} ahead of {b}: {tied}, {item['label']} {told}."
    if ahead.get("tiebreak"):
        return f"{a} and {b} tie: {tied} and on every tiebreaker."
    return f"{a} and {b} tie: {tied}."


#: What a game that cannot be scored yet is told instead of whether it is over.
UNSCORED = "the entered state cannot be scored yet"


@dataclass(frozen=True)
class Ending:
    """Whether the rules say the game is over, and why (or why not), in words: read from
    the engine's result (its ``finished`` flag and standings), never by asking the engine
    again. A game that is over is said so prominently; finishing one that is not asks
    first, saying why it is not over yet."""

    over: bool
    #: Over: a sentence ("Ann holds all nine birds: the game is over.").
    #: Not over: a reason to go on ("nobody holds all nine birds yet").
    words: str


def ending(game: Game, result: Mapping[str, Any] | None) -> Ending:
    """Whether a game is over by its rules, from its scored ``result``, in the engine's
    words.

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
