"""Load and crash runs: N live tables of 4 phones against gunicorn with 2 workers.

Each phone (``support/locustfile.py``) polls its play every 2 s and taps a stepper
every 5 s, each from its own moment. Figures count from when every phone has joined.
A run reports locust's p95 and error count, then checks that every tap the server
acknowledged is in the database and that each play's edit log replays to its state.
With ``crash_halfway`` it kills the whole server (``kill -9`` of gunicorn and its
workers) halfway through, starts it again, and checks the same afterwards; taps refused
while it was down do not count as acknowledged.

``benchmarks/load.py`` is the command line (many tables, the largest passing run);
``tests/deploy/test_load.py`` runs a small load run and a crash run in the suite.
"""

from __future__ import annotations

import csv
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import func, select, text

from companion import create_app
from companion.extensions import db
from companion.models import Edit, Play
from companion.services import plays
from support.client import create_table, start_play
from support.servers import app_env, crash, free_port, start_gunicorn, stop

ROOT = Path(__file__).resolve().parents[1]
SECRET = "load-run"
PHONES_PER_TABLE = 4


@dataclass
class Outcome:
    """What a run measured and found."""

    requests: int
    failures: int
    failure_kinds: list[str]
    p95_ms: float
    acknowledged: int
    missing: list[str]
    log_problems: list[str]
    p95_by_request: dict[str, float] = field(default_factory=dict)

    def ok(self, p95_limit_ms: float = 100.0) -> bool:
        """No error, p95 within the limit, nothing acknowledged lost, every log sound."""
        return (
            self.failures == 0
            and self.p95_ms <= p95_limit_ms
            and not self.missing
            and not self.log_problems
        )


def prepare(database_url: str, folder: Path, tables: int) -> Path:
    """Create the tables (4 players, an Odd World play each); returns the tables file."""
    app = create_app(
        {
            "INSTANCE_PATH": str(folder),
            "SECRET_KEY": SECRET,
            "DATABASE_URL": database_url,
            "RATELIMIT_ENABLED": False,
        }
    )
    client = app.test_client()
    listed = []
    for _ in range(tables):
        links = create_table(client, ["Ann", "Ben", "Cy", "Dee"])
        listed.append({"edit": links.edit, "play": start_play(client, links.edit)})
    with app.app_context():
        db.engine.dispose()
    path = folder / "tables.json"
    path.write_text(json.dumps(listed))
    return path


def run_locust(
    folder: Path,
    tables_file: Path,
    port: int,
    phones: int,
    seconds: int,
    spawn_rate: int | None = None,
) -> subprocess.Popen[bytes]:
    """Start locust headless with one phone per user (``spawn_rate`` joining a second:
    a fifth of them by default); the caller waits for it."""
    env = dict(os.environ, LOAD_TABLES=str(tables_file), LOAD_ACKS=str(folder / "acks.json"))
    command = [
        sys.executable,
        "-m",
        "locust",
        "-f",
        str(Path(__file__).with_name("locustfile.py")),
        "--headless",
        "--users",
        str(phones),
        "--spawn-rate",
        str(spawn_rate or max(10, phones // 5)),
        "--run-time",
        f"{seconds}s",
        "--stop-timeout",
        "5",
        "--host",
        f"http://127.0.0.1:{port}",
        "--csv",
        str(folder / "locust"),
        "--only-summary",
        # Figures of the steady state: the burst of page loads while phones join (each
        # opens its play page once) is not what a live table asks of the server.
        "--reset-stats",
        "--loglevel",
        "ERROR",
    ]
    with (folder / "locust.log").open("ab") as out:
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)


def _milliseconds(cell: str) -> float:
    """A figure of locust's CSV; "N/A" (no request of that kind finished) is NaN."""
    return math.nan if cell == "N/A" else float(cell)


def p95_by_request(folder: Path) -> dict[str, float]:
    """locust's p95 (ms) of each kind of request (play page, poll, tap)."""
    with (folder / "locust_stats.csv").open() as stats:
        return {
            row["Name"]: _milliseconds(row["95%"])
            for row in csv.DictReader(stats)
            if row["Name"] != "Aggregated"
        }


def locust_totals(folder: Path) -> tuple[int, int, float]:
    """Requests, failures and p95 (ms) of the whole run, from locust's CSV."""
    with (folder / "locust_stats.csv").open() as stats:
        for row in csv.DictReader(stats):
            if row["Name"] == "Aggregated":
                return (
                    int(row["Request Count"]),
                    int(row["Failure Count"]),
                    _milliseconds(row["95%"]),
                )
    raise RuntimeError("locust wrote no totals")


def check_database(database_url: str, folder: Path) -> tuple[int, list[str], list[str]]:
    """Every acknowledged tap present; every play's log replays to its state."""
    acks: list[dict[str, Any]] = json.loads((folder / "acks.json").read_text())
    app = create_app(
        {"INSTANCE_PATH": str(folder), "SECRET_KEY": SECRET, "DATABASE_URL": database_url}
    )
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            verdict = db.session.execute(text("PRAGMA integrity_check")).scalar()
            assert verdict == "ok", verdict
        wait_until_no_play_changes()
        stored = Counter(
            (play_id, path, str(value))
            for play_id, path, value in db.session.execute(
                select(Edit.play_id, Edit.path, Edit.value).where(Edit.kind != "undo")
            )
        )
        wanted = Counter((ack["play"], ack["path"], str(ack["value"])) for ack in acks)
        missing = [
            f"{key}: {count - stored[key]} lost"
            for key, count in wanted.items()
            if stored[key] < count
        ]
        problems = [
            f"play {play.id}: {problem}"
            for play in db.session.scalars(select(Play))
            for problem in plays.log_problems(play)
        ]
        db.session.remove()
        db.engine.dispose()
    return len(acks), missing, problems


#: How often, and at most how long, to look for plays still changing before checking.
QUIET_EVERY_S = 0.25
QUIET_AT_MOST_S = 30.0


def wait_until_no_play_changes() -> None:
    """Return once no play's version moved between two looks (or after 30 s).

    Stopping the phones does not stop the server: a loaded gunicorn still answers the
    taps it had already read, for seconds. A play read while one of those commits can
    pair an older state with a newer log, a log problem that is not one.
    """

    def versions() -> tuple[int, int]:
        count, total = db.session.execute(
            select(func.count(Play.id), func.coalesce(func.sum(Play.version), 0))
        ).one()
        db.session.rollback()  # end the read, so the next look sees new commits
        return int(count), int(total)

    deadline = time.monotonic() + QUIET_AT_MOST_S
    last = versions()
    while time.monotonic() < deadline:
        time.sleep(QUIET_EVERY_S)
        now = versions()
        if now == last:
            return
        last = now


@dataclass
class Server:
    """gunicorn serving one database for load runs; a crash run restarts it in place."""

    url: str
    folder: Path
    port: int
    env: dict[str, str]
    log: Path
    process: subprocess.Popen[bytes]


@contextmanager
def serving(database_url: str, folder: Path) -> Iterator[Server]:
    """gunicorn on a migrated database for the block (several runs may share it)."""
    migrate(database_url, folder)
    port = free_port()
    env = app_env(database_url, SECRET)
    log = folder / "gunicorn.log"
    server = Server(database_url, folder, port, env, log, start_gunicorn(port, env, log))
    try:
        yield server
    finally:
        stop(server.process)  # the one started after a crash, if any


def migrate(database_url: str, folder: Path) -> None:
    """Bring the database's schema up to date (the servers start without migrating)."""
    app = create_app(
        {"INSTANCE_PATH": str(folder), "SECRET_KEY": SECRET, "DATABASE_URL": database_url}
    )
    with app.app_context():
        db.engine.dispose()


def measure(server: Server, tables: int, seconds: int, *, crash_halfway: bool) -> Outcome:
    """One load run against a running server, on new tables of its own.

    Its figures and checks count only its own phones and taps, so runs can share a server.
    """
    folder = Path(tempfile.mkdtemp(prefix="run-", dir=server.folder))
    tables_file = prepare(server.url, folder, tables)
    phones = run_locust(folder, tables_file, server.port, tables * PHONES_PER_TABLE, seconds)
    try:
        if crash_halfway:
            time.sleep(seconds / 2)
            crash(server.process)
            server.process = start_gunicorn(server.port, server.env, server.log)
        phones.wait(timeout=seconds + 60)
    finally:
        if phones.poll() is None:
            phones.kill()
            phones.wait()
    requests, failures, p95 = locust_totals(folder)
    acknowledged, missing, problems = check_database(server.url, folder)
    return Outcome(
        requests,
        failures,
        failure_kinds(folder),
        p95,
        acknowledged,
        missing,
        problems,
        p95_by_request(folder),
    )


def run(tables: int, seconds: int, *, postgres: bool, crash_halfway: bool) -> Outcome:
    """One load run on a new database and server; see the module's docstring."""
    folder = Path(tempfile.mkdtemp(prefix="load-"))
    with database(folder, postgres) as url, serving(url, folder) as server:
        return measure(server, tables, seconds, crash_halfway=crash_halfway)


def failure_kinds(folder: Path) -> list[str]:
    """Locust's failures by request and error, with their counts."""
    path = folder / "locust_failures.csv"
    if not path.exists():
        return []
    with path.open() as failures:
        return [
            f"{row['Name']}: {row['Error']} x{row['Occurrences']}"
            for row in csv.DictReader(failures)
        ]


@contextmanager
def database(folder: Path, postgres: bool) -> Iterator[str]:
    """A SQLite file in ``folder``, or a database in a throwaway PostgreSQL cluster."""
    if not postgres:
        yield f"sqlite:///{folder / 'companion.sqlite'}"
        return
    from support.postgres import PostgresCluster

    bin_dir = postgres_bin()
    if bin_dir is None:
        raise RuntimeError("PostgreSQL is not installed (apt install postgresql)")
    cluster = PostgresCluster(bin_dir)
    cluster.start()
    try:
        cluster.execute("CREATE DATABASE companion_load")
        yield f"{cluster.base_url}/companion_load"
    finally:
        cluster.stop()


def postgres_bin() -> Path | None:
    """Where PostgreSQL's initdb and pg_ctl are, if installed."""
    from support.postgres import pg_bin

    return pg_bin()
