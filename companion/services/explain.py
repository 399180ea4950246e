"""Results in words: who won and what decided it, for the standings panel."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import Decision


def names(players: Sequence[str]) -> str:
    """Join names as people say them.

    >>> names(["Ann"]), names(["Ann", "Ben"]), names(["Ann", "Ben", "Cy"])
    ('Ann', 'Ann and Ben', 'Ann, Ben and Cy')
    """
    if len(players) <= 1:
        return "".join(players)
    return f"{', '.join(players[:-1])} and {players[-1]}"


def points(score: int) -> str:
    """A score with its unit.

    >>> points(1), points(7)
    ('1 point', '7 points')
    """
    return f"{score} point" if score == 1 else f"{score} points"


def decision(result: Mapping[str, Any], *, over: bool = False) -> str:
    """One sentence saying who leads (or won, when the game is ``over``) and what decided it.

    >>> decision({"standings": [
    ...     {"player": "Ann", "score": 7, "winner": True, "tiebreak": [
    ...         {"label": "Bird species in display", "value": 6}]},
    ...     {"player": "Ben", "score": 7, "winner": False, "tiebreak": [
    ...         {"label": "Bird species in display", "value": 5}]}],
    ...     "winners": ["Ann"], "decided_by": "Bird species in display", "finished": True})
    'Ann and Ben tie on 7 points; Bird species in display decides: Ann 6, Ben 5. Ann wins.'
    """
    standings = result["standings"]
    if not standings:
        return "No players."
    winners = result["winners"]
    verb = "wins" if len(winners) == 1 else "share the victory"
    if not (over or result.get("finished", False)):
        verb = "leads" if len(winners) == 1 else "share the lead"
    top = standings[0]["score"]
    decided_by = result["decided_by"]
    if decided_by == Decision.SCORE.value:
        return f"{names(winners)} {verb} with {points(top)}."
    tied = [s for s in standings if s["score"] == top]
    tied_names = names([s["player"] for s in tied])
    if decided_by == Decision.SHARED.value:
        if len(tied) == len(winners) and not tied[0]["tiebreak"]:
            return f"{tied_names} tie on {points(top)}: they {verb}."
        return f"{tied_names} tie on {points(top)} and on every tiebreaker: they {verb}."
    values = ", ".join(f"{s['player']} {_value(s, decided_by)}" for s in tied)
    return (
        f"{tied_names} tie on {points(top)}; {decided_by} decides: {values}. "
        f"{names(winners)} {verb}."
    )


def _value(standing: Mapping[str, Any], label: str) -> str:
    for item in standing["tiebreak"]:
        if item["label"] == label:
            value = item["value"]
            return "/".join(map(str, value)) if isinstance(value, list) else str(value)
    return "?"
