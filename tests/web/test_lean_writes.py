"""A tap's writes: the play and its edit in two statements, nothing read back, the
table's last use written at most once a minute (every time for a game of a series)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from companion.extensions import db
from companion.models import Play, Table, utcnow
from companion.services import plays, tables
from support.client import create_table, csrf, edit, start_play

HOOPOE = "players[0].display.hoopoe"
AUTHOR = plays.Author("test", "Ann")


@contextmanager
def statements_run() -> Iterator[list[str]]:
    """The SQL statements the block runs (inside an app context)."""
    statements: list[str] = []

    def note(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        statements.append(" ".join(statement.split()))

    engine = db.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", note)


def _open(token: str, play_id: int) -> Play:
    """The play as the edit route loads it (with its table and players, in one query)."""
    found = tables.find_play(token, play_id)
    assert found is not None
    play = found[1]
    assert play is not None
    return play


@pytest.mark.both_backends("which statements a tap runs, on each database")
def test_a_tap_is_one_update_and_one_insert_and_reads_nothing_back(
    app: Flask, client: FlaskClient
) -> None:
    links = create_table(client, ["Ann", "Ben", "Cy", "Dee"])
    play_id = start_play(client, links.edit)
    with app.app_context():
        play = _open(links.edit, play_id)
        with statements_run() as statements:
            made = plays.set_value(play, path=HOOPOE, raw="2", base="0", author=AUTHOR)
            # What the answer is drawn from is there as written, without a query.
            assert play.version == 1
            assert play.state["players"][0]["display"]["hoopoe"] == 2
            assert play.result is not None
            assert [p.name for p in play.table.players] == ["Ann", "Ben", "Cy", "Dee"]
            assert made is not None
            assert (made.number, made.value, made.previous) == (1, 2, 0)
        kinds = [
            s.split()[0] + " " + s.split()[1 if s.startswith("UPDATE") else 2] for s in statements
        ]
        assert kinds == ["UPDATE plays", "INSERT edits"], statements
        db.session.expire_all()
        stored = db.session.get(Play, play_id)
        assert stored is not None
        assert (stored.version, stored.state["players"][0]["display"]["hoopoe"]) == (1, 2)


def test_the_answer_to_a_tap_reads_the_play_once(app: Flask, client: FlaskClient) -> None:
    """The whole tap request: the play is loaded once, written, and the answer is drawn
    from it as written (``plays.as_stored``), not read back after the commit."""
    links = create_table(client, ["Ann", "Ben", "Cy", "Dee"])
    play_id = start_play(client, links.edit)
    csrf(client, f"/t/{links.edit}")  # the token is fetched before counting
    with app.app_context(), statements_run() as statements:
        answer = edit(client, links.edit, play_id, path=HOOPOE, value="2", base="0")
    assert answer.status_code == 200
    assert 'value="2"' in answer.get_data(as_text=True)
    reads_of_plays = [s for s in statements if s.startswith("SELECT") and " plays" in s]
    assert len(reads_of_plays) == 1, reads_of_plays


def test_a_stale_play_is_read_again_and_the_edit_applied_to_the_fresh_state(
    app: Flask, client: FlaskClient
) -> None:
    """Not reading the play again before writing is safe: the version check catches a
    write by another phone in between, and the edit is applied to the fresh state."""
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_play(client, links.edit)

    def other_phone(path: str, value: str, base: str) -> None:
        with app.app_context():  # a session of its own, as another request has
            answer = edit(client, links.edit, play_id, path=path, value=value, base=base)
            assert answer.status_code == 200

    with app.app_context():
        play = _open(links.edit, play_id)
        other_phone("players[1].display.hoopoe", "3", "0")
        assert play.version == 0  # this request's copy is stale now
        made = plays.set_value(play, path=HOOPOE, raw="1", base="0", author=AUTHOR)
        assert made is not None
        assert made.number == 2
        assert play.version == 2
        displays = [p["display"].get("hoopoe") for p in play.state["players"]]
        assert displays == [1, 3]
        # The same field changed by another phone meanwhile: refused with the fresh value.
        other_phone(HOOPOE, "4", "1")
        with pytest.raises(plays.EditConflict) as clash:
            plays.set_value(play, path=HOOPOE, raw="2", base="1", author=AUTHOR)
        assert clash.value.current == 4


def _last_use(table_id: int) -> object:
    db.session.expire_all()
    table = db.session.get(Table, table_id)
    assert table is not None
    return table.last_used_at


@pytest.mark.parametrize("series", [False, True])
def test_a_tap_writes_the_tables_last_use_once_a_minute_or_each_time_in_a_series(
    app: Flask, client: FlaskClient, series: bool
) -> None:
    """The last use keeps the join code alive for hours: a minute late changes nothing.
    A game of a series touches it on every edit: the table page, kept per last use, shows
    the series' standings as they stand."""
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_play(client, links.edit, series=series)
    with app.app_context():
        play = _open(links.edit, play_id)
        table_id = play.table_id
        long_ago = utcnow() - 2 * tables.TOUCH_EVERY
        play.table.last_used_at = long_ago
        db.session.commit()
        plays.set_value(_open(links.edit, play_id), path=HOOPOE, raw="1", base="0", author=AUTHOR)
        touched = _last_use(table_id)
        assert isinstance(touched, type(long_ago))
        assert touched - long_ago >= tables.TOUCH_EVERY
        plays.set_value(_open(links.edit, play_id), path=HOOPOE, raw="2", base="1", author=AUTHOR)
        again = _last_use(table_id)
        assert (again != touched) is series
        assert again - touched < timedelta(seconds=5)
