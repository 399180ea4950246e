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
from companion.games.text import N_, _, ngettext

#: Names joined as people say them ("Ann, Ben and Cy").
names = spoken_names


def decision(result: Mapping[str, Any], *, over: bool = False) -> str:
    """One sentence saying who leads (or won, when the game is ``over``) and what decided
    it, in the reader's language.

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
        return _("No players.")
    # A game may word its own decision (an instant win: Lucky's escapes).
    if isinstance(result.get("decided_words"), str):
        return str(result["decided_words"])
    winners = result["winners"]
    over = over or bool(result.get("finished", False))
    top = standings[0]["score"]
    if result["decided_by"] == Decision.SCORE.value:
        return _by_score(names(winners), top, over=over, shared=len(winners) > 1)
    tied = [s for s in standings if s["score"] == top]
    tied_names = names([s["player"] for s in tied])
    steps = _steps(tied, winners)
    if not steps:
        return _tied_throughout(tied_names, top, over=over, tiebreaks=bool(tied[0]["tiebreak"]))
    words = _words(result)
    said = ""
    for step in steps:
        told = _step_words(step, words)
        # TRANSLATORS: the tiebreakers that part tied players, one after the other.
        said = _("%(steps)s; %(step)s", steps=said, step=told) if said else told
    outcome = _outcome(names(winners), over=over, shared=len(winners) > 1)
    if len(winners) > 1 and steps[-1].index < len(tied[0]["tiebreak"]) - 1:
        outcome = _tied_later(names(winners), over=over)
    # TRANSLATORS: "Ann and Ben tie on 7 points; <tiebreakers>. <who wins>": the first part
    # is "%(names)s tie on %(num)s points", the second the tiebreakers' words.
    return _(
        "%(tie)s; %(steps)s. %(outcome)s",
        tie=ngettext(
            "%(names)s tie on %(num)s point",
            "%(names)s tie on %(num)s points",
            top,
            names=tied_names,
        ),
        steps=said,
        outcome=outcome,
    )


def _by_score(winners: str, top: int, *, over: bool, shared: bool) -> str:
    """Who wins (or leads) on points alone."""
    if over and not shared:
        return ngettext(
            "%(names)s wins with %(num)s point.",
            "%(names)s wins with %(num)s points.",
            top,
            names=winners,
        )
    if over:
        return ngettext(
            "%(names)s share the victory with %(num)s point.",
            "%(names)s share the victory with %(num)s points.",
            top,
            names=winners,
        )
    if not shared:
        return ngettext(
            "%(names)s leads with %(num)s point.",
            "%(names)s leads with %(num)s points.",
            top,
            names=winners,
        )
    return ngettext(
        "%(names)s share the lead with %(num)s point.",
        "%(names)s share the lead with %(num)s points.",
        top,
        names=winners,
    )


def _tied_throughout(tied: str, top: int, *, over: bool, tiebreaks: bool) -> str:
    """Players tied on points that no tiebreaker parts (the game has none, or all are
    equal): they share the victory, or the lead."""
    if tiebreaks and over:
        return ngettext(
            "%(names)s tie on %(num)s point and on every tiebreaker: they share the victory.",
            "%(names)s tie on %(num)s points and on every tiebreaker: they share the victory.",
            top,
            names=tied,
        )
    if tiebreaks:
        return ngettext(
            "%(names)s tie on %(num)s point and on every tiebreaker: they share the lead.",
            "%(names)s tie on %(num)s points and on every tiebreaker: they share the lead.",
            top,
            names=tied,
        )
    if over:
        return ngettext(
            "%(names)s tie on %(num)s point: they share the victory.",
            "%(names)s tie on %(num)s points: they share the victory.",
            top,
            names=tied,
        )
    return ngettext(
        "%(names)s tie on %(num)s point: they share the lead.",
        "%(names)s tie on %(num)s points: they share the lead.",
        top,
        names=tied,
    )


#: Who wins or leads once the tiebreakers have spoken: by (over, shared).
_OUTCOMES = {
    (True, False): N_("%(names)s wins."),
    (True, True): N_("%(names)s share the victory."),
    (False, False): N_("%(names)s leads."),
    (False, True): N_("%(names)s share the lead."),
}


def _outcome(winners: str, *, over: bool, shared: bool) -> str:
    return _(_OUTCOMES[over, shared], names=winners)


def _tied_later(winners: str, *, over: bool) -> str:
    """The winners, tied on every tiebreaker after the one that parted them from the rest."""
    if over:
        return _("%(names)s tie on every later tiebreaker: they share the victory.", names=winners)
    return _("%(names)s tie on every later tiebreaker: they share the lead.", names=winners)


def _step_words(step: _Step, words: Callable[[_Step, Mapping[str, Any]], str]) -> str:
    """What a tiebreaker did: decided, or left some players in the running; with each tied
    player's value."""
    values = ""
    for standing in step.before:
        # TRANSLATORS: a player's value of a tiebreaker: "Ann 6", "Ben holds Lucky".
        value = _("%(player)s %(value)s", player=standing["player"], value=words(step, standing))
        values = _("%(items)s, %(item)s", items=values, item=value) if values else value
    label = _(step.label)
    if len(step.after) == 1:
        # TRANSLATORS: a tiebreaker that decided the winner, then each tied player's value.
        return _("%(tiebreaker)s decides: %(values)s", tiebreaker=label, values=values)
    leaves = names([s["player"] for s in step.after])
    # TRANSLATORS: a tiebreaker that left some tied players in the running.
    return _(
        "%(tiebreaker)s leaves %(names)s: %(values)s",
        tiebreaker=label,
        names=leaves,
        values=values,
    )


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
    score = ahead["score"]
    if score != behind["score"]:
        return ngettext(
            "%(ahead)s ahead of %(behind)s: %(num)s point to %(other)s.",
            "%(ahead)s ahead of %(behind)s: %(num)s points to %(other)s.",
            score,
            ahead=a,
            behind=b,
            other=behind["score"],
        )
    for index, item in enumerate(ahead.get("tiebreak") or []):
        if _value(behind, index) != item["value"]:
            step = _Step(index, item["label"], [], [])
            if ahead.get("rank") == behind.get("rank"):
                break
            return ngettext(
                "%(ahead)s ahead of %(behind)s: both on %(num)s point, %(tiebreaker)s %(value)s "
                "to %(other)s.",
                "%(ahead)s ahead of %(behind)s: both on %(num)s points, %(tiebreaker)s %(value)s "
                "to %(other)s.",
                score,
                ahead=a,
                behind=b,
                tiebreaker=_(item["label"]),
                value=words(step, ahead),
                other=words(step, behind),
            )
    if ahead.get("tiebreak"):
        return ngettext(
            "%(first)s and %(second)s tie: both on %(num)s point and on every tiebreaker.",
            "%(first)s and %(second)s tie: both on %(num)s points and on every tiebreaker.",
            score,
            first=a,
            second=b,
        )
    return ngettext(
        "%(first)s and %(second)s tie: both on %(num)s point.",
        "%(first)s and %(second)s tie: both on %(num)s points.",
        score,
        first=a,
        second=b,
    )


#: What a game that cannot be scored yet is told instead of whether it is over.
# TRANSLATORS: said after "The game is not over yet:", so not a sentence of its own.
UNSCORED = N_("the entered state cannot be scored yet")


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
        return Ending(over=False, words=_(UNSCORED))
    if result.get("finished"):
        return Ending(over=True, words=game.over_words(result))
    return Ending(over=False, words=game.going_on_words(result))
