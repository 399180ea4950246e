"""A group's statistics, computed in the database from its results table.

Every figure is an SQL aggregate over :class:`~companion.models.PlayResult` rows (one per
player per finished play), grouped by player, game, month or score; Python only orders
the few aggregated rows and divides. Nothing here knows a game: whether a score is better
high or low comes from the engine (``Game.score_order``), so every registered game feeds
the same tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from sqlalchemy import ColumnElement, and_, case, func, select
from sqlalchemy.orm import aliased

from companion.extensions import db
from companion.games import GAMES
from companion.games.ranking import ScoreOrder
from companion.games.text import _
from companion.models import Group, GroupPlayer, Play, PlayResult

#: The history list shows this many plays at most (newest first).
HISTORY_LIMIT = 100
#: A score distribution has at most this many bars (scores are grouped into ranges).
MAX_BARS = 12
#: Every finished play has exactly one result row at this seat: counting plays counts these.
FIRST_SEAT = 0


def lowest_wins(slug: str) -> bool:
    """Whether the game ranks the lowest score first (then "best" is the lowest)."""
    game = GAMES.get(slug)
    return game is not None and game.score_order is ScoreOrder.LOWEST_FIRST


@dataclass(frozen=True)
class Line:
    """One player's row of a leaderboard."""

    player_id: int
    name: str
    active: bool
    plays: int
    wins: int
    shared_wins: int
    #: Only for one game (scores of different games do not compare).
    average: float | None
    best: int | None
    last_played: datetime

    @property
    def win_rate(self) -> float:
        """Wins per play, 0..1 (a shared win counts as a win)."""
        return self.wins / self.plays if self.plays else 0.0

    @property
    def win_percent(self) -> int:
        """The win rate as a whole percentage, for people."""
        return round(100 * self.win_rate)


def _won() -> ColumnElement[int]:
    """How many of the rows are wins."""
    return func.sum(case((PlayResult.winner, 1), else_=0))


def leaderboard(group: Group, game: str | None = None) -> list[Line]:
    """Plays, wins (shared ones too), win rate and last played per player, over every
    game or one; for one game also the average and best score (highest or lowest as the
    game ranks). Best first: most wins, then win rate, then name."""
    best = func.min(PlayResult.score) if game and lowest_wins(game) else func.max(PlayResult.score)
    query = (
        select(
            GroupPlayer.id,
            GroupPlayer.name,
            GroupPlayer.active,
            func.count(PlayResult.id),
            _won(),
            func.sum(case((and_(PlayResult.winner, PlayResult.shared), 1), else_=0)),
            func.avg(PlayResult.score),
            best,
            func.max(PlayResult.finished_at),
        )
        .join(GroupPlayer, GroupPlayer.id == PlayResult.group_player_id)
        .where(PlayResult.group_id == group.id)
        .group_by(GroupPlayer.id, GroupPlayer.name, GroupPlayer.active)
    )
    if game:
        query = query.where(PlayResult.game == game)
    lines = [
        Line(
            player_id=row[0],
            name=row[1],
            active=bool(row[2]),
            plays=int(row[3]),
            wins=int(row[4] or 0),
            shared_wins=int(row[5] or 0),
            average=round(float(row[6]), 1) if game and row[6] is not None else None,
            best=int(row[7]) if game and row[7] is not None else None,
            last_played=row[8],
        )
        for row in db.session.execute(query)
    ]
    return sorted(lines, key=lambda line: (-line.wins, -line.win_rate, line.name.casefold()))


@dataclass(frozen=True)
class GameCount:
    """How often a game was played in the group, and when last."""

    slug: str
    name: str
    plays: int
    last_played: datetime


def games_played(group: Group) -> list[GameCount]:
    """The group's games, most played first (each play counted once: by its first seat's
    row, as every play has exactly one)."""
    query = (
        select(PlayResult.game, func.count(), func.max(PlayResult.finished_at))
        .where(PlayResult.group_id == group.id, PlayResult.seat == FIRST_SEAT)
        .group_by(PlayResult.game)
    )
    counts = [
        GameCount(slug, GAMES[slug].name if slug in GAMES else slug, int(plays), last)
        for slug, plays, last in db.session.execute(query)
    ]
    return sorted(counts, key=lambda c: (-c.plays, c.name))


@dataclass(frozen=True)
class Versus:
    """Two players' record in the games they played together, per game or overall."""

    game: str
    together: int
    first_ahead: int
    second_ahead: int
    level: int


def head_to_head(group: Group, first: int, second: int) -> list[Versus]:
    """How two members did against each other: in each game they both played, who
    ranked ahead (the better rank, whatever the game's score order), per game and then
    in total (``game`` is ``""`` for the total)."""
    mine, theirs = aliased(PlayResult), aliased(PlayResult)
    query = (
        select(
            mine.game,
            func.count(),
            func.sum(case((mine.rank < theirs.rank, 1), else_=0)),
            func.sum(case((mine.rank > theirs.rank, 1), else_=0)),
            func.sum(case((mine.rank == theirs.rank, 1), else_=0)),
        )
        .join(theirs, theirs.play_id == mine.play_id)
        .where(
            mine.group_id == group.id,
            mine.group_player_id == first,
            theirs.group_player_id == second,
        )
        .group_by(mine.game)
        .order_by(mine.game)
    )
    rows = [
        Versus(slug, int(n), int(a or 0), int(b or 0), int(t or 0))
        for slug, n, a, b, t in db.session.execute(query)
    ]
    if rows:
        rows.append(
            Versus(
                "",
                sum(r.together for r in rows),
                sum(r.first_ahead for r in rows),
                sum(r.second_ahead for r in rows),
                sum(r.level for r in rows),
            )
        )
    return rows


@dataclass(frozen=True)
class Filters:
    """What the history list is narrowed to (each ``None`` for "any")."""

    game: str | None = None
    player: int | None = None
    since: date | None = None
    until: date | None = None


@dataclass(frozen=True)
class PastPlay:
    """One finished play in the history list: its game, when, and who placed how."""

    play_id: int
    table_id: int
    game: str
    finished_at: datetime
    #: (name as played, score, rank, winner) in rank order.
    standings: tuple[tuple[str, int, int, bool], ...]

    @property
    def winners(self) -> list[str]:
        """Who won (several for a shared win)."""
        return [name for name, _score, _rank, won in self.standings if won]


def history(group: Group, filters: Filters, *, limit: int = HISTORY_LIMIT) -> list[PastPlay]:
    """The group's finished plays, newest first, narrowed by game, player and dates.

    One row per play is picked (the player's, or the first seat's), so the newest plays
    come straight from an index in time order, whatever the group's size.
    """
    plays = select(PlayResult.play_id).where(PlayResult.group_id == group.id)
    if filters.player is not None:
        plays = plays.where(PlayResult.group_player_id == filters.player)
    else:
        plays = plays.where(PlayResult.seat == FIRST_SEAT)
    if filters.game:
        plays = plays.where(PlayResult.game == filters.game)
    if filters.since:
        plays = plays.where(PlayResult.finished_at >= datetime.combine(filters.since, time.min))
    if filters.until:
        end = datetime.combine(filters.until + timedelta(days=1), time.min)
        plays = plays.where(PlayResult.finished_at < end)
    chosen = plays.order_by(PlayResult.finished_at.desc(), PlayResult.play_id.desc())
    ids = [row[0] for row in db.session.execute(chosen.limit(limit))]
    return _past_plays(ids)


def _past_plays(ids: Sequence[int]) -> list[PastPlay]:
    if not ids:
        return []
    rows = db.session.execute(
        select(
            PlayResult.play_id,
            Play.table_id,
            PlayResult.game,
            PlayResult.finished_at,
            PlayResult.player,
            PlayResult.score,
            PlayResult.rank,
            PlayResult.winner,
        )
        .join(Play, Play.id == PlayResult.play_id)
        .where(PlayResult.play_id.in_(ids))
        .order_by(PlayResult.play_id, PlayResult.rank, PlayResult.seat)
    )
    found: dict[int, PastPlay] = {}
    for play_id, table_id, game, at, name, score, rank, won in rows:
        known = found.get(play_id)
        entry = (name, int(score), int(rank), bool(won))
        if known is None:
            found[play_id] = PastPlay(play_id, table_id, game, at, (entry,))
        else:
            found[play_id] = PastPlay(play_id, table_id, game, at, (*known.standings, entry))
    return [found[i] for i in ids if i in found]


@dataclass(frozen=True)
class Series:
    """One player's cumulative wins month by month (a line of the wins chart)."""

    player_id: int
    name: str
    #: Cumulative wins at the end of each month of :attr:`WinsOverTime.months`.
    totals: tuple[int, ...]


@dataclass(frozen=True)
class WinsOverTime:
    """Cumulative wins per player over the months the group played."""

    months: tuple[str, ...]
    series: tuple[Series, ...]


def wins_over_time(group: Group, game: str | None = None) -> WinsOverTime:
    """Wins per player per month (summed in the database), then added up month by
    month; players who never won are left out."""
    query = (
        select(PlayResult.group_player_id, GroupPlayer.name, PlayResult.month, _won())
        .join(GroupPlayer, GroupPlayer.id == PlayResult.group_player_id)
        .where(PlayResult.group_id == group.id)
        .group_by(PlayResult.group_player_id, GroupPlayer.name, PlayResult.month)
    )
    if game:
        query = query.where(PlayResult.game == game)
    rows = list(db.session.execute(query))
    months = tuple(sorted({row[2] for row in rows}))
    per_player: dict[int, tuple[str, dict[str, int]]] = {}
    for player_id, name, month, won in rows:
        per_player.setdefault(player_id, (name, {}))[1][month] = int(won or 0)
    series = []
    for player_id, (name, by_month) in per_player.items():
        running, totals = 0, []
        for month in months:
            running += by_month.get(month, 0)
            totals.append(running)
        if running:
            series.append(Series(player_id, name, tuple(totals)))
    series.sort(key=lambda s: (-s.totals[-1], s.name.casefold()))
    return WinsOverTime(months, tuple(series))


@dataclass(frozen=True)
class Bar:
    """One bar of a score distribution: scores from ``low`` to ``high``, how many."""

    low: int
    high: int
    count: int

    @property
    def label(self) -> str:
        """ "12" or "10 to 14"."""
        return (
            str(self.low)
            if self.low == self.high
            else _("%(low)s to %(high)s", low=self.low, high=self.high)
        )


def score_distribution(group: Group, game: str) -> list[Bar]:
    """How often each score was reached in a game (counted per score in the database,
    then put into at most :data:`MAX_BARS` equal ranges)."""
    query = (
        select(PlayResult.score, func.count())
        .where(PlayResult.group_id == group.id, PlayResult.game == game)
        .group_by(PlayResult.score)
        .order_by(PlayResult.score)
    )
    counts = [(int(score), int(n)) for score, n in db.session.execute(query)]
    if not counts:
        return []
    low, high = counts[0][0], counts[-1][0]
    width = max(1, -(-(high - low + 1) // MAX_BARS))
    bars = [Bar(start, start + width - 1, 0) for start in range(low, high + 1, width)]
    for score, n in counts:
        index = (score - low) // width
        bar = bars[index]
        bars[index] = Bar(bar.low, bar.high, bar.count + n)
    return bars


def plays_count(group: Group) -> int:
    """How many finished plays the group has (one first-seat row each)."""
    query = select(func.count()).where(
        PlayResult.group_id == group.id, PlayResult.seat == FIRST_SEAT
    )
    return int(db.session.scalar(query) or 0)
