"""Servers for the benchmarks: gunicorn with the project's settings on 127.0.0.1.

Each server runs in its own process group, so stopping (or crashing) it takes its
workers along.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
START_SECONDS = 30.0
STOP_SECONDS = 10.0


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def app_env(database_url: str, secret: str, **settings: str) -> dict[str, str]:
    """This process's environment without COMPANION_/GUNICORN_ settings, plus the app's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPANION_", "GUNICORN_"))}
    env.update(
        COMPANION_DATABASE_URL=database_url,
        COMPANION_SECRET_KEY=secret,
        COMPANION_AUTO_MIGRATE="false",
    )
    env.update({f"COMPANION_{name}": value for name, value in settings.items()})
    return env


def start_gunicorn(
    port: int, env: Mapping[str, str], log: Path, app_spec: str = "companion:create_app()"
) -> subprocess.Popen[bytes]:
    """gunicorn (project settings, 2 workers) on 127.0.0.1:port, once it answers."""
    process = launch_gunicorn(port, env, log, app_spec)
    wait_until_serving(process, port, log)
    return process


def launch_gunicorn(
    port: int, env: Mapping[str, str], log: Path, app_spec: str = "companion:create_app()"
) -> subprocess.Popen[bytes]:
    """Start gunicorn (project settings, 2 workers) on 127.0.0.1:port; do not wait."""
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "-c",
        str(ROOT / "gunicorn.conf.py"),
        "-w",
        "2",
        "-b",
        f"127.0.0.1:{port}",
        app_spec,
    ]
    with log.open("ab") as out:
        return subprocess.Popen(
            command, cwd=ROOT, env=dict(env), stdout=out, stderr=out, start_new_session=True
        )


def wait_until_serving(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    """Return once the server answers on ``port``; stop it and fail if it does not."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if answers(f"http://127.0.0.1:{port}/healthz"):
            return
        if process.poll() is not None:
            break
        time.sleep(0.2)
    stop(process)
    raise RuntimeError(f"gunicorn did not start:\n{log.read_text()[-2000:]}")


def answers(url: str) -> bool:
    """Whether a server answers at this address at all (an HTTP error is an answer)."""
    try:
        with urllib.request.urlopen(url, timeout=1):
            return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False


@contextmanager
def gunicorn(
    port: int, env: Mapping[str, str], log: Path, app_spec: str = "companion:create_app()"
) -> Iterator[subprocess.Popen[bytes]]:
    """A running gunicorn for the block; always stopped afterwards."""
    process = start_gunicorn(port, env, log, app_spec)
    try:
        yield process
    finally:
        stop(process)


@contextmanager
def gunicorns(
    ports: Sequence[int], env: Mapping[str, str], folder: Path
) -> Iterator[list[subprocess.Popen[bytes]]]:
    """Several gunicorns (logs ``folder/gunicorn-<port>.log``), started side by side and
    stopped side by side: each start or stop takes seconds, mostly waiting."""
    logs = [folder / f"gunicorn-{port}.log" for port in ports]
    processes = [launch_gunicorn(port, env, log) for port, log in zip(ports, logs, strict=True)]
    try:
        for process, port, log in zip(processes, ports, logs, strict=True):
            wait_until_serving(process, port, log)
        yield processes
    finally:
        stop_all(processes)


def crash(process: subprocess.Popen[bytes]) -> None:
    """kill -9 the server: its master and every worker at once."""
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=STOP_SECONDS)


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the server (politely, then not)."""
    stop_all([process])


def stop_all(processes: Sequence[subprocess.Popen[bytes]]) -> None:
    """Stop the servers (politely, all at once, then not)."""
    running = [process for process in processes if process.poll() is None]
    for process in running:
        os.killpg(process.pid, signal.SIGTERM)
    for process in running:
        try:
            process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=STOP_SECONDS)


#: How long a phone waits for a server's answer, in seconds.
PHONE_TIMEOUT = 5.0
#: The CSRF token a page hands htmx (in the body's ``hx-headers``).
CSRF = re.compile(r'"X-CSRFToken": "([^"]+)"')
#: The play's version a page or a live update shows.
VERSION = re.compile(r'data-version="(\d+)"')
#: A count of Odd World's first player, which the server tests change.
HOOPOE = "players[0].display.hoopoe"


class ServerPhone:
    """A phone on one server, over HTTP: its own cookies and CSRF token."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.session = requests.Session()
        self.token = ""

    def open(self, path: str) -> str:
        """GET a page; keeps its CSRF token."""
        page = self.session.get(self.base + path, timeout=PHONE_TIMEOUT)
        page.raise_for_status()
        found = CSRF.search(page.text)
        assert found, path
        self.token = found.group(1)
        return page.text

    def post(self, path: str, data: dict[str, str]) -> requests.Response:
        """POST a form as htmx does (CSRF header, HX-Request)."""
        headers = {"X-CSRFToken": self.token, "HX-Request": "true"}
        url = self.base + path
        return self.session.post(url, data=data, headers=headers, timeout=PHONE_TIMEOUT)
