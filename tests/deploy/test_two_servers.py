"""Two app servers, as if on two machines, against one PostgreSQL (and one Redis).

Each server is its own gunicorn (2 workers) on its own port of 127.0.0.1. A phone on
each: one sees the other's tap at its next poll, a stale tap of the same field is refused
whichever server answers it, and the join-code limit counts across both servers when they
share their rate-limit storage. Nothing about a table lives in a worker.

Bounded: every request has a timeout; servers and Redis are always stopped.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import create_app
from companion.extensions import db
from support.client import create_table, start_play
from support.postgres import PostgresCluster
from support.servers import HOOPOE, VERSION, ServerPhone, app_env, free_port, gunicorns

SECRET = "two-servers"
TIMEOUT = 5.0


@pytest.fixture
def redis_url() -> Iterator[str]:
    """A throwaway Redis on 127.0.0.1 (Debian's redis-server), for shared rate limits."""
    server = shutil.which("redis-server")
    if server is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is required under CI but was not found.")
        pytest.skip("redis-server is not installed here (apt install redis-server).")
    port = free_port()
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            try:
                import redis

                redis.Redis(port=port, socket_timeout=1).ping()
                break
            except OSError:
                time.sleep(0.1)
            except redis.exceptions.ConnectionError:
                time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=TIMEOUT)


@pytest.fixture
def database(postgres: PostgresCluster) -> Iterator[str]:
    """A fresh migrated database in the suite's throwaway PostgreSQL cluster."""
    name = f"two_{uuid.uuid4().hex[:12]}"
    postgres.execute(f"CREATE DATABASE {name} TEMPLATE companion_template")
    yield f"{postgres.base_url}/{name}"
    postgres.execute(f"DROP DATABASE {name} WITH (FORCE)")


def _play(database_url: str, folder: Path) -> tuple[str, int, str]:
    """A table with an Odd World play; its edit token, play id and join code."""
    app = create_app(
        {
            "INSTANCE_PATH": str(folder),
            "SECRET_KEY": SECRET,
            "DATABASE_URL": database_url,
            "AUTO_MIGRATE": False,
        }
    )
    client = app.test_client()
    links = create_table(client, ["Ann", "Ben"])
    play = start_play(client, links.edit)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    return links.edit, play, links.code


@pytest.fixture
def servers(database: str, redis_url: str) -> Iterator[tuple[str, str, tuple[str, int, str]]]:
    """Two servers sharing the database and the rate-limit storage, and a play on it."""
    folder = Path(tempfile.mkdtemp(prefix="two-servers-"))
    made = _play(database, folder)
    env = app_env(database, SECRET, RATELIMIT_STORAGE_URI=redis_url)
    first, second = free_port(), free_port()
    with gunicorns([first, second], env, folder):
        yield f"http://127.0.0.1:{first}", f"http://127.0.0.1:{second}", made
    shutil.rmtree(folder, ignore_errors=True)


def test_a_phone_on_each_server_sees_the_other_and_clashes_are_caught(
    servers: tuple[str, str, tuple[str, int, str]],
) -> None:
    first, second, (token, play, _code) = servers
    page = f"/t/{token}/plays/{play}"
    ann, ben = ServerPhone(first), ServerPhone(second)
    version = int(VERSION.findall(ann.open(page))[0])
    ben.open(page)
    poll = f"{page}/poll?version={version}"
    assert ben.session.get(second + poll, timeout=TIMEOUT).status_code == 204

    tap = ann.post(f"{page}/edit", {"path": HOOPOE, "value": "3", "base": "0"})
    assert tap.status_code == 200
    seen = ben.session.get(second + poll, headers={"HX-Request": "true"}, timeout=TIMEOUT)
    assert seen.status_code == 200
    assert int(VERSION.findall(seen.text)[0]) == version + 1

    stale = ben.post(f"{page}/edit", {"path": HOOPOE, "value": "5", "base": "0"})
    assert stale.status_code == 409
    answer = ann.session.get(first + page, timeout=TIMEOUT).text
    assert 'id="n-0-hoopoe" name="value" value="3"' in answer


def test_the_join_code_limit_counts_across_servers(
    servers: tuple[str, str, tuple[str, int, str]],
) -> None:
    first, second, _made = servers
    answers = []
    for attempt in range(12):
        phone = ServerPhone(first if attempt % 2 == 0 else second)
        phone.open("/join")
        answers.append(phone.post("/join", {"code": "ZZZZZZ", "csrf_token": phone.token}))
    statuses = [answer.status_code for answer in answers]
    # Ten typed codes per network and window in all: six on each server would pass if
    # each server counted alone.
    assert statuses[:10] == [422] * 10
    assert statuses[10:] == [429, 429]
