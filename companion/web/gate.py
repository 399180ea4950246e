"""Each process runs the app's code for one request at a time; its threads wait their turn.

gunicorn's threaded workers (see ``gunicorn.conf.py``) exist for slow clients: a thread
reads a dribbling request or sends an answer while the others go on. Running the app's
code itself in a dozen threads at once gains nothing on top, since Python runs one of them
at a time (the GIL), and costs a lot under load:

- every request in a process is slowed by all the others at once instead of waiting its
  turn, so a tap that needs 10 ms of work takes the time of every request in the process;
- a thread that holds SQLite's write lock has to win the GIL back between statements,
  holding the lock meanwhile; a writer that finds it taken sleeps in SQLite's growing
  steps (1, 2, 5, 10, 15 ms...) rather than waking when it is free.

With a dozen requests at once per process, the load test (``benchmarks/load.py``) measured
a p95 of 170-320 ms at 40 tables; behind this gate, 65-94 ms. So this middleware reads a
request's body first (in the request's own thread, at the client's pace), then lets the
app run for ``REQUESTS_AT_ONCE`` requests of the process at a time, in the order they came
(``Turns``); the answer is sent after. Flask pops its contexts (and the database
session) before it returns, so all of the app's work is inside.

The JSON API's scorers (``/api/v1/games``, and its description) go round the gate: they
read no database, and their answers are pure scoring of the body they were sent, short
and waiting for nothing, so queueing them behind the tables' taps would only slow them
(under wrk, a sixth of their throughput: their compression, which runs without the GIL,
no longer overlapped another request's work). A group's ratings (``/api/v1/groups/...``)
read the database like a page, and take their turn like one; replaying a large group's
plays (the first time a worker shows them, or after an old play changed) gives its turn
back every ``SLICE`` or so (``letting_others_go``), as an export's building does.

A photo sent to a play (``web/uploads.py``) may be larger than any other body: its
body is read first like any other, up to its own cap.

Exports (``.../export.json``, ``.../export.csv``) take their turns a slice at a time: the
request itself only looks up what to send, and answers with a stream whose text is built
in turns of about 20 ms at this gate (``TURN``, see ``services/transfer_stream.py``), sent
between turns. A large group's export is seconds of work; in one turn it would hold every
table's taps and polls of the process that long (two export loops raised other tables'
poll p95 to 7 s), beside the gate it would share the interpreter with the gated request
(Python switches threads every 5 ms, and a request that waits for the database gets the
interpreter back only at such a switch). They are rate-limited per network and kept once
built (``web/groups.py``).

Live updates go first: a poll (``GET .../poll``) waits only for the turn being served and
for polls ahead of it, never for the line of page loads, forms, exports' turns and taps
in front of it. A poll is the cheapest request there is (about a millisecond; most answer
"nothing new"), and the most frequent: every phone of every table asks every two
seconds. Served in arrival order, it waited behind each expensive request queued ahead of
it (the budget, ``support/budget.py``, two clients looping the costliest requests beside
20 live tables: poll p95 75-85 ms in arrival order, 38-50 ms ahead; taps under load wait
a little longer, see docs/deploy.md). A poll cannot starve the others: a phone asks once
every two seconds, and the turn a poll takes is short.

``REQUESTS_AT_ONCE`` 0 turns the gate off; more than 1 lets a process overlap a request's
waits for a distant database with another's work.
"""

from __future__ import annotations

import io
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any

from companion.web import uploads

SETTING = "REQUESTS_AT_ONCE"
#: Paths whose requests never wait for a turn (see above).
AROUND = ("/api/v1/games", "/api/v1/openapi.json")
#: Requests that go ahead of the others waiting: live updates (see above).
AHEAD_SUFFIX = "/poll"
#: Where a request finds the gate, to take further turns for work it does while its
#: answer is sent (see above).
TURN = "companion.turn"
#: The body is read in pieces of this size, so a client that stops half-way leaves what
#: it sent (the app then answers 400, as it would have reading it itself).
CHUNK = 64 * 1024


class Turns:
    """At most ``at_once`` holders, the others served in the order they came, those that
    asked to go ahead (live updates) before the rest.

    A plain lock goes to whichever thread takes it first once it is free: usually one that
    never waited (a request that just arrived, or an export starting its next turn), so a
    poll that has waited may wait again, turn after turn, while the process is busy. Here
    a turn that ends is handed to the thread that has waited longest (in the line ahead,
    if anyone is in it), so a request waits only for the turns of those ahead of it. Each
    waiter blocks on a lock of its own (taken and handed on in C); the lines themselves
    are guarded for a few microseconds. Used as a context manager, a turn waits in the
    ordinary line.
    """

    def __init__(self, at_once: int = 1) -> None:
        self._free = at_once
        self._guard = threading.Lock()
        self._ahead: deque[threading.Lock] = deque()
        self._waiting: deque[threading.Lock] = deque()

    def take(self, *, ahead: bool = False) -> None:
        """Wait for a turn (``ahead``: in the line served first)."""
        with self._guard:
            if self._free > 0 and not self._ahead and not self._waiting:
                self._free -= 1
                return
            mine = threading.Lock()
            mine.acquire()
            (self._ahead if ahead else self._waiting).append(mine)
        mine.acquire()  # released by the holder whose turn ends: the turn is now this one's

    def give_back(self) -> None:
        """End a turn: hand it to the next in line, ahead first."""
        with self._guard:
            if self._ahead:
                self._ahead.popleft().release()
            elif self._waiting:
                self._waiting.popleft().release()
            else:
                self._free += 1

    def __enter__(self) -> None:
        self.take()

    def __exit__(self, *_exc: object) -> None:
        self.give_back()

    def locked(self) -> bool:
        """Whether no turn is free."""
        with self._guard:
            return self._free == 0

    def waiting(self) -> int:
        """How many wait for a turn, in either line."""
        with self._guard:
            return len(self._ahead) + len(self._waiting)


class Gate:
    """WSGI middleware: the body read first, then at most ``at_once`` requests in the app."""

    def __init__(
        self, wsgi_app: Any, *, at_once: int, max_body: int, max_upload: int | None = None
    ) -> None:
        self.wsgi_app = wsgi_app
        self.turns = Turns(at_once)
        self.max_body = max_body
        self.max_upload = max_body if max_upload is None else max_upload

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        upload = uploads.is_upload(environ.get("REQUEST_METHOD", ""), path)
        read_body_first(environ, self.max_upload if upload else self.max_body)
        if path.startswith(AROUND):
            return self.wsgi_app(environ, start_response)  # type: ignore[no-any-return]
        environ[TURN] = self.turns
        self.turns.take(ahead=goes_ahead(environ))
        try:
            return self.wsgi_app(environ, start_response)  # type: ignore[no-any-return]
        finally:
            self.turns.give_back()


def goes_ahead(environ: dict[str, Any]) -> bool:
    """Whether the request is a live update, served before the others waiting."""
    return environ.get("REQUEST_METHOD") == "GET" and environ.get("PATH_INFO", "").endswith(
        AHEAD_SUFFIX
    )


def letting_others_go(environ: dict[str, Any]) -> Callable[[], None]:
    """For long work a request does in slices (a group's ratings replayed): a function
    that ends the request's turn, so the requests waiting go first, and waits for a turn
    again; nothing to do without a gate."""
    turns: Turns | None = environ.get(TURN)
    if turns is None:
        return _stay
    held = turns

    def let_others_go() -> None:
        held.give_back()
        held.take()

    return let_others_go


def _stay() -> None:
    """Without a gate nobody waits for this request's turn."""


@contextmanager
def outside_turn(environ: dict[str, Any]) -> Iterator[None]:
    """Run the block without the request's turn: for work that touches no database and
    runs in C without the interpreter's lock (a photo decoded by Pillow), so that other
    requests go meanwhile, on another core; the turn is taken again after it."""
    turns: Turns | None = environ.get(TURN)
    if turns is None:
        yield
        return
    turns.give_back()
    try:
        yield
    finally:
        turns.take()


def turn_of(environ: dict[str, Any]) -> AbstractContextManager[Any]:
    """A turn at the request's gate (nothing to wait for without a gate)."""
    turn: AbstractContextManager[Any] | None = environ.get(TURN)
    return turn if turn is not None else nullcontext()


def wrap(wsgi_app: Any, *, at_once: int, max_body: int, max_upload: int | None = None) -> Any:
    """``wsgi_app`` behind the gate, or as it is when ``at_once`` is 0 (``max_upload``:
    the most a photo's body may weigh, see ``web/uploads.py``)."""
    if at_once <= 0:
        return wsgi_app
    return Gate(wsgi_app, at_once=at_once, max_body=max_body, max_upload=max_upload)


def read_body_first(environ: dict[str, Any], most: int) -> None:
    """Read the request's body into memory, so that the app never waits for the client.

    Only a body the app would read: one of a declared length up to ``most`` bytes, or a
    chunked one (up to ``most`` + 1 bytes, enough for the app to refuse it as too large).
    A larger declared length is left unread: the app refuses it (413) without reading.
    """
    stream = environ.get("wsgi.input")
    if stream is None:
        return
    declared = environ.get("CONTENT_LENGTH") or ""
    if declared.isdigit():
        size = int(declared)
        if size == 0 or size > most:
            return
    elif "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
        size = most + 1
    else:
        return
    environ["wsgi.input"] = io.BytesIO(_read_up_to(stream, size))


def _read_up_to(stream: Any, size: int) -> bytes:
    """Up to ``size`` bytes of ``stream``: fewer when it ends or the client goes away."""
    parts: list[bytes] = []
    left = size
    while left > 0:
        try:
            part = stream.read(min(left, CHUNK))
        except Exception:
            break
        if not part:
            break
        parts.append(part)
        left -= len(part)
    return b"".join(parts)
