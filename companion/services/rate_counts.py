"""Rate-limit counters kept in the app's own database: ``RATELIMIT_STORAGE_URI =
"database://"`` (the default).

Flask-Limiter's memory storage counts in each worker process on its own, so with the
documented two or more gunicorn workers one address got twice the documented limits.
Counting in the database every worker already shares needs no extra service: each count
is one statement (an upsert returning the new count), committed at once in its own short
transaction beside the request's, so a burst from many workers at once is still held to
the limit exactly. Windows are fixed (Flask-Limiter's default strategy); a key whose
window is over starts again from the count of this hit.

A count need not survive a power cut (losing one lets a few more requests through), so
it is not flushed to disk before the answer: PostgreSQL commits it with
``synchronous_commit`` off, and SQLite writes it through a connection of its own with
``synchronous=NORMAL`` (in WAL mode: durable at the next checkpoint). That keeps a count
to a fraction of a millisecond; flushed, it cost about 18 ms here, on every API call.
"""

from __future__ import annotations

import itertools
import time
from typing import Any

from flask import current_app
from limits.storage import Storage
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import SQLAlchemyError

from companion.database import SQLITE_BUSY_TIMEOUT_MS
from companion.extensions import db

SCHEME = "database"
#: Every this many counts a process also deletes the rows whose window is over.
SWEEP_EVERY = 500
KEY_LENGTH = 255

_INCREMENT = text(
    "INSERT INTO rate_limits (key, count, expires_at) VALUES (:key, :amount, :ends) "
    "ON CONFLICT (key) DO UPDATE SET "
    "count = CASE WHEN rate_limits.expires_at <= :now THEN :amount "
    "ELSE rate_limits.count + :amount END, "
    "expires_at = CASE WHEN rate_limits.expires_at <= :now THEN :ends "
    "ELSE rate_limits.expires_at END "
    "RETURNING count"
)
_COUNT = text("SELECT count FROM rate_limits WHERE key = :key AND expires_at > :now")
_EXPIRY = text("SELECT expires_at FROM rate_limits WHERE key = :key AND expires_at > :now")
_SWEEP = text("DELETE FROM rate_limits WHERE expires_at <= :now")
_UNFLUSHED = text("SET LOCAL synchronous_commit TO OFF")
ENGINE_KEY = "companion.rate_counts_engine"


def _engine() -> Engine:
    """The engine counts are written through: the app's own, or for SQLite one whose
    connections do not flush each commit to disk (kept per app)."""
    if db.engine.dialect.name != "sqlite":
        return db.engine
    found: Engine | None = current_app.extensions.get(ENGINE_KEY)
    if found is None:
        found = create_engine(db.engine.url)
        event.listen(found, "connect", _unflushed_sqlite)
        current_app.extensions[ENGINE_KEY] = found
    return found


def _unflushed_sqlite(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


class DatabaseStorage(Storage):
    """A ``limits`` storage whose counters are rows of the app's ``rate_limits`` table
    (reached through the current app's engine, so one storage serves every app)."""

    STORAGE_SCHEME = [SCHEME]  # noqa: RUF012 - the type limits declares

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **_options: object):
        super().__init__(uri, wrap_exceptions=wrap_exceptions)
        self._counts = itertools.count(1)

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        """What a failing database raises."""
        return SQLAlchemyError

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Count ``amount`` more for ``key`` (a new window of ``expiry`` seconds when the
        last one is over); the new count."""
        now = time.time()
        values = {"key": key[:KEY_LENGTH], "amount": amount, "now": now, "ends": now + expiry}
        engine = _engine()
        with engine.begin() as connection:
            if engine.dialect.name == "postgresql":
                connection.execute(_UNFLUSHED)
            counted = connection.execute(_INCREMENT, values).scalar_one()
            if next(self._counts) % SWEEP_EVERY == 0:
                connection.execute(_SWEEP, {"now": now})
        return int(counted)

    def get(self, key: str) -> int:
        """The count of ``key`` in its current window (0 when none)."""
        with db.engine.connect() as connection:
            found = connection.execute(_COUNT, {"key": key[:KEY_LENGTH], "now": time.time()})
            return int(found.scalar() or 0)

    def get_expiry(self, key: str) -> float:
        """When the window of ``key`` ends (now, when there is none)."""
        now = time.time()
        with db.engine.connect() as connection:
            found = connection.execute(_EXPIRY, {"key": key[:KEY_LENGTH], "now": now})
            return float(found.scalar() or now)

    def check(self) -> bool:
        """Whether the database answers."""
        try:
            with db.engine.connect() as connection:
                connection.execute(text("SELECT 1"))
        except SQLAlchemyError:
            return False
        return True

    def reset(self) -> int | None:
        """Forget every count; how many keys there were."""
        with db.engine.begin() as connection:
            return int(connection.execute(text("DELETE FROM rate_limits")).rowcount)

    def clear(self, key: str) -> None:
        """Forget the count of ``key``."""
        with db.engine.begin() as connection:
            connection.execute(
                text("DELETE FROM rate_limits WHERE key = :key"), {"key": key[:KEY_LENGTH]}
            )
