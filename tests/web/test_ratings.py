"""A group's skill ratings: openskill's Plackett-Luce model over the finished plays, from
their places (ties, any number of players, fewest-points games), always the same as a
replay from scratch whatever happened to the plays (finished, corrected, deleted,
imported), shown on the leaderboards with uncertainty, provisional marks and a chart,
and as a chance on the head-to-head page."""

from __future__ import annotations

import random
import re
import threading
import time
from collections.abc import Hashable
from datetime import datetime, timedelta
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce
from sqlalchemy import event

from companion.extensions import db
from companion.models import Group, Play, Table
from companion.services import groups, plays, ratings, transfer
from companion.services.ratings import OVERALL, PROVISIONAL_GAMES, Placed, Replay
from companion.services.tables import Access
from companion.web import gate
from support.groups import AUTHOR, ctx, finish_with, member_ids, tallies

__all__ = ["ctx", "tallies"]  # fixtures

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve"]
AT = datetime(2026, 3, 1, 20, 0)


class Kept:
    """A worker's store of replays, as the web layer's cache keeps them (unbounded)."""

    def __init__(self) -> None:
        self.values: dict[Hashable, Replay] = {}

    def get(self, key: Hashable) -> Replay | None:
        return self.values.get(key)

    def put(self, key: Hashable, value: Replay) -> None:
        self.values[key] = value


def _group(names: list[str] = NAMES) -> tuple[Group, Table, dict[str, int]]:
    group = groups.create_group("Thursdays", names)
    ids = member_ids(group)
    table = groups.start_table(group, seated=[ids[name] for name in names])
    return group, table, ids


class Seatings:
    """A table of the group for each set of players asked for (started once each)."""

    def __init__(self, group: Group, ids: dict[str, int]) -> None:
        self.group, self.ids = group, ids
        self.tables: dict[tuple[str, ...], int] = {}

    def finish(self, game: str, scores: dict[str, int], *, at: datetime | None = None) -> Play:
        """Play ``game`` with exactly these players and scores, and finish it."""
        seated = tuple(scores)
        if seated not in self.tables:
            table = groups.start_table(self.group, seated=[self.ids[n] for n in seated])
            self.tables[seated] = table.id
        return finish_with(db.session.get_one(Table, self.tables[seated]), game, scores, at=at)


# --- the model's verdicts ---------------------------------------------------------------------


@pytest.mark.usefixtures("ctx")
def test_places_decide_ties_count_level_and_lowest_wins_games_use_their_ranks() -> None:
    group, table, ids = _group()
    finish_with(table, "tally", {"Ann": 9, "Ben": 5, "Cy": 5, "Dee": 1, "Eve": 0}, at=AT)
    # In the lowest-wins game Eve's 0 points win.
    finish_with(table, "low-tally", {"Ann": 9, "Ben": 5, "Cy": 5, "Dee": 1, "Eve": 0}, at=AT)
    rated = ratings.group_ratings(group.id)
    tally = {name: rated.skill("tally", ids[name]) for name in NAMES}
    assert tally["Ben"] == tally["Cy"]  # level: the same rating
    assert all(tally["Ann"].mu > tally[name].mu > tally["Eve"].mu for name in NAMES[1:4])
    low = {name: rated.skill("low-tally", ids[name]) for name in NAMES}
    assert low["Ben"] == low["Cy"]
    assert all(low["Eve"].mu > low[name].mu > low["Ann"].mu for name in NAMES[1:4])
    # Overall, both games count: Ann and Eve each won one.
    assert rated.skill(OVERALL, ids["Ann"]).games == 2
    assert all(skill.provisional for _member, skill in rated.rated(OVERALL))


@pytest.mark.usefixtures("ctx")
def test_a_game_of_one_rates_nobody_and_a_newcomer_starts_at_zero() -> None:
    group, _table, ids = _group()
    solo = groups.start_table(group, seated=[ids["Ann"]])
    finish_with(solo, "tally", {"Ann": 5}, at=AT)
    rated = ratings.group_ratings(group.id)
    assert rated.rated(OVERALL) == []
    assert rated.skill(OVERALL, ids["Ann"]).ordinal == pytest.approx(0.0, abs=1e-9)
    assert rated.chance(OVERALL, ids["Ann"], ids["Ben"]) == pytest.approx(0.5)


@pytest.mark.usefixtures("ctx")
def test_beating_a_strong_player_gains_more_than_beating_a_newcomer() -> None:
    group, _table, ids = _group()
    table = groups.start_table(group, seated=[ids["Ann"], ids["Ben"]])
    for day in range(6):
        finish_with(table, "tally", {"Ann": 9, "Ben": 1}, at=AT + timedelta(days=day))
    strong = ratings.group_ratings(group.id)
    after = ratings.replay(
        [
            *strong.plays,
            Placed(-1, "tally", AT + timedelta(days=9), ((ids["Cy"], 1), (ids["Ann"], 2))),
        ]
    )
    versus_newcomer = ratings.replay([Placed(-2, "tally", AT, ((ids["Cy"], 1), (ids["Dee"], 2)))])
    gained = after.skill(OVERALL, ids["Cy"]).mu - ratings.FIRST.mu
    gained_easily = versus_newcomer.skill(OVERALL, ids["Cy"]).mu - ratings.FIRST.mu
    assert gained > gained_easily > 0
    assert after.chance(OVERALL, ids["Ann"], ids["Ben"]) > 0.9


# --- always what a replay from scratch gives ---------------------------------------------------


def _replayed(group_id: int) -> dict[tuple[str, int], ratings.Skill]:
    return dict(ratings.replay(ratings.placed_plays(group_id)).current)


def _finish_random(seatings: Seatings, chooser: random.Random) -> Play:
    seated = chooser.sample(NAMES, chooser.randint(1, len(NAMES)))
    scores = {name: chooser.randint(0, 4) for name in seated}
    return seatings.finish(chooser.choice(["tally", "low-tally"]), scores)


def _rescore(play: Play, chooser: random.Random) -> None:
    """Correct a finished play: reopen it, change a score, finish it again."""
    plays.set_status(play, finished=False, author=AUTHOR)
    index = chooser.randrange(len(play.state["players"]))
    path = f"players[{index}].score"
    value = play.state["players"][index]["score"] + chooser.randint(1, 3)
    plays.replace_value(play, path=path, value=value, author=AUTHOR)
    plays.set_status(play, finished=True, author=AUTHOR)


def _by_name(group: Group, replay: Replay) -> dict[tuple[str, str], ratings.Skill]:
    names = {p.id: p.name for p in group.players}
    return {(scope, names[member]): skill for (scope, member), skill in replay.current.items()}


OPERATIONS = st.lists(
    st.sampled_from(["finish", "finish", "finish", "correct", "remove", "import"]),
    min_size=1,
    max_size=14,
)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(operations=OPERATIONS, seed=st.integers(0, 2**16), every=st.sampled_from([1, 2, 3]))
@pytest.mark.usefixtures("ctx")
def test_finishing_correcting_removing_and_importing_plays_give_a_replays_ratings(
    monkeypatch: pytest.MonkeyPatch, operations: list[str], seed: int, every: int
) -> None:
    # Checkpoints every play or every few: a change in the past is replayed from the one
    # before it, which the kept replay's plays must still hold.
    monkeypatch.setattr(ratings, "CHECKPOINT_EVERY", every)
    chooser = random.Random(seed)
    group, _table, ids = _group()
    seatings = Seatings(group, ids)
    kept = Kept()
    finished: list[Play] = []
    for operation in operations:
        if operation == "finish" or not finished:
            finished.append(_finish_random(seatings, chooser))
        elif operation == "correct":
            _rescore(chooser.choice(finished), chooser)
        elif operation == "remove":
            plays.delete_play(finished.pop(chooser.randrange(len(finished))))
        else:
            document = transfer.export_group(group, complete=True)
            ((_kind, token),) = transfer.import_document(document)
            found = groups.find(token)
            assert found is not None
            imported = ratings.group_ratings(found.group.id, kept)
            assert _by_name(found.group, imported) == _by_name(
                group, ratings.group_ratings(group.id, kept)
            )
        assert dict(ratings.group_ratings(group.id, kept).current) == _replayed(group.id)


# --- the pages ---------------------------------------------------------------------------------


def _independent_replay(
    history: list[tuple[str, dict[str, int]]], scope: str
) -> dict[str, tuple[float, float, int]]:
    """openskill folded over the plays by hand, each place counted here from the scores
    (one more than the players who did better; fewer points are better in Low Tally):
    what the board must show (mu, sigma, games), by name."""
    model = PlackettLuce()
    found: dict[str, Any] = {}
    games: dict[str, int] = {}
    for game, scores in history:
        if (scope and game != scope) or len(scores) < 2:
            continue
        sign = -1 if game == "low-tally" else 1
        places = {
            name: 1 + sum(sign * other > sign * mine for other in scores.values())
            for name, mine in scores.items()
        }
        names = list(scores)
        teams = [[found.get(name) or model.rating()] for name in names]
        rated = model.rate(teams, ranks=[places[name] for name in names])
        for name, (new,) in zip(names, rated, strict=True):
            found[name] = new
            games[name] = games.get(name, 0) + 1
    return {name: (r.mu, r.sigma, games[name]) for name, r in found.items()}


BOARD_ROW = re.compile(
    r'<th scope="row">([^<]+)</th>\s*<td>(-?[\d.]+)( <span class="hint">provisional</span>)?</td>'
    r"\s*<td>(-?[\d.]+) ± ([\d.]+)</td>\s*<td>(\d+)</td>"
)


def _board(page: str) -> dict[str, tuple[str, str, str, str, bool]]:
    section = page.split('id="ratings"', 1)[1].split("</table>", 1)[0]
    return {
        unescape(name): (rating, mu, sigma, count, bool(provisional))
        for name, rating, provisional, mu, sigma, count in BOARD_ROW.findall(section)
    }


@pytest.mark.usefixtures("tallies")
def test_a_rating_table_after_30_random_plays_matches_a_replay_from_scratch(
    app: Flask, client: FlaskClient
) -> None:
    chooser = random.Random(37)
    history: list[tuple[str, dict[str, int]]] = []
    with app.app_context(), app.test_request_context():
        group, _table, ids = _group()
        seatings = Seatings(group, ids)
        token = groups.token_for(group, Access.VIEW)
        for number in range(30):
            seated = chooser.sample(NAMES, chooser.randint(2, len(NAMES)))
            scores = {name: chooser.randint(0, 5) for name in seated}
            game = chooser.choice(["tally", "low-tally"])
            seatings.finish(game, scores, at=AT + timedelta(hours=number))
            history.append((game, scores))
    for scope, query in (
        (OVERALL, ""),
        ("tally", "?game=tally"),
        ("low-tally", "?game=low-tally"),
    ):
        shown = _board(client.get(f"/g/{token}/stats{query}").get_data(as_text=True))
        expected = _independent_replay(history, scope)
        assert set(shown) == set(expected), scope
        for name, (mu, sigma, count) in expected.items():
            rating, shown_mu, shown_sigma, shown_count, provisional = shown[name]
            assert rating == f"{mu - 3 * sigma:.1f}", (scope, name)
            assert (shown_mu, shown_sigma) == (f"{mu:.1f}", f"{sigma:.1f}"), (scope, name)
            assert int(shown_count) == count
            assert provisional == (count < PROVISIONAL_GAMES)
        ordinals = [float(row[0]) for row in shown.values()]
        assert ordinals == sorted(ordinals, reverse=True), "best first"


@pytest.mark.usefixtures("tallies")
def test_the_stats_page_charts_the_ratings_and_says_what_they_mean(
    app: Flask, client: FlaskClient
) -> None:
    with app.app_context(), app.test_request_context():
        group, table, _ids = _group(["Ann", "Ben", "Cy"])
        token = groups.token_for(group, Access.VIEW)
        empty = client.get(f"/g/{token}/stats").get_data(as_text=True)
        assert "No rated games yet" in empty
        for day in range(7):
            scores = {"Ann": 5, "Ben": 3, "Cy": day % 4}
            finish_with(table, "tally", scores, at=AT + timedelta(days=40 * day))
    page = client.get(f"/g/{token}/stats").get_data(as_text=True)
    assert 'id="ratings-chart-title">Ratings over time' in page
    chart = page.split('id="ratings-chart-title"', 1)[1].split("</svg>", 1)[0]
    assert chart.count("<polyline") == 3
    assert "2026-03" in chart  # the axis names the months
    assert 'href="/help#ratings"' in page
    numbers = page.split("Each charted player's rating after each of their games", 1)[1]
    assert numbers.split("</table>", 1)[0].count('<th scope="row">Ann</th>') == 7
    help_page = client.get("/help").get_data(as_text=True)
    assert 'id="ratings"' in help_page
    assert "Why it moves" in help_page


@pytest.mark.usefixtures("tallies")
def test_the_head_to_head_page_gives_each_games_chance(app: Flask, client: FlaskClient) -> None:
    with app.app_context(), app.test_request_context():
        group, table, ids = _group(["Ann", "Ben", "Cy"])
        token = groups.token_for(group, Access.EDIT)
        for day in range(4):
            finish_with(table, "tally", {"Ann": 5, "Ben": 3}, at=AT + timedelta(days=day))
        finish_with(table, "low-tally", {"Ann": 5, "Cy": 3}, at=AT + timedelta(days=9))
        rated = ratings.group_ratings(group.id)
        expected = round(100 * rated.chance(OVERALL, ids["Ann"], ids["Ben"]))
        in_tally = round(100 * rated.chance("tally", ids["Ann"], ids["Ben"]))
    page = client.get(f"/g/{token}/versus?a={ids['Ann']}&b={ids['Ben']}").get_data(as_text=True)
    assert expected > 50
    assert f"<strong>Ann {expected}%</strong>, Ben {100 - expected}%." in page
    assert f"<td>{in_tally}%</td>" in page
    never = client.get(f"/g/{token}/versus?a={ids['Ben']}&b={ids['Cy']}").get_data(as_text=True)
    assert "Expected chance to finish ahead" in never  # rated, though never together
    with app.app_context(), app.test_request_context():
        group = db.session.get_one(Group, group.id)
        newcomer = groups.add_player(group, "Dee").id
    unrated = client.get(f"/g/{token}/versus?a={ids['Ann']}&b={newcomer}").get_data(as_text=True)
    assert "No chance to show yet" in unrated


@pytest.mark.usefixtures("ctx")
def test_a_worker_carries_its_replay_on_and_reads_the_plays_in_one_query() -> None:
    group, table, _ids = _group()
    kept = Kept()
    finish_with(table, "tally", {"Ann": 3, "Ben": 1}, at=AT)
    first = ratings.group_ratings(group.id, kept)
    assert ratings.group_ratings(group.id, kept) is first  # nothing changed: the same
    finish_with(table, "tally", {"Ann": 1, "Ben": 3}, at=AT + timedelta(days=1))
    second = ratings.group_ratings(group.id, kept)
    assert second.steps[0] is first.steps[0]  # carried on, not replayed
    statements: list[str] = []

    def count(*args: Any) -> None:
        statements.append(str(args[2]))

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        ratings.group_ratings(group.id, kept)
    finally:
        event.remove(db.engine, "before_cursor_execute", count)
    assert len(statements) == 1


def test_a_long_replay_lets_the_requests_waiting_at_the_gate_go(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plays = [
        Placed(number, "tally", AT + timedelta(hours=number), ((1, 1 + number % 2), (2, 2)))
        for number in range(20)
    ]
    turns = gate.Turns(1)
    turns.take()  # the request replaying holds its turn, as in the gate
    served: list[bool] = []

    def waiting_request() -> None:
        with turns:
            served.append(True)

    waiter = threading.Thread(target=waiting_request)
    waiter.start()
    while not turns.waiting():
        time.sleep(0.001)
    monkeypatch.setattr(ratings, "SLICE_SECONDS", 0.0)  # every play a slice of its own
    pauses: list[int] = []
    let_go = gate.letting_others_go({gate.TURN: turns})

    def pause() -> None:
        pauses.append(len(served))
        let_go()

    paused = ratings.replay(plays, pause=pause)
    waiter.join(timeout=5)
    assert served == [True], "the waiting request went while the replay ran"
    assert turns.locked(), "the replay has its turn back"
    turns.give_back()
    assert len(pauses) == len(plays)
    assert paused.current == ratings.replay(plays).current
