"""What a table's page counts: each finished play's result, each series' standings and the
outcomes the evening adds up, without reading every stored result and scoring every
series again each time the page is drawn.

At a table at its caps (200 games, 66 three-game series) that was most of the page's
work: decoding 200 stored states and results, and scoring each series twice. A play's
result changes only with its version (every edit, finish and reopen bumps it) or its
engine's version; a series' standings only with its plays' versions and statuses. So
each is kept, in a store the caller gives (the web layer's bounded cache per worker, see
``web/table_pages.py``), under a key made of those and the table's random uid (the
ids of a table's plays are never another table's, even if a database gives ids again).

The table comes loaded without its plays' states and results
(:func:`tables.with_everything_shown`); what is not kept is read in one query. What is
kept is shared by the requests that find it: read it, never change it. Results hold
words (warnings, labels, readings), so they are kept per language
(:func:`companion.games.text.language`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from sqlalchemy import inspect, select
from sqlalchemy.orm import load_only

from companion.extensions import db
from companion.games import GAMES, text
from companion.models import Play, Series, Table
from companion.services import bgstats, plays, tables
from companion.services.results import game_of, is_kept_result_current

Result = dict[str, Any] | None


class Store(Protocol):
    """Where computed results are kept between requests (``get`` gives ``None`` when
    nothing is kept under the key)."""

    def get(self, key: Hashable) -> Any:
        """The value kept under ``key``, or ``None``."""

    def put(self, key: Hashable, value: Any) -> None:
        """Keep ``value`` under ``key``."""


@dataclass(frozen=True)
class TableResults:
    """The results a table's page shows and counts."""

    #: Each finished play's current result (its id -> the result, ``None`` if unscorable).
    plays: Mapping[int, Result]
    #: Each series' standings so far (its id -> the standings, ``None`` if unscorable).
    series: Mapping[int, Result]
    #: What the table's totals count (see :func:`plays.table_outcomes`).
    outcomes: list[tables.Outcome]


def table_results(table: Table, store: Store | None = None) -> TableResults:
    """The results of a table loaded by :func:`tables.with_everything_shown`, from
    ``store`` where kept, else computed (and kept)."""
    finished = {p.id: p for p in table.plays if p.finished}
    play_results = _kept_or_computed(
        store,
        {play_id: _play_key(table, play) for play_id, play in finished.items()},
        lambda missing: _results_of([finished[i] for i in missing]),
    )
    every_series = {s.id: s for s in table.series}
    series_results = _kept_or_computed(
        store,
        {series_id: _series_key(table, s) for series_id, s in every_series.items()},
        lambda missing: _series_results_of([every_series[i] for i in missing]),
    )
    outcomes = plays.table_outcomes(table, results=play_results, series_results=series_results)
    return TableResults(play_results, series_results, outcomes)


def _play_key(table: Table, play: Play) -> Hashable:
    # A result holds words (warnings, labels, readings): kept per language.
    language = text.language()
    return ("play", table.uid, play.id, play.version, game_of(play).engine_version, language)


def _series_key(table: Table, series: Series) -> Hashable:
    games = tuple((p.id, p.version, p.status) for p in series.plays)
    engine = GAMES[series.game].engine_version if series.game in GAMES else None
    return ("series", table.uid, series.id, series.length, engine, games, text.language())


def push_links(
    table: Table, shown: Sequence[Play], counted: TableResults, store: Store | None = None
) -> dict[int, str | None]:
    """The BG Stats link of each of these finished plays (by id), kept like their results:
    under the play's version and the group members its players are (a merge of two
    members changes the links)."""
    members = (table.group_id, tuple((p.id, p.group_player_id) for p in table.players))
    by_id = {play.id: play for play in shown}
    return _kept_or_computed(
        store,
        {play.id: ("bgstats", _play_key(table, play), members) for play in shown},
        lambda missing: {i: bgstats.push_link_with(by_id[i], counted.plays[i]) for i in missing},
    )


Value = TypeVar("Value")


def _kept_or_computed(
    store: Store | None,
    keys: Mapping[int, Hashable],
    compute: Callable[[list[int]], dict[int, Value]],
) -> dict[int, Value]:
    """Each id's value: kept in ``store`` under its key, else from ``compute`` (given the
    ids not kept, all at once) and kept. Values are kept wrapped, as ``None`` is one."""
    found: dict[int, Value] = {}
    for item_id, key in keys.items():
        kept = store.get(key) if store is not None else None
        if kept is not None:
            found[item_id] = kept[0]
    missing = [item_id for item_id in keys if item_id not in found]
    if missing:
        computed = compute(missing)
        for item_id in missing:
            found[item_id] = computed[item_id]
            if store is not None:
                store.put(keys[item_id], (computed[item_id],))
    return found


def _results_of(finished: Sequence[Play]) -> dict[int, Result]:
    _load_results(finished)
    return {play.id: plays.current_result(play) for play in finished}


def _series_results_of(every_series: Sequence[Series]) -> dict[int, Result]:
    _load_states(p for s in every_series for p in s.plays)
    return {s.id: plays.series_result(s) for s in every_series}


def _load_results(loaded: Iterable[Play]) -> None:
    """Read the stored results of plays loaded without them (and the states of those
    scored again: their engine changed since, or the reader reads another language than
    the stored results'), one query each at most."""
    missing = [p for p in loaded if "result" in inspect(p).unloaded]
    _load_columns(missing, Play.result)
    _load_states(p for p in missing if not is_kept_result_current(p))


def _load_states(loaded: Iterable[Play]) -> None:
    _load_columns([p for p in loaded if "state" in inspect(p).unloaded], Play.state)


def _load_columns(loaded: Sequence[Play], column: Any) -> None:
    """Fill a column the plays were loaded without: the session gives a play it holds
    already the columns it lacks."""
    if not loaded:
        return
    statement = (
        select(Play).where(Play.id.in_([p.id for p in loaded])).options(load_only(Play.id, column))
    )
    db.session.scalars(statement).all()
