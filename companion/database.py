"""Database set-up: SQLite pragmas on every connection, migrations on first start.

Several processes may start at once on a fresh database (gunicorn's workers each make the
app): one migrates while the others wait for it, under a lock the database's users share
(a lock file beside a SQLite database, an advisory lock in PostgreSQL); each then finds
the schema current and goes on. Without it two of them created the same tables and one
failed to boot ("table groups already exists").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import flask_migrate
from filelock import FileLock
from flask import Flask
from sqlalchemy import Engine, event, text
from sqlalchemy.exc import OperationalError, SQLAlchemyError

from companion.extensions import db

SQLITE_BUSY_TIMEOUT_MS = 5000
#: The values of SQLite's ``synchronous`` pragma the setting ``SQLITE_SYNCHRONOUS`` takes.
SQLITE_SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")
#: The PostgreSQL advisory lock the migrating process holds (any number no other
#: application on the same database uses; this one spells "odd companion migrate").
MIGRATION_LOCK_KEY = 0x0DDC_0A1A_0317
#: A process waits this long for another's migrations, then gives up (and says so).
MIGRATION_WAIT_SECONDS = 600


def configure(app: Flask) -> None:
    """Turn on SQLite's WAL, busy timeout, foreign keys and its ``synchronous`` setting;
    migrate when configured to."""
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            synchronous = str(app.config["SQLITE_SYNCHRONOUS"]).upper()
            if synchronous not in SQLITE_SYNCHRONOUS:
                raise ValueError(f"SQLITE_SYNCHRONOUS is one of {', '.join(SQLITE_SYNCHRONOUS)}")
            event.listen(db.engine, "connect", _sqlite_pragmas(synchronous))
        if app.config["AUTO_MIGRATE"]:
            with migration_lock(db.engine):
                flask_migrate.upgrade()


@contextmanager
def migration_lock(engine: Engine) -> Iterator[None]:
    """Hold the lock every process of this database takes to migrate it: one at a time."""
    if engine.dialect.name == "sqlite":
        database = engine.url.database
        if not database or database == ":memory:":
            yield  # a database of this process alone
            return
        with FileLock(f"{Path(database)}.migrate-lock", timeout=MIGRATION_WAIT_SECONDS):
            yield
        return
    if engine.dialect.name != "postgresql":
        yield
        return
    # A session-level lock on a connection of its own, outside any transaction: the
    # migrations run on other connections while this one holds it.
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(
            text(f"SET lock_timeout = '{MIGRATION_WAIT_SECONDS}s'")  # waits, then says so
        )
        connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
        try:
            yield
        finally:
            connection.execute(
                text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK_KEY}
            )
            connection.execute(text("RESET lock_timeout"))  # the pool reuses the connection


def _sqlite_pragmas(synchronous: str) -> Callable[[Any, Any], None]:
    """Per-connection settings: WAL lets readers and a writer work at once. The busy
    timeout comes first: switching to WAL needs the file's lock for a moment, and
    processes starting together would otherwise be refused it at once. ``synchronous``
    (one of :data:`SQLITE_SYNCHRONOUS`) says when a commit waits for the disk."""

    def set_pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.close()

    return set_pragmas


def is_contention(error: OperationalError) -> bool:
    """Whether the database refused a statement only because others held its lock too long
    (SQLite's "database is locked" once ``busy_timeout`` ran out): trying again later
    works, so it is said so rather than treated as a failure of the app."""
    message = str(error.orig)
    return "database is locked" in message or "database table is locked" in message


def answers() -> bool:
    """Whether the database answers a trivial query now (the health check); a failed
    attempt leaves the session clean for whatever the request does next."""
    try:
        db.session.execute(text("SELECT 1"))
    except SQLAlchemyError:
        db.session.rollback()
        return False
    return True
