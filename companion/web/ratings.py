"""A group's skill ratings as its pages and the API show them: the board of one scope
(every game, or one), the chart of each leading player's rating over the plays, the
head-to-head chance, and the JSON answer.

The ratings are replayed from the group's finished plays (``services/ratings.py``); each
worker keeps the last replay of each group it drew (:data:`MAX_GROUPS` of them, at most
:data:`MAX_PLAYS_KEPT` plays in all), so a page drawn after a game was finished rates
that one game, not the group's whole history. A long replay (a worker's first of a large
group) gives its turn at the gate back every slice, so other tables' taps and polls wait
at most one slice for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import current_app, request

from companion.games import GAMES
from companion.models import Group
from companion.services import ratings
from companion.services.ratings import OVERALL, Replay
from companion.web import gate
from companion.web.cache import Cache
from companion.web.charts import COLOURS, LineChart, RatingSeries, ratings_chart, sampled

KEPT_KEY = "companion.ratings"
MAX_GROUPS = 64
MAX_PLAYS_KEPT = 200_000
#: Lines the chart draws: the best rated players of the scope (one colour each).
CHART_LINES = COLOURS


@dataclass(frozen=True)
class Line:
    """One player's row of the ratings board."""

    player_id: int
    name: str
    active: bool
    rating: float
    mu: float
    sigma: float
    games: int
    provisional: bool


@dataclass(frozen=True)
class Board:
    """A scope's ratings as the stats page shows them."""

    lines: tuple[Line, ...]
    chart: LineChart | None
    #: Each charted player's ratings after their plays (at most ``charts.MAX_POINTS`` of
    #: them, evenly spread), for the chart and its table.
    series: tuple[RatingSeries, ...]
    plays: int


def _kept() -> Cache[Replay]:
    found: Cache[Replay] | None = current_app.extensions.get(KEPT_KEY)
    if found is None:
        found = Cache(MAX_GROUPS, MAX_PLAYS_KEPT, Replay.size)
        found = current_app.extensions.setdefault(KEPT_KEY, found)
    return found


def of_group(group: Group) -> Replay:
    """The group's ratings now (this worker's last replay of it carried on); a long
    replay lets the requests waiting at the gate go every slice of its work."""
    pause = gate.letting_others_go(request.environ)
    return ratings.group_ratings(group.id, _kept(), pause=pause)


def board(group: Group, replay: Replay, scope: str) -> Board:
    """The board of ``scope`` (``OVERALL`` or a game's slug), its chart and its table."""
    members = {p.id: p for p in group.players}
    lines = tuple(
        Line(
            member,
            members[member].name if member in members else "?",
            members[member].active if member in members else False,
            round(skill.ordinal, 1),
            round(skill.mu, 1),
            round(skill.sigma, 1),
            skill.games,
            skill.provisional,
        )
        for member, skill in replay.rated(scope)
    )
    history = replay.history(scope)
    charted = [line.player_id for line in lines[:CHART_LINES]]
    series = tuple(
        RatingSeries(
            members[member].name if member in members else "?",
            tuple(
                sampled(
                    [
                        (number, after[member].ordinal)
                        for number, (_play, after) in enumerate(history, 1)
                        if member in after
                    ]
                )
            ),
        )
        for member in charted
    )
    months = [play.finished_at.strftime("%Y-%m") for play, _after in history]
    return Board(lines, ratings_chart(series, len(history), months), series, len(history))


def chance_percent(replay: Replay, scope: str, first: int, second: int) -> int | None:
    """The chance, in whole percent, that ``first`` finishes ahead of ``second`` in a
    game of the scope; ``None`` when either has no rating there yet."""
    known = {member for member, _skill in replay.rated(scope)}
    if first not in known or second not in known:
        return None
    return round(100 * replay.chance(scope, first, second))


def as_json(group: Group, replay: Replay) -> dict[str, Any]:
    """The ratings as the API answers them (docs/api.md, "A group's ratings")."""
    members = {p.id: p for p in group.players}
    scopes = [OVERALL, *sorted({s for (s, _m) in replay.current if s != OVERALL})]
    boards: dict[str, list[dict[str, Any]]] = {
        scope: [_json_line(member, skill, members) for member, skill in replay.rated(scope)]
        for scope in scopes
    }
    return {
        "group": group.name,
        "model": ratings.MODEL_NAME,
        "provisional_games": ratings.PROVISIONAL_GAMES,
        "plays": len(replay.plays),
        "overall": boards[OVERALL],
        "games": {
            scope: {"name": GAMES[scope].name if scope in GAMES else scope, "ratings": lines}
            for scope, lines in boards.items()
            if scope != OVERALL
        },
    }


def _json_line(member: int, skill: ratings.Skill, members: Mapping[int, Any]) -> dict[str, Any]:
    known = members.get(member)
    return {
        "id": member,
        "player": known.name if known is not None else "?",
        "rating": round(skill.ordinal, 3),
        "mu": round(skill.mu, 3),
        "sigma": round(skill.sigma, 3),
        "games": skill.games,
        "provisional": skill.provisional,
    }
