"""A small load run and a crash run (``support/load.py``), on SQLite and PostgreSQL.

Bounded: a handful of tables for a few seconds, gunicorn and locust on 127.0.0.1, always
stopped; one server per backend serves both runs, each on tables of its own. The figures
for many tables come from the benchmark itself (``docs/deploy.md``).
"""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from support import load
from support.postgres import PostgresCluster

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
