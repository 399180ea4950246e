"""Helpers for group tests: a tiny scored game for hand-made histories (and the fixtures
that register it for a test), and groups made through the pages."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from companion.extensions import db
from companion.games import GAMES
from companion.games.base import Game
from companion.games.problems import InvalidStateError, Problem
from companion.games.ranking import Entry, Result, ScoreOrder, rank
from companion.models import Group, Play, PlayResult, Table
from companion.services import groups, plays
from support.client import csrf


class Tally(Game):
    """A test engine whose state is just each player's score: histories are written by
    hand, while ranking, winners and shared wins come from the real ``rank``."""

    slug: ClassVar[str] = "tally"
    name: ClassVar[str] = "Tally"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 6
    engine_version: ClassVar[int] = 1

    def validate(self, state: object) -> list[Problem]:
        """A list of players with whole-number scores."""
        ok = isinstance(state, dict) and all(
            isinstance(p.get("score"), int) for p in state.get("players", [])
        )
        return [] if ok else [Problem("players", "Scores are whole numbers.")]

    def score(self, state: object) -> Result:
        """Rank by score in the game's order."""
        problems = self.validate(state)
        if problems:
            raise InvalidStateError(problems)
        assert isinstance(state, dict)
        entries = [Entry(p["name"], p["score"]) for p in state["players"]]
        ranking = rank(entries, order=self.score_order)
        return Result(self.slug, ranking.standings, ranking.decided_by, finished=True)

    def new_state(self, players: Sequence[str], _options: Mapping[str, Any]) -> dict[str, Any]:
        """Everyone at 0."""
        return {"players": [{"name": name, "score": 0} for name in players]}

    def parse_edit(self, _path: Sequence[str | int], raw: str) -> object:
        """A score."""
        return int(raw)

    def api_endpoints(self) -> Mapping[str, Callable[[object], dict[str, Any]]]:
        """None."""
        return {}


class LowTally(Tally):
    """The same, where the lowest score wins."""

    slug: ClassVar[str] = "low-tally"
    name: ClassVar[str] = "Low Tally"
    score_order: ClassVar[ScoreOrder] = ScoreOrder.LOWEST_FIRST


@pytest.fixture
def tallies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two test games join the registry for the test: one highest-wins, one lowest."""
    monkeypatch.setitem(GAMES, Tally.slug, Tally())
    monkeypatch.setitem(GAMES, LowTally.slug, LowTally())


@pytest.fixture
def ctx(app: Flask, tallies: None) -> Iterator[None]:  # noqa: ARG001 (pytest: the games joined)
    """The test runs inside the app (and a request), with the test games registered."""
    with app.app_context(), app.test_request_context():
        yield


AUTHOR = plays.Author("test")


def finish_with(
    table: Table, game: str, scores: Mapping[str, int], *, at: datetime | None = None
) -> Play:
    """Play ``game`` at the table with these scores and finish it (at ``at``)."""
    play = plays.start_play(table, game)
    for index, player in enumerate(play.state["players"]):
        if player["name"] in scores:
            path = f"players[{index}].score"
            plays.replace_value(play, path=path, value=scores[player["name"]], author=AUTHOR)
    plays.set_status(play, finished=True, author=AUTHOR)
    if at is not None:
        play.finished_at = at
        for row in db.session.scalars(select(PlayResult).where(PlayResult.play_id == play.id)):
            row.finished_at = at
            row.month = at.strftime(groups.MONTH)
        db.session.commit()
    return play


def member_ids(group: Group) -> dict[str, int]:
    """Members by name."""
    return {p.name: p.id for p in group.players}


@dataclass
class GroupLinks:
    """A group's two tokens, read from its page."""

    edit: str
    view: str


def create_group(client: FlaskClient, name: str, players: Sequence[str]) -> GroupLinks:
    """Create a group through the pages and read its links."""
    data = {"name": name, "csrf_token": csrf(client, "/groups/new")}
    data.update({f"players-{i}": player for i, player in enumerate(players)})
    response = client.post("/groups", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    edit = response.headers["Location"].rsplit("/g/", 1)[1]
    page = client.get(f"/g/{edit}").get_data(as_text=True)
    view = re.search(r'id="group-view-link" readonly value="[^"]*/g/([^"]+)"', page)
    assert view
    return GroupLinks(edit=edit, view=view.group(1))


def start_group_table(
    client: FlaskClient, token: str, seated: Sequence[int], new: Sequence[str] = ()
) -> str:
    """Start tonight's table from the group page; returns the table's edit token."""
    data: dict[str, str] = {
        "seats": ",".join(map(str, seated)),
        "csrf_token": csrf(client, f"/g/{token}"),
    }
    for index, name in enumerate(new):
        data[f"new-{index}"] = name
    response = client.post(f"/g/{token}/tables", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/t/", 1)[1]


def roster_ids(client: FlaskClient, token: str) -> list[int]:
    """The ids of the group's players on its page, in roster order (edit link)."""
    page = client.get(f"/g/{token}").get_data(as_text=True)
    return [int(found) for found in re.findall(r'name="player" value="(\d+)"', page)]
