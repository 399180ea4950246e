"""Database set-up: SQLite pragmas on every connection, migrations on first start."""

from __future__ import annotations

from typing import Any

import flask_migrate
from flask import Flask
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from companion.extensions import db

SQLITE_BUSY_TIMEOUT_MS = 5000


def configure(app: Flask) -> None:
    """Turn on SQLite's WAL, busy timeout and foreign keys; migrate when configured to."""
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            event.listen(db.engine, "connect", _sqlite_pragmas)
        if app.config["AUTO_MIGRATE"]:
            flask_migrate.upgrade()


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """Per-connection settings: WAL lets readers and a writer work at once."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def is_contention(error: OperationalError) -> bool:
    """Whether the database refused a statement only because others held its lock too long
    (SQLite's "database is locked" once ``busy_timeout`` ran out): trying again later
    works, so it is said so rather than treated as a failure of the app."""
    message = str(error.orig)
    return "database is locked" in message or "database table is locked" in message
