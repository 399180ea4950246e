"""A first start of several workers on a fresh database never races (both backends).

Four workers boot at the same moment on a fresh database, four databases in a row, on
SQLite and on PostgreSQL (``tests/deploy/first_start.py`` forks them as gunicorn's master
does; each makes the app with the default ``AUTO_MIGRATE``). Every worker must boot, and
the database must end up migrated once: at the newest revision with every table.
Without the migration lock, 3 of 10 SQLite and 3 of 5 PostgreSQL starts failed when it
was written, and every start (10 of 10 on each) on 2026-12-02: four starts suffice.

Bounded: the script is killed after ``SCRIPT_SECONDS``.
"""

from __future__ import annotations

import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

from companion import PROJECT_ROOT
from support.postgres import PostgresCluster

STARTS = 4
WORKERS = 4
SCRIPT_SECONDS = 300


def _start_all(urls: list[str]) -> list[str]:
    """Boot WORKERS workers together on each database; one outcome line per database."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.deploy.first_start", "--workers", str(WORKERS), *urls],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=SCRIPT_SECONDS,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.splitlines()


def _assert_migrated(url: str) -> None:
    """The schema is complete and alembic records one current revision."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            revisions = connection.execute(text("SELECT version_num FROM alembic_version"))
            assert len(revisions.all()) == 1
            assert {"tables", "plays", "groups"} <= set(inspect(connection).get_table_names())
    finally:
        engine.dispose()


@pytest.fixture
def fresh_postgres(postgres: PostgresCluster) -> Iterator[list[str]]:
    """STARTS empty databases in the suite's throwaway cluster (no template: unmigrated)."""
    names = [f"first_{uuid.uuid4().hex[:10]}" for _ in range(STARTS)]
    for name in names:
        postgres.execute(f"CREATE DATABASE {name}")
    yield [f"{postgres.base_url}/{name}" for name in names]
    for name in names:
        postgres.execute(f"DROP DATABASE {name} WITH (FORCE)")


@pytest.mark.both_backends("concurrent migrations of a fresh database")
def test_four_workers_on_a_fresh_sqlite_database_all_boot(tmp_path: Path) -> None:
    urls = [f"sqlite:///{tmp_path / f'start{number}.sqlite'}" for number in range(STARTS)]
    outcomes = _start_all(urls)
    assert outcomes == ["ok"] * STARTS, outcomes
    for url in urls:
        _assert_migrated(url)


@pytest.mark.both_backends("concurrent migrations of a fresh database")
def test_four_workers_on_a_fresh_postgresql_database_all_boot(fresh_postgres: list[str]) -> None:
    outcomes = _start_all(fresh_postgres)
    assert outcomes == ["ok"] * STARTS, outcomes
    for url in fresh_postgres:
        _assert_migrated(url)
