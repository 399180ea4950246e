"""A small load run and a crash run (``support/load.py``), on SQLite and PostgreSQL.

Bounded: a handful of tables for about ten seconds, gunicorn and locust on 127.0.0.1,
always stopped. The figures for many tables come from the benchmark itself (``docs/deploy.md``).
"""

from __future__ import annotations

import os

import pytest

from support import load

TABLES = 5
SECONDS = 8


@pytest.fixture(params=[False, True], ids=["sqlite", "postgresql"])
def postgres(request: pytest.FixtureRequest) -> bool:
    """Whether the run uses a throwaway PostgreSQL cluster."""
    if request.param and load.postgres_bin() is None and not os.environ.get("CI"):
        pytest.skip("PostgreSQL is not installed here (apt install postgresql).")
    return bool(request.param)


def test_live_tables_under_load_lose_nothing(postgres: bool) -> None:
    outcome = load.run(TABLES, SECONDS, postgres=postgres, crash_halfway=False)
    assert outcome.requests > TABLES * load.PHONES_PER_TABLE * 3
    assert outcome.failures == 0, outcome.failure_kinds
    assert outcome.acknowledged > 0
    assert outcome.missing == []
    assert outcome.log_problems == []


def test_a_killed_server_keeps_every_acknowledged_tap(postgres: bool) -> None:
    outcome = load.run(TABLES, SECONDS, postgres=postgres, crash_halfway=True)
    assert outcome.acknowledged > 0
    assert outcome.missing == []
    assert outcome.log_problems == []
