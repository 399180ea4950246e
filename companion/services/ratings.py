"""Skill ratings for a group: openskill's Plackett-Luce model replayed over its finished
plays, in the order they were finished, per game and over all games together.

A rating is a belief about a player's skill: a mean (``mu``) and an uncertainty
(``sigma``), both moved by every finished play in which the player took part, by how
their place compared with everyone else's in it (any number of players; equal places are
ties; a game where the fewest points win has already put its places in that order, so
only places are read, never scores). Beating a strong player moves a rating more than
beating a weak one; a newcomer's rating moves fast and settles as their games add up.
The board orders players by the conservative ordinal ``mu - 3 sigma``, which a player
with few games has only just begun to earn; their first :data:`PROVISIONAL_GAMES` games
are marked provisional.

Nothing here is stored or can be edited: the ratings are recomputed from the group's
results table (``PlayResult``, kept with every finish and reopening). What a replay
learned may be kept by the caller (``store``, the web layer's bounded cache) under the
group, with the plays it read and its state every :data:`CHECKPOINT_EVERY` plays: the next
request compares the plays it reads now with those, and replays only from the last state
before the first that differs (a newly finished play: from the last checkpoint; a play
reopened, removed or imported into the past: from the checkpoint before it). The result
is the same as a replay from scratch, which the tests check.

>>> ann, ben = 1, 2
>>> plays = [Placed(1, "odd-world", _AT, ((ann, 1), (ben, 2))) for _ in range(3)]
>>> rated = replay(plays)
>>> rated.skill(OVERALL, ann).ordinal > rated.skill(OVERALL, ben).ordinal
True
>>> rated.skill("odd-world", ann).games, rated.skill(OVERALL, ann).provisional
(3, True)
>>> round(rated.chance(OVERALL, ann, ben), 2) > 0.5
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from openskill.models import PlackettLuce, PlackettLuceRating
from sqlalchemy import bindparam, select

from companion.extensions import db
from companion.models import PlayResult

#: The rating model: openskill's default (Plackett-Luce, mu 25, sigma 25/3).
MODEL = PlackettLuce()
MODEL_NAME = "Plackett-Luce (openskill)"
#: A player's first games in a scope: their rating is shown, marked "provisional".
PROVISIONAL_GAMES = 5
#: How wide the ordinal's margin is, in sigmas (openskill's default: mu - 3 sigma).
MARGIN_SIGMAS = 3.0
#: A replay's state is kept every this many plays (so a change in the past replays at most
#: this many plays before it, plus those after it).
CHECKPOINT_EVERY = 100
#: The scope of every game together (a game's scope is its slug).
OVERALL = ""
#: How long a replay runs before it lets other requests go (``pause``): a group of 5,000
#: plays is a second or two of work the first time a worker replays it.
SLICE_SECONDS = 0.02

_AT = datetime(2026, 1, 1)


class Store(Protocol):
    """Where a replay is kept between requests (``get`` gives ``None`` when nothing is)."""

    def get(self, key: Hashable) -> Replay | None:
        """The replay kept under ``key``, or ``None``."""

    def put(self, key: Hashable, value: Replay) -> None:
        """Keep ``value`` under ``key``."""


@dataclass(frozen=True)
class Placed:
    """One finished play as the ratings read it: each player's place (member id, rank) in
    seat order."""

    play_id: int
    game: str
    finished_at: datetime
    places: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Skill:
    """A player's rating in a scope after some plays."""

    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """The conservative rating shown and ranked by: ``mu - 3 sigma``."""
        return self.mu - MARGIN_SIGMAS * self.sigma

    @property
    def provisional(self) -> bool:
        """Whether the player has played too few games for the rating to say much."""
        return self.games < PROVISIONAL_GAMES


#: A new player's rating.
FIRST = Skill(MODEL.mu, MODEL.sigma, 0)

#: Every player's rating in every scope, by (scope, member id).
State = dict[tuple[str, int], Skill]


@dataclass(frozen=True)
class Step:
    """What one play changed: its players' ratings after it, in each scope it counts in
    (nothing for a play with fewer than two players)."""

    play: Placed
    after: tuple[tuple[str, int, Skill], ...]


@dataclass(frozen=True)
class Replay:
    """The ratings after the plays read, with what a later replay may start from."""

    plays: tuple[Placed, ...]
    steps: tuple[Step, ...]
    current: Mapping[tuple[str, int], Skill]
    #: The state before the play of each index that is a multiple of CHECKPOINT_EVERY.
    checkpoints: Mapping[int, Mapping[tuple[str, int], Skill]]

    def skill(self, scope: str, member: int) -> Skill:
        """A player's rating in a scope (a new player's when they never played in it)."""
        return self.current.get((scope, member), FIRST)

    def rated(self, scope: str) -> list[tuple[int, Skill]]:
        """The players rated in a scope, best first (by ordinal, then more games)."""
        found = [(member, skill) for (s, member), skill in self.current.items() if s == scope]
        return sorted(found, key=lambda item: (-item[1].ordinal, -item[1].games, item[0]))

    def chance(self, scope: str, first: int, second: int) -> float:
        """The model's chance that ``first`` finishes ahead of ``second`` in a game of the
        scope (between the two of them; 0.5 between two newcomers)."""
        teams = [[_rating(self.skill(scope, member))] for member in (first, second)]
        return float(MODEL.predict_win(teams)[0])

    def history(self, scope: str) -> list[tuple[Placed, dict[int, Skill]]]:
        """The plays of a scope in order, each with its players' ratings after it."""
        found = []
        for step in self.steps:
            after = {member: skill for s, member, skill in step.after if s == scope}
            if after:
                found.append((step.play, after))
        return found

    def size(self) -> int:
        """What it costs a cache: the plays it read."""
        return max(1, len(self.plays))


def _rating(skill: Skill) -> PlackettLuceRating:
    return MODEL.rating(mu=skill.mu, sigma=skill.sigma)


# --- reading and replaying -------------------------------------------------------------------


_PLACES = (
    select(
        PlayResult.play_id,
        PlayResult.game,
        PlayResult.finished_at,
        PlayResult.group_player_id,
        PlayResult.rank,
    )
    .where(PlayResult.group_id == bindparam("group_id"))
    .order_by(PlayResult.finished_at, PlayResult.play_id, PlayResult.seat)
)


def placed_plays(group_id: int) -> list[Placed]:
    """The group's finished plays in the order they were finished, each with its players'
    places: one query, answered from the ratings' index in that order."""
    found: list[Placed] = []
    places: list[tuple[int, int]] = []
    current: tuple[int, str, datetime] | None = None
    for play_id, game, finished_at, member, rank in db.session.execute(
        _PLACES, {"group_id": group_id}
    ):
        if current is not None and current[0] != play_id:
            found.append(Placed(*current, tuple(places)))
            places = []
        current = (play_id, game, finished_at)
        places.append((int(member), int(rank)))
    if current is not None:
        found.append(Placed(*current, tuple(places)))
    return found


def group_ratings(
    group_id: int, store: Store | None = None, *, pause: Callable[[], None] | None = None
) -> Replay:
    """The group's ratings now: replayed from what ``store`` keeps of the group's last
    replay where the plays read are still the same, from scratch otherwise; ``pause`` is
    called every :data:`SLICE_SECONDS` of replaying (the web layer lets other requests go)."""
    plays = placed_plays(group_id)
    key = ("ratings", group_id)
    kept = store.get(key) if store is not None else None
    made = replay(plays, kept=kept, pause=pause)
    if store is not None and made is not kept:
        store.put(key, made)
    return made


def replay(
    plays: Sequence[Placed],
    *,
    kept: Replay | None = None,
    pause: Callable[[], None] | None = None,
) -> Replay:
    """The ratings after ``plays`` in this order; ``kept``: an earlier replay to start
    from, as far as its plays are the same as these (see the module's docstring);
    ``pause``: called every :data:`SLICE_SECONDS` of work."""
    plays = tuple(plays)
    if kept is not None and kept.plays == plays:
        return kept
    if kept is not None and plays[: len(kept.plays)] == kept.plays:
        # Plays finished since (the usual case): go on from where the kept replay ended.
        start, state = len(kept.plays), dict(kept.current)
        steps, checkpoints = list(kept.steps), dict(kept.checkpoints)
    else:
        start = _start(kept, plays)
        state = dict(kept.checkpoints[start]) if kept is not None and start else {}
        steps = list(kept.steps[:start]) if kept is not None else []
        checkpoints = dict(_kept_checkpoints(kept, start))
    began = time.perf_counter()
    for index in range(start, len(plays)):
        if pause is not None and time.perf_counter() - began >= SLICE_SECONDS:
            pause()
            began = time.perf_counter()
        if index % CHECKPOINT_EVERY == 0:
            checkpoints[index] = dict(state)
        steps.append(Step(plays[index], _rate(state, plays[index])))
    return Replay(plays, tuple(steps), state, checkpoints)


def _start(kept: Replay | None, plays: Sequence[Placed]) -> int:
    """Where a replay continuing ``kept`` starts: the last checkpoint at or before the
    first play that differs (0 without a kept replay)."""
    if kept is None:
        return 0
    same = 0
    for before, now in zip(kept.plays, plays, strict=False):
        if before != now:
            break
        same += 1
    return max((index for index in kept.checkpoints if index <= same), default=0)


def _kept_checkpoints(
    kept: Replay | None, start: int
) -> Iterable[tuple[int, Mapping[tuple[str, int], Skill]]]:
    if kept is None:
        return []
    return [(index, state) for index, state in kept.checkpoints.items() if index < start]


def _rate(state: State, play: Placed) -> tuple[tuple[str, int, Skill], ...]:
    """Rate one play into ``state`` (changed in place), in its game's scope and over all
    games; the ratings after it. A member seated twice counts once (their first place);
    a play with fewer than two players rates nobody."""
    places: dict[int, int] = {}
    for member, rank in play.places:
        places.setdefault(member, rank)
    if len(places) < 2:
        return ()
    members = list(places)
    ranks = [float(places[member]) for member in members]
    after: list[tuple[str, int, Skill]] = []
    for scope in (OVERALL, play.game):
        before = [state.get((scope, member), FIRST) for member in members]
        rated = MODEL.rate([[_rating(skill)] for skill in before], ranks=ranks)
        for member, skill, (new,) in zip(members, before, rated, strict=True):
            fresh = Skill(float(new.mu), float(new.sigma), skill.games + 1)
            state[(scope, member)] = fresh
            after.append((scope, member, fresh))
    return tuple(after)
