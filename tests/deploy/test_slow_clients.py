"""The documented gunicorn set-up keeps answering polls while slow clients dribble.

gunicorn runs as ``docs/deploy.md`` deploys it (``-c gunicorn.conf.py 'companion:create_app()'``,
only the address changed) on a free port of 127.0.0.1 with a temporary SQLite database.
Two clients (then twelve) send a request one byte every half second, half of them their
request line and headers, half a JSON body. Meanwhile eight "phones" poll a play (``204``
when nothing changed); every poll must succeed and their p95 must stay under a second.
With sync workers (``-w 2``, the documentation's old recipe) every poll times out.

Bounded: every socket has a timeout, the polling stops after ``POLL_PHASE_LIMIT`` seconds
and gunicorn is always stopped (killed if it does not stop in time).

Run it as a script to compare settings; extra arguments go to gunicorn after the config
(``--threads 1`` too for sync: gunicorn turns sync with threads into gthread)::

    .venv/bin/python -m tests.deploy.test_slow_clients --worker-class sync --threads 1 -w 2
    .venv/bin/python -m tests.deploy.test_slow_clients --slow-clients 12
"""

from __future__ import annotations

import http.client
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from companion import PROJECT_ROOT, create_app
from companion.extensions import db
from companion.models import Play
from support.client import create_table, start_play

CONFIG = PROJECT_ROOT / "gunicorn.conf.py"
SECRET_KEY = "slow-clients"

START_SECONDS = 20.0  # gunicorn must answer within this long after starting
STOP_SECONDS = 10.0  # then it is killed
DRIP_SECONDS = 0.5  # a slow client sends one byte this often
SETTLE_SECONDS = 1.5  # slow clients connect and start dribbling before the polls
PHONES = 8  # concurrent pollers
POLLS_PER_PHONE = 10
POLL_PAUSE = 0.1  # between one phone's polls: the polling lasts a second or two
REQUEST_TIMEOUT = 2.0  # one poll gives up after this long (counts as failed)
POLL_PHASE_LIMIT = 10.0  # no poll starts after this long
P95_LIMIT = 1.0  # seconds; sync workers made phones wait 22.5 s (p50)


@dataclass
class Target:
    """The play the phones poll: its URL answers 204 while the version is current."""

    path: str


@dataclass
class Results:
    """What the phones saw: seconds per successful poll and the failures."""

    latencies: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def p95(self) -> float:
        """The 95th percentile latency, failures counting as endless."""
        ordered = sorted(self.latencies) + [float("inf")] * len(self.failures)
        return ordered[max(0, int(len(ordered) * 0.95 + 0.5) - 1)]

    def p50(self) -> float:
        """The median latency, failures counting as endless."""
        ordered = sorted(self.latencies) + [float("inf")] * len(self.failures)
        return ordered[len(ordered) // 2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def prepare(folder: Path) -> Target:
    """A migrated SQLite database in ``folder`` with one table and one play to poll."""
    app = create_app({"INSTANCE_PATH": folder, "SECRET_KEY": SECRET_KEY})
    try:
        client = app.test_client()
        links = create_table(client, ["Ann", "Ben"])
        play_id = start_play(client, links.edit)
        with app.app_context():
            play = db.session.get(Play, play_id)
            assert play is not None
            versions = f"version={play.version}&table={play.table.version}"
    finally:
        with app.app_context():
            db.engine.dispose()
    return Target(path=f"/t/{links.view}/plays/{play_id}/poll?{versions}")


def _get(port: int, path: str, timeout: float) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


@contextmanager
def gunicorn(folder: Path, *extra: str) -> Iterator[int]:
    """gunicorn with the project's config on a free port; yields the port, always stops it."""
    port = _free_port()
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("COMPANION_", "GUNICORN_")) and name != "WEB_CONCURRENCY"
    }
    env.update(
        COMPANION_DATABASE_URL=f"sqlite:///{folder / 'companion.sqlite'}",
        COMPANION_SECRET_KEY=SECRET_KEY,
        COMPANION_AUTO_MIGRATE="false",
    )
    command = [sys.executable, "-m", "gunicorn", "-c", str(CONFIG), "-b", f"127.0.0.1:{port}"]
    log_path = folder / "gunicorn.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [*command, *extra, "companion:create_app()"],
            cwd=PROJECT_ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        _wait_ready(process, port, log_path)
        yield port
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=STOP_SECONDS)


def _wait_ready(process: subprocess.Popen[bytes], port: int, log_path: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"gunicorn exited:\n{log_path.read_text()[-3000:]}")
        try:
            if _get(port, "/api/v1/games", timeout=1.0) == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"gunicorn not ready in {START_SECONDS} s:\n{log_path.read_text()}")


class SlowClient(threading.Thread):
    """Sends ``at_once``, then ``head`` and an endless filler one byte per DRIP_SECONDS."""

    def __init__(self, port: int, head: bytes, *, at_once: bytes = b"") -> None:
        super().__init__(daemon=True)
        self.port = port
        self.head = head
        self.at_once = at_once
        self.sock: socket.socket | None = None
        self.stop = threading.Event()
        self.error: OSError | None = None

    def open(self) -> None:
        """Connect, send the part sent at once, and start dribbling."""
        self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=REQUEST_TIMEOUT)
        self.sock.sendall(self.at_once)
        self.start()

    def run(self) -> None:
        assert self.sock is not None
        index = 0
        while not self.stop.wait(DRIP_SECONDS):
            byte = self.head[index : index + 1] or b"a"
            index += 1
            try:
                self.sock.sendall(byte)
            except OSError as error:
                self.error = error
                return

    def still_waiting(self) -> bool:
        """Connected, and the server has neither answered nor hung up."""
        if self.sock is None or self.error is not None:
            return False
        readable, _, _ = select.select([self.sock], [], [], 0)
        # Readable means an answer (a 400 or 408, say) or a hang-up.
        return not readable

    def close(self) -> None:
        """Stop dribbling and hang up."""
        self.stop.set()
        if self.is_alive():
            self.join(timeout=DRIP_SECONDS * 4)
        if self.sock is not None:
            self.sock.close()


def slow_clients(port: int, count: int) -> list[SlowClient]:
    """Clients dribbling their headers (a header that never ends) or their JSON body."""
    clients = []
    for number in range(count):
        if number % 2 == 0:
            head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Dribble: "
            clients.append(SlowClient(port, head))
        else:
            request = (
                b"POST /api/v1/games/odd-world/score HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 4096\r\n\r\n"
            )
            clients.append(SlowClient(port, b" ", at_once=request))
    return clients


def poll(port: int, target: Target) -> Results:
    """PHONES threads poll the play POLLS_PER_PHONE times each; all polls are bounded."""
    results = Results()
    lock = threading.Lock()
    stop_at = time.monotonic() + POLL_PHASE_LIMIT

    def phone() -> None:
        for _ in range(POLLS_PER_PHONE):
            if time.monotonic() > stop_at:
                with lock:
                    results.failures.append("not sent: polling took too long")
                continue
            started = time.monotonic()
            try:
                status = _get(port, target.path, timeout=REQUEST_TIMEOUT)
            except OSError as error:
                outcome: str | None = f"{type(error).__name__}: {error}"
            else:
                outcome = None if status == 204 else f"status {status}"
            with lock:
                if outcome is None:
                    results.latencies.append(time.monotonic() - started)
                else:
                    results.failures.append(outcome)
            time.sleep(POLL_PAUSE)

    with ThreadPoolExecutor(max_workers=PHONES) as pool:
        for future in [pool.submit(phone) for _ in range(PHONES)]:
            future.result()
    return results


@contextmanager
def served(folder: Path, *extra: str) -> Iterator[tuple[int, Target]]:
    """A play in ``folder``'s database, served by gunicorn; yields the port and the play."""
    target = prepare(folder)
    with gunicorn(folder, *extra) as port:
        yield port, target


def dribble_and_poll(port: int, target: Target, slow: int) -> tuple[Results, list[bool]]:
    """Let ``slow`` clients dribble while the phones poll; returns the polls and whether each
    slow client was still dribbling unanswered when the polls were done."""
    dribblers = slow_clients(port, slow)
    try:
        for client in dribblers:
            client.open()
        time.sleep(SETTLE_SECONDS)
        results = poll(port, target)
        waiting = [client.still_waiting() for client in dribblers]
    finally:
        for client in dribblers:
            client.close()
    return results, waiting


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path
) -> Iterator[tuple[int, Target]]:
    """One gunicorn for the module (its start is the slow part)."""
    folder = tmp_path_factory.mktemp("gunicorn")
    shutil.copy(sqlite_template, folder / "companion.sqlite")
    with served(folder) as started:
        yield started


# 2: the case. 12: as many as one process has threads; with gunicorn's default
# worker_connections they all pile into one process and half the polls stall behind them.
@pytest.mark.parametrize("slow", [2, 12])
def test_polls_stay_fast_while_clients_dribble(slow: int, server: tuple[int, Target]) -> None:
    results, waiting = dribble_and_poll(*server, slow)
    assert all(waiting), "the slow clients should still be dribbling"
    assert len(waiting) == slow
    assert not results.failures, results.failures[:5]
    assert len(results.latencies) == PHONES * POLLS_PER_PHONE
    assert results.p95() < P95_LIMIT, sorted(results.latencies)[-10:]


def main(arguments: list[str]) -> None:
    """Print the poll latencies for the config plus gunicorn ``arguments``
    (``--slow-clients N`` first to change the number of slow clients, 2 by default)."""
    slow = 2
    if arguments[:1] == ["--slow-clients"]:
        slow, arguments = int(arguments[1]), arguments[2:]
    with tempfile.TemporaryDirectory(prefix="companion-slow-") as folder:
        started = time.monotonic()
        with served(Path(folder), *arguments) as (port, target):
            results, waiting = dribble_and_poll(port, target, slow)
        print(
            f"{slow} slow clients, gunicorn -c gunicorn.conf.py {' '.join(arguments)}: "
            f"{len(results.latencies)} polls answered, {len(results.failures)} failed, "
            f"p50 {results.p50():.3f} s, p95 {results.p95():.3f} s, "
            f"slow clients still waiting: {sum(waiting)}/{slow}, "
            f"run {time.monotonic() - started:.1f} s"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
