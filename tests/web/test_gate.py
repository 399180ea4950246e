"""The gate: a request's body is read before its turn; one request at a time in the app.

``tests/deploy/test_slow_clients.py`` checks the same under gunicorn: with the body read
inside the turn, a client dribbling its JSON body stalls every poll of its process.
"""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.web import gate
from support.client import create_table

MOST = 100


class Dribble(io.RawIOBase):
    """A client's body that arrives in small parts, then stops (``gone``: it went away)."""

    def __init__(self, data: bytes, *, gone: bool = False) -> None:
        self.data = data
        self.gone = gone
        self.reads = 0

    def read(self, size: int = -1) -> bytes:  # type: ignore[override]
        self.reads += 1
        take = 3 if size < 0 else min(3, size)
        part, self.data = self.data[:take], self.data[take:]
        if not part and self.gone:
            raise OSError("connection reset")
        return part


def _environ(body: Any, **extra: str) -> dict[str, Any]:
    return {"REQUEST_METHOD": "POST", "wsgi.input": body, **extra}


def test_a_body_of_declared_length_is_read_whole_first() -> None:
    environ = _environ(Dribble(b"path=x&value=3"), CONTENT_LENGTH="14")
    gate.read_body_first(environ, MOST)
    assert environ["wsgi.input"].read() == b"path=x&value=3"


def test_a_client_that_goes_away_leaves_a_short_body() -> None:
    environ = _environ(Dribble(b"path=x", gone=True), CONTENT_LENGTH="14")
    gate.read_body_first(environ, MOST)
    assert environ["wsgi.input"].read() == b"path=x"


@pytest.mark.parametrize(
    "declared", ["", "0", str(MOST + 1), "-4", "ten"], ids=["none", "zero", "too big", "-", "x"]
)
def test_a_body_the_app_would_not_read_is_left_alone(declared: str) -> None:
    body = Dribble(b"x" * (MOST + 1))
    environ = _environ(body, CONTENT_LENGTH=declared)
    gate.read_body_first(environ, MOST)
    assert environ["wsgi.input"] is body
    assert body.reads == 0


def test_a_chunked_body_is_read_up_to_one_byte_past_the_limit() -> None:
    environ = _environ(Dribble(b"x" * (MOST + 50)), HTTP_TRANSFER_ENCODING="chunked")
    gate.read_body_first(environ, MOST)
    assert environ["wsgi.input"].read() == b"x" * (MOST + 1)


def _counting_app(pause: float) -> tuple[Callable[..., Iterable[bytes]], list[int]]:
    """A WSGI app that notes how many requests are inside it at once."""
    inside: list[int] = []
    lock = threading.Lock()
    now = [0]

    def app(_environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        with lock:
            now[0] += 1
            inside.append(now[0])
        time.sleep(pause)
        with lock:
            now[0] -= 1
        start_response("200 OK", [])
        return [b"ok"]

    return app, inside


@pytest.mark.parametrize("at_once", [1, 2])
def test_the_app_runs_for_as_many_requests_at_once_as_allowed(at_once: int) -> None:
    app, inside = _counting_app(pause=0.02)
    gated = gate.wrap(app, at_once=at_once, max_body=MOST)
    threads = [
        threading.Thread(target=gated, args=(_environ(io.BytesIO()), lambda *_: None))
        for _ in range(6)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=5)
    assert len(inside) == 6
    assert max(inside) == at_once


def test_the_json_api_goes_round_the_gate() -> None:
    """Two API requests and one poll are inside the app together: each waits there until
    all three arrived (behind one gate, the second would never come)."""
    together = threading.Barrier(3, timeout=5)
    met: list[bool] = []

    def app(_environ: dict[str, Any], _start_response: Any) -> Iterable[bytes]:
        together.wait()
        met.append(True)
        return [b"ok"]

    gated = gate.wrap(app, at_once=1, max_body=MOST)
    paths = ["/api/v1/games/odd-world/score", "/api/v1/games", "/t/x/plays/1/poll"]
    threads = [
        threading.Thread(
            target=gated, args=(_environ(io.BytesIO(), PATH_INFO=path), lambda *_: None)
        )
        for path in paths
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert met == [True, True, True]


def test_a_groups_ratings_take_their_turn_like_a_page() -> None:
    held: list[bool] = []

    def app(environ: dict[str, Any], _start_response: Any) -> Iterable[bytes]:
        held.append(environ[gate.TURN].locked())
        return [b"ok"]

    gated = gate.Gate(app, at_once=1, max_body=MOST)
    for path in ("/api/v1/groups/abc/ratings", "/t/x/plays/1"):
        gated(_environ(io.BytesIO(), PATH_INFO=path, REQUEST_METHOD="GET"), lambda *_: None)
    assert held == [True, True]


def test_a_photo_to_a_play_is_read_first_up_to_its_own_cap() -> None:
    body = b"x" * (3 * MOST)
    seen: list[bytes] = []

    def app(environ: dict[str, Any], _start_response: Any) -> Iterable[bytes]:
        seen.append(environ["wsgi.input"].read())
        return [b""]

    gated = gate.Gate(app, at_once=1, max_body=MOST, max_upload=4 * MOST)
    for path in ("/t/x/plays/1/photos", "/t/x/plays/1/edit"):
        dribbled = Dribble(body)
        environ = _environ(dribbled, PATH_INFO=path, CONTENT_LENGTH=str(len(body)))
        gated(environ, lambda *_: None)
    photo, form = seen
    assert photo == body  # read whole before the turn, as every body within its cap
    assert form == b"xxx"  # past a form's cap: left unread for the app to refuse (413)


def test_no_gate_when_turned_off() -> None:
    app, _inside = _counting_app(pause=0)
    assert gate.wrap(app, at_once=0, max_body=MOST) is app


def test_the_app_is_behind_the_gate(app: Flask, client: FlaskClient) -> None:
    assert app.config[gate.SETTING] == 1
    assert isinstance(app.wsgi_app, gate.Gate)
    # Forms arrive whole through it.
    assert create_table(client, ["Ann", "Ben"]).edit


def test_a_turn_goes_to_the_request_that_waited_longest() -> None:
    """An export ending its turn and starting the next one at once does not pass a poll
    that was waiting (a plain lock goes to whoever takes it first: usually the export)."""
    turns = gate.Turns(1)
    order: list[str] = []

    def poll() -> None:
        with turns:
            order.append("poll")

    turns.__enter__()  # an export's turn
    waiting = threading.Thread(target=poll)
    waiting.start()
    deadline = time.monotonic() + 5
    while not turns.waiting() and time.monotonic() < deadline:
        time.sleep(0.001)
    assert turns.waiting() == 1
    turns.__exit__(None, None, None)
    with turns:  # the export's next turn
        order.append("export")
    waiting.join(5)
    assert order == ["poll", "export"]
    assert not turns.locked()


def _queue(turns: gate.Turns, name: str, order: list[str], *, ahead: bool) -> threading.Thread:
    """A thread that waits for a turn (in the line ahead or not) and notes when it gets it;
    returned once it is in line."""

    def wait_for_a_turn() -> None:
        turns.take(ahead=ahead)
        order.append(name)
        turns.give_back()

    before = turns.waiting()
    thread = threading.Thread(target=wait_for_a_turn)
    thread.start()
    deadline = time.monotonic() + 5
    while turns.waiting() == before and time.monotonic() < deadline:
        time.sleep(0.001)
    assert turns.waiting() == before + 1
    return thread


def test_live_updates_go_ahead_of_the_requests_waiting() -> None:
    """Polls queued behind a table page and a tap get the turn first, in the order they
    came; the others then in theirs."""
    turns = gate.Turns(1)
    order: list[str] = []
    turns.take()  # an export's turn
    threads = [
        _queue(turns, "table page", order, ahead=False),
        _queue(turns, "poll 1", order, ahead=True),
        _queue(turns, "tap", order, ahead=False),
        _queue(turns, "poll 2", order, ahead=True),
    ]
    turns.give_back()
    for thread in threads:
        thread.join(5)
    assert order == ["poll 1", "poll 2", "table page", "tap"]
    assert not turns.locked()


@pytest.mark.parametrize(
    ("method", "path", "ahead"),
    [
        ("GET", "/t/abc/plays/3/poll", True),
        ("GET", "/t/abc/poll", True),
        ("POST", "/t/abc/plays/3/poll", False),
        ("GET", "/t/abc/plays/3", False),
        ("POST", "/t/abc/plays/3/edit", False),
        ("GET", "/t/abc/export.json", False),
    ],
)
def test_only_polls_go_ahead(method: str, path: str, ahead: bool) -> None:
    assert gate.goes_ahead({"REQUEST_METHOD": method, "PATH_INFO": path}) is ahead


def test_the_gate_puts_a_poll_in_the_line_ahead() -> None:
    """Through the middleware: a poll that arrives while a page waits is served first."""
    order: list[str] = []
    release = threading.Event()

    def app(environ: dict[str, Any], _start_response: Any) -> Iterable[bytes]:
        if environ["PATH_INFO"] == "/slow":
            release.wait(5)
        order.append(environ["PATH_INFO"])
        return [b"ok"]

    gated = gate.wrap(app, at_once=1, max_body=MOST)

    def send(path: str) -> threading.Thread:
        environ = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "wsgi.input": io.BytesIO()}
        thread = threading.Thread(target=gated, args=(environ, lambda *_: None))
        thread.start()
        return thread

    threads = [send("/slow")]
    deadline = time.monotonic() + 5
    while not gated.turns.locked() and time.monotonic() < deadline:
        time.sleep(0.001)
    for path in ("/t/x/plays/1", "/t/x/plays/1/poll"):
        before = gated.turns.waiting()
        threads.append(send(path))
        while gated.turns.waiting() == before and time.monotonic() < deadline:
            time.sleep(0.001)
    release.set()
    for thread in threads:
        thread.join(5)
    assert order == ["/slow", "/t/x/plays/1/poll", "/t/x/plays/1"]
