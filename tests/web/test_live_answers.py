"""A live update is the play's panel, rendered once per version and view and kept
(``web/play/panel.py``): the tap's request renders it, the other phones' polls take it,
each with its own CSRF token and fresh form keys, and a phone never gets the panel of
another version. A phone's token is signed once per process, not once per request. An
answer goes in the encoding the phone takes."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask, session
from flask.testing import FlaskClient
from flask_wtf.csrf import generate_csrf, validate_csrf
from itsdangerous import URLSafeTimedSerializer

from companion.games.odd_world import BIRDS
from companion.web import personal
from companion.web.play.panel import PANELS_KEY
from support.client import create_table, start_play
from support.phones import Phone, panel_of, text_of

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
KEYS = re.compile(r'name="submission" value="([^"]+)"')
BIRD = next(iter(BIRDS))


@pytest.fixture
def phones(app: Flask, client: FlaskClient) -> list[Phone]:
    """Four phones showing everyone's displays of a 4-player Odd World game."""
    links = create_table(client, ["Ann", "Ben", "Cy", "Dan"])
    play = start_play(client, links.edit)
    return [Phone(app, links.edit, play, "all") for _ in range(4)]


def kept(app: Flask) -> int:
    """How many panels the app keeps."""
    return len(app.extensions[PANELS_KEY])


def tap(phone: Phone, bird: str, value: str) -> None:
    answer = phone.post("/edit", {"path": f"players[0].display.{bird}", "value": value}, {})
    assert answer.status_code == 200, text_of(answer)[:300]
    phone.take(answer)


def session_token(phone: Phone) -> str:
    """The phone session's CSRF token (a signed token starts with it)."""
    return phone.token.split(".")[0]


def fresh_panel(app: Flask, phone: Phone) -> str:
    return panel_of(text_of(app.test_client().get(f"{phone.url}?seat=all")))


def test_phones_showing_the_same_view_share_one_panel_with_their_own_values(
    app: Flask, phones: list[Phone]
) -> None:
    tapper, *others = phones
    tap(tapper, BIRD, "1")  # the tap's request renders the new version's panel
    rendered = kept(app)
    answers = [other.poll({}) for other in others]
    assert kept(app) == rendered  # the polls took it
    bodies = [text_of(answer) for answer in answers]
    assert len({panel_of(body) for body in bodies}) == 1
    # Each phone its own token (signed afresh, the session's token before the first dot)
    # and its own fresh keys.
    for other, body in zip(others, bodies, strict=True):
        assert {token.split(".")[0] for token in TOKEN.findall(body)} == {session_token(other)}
    keys = [key for body in bodies for key in KEYS.findall(body)]
    assert keys
    assert len(keys) == len(set(keys))
    for other, answer in zip(others, answers, strict=True):
        other.take(answer)
        assert panel_of(other.page) == fresh_panel(app, other)


def test_the_panel_kept_for_one_version_never_reaches_the_next(
    app: Flask, phones: list[Phone]
) -> None:
    tapper, late, later, _ = phones
    tap(tapper, BIRD, "1")
    late.take(late.poll({}))
    tap(tapper, BIRD, "2")
    later.take(later.poll({}))
    assert panel_of(later.page) == fresh_panel(app, later)
    assert panel_of(later.page) != panel_of(late.page)
    assert f'id="n-0-{BIRD}" name="value" value="2"' in later.page


def signatures(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """What is signed from now on (a CSRF token is signed with ``dumps``)."""
    signed: list[Any] = []
    dumps = URLSafeTimedSerializer.dumps

    def counted(self: URLSafeTimedSerializer, obj: Any, salt: Any = None) -> Any:
        signed.append(obj)
        return dumps(self, obj, salt)

    monkeypatch.setattr(URLSafeTimedSerializer, "dumps", counted)
    return signed


def test_a_phones_token_is_signed_once_and_still_valid(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    with app.test_request_context():
        first = personal.csrf_token()  # a new session: Flask-WTF makes and signs it
        raw = session["csrf_token"]
    signed = signatures(monkeypatch)
    tokens = []
    for _ in range(3):
        with app.test_request_context():
            session["csrf_token"] = raw
            tokens.append(personal.csrf_token())
            assert generate_csrf() == tokens[-1]  # the rest of the request agrees
            validate_csrf(tokens[-1])
    assert len(set(tokens)) == 1
    assert len(signed) <= 1
    assert tokens[0].split(".")[0] == first.split(".")[0]


def test_with_a_time_limit_each_request_signs_its_token(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(app.config, "WTF_CSRF_TIME_LIMIT", 3600)
    with app.test_request_context():
        personal.csrf_token()
        raw = session["csrf_token"]
    signed = signatures(monkeypatch)
    for _ in range(3):
        with app.test_request_context():
            session["csrf_token"] = raw
            validate_csrf(personal.csrf_token())
    assert len(signed) == 3


@pytest.mark.parametrize(
    ("accepts", "encoding"),
    [("gzip, deflate, br", "br"), ("gzip", "gzip"), ("identity", None), ("br;q=0, gzip", "gzip")],
)
def test_a_live_answer_goes_in_the_encoding_the_phone_takes(
    app: Flask, phones: list[Phone], accepts: str, encoding: str | None
) -> None:
    tapper, other, *_ = phones
    tap(tapper, BIRD, "1")
    answer = other.poll({"Accept-Encoding": accepts})
    assert answer.headers.get("Content-Encoding") == encoding
    assert "Accept-Encoding" in answer.headers["Vary"]
    assert int(answer.headers["Content-Length"]) == len(answer.data)
    other.take(answer)  # decoded as a browser would
    assert panel_of(other.page) == fresh_panel(app, other)
