"""A database whose write lock stays taken: the phone is asked to try again, never shown a 500.

SQLite lets one connection write at a time; another waits up to its busy timeout and then
gets "database is locked". A second connection holds the lock here (``BEGIN IMMEDIATE``)
while the app, with a short busy timeout, tries to write.
"""

from __future__ import annotations

import sqlite3
from contextlib import AbstractContextManager
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.exc import OperationalError

from companion import database
from companion.extensions import db
from companion.models import Play
from companion.web.errors import BUSY_MESSAGE
from companion.web.play.actions import CONTENTION_MESSAGE
from support.app import SQLITE
from support.client import create_table, csrf, edit, start_play, write_lock_held

# The lock below is SQLite's; PostgreSQL makes a writer wait for a row's lock instead.
only_sqlite = pytest.mark.parametrize("backend", [SQLITE])

SHORT_BUSY_TIMEOUT_MS = 50


@pytest.fixture
def short_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """The app's connections give up on a taken lock after 50 ms rather than 5 s (asked for
    before the app, so its connections are made with it)."""
    monkeypatch.setattr(database, "SQLITE_BUSY_TIMEOUT_MS", SHORT_BUSY_TIMEOUT_MS)


def locked(app: Flask) -> AbstractContextManager[None]:
    """Another connection holds the app's database's write lock meanwhile."""
    return write_lock_held(Path(app.instance_path) / "companion.sqlite")


def _version(app: Flask, play_id: int) -> int:
    with app.app_context():
        version = db.session.get(Play, play_id).version  # type: ignore[union-attr]
        db.session.remove()
        return version


@only_sqlite
@pytest.mark.usefixtures("short_wait")
def test_a_tap_while_the_lock_stays_taken_is_refused_and_can_be_tried_again(
    app: Flask, client: FlaskClient
) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_play(client, links.edit)
    before = _version(app, play_id)
    path = "players[0].display.hoopoe"

    with locked(app):
        refused = edit(client, links.edit, play_id, path=path, value="3")
    assert refused.status_code == 409
    assert CONTENTION_MESSAGE in refused.get_data(as_text=True)
    assert _version(app, play_id) == before

    again = edit(client, links.edit, play_id, path=path, value="3")
    assert again.status_code == 200
    assert _version(app, play_id) == before + 1


@only_sqlite
@pytest.mark.usefixtures("short_wait")
def test_any_other_write_while_the_lock_stays_taken_is_a_busy_page(
    app: Flask, client: FlaskClient
) -> None:
    data = {"players-0": "Ann", "players-1": "Ben", "csrf_token": csrf(client), "action": "create"}
    with locked(app):
        refused = client.post("/tables", data=data)
    assert refused.status_code == 503
    assert refused.headers["Retry-After"] == "1"
    assert BUSY_MESSAGE in refused.get_data(as_text=True)

    assert client.post("/tables", data=data).status_code == 303


@only_sqlite
def test_other_database_failures_stay_server_errors(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_play(client, links.edit)

    def broken(*_args: object, **_kwargs: object) -> None:
        raise OperationalError("UPDATE plays", {}, sqlite3.OperationalError("disk I/O error"))

    app.config["PROPAGATE_EXCEPTIONS"] = False
    monkeypatch.setattr(db.session, "execute", broken)
    answer = edit(client, links.edit, play_id, path="players[0].display.hoopoe", value="3")
    assert answer.status_code == 500
    assert BUSY_MESSAGE not in answer.get_data(as_text=True)


def test_a_busy_refusal_is_told_apart_from_other_failures() -> None:
    def failure(message: str) -> OperationalError:
        return OperationalError("UPDATE plays", {}, sqlite3.OperationalError(message))

    assert database.is_contention(failure("database is locked"))
    assert database.is_contention(failure("database table is locked"))
    assert not database.is_contention(failure("disk I/O error"))
    assert not database.is_contention(failure("no such table: plays"))
