"""A small load run, a crash run (``support/load.py``) and an undo race, on SQLite and
PostgreSQL, against gunicorn with two worker processes.

Bounded: a handful of tables for a few seconds, gunicorn and locust on 127.0.0.1, always
stopped; one server per backend serves every run, each on tables of its own. The figures
for many tables come from the benchmark itself (``docs/deploy.md``).
"""

from __future__ import annotations

import re
import shutil
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import create_app
from companion.extensions import db
from companion.models import Play
from companion.services import plays
from support import load
from support.client import create_table, start_play
from support.postgres import PostgresCluster
from support.servers import HOOPOE, ServerPhone

TABLES = 5
SECONDS = 8


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[load.Server]:
    """One gunicorn per backend for both runs of this module (each on tables of its own),
    on a copy of the migrated template database (the session's PostgreSQL cluster)."""
    folder = tmp_path_factory.mktemp(f"load-{request.param}")
    if request.param == "postgresql":
        cluster: PostgresCluster = request.getfixturevalue("postgres")
        name = f"load_{uuid.uuid4().hex[:12]}"
        cluster.execute(f"CREATE DATABASE {name} TEMPLATE companion_template")
        url = f"{cluster.base_url}/{name}"
    else:
        template: Path = request.getfixturevalue("sqlite_template")
        shutil.copy(template, folder / "companion.sqlite")
        url = f"sqlite:///{folder / 'companion.sqlite'}"
    with load.serving(url, folder) as running:
        yield running


def test_live_tables_under_load_lose_nothing(server: load.Server) -> None:
    outcome = load.measure(server, TABLES, SECONDS, crash_halfway=False)
    assert outcome.requests > TABLES * load.PHONES_PER_TABLE * 3
    assert outcome.failures == 0, outcome.failure_kinds
    assert outcome.acknowledged > 0
    assert outcome.missing == []
    assert outcome.log_problems == []


def test_a_killed_server_keeps_every_acknowledged_tap(server: load.Server) -> None:
    outcome = load.measure(server, TABLES, SECONDS, crash_halfway=True)
    assert outcome.acknowledged > 0
    assert outcome.missing == []
    assert outcome.log_problems == []


#: Rounds of each racer: a stepper's + (from the count it last saw) against an Undo of the
#: latest change, each phone its own session, answered by either worker process.
RACE_ROUNDS = 40
HOOPOE_VALUE = re.compile(r'id="n-0-hoopoe" name="value" value="(\d+)"')
UNDOES = re.compile(r'name="undoes" value="(\d+)"')


def _new_play(database_url: str, folder: Path) -> tuple[str, int]:
    """A table of two with an Odd World play on the server's database; token and play."""
    app = create_app(
        {"INSTANCE_PATH": str(folder), "SECRET_KEY": load.SECRET, "DATABASE_URL": database_url}
    )
    try:
        client = app.test_client()
        token = create_table(client, ["Ann", "Ben"]).edit
        return token, start_play(client, token)
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def test_undo_racing_edits_in_two_worker_processes_never_overwrites(
    server: load.Server, tmp_path: Path
) -> None:
    """tests/web/test_trust.py races Undo against edits in one process, whose gate runs
    one request at a time; here two processes answer them at the same time, so only the
    version check in the database keeps an Undo from reverting a newer edit."""
    token, play_id = _new_play(server.url, tmp_path)
    base = f"http://127.0.0.1:{server.port}"
    page = f"/t/{token}/plays/{play_id}"
    accepted: list[int] = []
    failures: list[str] = []

    def stepper() -> None:
        phone = ServerPhone(base)
        seen = int(HOOPOE_VALUE.findall(phone.open(page))[0])
        for _ in range(RACE_ROUNDS):
            data = {"path": HOOPOE, "value": str(seen + 1), "base": str(seen)}
            answer = phone.post(f"{page}/edit", data)
            if answer.status_code == 200:
                accepted.append(seen + 1)
            elif answer.status_code not in (409, 422):  # a clash; more birds than cards
                failures.append(f"edit: {answer.status_code}")
            seen = int(HOOPOE_VALUE.findall(phone.open(page))[0])

    def undoer() -> None:
        phone = ServerPhone(base)
        for _ in range(RACE_ROUNDS):
            latest = UNDOES.findall(phone.open(page))
            answer = phone.post(f"{page}/undo", {"undoes": latest[0] if latest else ""})
            if answer.status_code not in (200, 409, 422):
                failures.append(f"undo: {answer.status_code}")

    racers = [threading.Thread(target=stepper), threading.Thread(target=undoer)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(timeout=120)
    assert failures == []
    assert accepted
    app = create_app(
        {"INSTANCE_PATH": str(tmp_path), "SECRET_KEY": load.SECRET, "DATABASE_URL": server.url}
    )
    with app.app_context():
        play = db.session.get(Play, play_id)
        assert play is not None
        assert plays.log_problems(play) == []
        sets = sum(1 for e in play.edits if e.kind == "set")
        undos = sum(1 for e in play.edits if e.kind == "undo")
        assert undos, "no undo went through: nothing raced"
        assert sets == len(accepted)
        # Every accepted + is either still counted or was explicitly undone.
        assert play.state["players"][0]["display"]["hoopoe"] == sets - undos
        db.session.remove()
        db.engine.dispose()
