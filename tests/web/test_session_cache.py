"""A session cookie checked once is remembered (``companion/web/sessions.py``): the same
cookie is not checked again while it is within the session's lifetime, and anything else
(a forged or changed cookie, another key, an old cookie, a session holding lists) is
checked as Flask checks it."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask, session
from itsdangerous import URLSafeTimedSerializer

from companion.web import sessions

LIFETIME_PADDING = 10


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The cookies whose signature is checked from now on."""
    checked: list[str] = []
    loads = URLSafeTimedSerializer.loads

    def counted(self: URLSafeTimedSerializer, value: Any, *args: Any, **kwargs: Any) -> Any:
        checked.append(value)
        return loads(self, value, *args, **kwargs)

    monkeypatch.setattr(URLSafeTimedSerializer, "loads", counted)
    return checked


def cookie_of(app: Flask, values: dict[str, Any]) -> str:
    """A session cookie that says ``values``, signed as the app signs it."""
    interface = app.session_interface
    assert isinstance(interface, sessions.LazySessionInterface)
    serializer = interface.get_signing_serializer(app)
    assert serializer is not None
    return str(serializer.dumps(values))


def read(app: Flask, cookie: str) -> dict[str, Any]:
    """The session a request with this cookie finds."""
    name = app.config["SESSION_COOKIE_NAME"]
    with app.test_request_context(headers={"Cookie": f"{name}={cookie}"}):
        return dict(session)


def test_a_cookie_is_checked_once_then_remembered(app: Flask, checks: list[str]) -> None:
    cookie = cookie_of(app, {"csrf_token": "abc", "visitor": "v1"})
    assert read(app, cookie) == {"csrf_token": "abc", "visitor": "v1"}
    assert read(app, cookie) == {"csrf_token": "abc", "visitor": "v1"}
    assert checks == [cookie]


def test_a_changed_or_forged_cookie_is_still_refused(app: Flask) -> None:
    cookie = cookie_of(app, {"visitor": "v1"})
    assert read(app, cookie) == {"visitor": "v1"}
    payload, _, signature = cookie.rpartition(".")
    forged = f"{payload}.{signature[:-2]}{'AA' if signature[-2:] != 'AA' else 'BB'}"
    assert read(app, forged) == {}
    assert read(app, "forged.value.sig") == {}


def test_another_key_checks_the_cookie_again(app: Flask) -> None:
    cookie = cookie_of(app, {"visitor": "v1"})
    assert read(app, cookie) == {"visitor": "v1"}
    app.secret_key = "another key"
    assert read(app, cookie) == {}


def test_a_remembered_cookie_expires_with_the_session(
    app: Flask, monkeypatch: pytest.MonkeyPatch, checks: list[str]
) -> None:
    cookie = cookie_of(app, {"visitor": "v1"})
    assert read(app, cookie) == {"visitor": "v1"}
    lifetime = app.permanent_session_lifetime.total_seconds()
    later = sessions.time.time() + lifetime + LIFETIME_PADDING
    monkeypatch.setattr(sessions.time, "time", lambda: later)
    # Checked again (itsdangerous reads the clock through its own module).
    monkeypatch.setattr("itsdangerous.timed.time.time", lambda: later)
    assert read(app, cookie) == {}
    assert len(checks) == 2


def test_a_session_holding_lists_is_checked_each_time(app: Flask, checks: list[str]) -> None:
    cookie = cookie_of(app, {"visitor": "v1", "tables": ["a"]})
    name = app.config["SESSION_COOKIE_NAME"]
    with app.test_request_context(headers={"Cookie": f"{name}={cookie}"}):
        session["tables"].append("b")  # changed in place, as Flask's flash() does
    assert read(app, cookie) == {"visitor": "v1", "tables": ["a"]}
    assert len(checks) == 2
