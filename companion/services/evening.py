"""The evening at one table: every game played with its winner, and the standings.

The standings count results, which every game has: plays, wins and, among them, shared
wins. Points are added up only where they compare: per game, and only for games whose
highest score wins (a linked series counts once, with its summed score, as its engine
scores it). A game where the lowest score wins (Owl About's victory points) counts its
result, never its points. Nothing here knows a game: it reads the engine's interface.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games import GAMES
from companion.games.ranking import ScoreOrder
from companion.games.text import _
from companion.models import Table
from companion.services import plays, tables


@dataclass(frozen=True)
class Played:
    """One counted game of the evening: a single play, or a whole series."""

    game: str
    label: str
    winners: tuple[str, ...]


@dataclass
class Standing:
    """One player's evening."""

    player_id: int | None
    name: str
    played: int = 0
    wins: int = 0
    shared_wins: int = 0
    points: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Evening:
    """What the table page's summary shows."""

    played: tuple[Played, ...]
    standings: tuple[Standing, ...]
    #: The games whose points are summed (highest score wins), in the order first played.
    point_games: tuple[str, ...]


def points_add_up(slug: str) -> bool:
    """Whether a game's points compare across its plays: only when the highest wins."""
    game = GAMES.get(slug)
    return game is not None and game.score_order is ScoreOrder.HIGHEST_FIRST


def summary(table: Table, *, outcomes: Sequence[tables.Outcome] | None = None) -> Evening:
    """The evening at a table, from the same results its pages show (``outcomes``: the
    table's counted results, when the caller has them already)."""
    rows: dict[int | str, Standing] = {p.id: Standing(p.id, p.name) for p in table.players}
    by_name = {name.casefold(): row for row in rows.values() for name in [row.name]}
    played: list[Played] = []
    point_games: list[str] = []
    for outcome in plays.table_outcomes(table) if outcomes is None else outcomes:
        result: Any = outcome.result
        winners = [s["player"] for s in result["standings"] if s["winner"]]
        name = _(GAMES[outcome.game].name) if outcome.game in GAMES else outcome.game
        label = _("%(game)s (series)", game=name) if result.get("over") is not None else name
        played.append(Played(outcome.game, label, tuple(winners)))
        adds = points_add_up(outcome.game)
        if adds and outcome.game not in point_games:
            point_games.append(outcome.game)
        for standing in result["standings"]:
            entry = _entry(rows, by_name, outcome.player_ids, standing["player"])
            entry.played += 1
            if standing["winner"]:
                entry.wins += 1
                entry.shared_wins += 1 if len(winners) > 1 else 0
            if adds:
                entry.points[outcome.game] = entry.points.get(outcome.game, 0) + standing["score"]
    ordered = sorted(rows.values(), key=lambda s: (-s.wins, s.shared_wins, s.name.casefold()))
    return Evening(tuple(played), tuple(ordered), tuple(point_games))


def _entry(
    rows: dict[int | str, Standing],
    by_name: dict[str, Standing],
    player_ids: Any,
    name: str,
) -> Standing:
    """The row of a player as a result names them: by the seat's id (a renamed player
    keeps their row), else by name; someone who has left the table gets a row too."""
    known = (player_ids or {}).get(name)
    entry = rows.get(known) if known is not None else None
    if entry is None:
        entry = by_name.get(name.casefold())
    if entry is None:
        entry = Standing(None, name)
        rows[f"gone:{name}"] = entry
        by_name[name.casefold()] = entry
    return entry
