"""Lighthouse scores of the public pages, a table page and a play page of every game.

Starts the app under gunicorn on 127.0.0.1 with a fresh SQLite database holding a table
and one play of every registered game (started through the pages, as the route walk
does), then runs Lighthouse (npm ``lighthouse@12.2.3``, installed into ``.cache/`` when
missing; ``LIGHTHOUSE=/path/to/lighthouse`` uses another copy) with Debian's Chromium
and its default mobile emulation, and prints performance, accessibility, best practices
and SEO per page, with every audit that kept a category under 100.

Run: .venv/bin/python benchmarks/lighthouse.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from flask import Flask

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion import create_app  # noqa: E402
from companion.extensions import db  # noqa: E402
from support.every_game import table_with_every_game  # noqa: E402
from support.servers import app_env, free_port, gunicorn  # noqa: E402

VERSION = "12.2.3"
CACHE = ROOT / ".cache" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
SECRET = "lighthouse"


def lighthouse() -> str:
    """The lighthouse command, installed from npm into .cache/ when missing."""
    chosen = os.environ.get("LIGHTHOUSE")
    if chosen:
        return chosen
    installed = CACHE / "node_modules" / ".bin" / "lighthouse"
    if not installed.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        print(f"Installing lighthouse@{VERSION} (npm)...", flush=True)
        subprocess.run(
            [
                "npm",
                "install",
                "--prefix",
                str(CACHE),
                "--no-audit",
                "--no-fund",
                f"lighthouse@{VERSION}",
            ],
            check=True,
            capture_output=True,
        )
    return str(installed)


def app_in(folder: Path) -> Flask:
    """The app on the database in ``folder`` that the measured server will serve."""
    return create_app(
        {
            "INSTANCE_PATH": str(folder),
            "SECRET_KEY": SECRET,
            "SERVER_NAME": "127.0.0.1",
            "RATELIMIT_ENABLED": False,
        }
    )


def prepare(folder: Path) -> dict[str, str]:
    """The pages to score: home, the rules and help of a game, a referee tool, a table,
    and a play of every game."""
    app = app_in(folder)
    client = app.test_client()
    table = table_with_every_game(client)
    with app.app_context():
        db.engine.dispose()
    pages = {
        "home": "/",
        "rules": "/rules/odd-world",
        "help": "/help/odd-world",
        "trick checker": "/owl-about/check",
        "table": f"/t/{table.edit}",
    }
    pages.update({slug: f"/t/{table.edit}/plays/{play}" for slug, play in table.plays.items()})
    return pages


#: Lighthouse now and then fails to record a page's trace in headless Chromium
#: (NO_NAVSTART) and asks to be run again: each page gets this many tries.
TRIES = 3


def score(command: str, url: str, report: Path) -> dict[str, object]:
    """The category scores (0-100) and the audits that cost points, from the first of
    :data:`TRIES` Lighthouse runs that worked (or what went wrong with the last)."""
    found: dict[str, object] = {}
    for _ in range(TRIES):
        found = score_once(command, url, report)
        if found["scores"] is not None:
            break
    return found


def score_once(command: str, url: str, report: Path) -> dict[str, object]:
    """One Lighthouse run: the category scores (0-100) and the audits that cost points."""
    report.unlink(missing_ok=True)
    run = subprocess.run(
        [
            command,
            url,
            "--quiet",
            "--output=json",
            f"--output-path={report}",
            "--chrome-flags=--headless=new --no-sandbox",
            f"--only-categories={','.join(CATEGORIES)}",
        ],
        check=False,
        env=dict(os.environ, CHROME_PATH=CHROMIUM),
        capture_output=True,
        text=True,
    )
    if run.returncode != 0 or not report.exists():
        # Say what went wrong for this page and go on with the others.
        return {"scores": None, "lost": [f"lighthouse failed: {run.stderr.strip()[-500:]}"]}
    result = json.loads(report.read_text())
    scores = {name: round(result["categories"][name]["score"] * 100) for name in CATEGORIES}
    lost = sorted(
        f"{name}: {audit['title']}"
        for name, audit in result["audits"].items()
        if audit.get("score") is not None
        and audit["score"] < 1
        and audit.get("scoreDisplayMode") in ("binary", "numeric")
    )
    return {"scores": scores, "lost": lost}


def main() -> None:
    """Print each page's four scores and what cost points."""
    command = lighthouse()
    folder = Path(tempfile.mkdtemp(prefix="lighthouse-"))
    pages = prepare(folder)
    port = free_port()
    env = app_env(f"sqlite:///{folder / 'companion.sqlite'}", SECRET)
    with gunicorn(port, env, folder / "gunicorn.log"):
        print("page: " + " / ".join(CATEGORIES), flush=True)
        for name, path in pages.items():
            found = score(command, f"http://127.0.0.1:{port}{path}", folder / f"{name}.json")
            scores = found["scores"]
            if isinstance(scores, dict):
                print(f"{name}: " + " / ".join(str(scores[c]) for c in CATEGORIES), flush=True)
            else:
                print(f"{name}: no scores", flush=True)
            for line in found["lost"]:  # type: ignore[attr-defined]
                print(f"    {line}", flush=True)


if __name__ == "__main__":
    main()
