"""The documented limits hold for the documented deployment (two or more gunicorn workers):
they count in the database every worker shares, gunicorn refuses several workers counting
in memory, and gunicorn listens on loopback only unless told otherwise (with
COMPANION_TRUSTED_PROXIES set, a forged X-Forwarded-For would otherwise escape them)."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from flask import Flask

from companion import PROJECT_ROOT

CONFIG = PROJECT_ROOT / "gunicorn.conf.py"
LIMIT = 3
SCORE = "/api/v1/games/odd-world/score"
TIMEOUT = 60

#: One "worker": a process of its own (its own memory), calling the API ``count`` times
#: and printing the status codes.
WORKER = f"""
import sys
from companion import create_app
app = create_app({{
    "DATABASE_URL": sys.argv[1], "SECRET_KEY": "shared", "AUTO_MIGRATE": False,
    "INSTANCE_PATH": sys.argv[2], "RATE_LIMIT_API": "{LIMIT} per hour",
}})
client = app.test_client()
codes = [client.post("{SCORE}", json={{}}).status_code for _ in range(int(sys.argv[3]))]
print(" ".join(map(str, codes)))
"""


def _worker(url: str, folder: Path, count: int) -> list[int]:
    done = subprocess.run(
        [sys.executable, "-c", WORKER, url, str(folder), str(count)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=PROJECT_ROOT,
        env=_no_storage_override(),
        check=True,
    )
    return [int(code) for code in done.stdout.split()]


def _no_storage_override() -> dict[str, str]:
    """The environment without a storage of its own: the app's default counts."""
    return {k: v for k, v in os.environ.items() if k != "COMPANION_RATELIMIT_STORAGE_URI"}


@pytest.mark.both_backends("the rate-limit counters are rows of the database")
def test_two_worker_processes_share_one_count(app: Flask, tmp_path: Path) -> None:
    url = str(app.config["SQLALCHEMY_DATABASE_URI"])
    first = _worker(url, tmp_path / "one", LIMIT)
    second = _worker(url, tmp_path / "two", 1)
    assert 429 not in first
    assert second == [429], "the second process counts the first one's requests"


def _settings() -> dict[str, object]:
    return runpy.run_path(str(CONFIG))


def test_gunicorn_listens_on_loopback_by_default() -> None:
    assert _settings()["bind"] == "127.0.0.1:8000"


def test_gunicorn_refuses_several_workers_counting_in_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    on_starting = _settings()["on_starting"]
    monkeypatch.setenv("COMPANION_SECRET_KEY", "test")  # no key file made in instance/
    monkeypatch.setenv("COMPANION_RATELIMIT_STORAGE_URI", "memory://")
    with pytest.raises(SystemExit, match="each of the 2 worker processes"):
        on_starting(SimpleNamespace(cfg=SimpleNamespace(workers=2)))  # type: ignore[operator]
    on_starting(SimpleNamespace(cfg=SimpleNamespace(workers=1)))  # type: ignore[operator]
    monkeypatch.delenv("COMPANION_RATELIMIT_STORAGE_URI")
    on_starting(SimpleNamespace(cfg=SimpleNamespace(workers=4)))  # type: ignore[operator]


def test_gunicorn_itself_stops_with_the_sentence() -> None:
    env = {
        **_no_storage_override(),
        "COMPANION_RATELIMIT_STORAGE_URI": "memory://",
        "COMPANION_SECRET_KEY": "test",
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            str(CONFIG),
            "-w",
            "2",
            "-b",
            "127.0.0.1:0",
            "companion:create_app()",
        ],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=PROJECT_ROOT,
        env=env,
        check=False,
    )
    assert done.returncode != 0
    assert "Not starting: The rate limits count in memory" in done.stderr + done.stdout
