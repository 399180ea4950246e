"""Rate-limit counts taken in leases: a statement per few API calls, and still never one
request over the limit, however the requests are spread over the worker processes."""

from __future__ import annotations

import random
import time

import pytest
from flask import Flask
from limits import parse
from limits.strategies import FixedWindowRateLimiter
from sqlalchemy import event

from companion.extensions import db
from companion.services import rate_counts
from companion.services.rate_counts import DatabaseStorage

NETWORK = "192.0.2.0"


def _writes() -> list[str]:
    """The statements that add to a count, as they run (on every engine of the app)."""
    written: list[str] = []

    def note(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if statement.startswith("INSERT INTO rate_limits"):
            written.append(statement)

    event.listen(db.engine, "before_cursor_execute", note)
    event.listen(rate_counts._engine(), "before_cursor_execute", note)
    return written


@pytest.mark.both_backends("the counts are rows every worker shares")
def test_two_processes_let_through_the_limit_exactly_with_few_writes(app: Flask) -> None:
    limit = parse("600 per minute")
    with app.app_context():
        written = _writes()
        # Two storages: two worker processes, each with its own leases, one database.
        workers = [FixedWindowRateLimiter(DatabaseStorage()) for _ in range(2)]
        chosen = random.Random(7)
        allowed = [chosen.choice(workers).hit(limit, NETWORK, "api") for _ in range(800)]
        assert allowed.count(True) == 600
        assert all(allowed[:600]), "every request within the limit is let through"
        # Far fewer statements than requests (one per request before leases).
        assert len(written) < 300, len(written)


def test_a_limit_of_a_few_is_counted_one_by_one(app: Flask) -> None:
    """The join codes' 10 per 10 minutes: no count is ever held back by a lease."""
    limit = parse("10 per 10 minutes")
    with app.app_context():
        written = _writes()
        first, second = DatabaseStorage(), DatabaseStorage()
        assert FixedWindowRateLimiter(first).hit(limit, NETWORK, "join")
        assert len(written) == 1
        assert FixedWindowRateLimiter(second).get_window_stats(limit, NETWORK, "join")[1] == 9


def test_a_lease_ends_with_its_window(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    limit = parse("600 per minute")
    now = [time.time()]
    monkeypatch.setattr(rate_counts.time, "time", lambda: now[0])
    with app.app_context():
        storage = DatabaseStorage()
        counter = FixedWindowRateLimiter(storage)
        for _ in range(3):
            assert counter.hit(limit, NETWORK, "api")
        assert counter.get_window_stats(limit, NETWORK, "api")[1] == 597
        now[0] += 61  # the next minute: a new window, the old lease is gone with it
        assert counter.get_window_stats(limit, NETWORK, "api")[1] == 600
        assert counter.hit(limit, NETWORK, "api")
        assert counter.get_window_stats(limit, NETWORK, "api")[1] == 599
