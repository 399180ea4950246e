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

Even so, a write per API call was most of its time under load (the workers took turns at
SQLite's write lock). So a process takes its counts in **leases**: one statement adds a
few counts at once and the process hands them out itself, one per request, each with its
own number in the window's count (the numbers of the counts are unique across every
worker). A request is let through when its number is within the limit, so the limit is
never exceeded, however the requests are spread over processes. A lease is small and
shrinks as the count nears the limit (at most an eighth of what is left, at most
:data:`LEASE_MOST`, one count at a time for the last eight), so a count leased by one
process is never long out of reach of the others: a client at the limit gets its whole
limit and not one request more. Limits of a few (the join codes: 10 in 10 minutes) are
counted one by one, as before. The limit is read from the key (``limits`` ends each key
with the limit's amount, multiples and granularity); a key that does not say counts one
by one.
"""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass
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
#: The most counts one lease takes, and the share of what is left of the limit it may take.
LEASE_MOST = 16
LEASE_SHARE = 8

_INCREMENT = text(
    "INSERT INTO rate_limits (key, count, expires_at) VALUES (:key, :amount, :ends) "
    "ON CONFLICT (key) DO UPDATE SET "
    "count = CASE WHEN rate_limits.expires_at <= :now THEN :amount "
    "ELSE rate_limits.count + :amount END, "
    "expires_at = CASE WHEN rate_limits.expires_at <= :now THEN :ends "
    "ELSE rate_limits.expires_at END "
    "RETURNING count, expires_at"
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


@dataclass
class _Lease:
    """Counts of one key taken from the database and not handed out yet: the numbers
    ``following`` to ``last`` of the window that ends at ``ends``."""

    following: int
    last: int
    ends: float

    def left(self, now: float) -> int:
        """How many counts it still holds (none once its window is over)."""
        return self.last - self.following + 1 if now < self.ends else 0


def limit_in(key: str) -> int | None:
    """The limit's amount a ``limits`` key ends with (``.../600/1/minute``), if it does.

    >>> limit_in("LIMITER/127.0.0.1/api/600/1/minute"), limit_in("no-limit-here")
    (600, None)
    """
    parts = key.rsplit("/", 3)
    return int(parts[1]) if len(parts) == 4 and parts[1].isdigit() else None


def lease_size(limit: int | None, counted: int, amount: int) -> int:
    """How many counts to take at once: ``amount`` and up to an eighth of what is left of
    the limit after ``counted`` (at most :data:`LEASE_MOST`).

    >>> [lease_size(600, n, 1) for n in (0, 500, 590, 600, 700)], lease_size(10, 0, 1)
    ([16, 12, 1, 1, 1], 1)
    """
    if limit is None:
        return amount
    return max(amount, min(LEASE_MOST, (limit - counted) // LEASE_SHARE))


class DatabaseStorage(Storage):
    """A ``limits`` storage whose counters are rows of the app's ``rate_limits`` table
    (reached through the current app's engine, so one storage serves every app)."""

    STORAGE_SCHEME = [SCHEME]  # noqa: RUF012 - the type limits declares

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **_options: object):
        super().__init__(uri, wrap_exceptions=wrap_exceptions)
        self._counts = itertools.count(1)
        # Per database (one storage may serve several apps in one process: the tests).
        self._leases: dict[tuple[str, str], _Lease] = {}
        self._leasing = threading.Lock()

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        """What a failing database raises."""
        return SQLAlchemyError

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Count ``amount`` more for ``key`` (a new window of ``expiry`` seconds when the
        last one is over); the number of this count in the window (of the last of the
        ``amount``), from this process's lease of the key when it holds one."""
        key = key[:KEY_LENGTH]
        now = time.time()
        leased = (str(db.engine.url), key)
        with self._leasing:
            lease = self._leases.get(leased)
            if lease is not None and lease.left(now) >= amount:
                lease.following += amount
                return lease.following - 1
            # What the database counted when this process last asked, in this window.
            counted = lease.last if lease is not None and now < lease.ends else 0
            size = lease_size(limit_in(key), counted, amount)
            last, ends = self._take(key, expiry, size, now)
            first = last - size + 1
            self._leases[leased] = _Lease(first + amount, last, ends)
            return first + amount - 1

    def _take(self, key: str, expiry: int, size: int, now: float) -> tuple[int, float]:
        """Add ``size`` to the key's count in the database: the new count, and when its
        window ends."""
        values = {"key": key, "amount": size, "now": now, "ends": now + expiry}
        engine = _engine()
        with engine.begin() as connection:
            if engine.dialect.name == "postgresql":
                connection.execute(_UNFLUSHED)
            counted, ends = connection.execute(_INCREMENT, values).one()
            if next(self._counts) % SWEEP_EVERY == 0:
                connection.execute(_SWEEP, {"now": now})
        return int(counted), float(ends)

    def _unused(self, key: str) -> int:
        """The counts of ``key`` this process leased and has not handed out."""
        lease = self._leases.get((str(db.engine.url), key))
        return lease.left(time.time()) if lease is not None else 0

    def get(self, key: str) -> int:
        """The count of ``key`` in its current window (0 when none), less what this process
        leased and has not handed out yet."""
        key = key[:KEY_LENGTH]
        with db.engine.connect() as connection:
            found = connection.execute(_COUNT, {"key": key, "now": time.time()})
            counted = int(found.scalar() or 0)
        return max(0, counted - self._unused(key))

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
        self._leases.clear()
        with db.engine.begin() as connection:
            return int(connection.execute(text("DELETE FROM rate_limits")).rowcount)

    def clear(self, key: str) -> None:
        """Forget the count of ``key``."""
        self._leases.pop((str(db.engine.url), key[:KEY_LENGTH]), None)
        with db.engine.begin() as connection:
            connection.execute(
                text("DELETE FROM rate_limits WHERE key = :key"), {"key": key[:KEY_LENGTH]}
            )
