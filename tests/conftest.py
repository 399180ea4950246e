"""Shared fixtures: a fresh app per test on SQLite *and* on PostgreSQL, a client, factories.

Each test gets its own database, copied from one migrated template per session (a file
copy for SQLite, ``CREATE DATABASE ... TEMPLATE`` for PostgreSQL), so tests are isolated
and the migrations themselves are what builds every schema.

PostgreSQL runs as a throwaway cluster (initdb + pg_ctl on 127.0.0.1) started here. Where
its programs are missing the PostgreSQL half is skipped, except under CI (``CI`` set),
where that is an error.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jinja2
import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings

from companion import create_app
from companion.extensions import db

#: Under CI, hypothesis runs the same examples every time and prints how to reproduce a
#: failure, so a red build is never a matter of luck; locally it keeps exploring.
settings.register_profile("ci", derandomize=True, print_blob=True, deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

SQLITE, POSTGRES = "sqlite", "postgresql"
PG_START_SECONDS = 30


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent
    which = shutil.which("pg_ctl")
    return Path(which).parent if which else None


def _as_postgres_user(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root; CI runs as root, so drop to the postgres user."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


class PostgresCluster:
    """A throwaway cluster in a temporary folder; stopped and removed at the end."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="companion-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres")
        self.base_url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}"

    def _run(self, *command: str) -> None:
        subprocess.run(
            _as_postgres_user([str(self.bin_dir / command[0]), *command[1:]]),
            check=True,
            capture_output=True,
            timeout=PG_START_SECONDS,
        )

    def start(self) -> None:
        """initdb, then start on 127.0.0.1 with its socket in its own folder."""
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        options = f"-h 127.0.0.1 -p {self.port} -k {self.root} -F"
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "log"),
            "-w",
            "-t",
            str(PG_START_SECONDS),
            "start",
        )

    def stop(self) -> None:
        """Stop the server and remove its files."""
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def execute(self, sql: str) -> None:
        """Run one statement outside a transaction (CREATE/DROP DATABASE need that)."""
        import psycopg

        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True
        ) as connection:
            connection.execute(sql)  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    """A running throwaway PostgreSQL cluster with a migrated template database."""
    bin_dir = _pg_bin()
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


class SharedBytecode(jinja2.BytecodeCache):
    """Compiled templates kept in memory for every app of this test process.

    Each test builds its own app, and each app would compile every template it renders
    again (about 60 ms a test); the bytecode is the same for all of them, keyed by the
    template's name and source.
    """

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Fill the bucket from memory when this template was compiled before."""
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Keep a freshly compiled template for the next app."""
        self._code[bucket.key] = bucket.bytecode_to_string()


TEMPLATES = SharedBytecode()


def make_app(settings: dict[str, Any]) -> Flask:
    """``create_app`` for a test, with the process's compiled templates."""
    application = create_app(settings)
    application.jinja_env.bytecode_cache = TEMPLATES
    return application


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
