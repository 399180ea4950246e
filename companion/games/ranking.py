"""Standings: breakdown lines, tiebreakers and their words, and the competition ranking
every game's result is built with (fully tied players share a rank; the next skips).

:func:`rank` orders players by score (highest or lowest first), then by an ordered list
of tiebreak values, assigns competition ranks (1, 1, 3) and names what decided the winner.

>>> order = rank(
...     [Entry("Ann", 7, (6, 5)), Entry("Ben", 7, (6, 3)), Entry("Cy", 2, (1, 1))],
...     tiebreaks=(Tiebreak("Bird species in display"), Tiebreak("Best single bird")),
... )
>>> [(s.player, s.rank) for s in order.standings]
[('Ann', 1), ('Ben', 2), ('Cy', 3)]
>>> order.decided_by
'Best single bird'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from companion.games.problems import RuleId
from companion.games.readings import Reading, readings_json


class Decision(StrEnum):
    """Generic values of ``Result.decided_by`` (a tiebreaker's label is the other kind)."""

    SCORE = "score"
    SHARED = "shared"


class ScoreOrder(StrEnum):
    """Whether the highest or the lowest score ranks first."""

    HIGHEST_FIRST = "highest"
    LOWEST_FIRST = "lowest"


@dataclass(frozen=True)
class BreakdownLine:
    """One line of a player's score explanation; the lines add up to the score."""

    label: str
    points: int
    #: The rules entry this line scores (not part of the API shape, nor of equality).
    rule: RuleId | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        """The API shape of a breakdown line."""
        return {"label": self.label, "points": self.points}


#: A tiebreak value: a number, or numbers compared one by one ("largest first").
TiebreakScalar = int | tuple[int, ...]


class Better(StrEnum):
    """Which tiebreak values win: the higher or the lower ones."""

    HIGHER = "higher"
    LOWER = "lower"


def plain_words(value: TiebreakScalar) -> str:
    """A tiebreak value as the standings have always shown it: ``6``, ``5/3``.

    >>> plain_words(6), plain_words((5, 3)), plain_words(())
    ('6', '5/3', '')
    """
    return "/".join(map(str, value)) if isinstance(value, tuple) else str(value)


@dataclass(frozen=True)
class Tiebreak:
    """A tiebreaker as the rules state it: its label, which values win, and its words.

    ``words`` puts one player's value in words for the explanation ("6", "holds Lucky",
    "territories 5, 3", in the reader's language); ``rule`` names the rules entry. The
    ``label`` stays English in answers (``decided_by`` names it, clients key on it):
    engines mark it with ``N_`` and pages translate it where they show it.

    >>> species = Tiebreak("Bird species in display", rule="odd-world/tiebreak/species")
    >>> species.say(6), species.key(6), Tiebreak("Turn", Better.LOWER).key(2)
    ('6', -6, 2)
    >>> Tiebreak("Sizes").key((5, 3))
    (-5, -3)
    """

    label: str
    better: Better = Better.HIGHER
    words: Callable[[TiebreakScalar], str] = plain_words
    rule: RuleId | None = None

    def say(self, value: TiebreakScalar | list[int]) -> str:
        """One value in words (a JSON list is read as the tuple it was)."""
        return self.words(tuple(value) if isinstance(value, list) else value)

    def key(self, value: Any) -> Any:
        """A sort key that puts the winning values first."""
        if self.better is Better.LOWER:
            return value
        if isinstance(value, tuple):
            return tuple(-v for v in value)
        return -value


@dataclass(frozen=True)
class TiebreakValue:
    """One tiebreak value of a player, labelled as the rules name it."""

    label: str
    value: int | tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The API shape of a tiebreak value (tuples become lists)."""
        value = list(self.value) if isinstance(self.value, tuple) else self.value
        return {"label": self.label, "value": value}


@dataclass(frozen=True)
class Entry:
    """A player's score and tiebreak values, before ranking."""

    player: str
    score: int
    tiebreak: tuple[Any, ...] = ()
    breakdown: tuple[BreakdownLine, ...] = ()


@dataclass(frozen=True)
class Standing:
    """A ranked player: score, competition rank, breakdown and tiebreak values."""

    player: str
    score: int
    rank: int
    winner: bool
    breakdown: tuple[BreakdownLine, ...]
    tiebreak: tuple[TiebreakValue, ...]

    def to_json(self) -> dict[str, Any]:
        """The API shape of a standing."""
        return {
            "player": self.player,
            "score": self.score,
            "rank": self.rank,
            "winner": self.winner,
            "breakdown": [line.to_json() for line in self.breakdown],
            "tiebreak": [value.to_json() for value in self.tiebreak],
        }


@dataclass(frozen=True)
class Ranking:
    """The outcome of :func:`rank`: ordered standings and what decided the winner."""

    standings: tuple[Standing, ...]
    decided_by: str
    #: Whether a tiebreaker put players tied on score below first place in order: the
    #: rulebooks' tiebreakers decide the winner, ordering the other places is the app's
    #: extension (its reading, said in the answer).
    places_by_tiebreak: bool = False

    @property
    def winners(self) -> list[str]:
        """Names of the rank-1 players."""
        return [s.player for s in self.standings if s.winner]


@dataclass(frozen=True)
class Result:
    """A scored state: the API's result object, plus game-specific extras."""

    game: str
    standings: tuple[Standing, ...]
    decided_by: str
    finished: bool
    warnings: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: The app's readings the verdict rests on (see :mod:`companion.games.readings`).
    readings: tuple[Reading, ...] = ()

    @property
    def winners(self) -> list[str]:
        """Names of the rank-1 players."""
        return [s.player for s in self.standings if s.winner]

    def standing(self, player: str) -> Standing:
        """The standing of one player by name."""
        return next(s for s in self.standings if s.player == player)

    def to_json(self) -> dict[str, Any]:
        """The API shape of a result (extras are added as top-level fields)."""
        body: dict[str, Any] = {
            "game": self.game,
            "standings": [s.to_json() for s in self.standings],
            "winners": self.winners,
            "decided_by": self.decided_by,
            "finished": self.finished,
            "warnings": list(self.warnings),
        }
        body.update(self.extra)
        if self.readings:
            body["readings"] = readings_json(self.readings)
        return body


def _sort_key(entry: Entry, order: ScoreOrder, tiebreaks: Sequence[Tiebreak]) -> tuple[Any, ...]:
    primary = entry.score if order is ScoreOrder.LOWEST_FIRST else -entry.score
    return (primary, *(t.key(v) for t, v in zip(tiebreaks, entry.tiebreak, strict=True)))


def rank(
    entries: Sequence[Entry],
    *,
    tiebreaks: Sequence[Tiebreak] = (),
    order: ScoreOrder = ScoreOrder.HIGHEST_FIRST,
) -> Ranking:
    """Rank players by score, then by each tiebreaker in turn.

    Players still tied after every tiebreaker share a competition rank and keep their
    seating (input) order. A tuple tiebreak value compares element by element, which
    suits "largest territory, then the next largest...". Every entry has exactly one
    value per tiebreaker: a mismatch is an error, never silently dropped.

    >>> r = rank([Entry("A", 3), Entry("B", 5), Entry("C", 5)])
    >>> [(s.player, s.rank, s.winner) for s in r.standings], r.decided_by
    ([('B', 1, True), ('C', 1, True), ('A', 3, False)], 'shared')
    >>> rank([Entry("A", 3), Entry("B", 1)], order=ScoreOrder.LOWEST_FIRST).winners
    ['B']
    >>> rank([Entry("A", 3, (1, 2))], tiebreaks=(Tiebreak("Only one"),))
    Traceback (most recent call last):
    ...
    ValueError: A has 2 tiebreak values for 1 tiebreaker(s).
    """
    for entry in entries:
        if len(entry.tiebreak) != len(tiebreaks):
            raise ValueError(
                f"{entry.player} has {len(entry.tiebreak)} tiebreak values"
                f" for {len(tiebreaks)} tiebreaker(s)."
            )
    if not entries:
        return Ranking((), Decision.SHARED.value)

    # Each entry's key is worked out once (the standings compare neighbours' keys again).
    keyed = [(_sort_key(entry, order, tiebreaks), entry) for entry in entries]
    # sorted() is stable, so fully tied players keep seating order.
    keyed.sort(key=lambda pair: pair[0])
    standings: list[Standing] = []
    for position, (key, entry) in enumerate(keyed):
        previous = standings[-1] if standings else None
        tied = previous is not None and keyed[position - 1][0] == key
        place = previous.rank if tied and previous is not None else position + 1
        standings.append(
            Standing(
                player=entry.player,
                score=entry.score,
                rank=place,
                winner=place == 1,
                breakdown=entry.breakdown,
                tiebreak=tuple(
                    TiebreakValue(t.label, value)
                    for t, value in zip(tiebreaks, entry.tiebreak, strict=True)
                ),
            )
        )
    return Ranking(
        tuple(standings), _decided_by(keyed, tiebreaks), _places_by_tiebreak(keyed, standings)
    )


def _places_by_tiebreak(
    keyed: Sequence[tuple[tuple[Any, ...], Entry]], standings: Sequence[Standing]
) -> bool:
    """Whether a tiebreaker separated two players tied on score of whom neither won.

    >>> tb = (Tiebreak("Species"),)
    >>> rank([Entry("A", 5, (3,)), Entry("B", 5, (2,)), Entry("C", 5, (1,))],
    ...      tiebreaks=tb).places_by_tiebreak
    True
    >>> rank([Entry("A", 5, (3,)), Entry("B", 5, (2,)), Entry("C", 1, (1,))],
    ...      tiebreaks=tb).places_by_tiebreak
    False
    """
    return any(
        first.score == second.score and key != next_key and not standing.winner
        for (key, first), (next_key, second), standing in zip(
            keyed, keyed[1:], standings, strict=False
        )
    )


def _decided_by(
    keyed: Sequence[tuple[tuple[Any, ...], Entry]], tiebreaks: Sequence[Tiebreak]
) -> str:
    """Name what separated the leader from the runner-up (or that the victory is shared),
    given the entries in order with their sort keys."""
    if len(keyed) < 2:
        return Decision.SCORE.value
    (first_key, first), (second_key, second) = keyed[0], keyed[1]
    if first_key == second_key:
        return Decision.SHARED.value
    if first.score != second.score:
        return Decision.SCORE.value
    for tiebreak, mine, theirs in zip(tiebreaks, first.tiebreak, second.tiebreak, strict=True):
        if mine != theirs:
            return tiebreak.label
    return Decision.SHARED.value  # pragma: no cover - keys differ, so some value differs
