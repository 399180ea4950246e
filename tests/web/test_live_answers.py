"""A live update's answer is worked out once per panel and the digests phones hold
(``pieces.Rendering.answer_for``): the phones of a table hold the same pieces, so the
first one's poll after a change makes the answer the others get. It is kept on the
panel of one version, so a phone can never get an answer made for another version, and
each phone still gets its own CSRF token and fresh form keys. A phone's token is signed
once per process, not once per request. A live answer is compressed for speed."""

from __future__ import annotations

import re
from typing import Any

import brotli
import pytest
from flask import Flask, session
from flask.testing import FlaskClient
from flask_wtf.csrf import generate_csrf, validate_csrf
from itsdangerous import URLSafeTimedSerializer

from companion.games.odd_world import BIRDS
from companion.web.live import personal, pieces, responses
from support import oob
from support.client import create_table, start_play
from support.oob import Phone, text_of

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
KEYS = re.compile(r'name="submission" value="([^"]+)"')
BIRD = next(iter(BIRDS))


@pytest.fixture
def phones(app: Flask, client: FlaskClient) -> list[Phone]:
    """Four phones showing everyone's displays of a 4-player Odd World game."""
    links = create_table(client, ["Ann", "Ben", "Cy", "Dan"])
    play = start_play(client, links.edit)
    return [Phone(app, links.edit, play, "all", digests=True) for _ in range(4)]


@pytest.fixture
def worked_out(monkeypatch: pytest.MonkeyPatch) -> list[pieces.Held | None]:
    """The digests each answer worked out from scratch was made for."""
    made: list[pieces.Held | None] = []
    original = pieces.changed_only

    def counted(rendering: pieces.Rendering | None, held: pieces.Held | None) -> str | None:
        made.append(held)
        return original(rendering, held)

    monkeypatch.setattr(pieces, "changed_only", counted)
    return made


def tap(phone: Phone, bird: str, value: str) -> None:
    answer = phone.post("/edit", {"path": f"players[0].display.{bird}", "value": value}, {})
    assert answer.status_code == 200, text_of(answer)[:300]
    phone.take(answer)


def session_token(phone: Phone) -> str:
    """The phone session's CSRF token (a signed token starts with it)."""
    return phone.token.split(".")[0]


def fresh_panel(app: Flask, phone: Phone) -> str:
    page = text_of(app.test_client().get(f"{phone.url}?seat=all"))
    at, until = oob.element(page, "play")
    return oob.steady(page[at:until])


def panel_of(phone: Phone) -> str:
    at, until = oob.element(phone.page, "play")
    return oob.steady(phone.page[at:until])


def test_phones_holding_the_same_pieces_share_one_answer_with_their_own_values(
    app: Flask, phones: list[Phone], worked_out: list[Any]
) -> None:
    tapper, *others = phones
    tap(tapper, BIRD, "1")  # the tap's answer: what the others lack too
    answers = [other.poll({}) for other in others]
    assert len(worked_out) == 1  # the tap worked it out, the polls took it
    bodies = [text_of(answer) for answer in answers]
    assert all(answer.headers["HX-Reswap"] == "none" for answer in answers)
    assert len({oob.steady(body) for body in bodies}) == 1
    # Each phone its own token (where the answer holds forms; signed afresh, the session's
    # token before the first dot) and its own fresh keys.
    for other, body in zip(others, bodies, strict=True):
        assert {token.split(".")[0] for token in TOKEN.findall(body)} == {session_token(other)}
    keys = [key for body in bodies for key in KEYS.findall(body)]
    assert len(keys) == len(set(keys))
    for other, answer in zip(others, answers, strict=True):
        other.take(answer)
        assert panel_of(other) == fresh_panel(app, other)


def test_an_answer_kept_for_one_version_never_reaches_the_next(
    app: Flask, phones: list[Phone], worked_out: list[Any]
) -> None:
    tapper, late, later, _ = phones
    tap(tapper, BIRD, "1")
    # ``late`` polls now; ``later`` holds the same pieces but polls after another tap.
    late.take(late.poll({}))
    tap(tapper, BIRD, "2")
    worked_out.clear()
    answer = later.poll({})
    assert len(worked_out) == 1  # not the answer kept for the version before
    later.take(answer)
    assert panel_of(later) == fresh_panel(app, later)
    assert panel_of(later) != panel_of(late)


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
    assert panel_of(other) == fresh_panel(app, other)


def test_a_small_live_answer_is_compressed_for_speed(phones: list[Phone]) -> None:
    tapper, other, *_ = phones
    tap(tapper, BIRD, "1")
    answer = other.poll({"Accept-Encoding": "br"})
    raw = text_of(answer).encode()
    assert len(raw) <= responses.SMALL_FRAGMENT
    assert answer.data == brotli.compress(raw, **responses.SMALL_FRAGMENT_BROTLI)


def test_a_digest_is_blind_to_tokens_and_keys_only(app: Flask) -> None:
    def form(token: str, key: str, label: str) -> str:
        return (
            f'<form><input type="hidden" name="csrf_token" value="{token}">'
            f'<input type="hidden" name="submission" value="{key}">{label}</form>'
        )

    with app.test_request_context():
        digest = pieces.Rendering().digest
        same = digest(form("t1", "k1", "+"))
        assert digest(form("t2", "k2", "+")) == same
        assert digest(form("t1", "k1", "-")) != same
        assert digest('name="submission" value="k1') != digest('name="submission" value="k2')
