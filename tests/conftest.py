"""Shared fixtures: a fresh app per test on SQLite (and PostgreSQL where marked), a client.

Each test gets its own app and database, copied from one migrated template per test
process (a file copy for SQLite, ``CREATE DATABASE ... TEMPLATE`` for PostgreSQL), so
tests are isolated and the migrations themselves are what builds every schema. A test
runs on PostgreSQL too when it is marked ``both_backends("why")`` (see
``pytest_generate_tests``).

PostgreSQL runs as a throwaway cluster (``support/postgres.py``) started here. Where its
programs are missing the PostgreSQL half is skipped, except under CI (``CI`` set), where
that is an error.
"""

from __future__ import annotations

import os
import shutil
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings

from companion import create_app
from companion.extensions import db
from support.app import POSTGRES, SQLITE, make_app
from support.postgres import PostgresCluster, pg_bin

#: Under CI, hypothesis runs the same examples every time and prints how to reproduce a
#: failure, so a red build is never a matter of luck; locally it keeps exploring.
settings.register_profile("ci", derandomize=True, print_blob=True, deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    """A running throwaway PostgreSQL cluster with a migrated template database."""
    bin_dir = pg_bin()
    if bin_dir is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL (initdb, pg_ctl) is required under CI but was not found.")
        pytest.skip("PostgreSQL is not installed here (apt install postgresql).")
    cluster = PostgresCluster(bin_dir)
    cluster.start()
    try:
        cluster.execute("CREATE DATABASE companion_template")
        template = create_app(
            {
                "TESTING": True,
                "DATABASE_URL": f"{cluster.base_url}/companion_template",
                "SECRET_KEY": "template",
            }
        )
        with template.app_context():
            db.engine.dispose()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite database file to copy for each test."""
    folder = tmp_path_factory.mktemp("template")
    app = create_app({"TESTING": True, "INSTANCE_PATH": folder, "SECRET_KEY": "template"})
    with app.app_context():
        db.engine.dispose()
    return folder / "companion.sqlite"


def _settings(instance: Path, url: str | None) -> dict[str, Any]:
    settings: dict[str, Any] = {
        "TESTING": True,
        "INSTANCE_PATH": instance,
        "SECRET_KEY": "test-secret",
        "SERVER_NAME": "companion.test",
        # The template is migrated already; each copy is identical.
        "AUTO_MIGRATE": False,
    }
    if url:
        settings["DATABASE_URL"] = url
    return settings


BOTH_BACKENDS = "both_backends"


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker that puts a test on PostgreSQL as well as SQLite."""
    config.addinivalue_line(
        "markers",
        f"{BOTH_BACKENDS}(why): run on PostgreSQL as well as SQLite, because the database"
        " changes what the test checks (SQL, aggregates, contention, upserts, migrations,"
        " transfer); the reason is required",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every app test runs on SQLite; one marked ``both_backends("why")`` on PostgreSQL too.

    Most tests check pages, forms and engines, which the database does not change, so a
    second run on PostgreSQL would only cost time (about half the suite's, once). The
    marker's reason is required so that each second run says what it is for.
    """
    if "backend" not in metafunc.fixturenames:
        return
    if any("backend" in mark.args[0] for mark in metafunc.definition.iter_markers("parametrize")):
        return  # the test chose its backend itself
    marker = metafunc.definition.get_closest_marker(BOTH_BACKENDS)
    if marker is None:
        metafunc.parametrize("backend", [SQLITE])
        return
    if not (marker.args and isinstance(marker.args[0], str) and marker.args[0].strip()):
        raise pytest.UsageError(f"{metafunc.definition.nodeid}: both_backends needs a reason")
    metafunc.parametrize("backend", [SQLITE, POSTGRES])


#: Where each kind of test goes in the run, slowest kinds first (their share of the
#: suite's time in brackets, docs/development.md): servers (~15 %; first, as before, so
#: that their timings are not taken beside a browser test), browser tests (~60 %), pages
#: (~20 %), then the quick ones.
RUN_ORDER = ("tests/deploy/", "tests/e2e/", "tests/web/", "tests/api/", "tests/rules/")


def _run_rank(item: pytest.Item) -> int:
    path = item.nodeid.split("::", 1)[0]
    return next(
        (rank for rank, kind in enumerate(RUN_ORDER) if path.startswith(kind)), len(RUN_ORDER)
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Start the slowest kinds of tests first, so that the run ends on quick ones.

    pytest-xdist's worksteal hands each worker half of this list and lets an idle worker
    take half of what another has not started yet, from its end: with a few long browser
    tests last, one worker sat idle while the other finished them. The sort is stable, so
    each file's tests stay together and in order (module-scoped servers start once).
    """
    items.sort(key=_run_rank)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """Which database this test runs on (see ``pytest_generate_tests``)."""
    return str(request.param)


@pytest.fixture
def app(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Flask]:
    """A fresh app with its own migrated database on the chosen backend."""
    if backend == SQLITE:
        shutil.copy(request.getfixturevalue("sqlite_template"), tmp_path / "companion.sqlite")
        application = make_app(_settings(tmp_path, None))
        yield application
        with application.app_context():
            db.engine.dispose()
        return
    cluster: PostgresCluster = request.getfixturevalue("postgres")
    name = f"t_{uuid.uuid4().hex[:12]}"
    cluster.execute(f"CREATE DATABASE {name} TEMPLATE companion_template")
    application = make_app(_settings(tmp_path, f"{cluster.base_url}/{name}"))
    yield application
    with application.app_context():
        db.engine.dispose()
    cluster.execute(f"DROP DATABASE {name} WITH (FORCE)")


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client of the app."""
    return app.test_client()


def wait_until(predicate: Any, *, seconds: float = 5.0) -> bool:
    """Poll a predicate until it holds (for background servers in e2e tests)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False
