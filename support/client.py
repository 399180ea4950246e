"""Helpers for web tests: CSRF tokens from pages, creating tables and plays via HTTP."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

CSRF_FIELD = re.compile(
    r'name="csrf_token" type="hidden" value="([^"]+)"|name="csrf_token" value="([^"]+)"'
)
CSRF_HEADER = re.compile(r'"X-CSRFToken": "([^"]+)"')
HTMX = {"HX-Request": "true"}


def csrf(client: FlaskClient, url: str = "/") -> str:
    """The CSRF token a page hands out (from its htmx headers)."""
    page = client.get(url).get_data(as_text=True)
    match = CSRF_HEADER.search(page)
    assert match, "page has no CSRF token"
    return match.group(1)


@dataclass
class TableLinks:
    """The capability tokens of a table created through the pages."""

    edit: str
    view: str
    code: str


def create_table(client: FlaskClient, names: list[str]) -> TableLinks:
    """Create a table through the home page form and read its links from the table page."""
    data = {f"players-{i}": name for i, name in enumerate(names)}
    data.update(csrf_token=csrf(client), action="create")
    response = client.post("/tables", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    edit = response.headers["Location"].rsplit("/t/", 1)[1]
    page = client.get(f"/t/{edit}").get_data(as_text=True)
    view = re.search(r'id="view-link" readonly value="[^"]*/t/([^"]+)"', page)
    # The heading "Table AJ54CM", in whatever language the phone reads.
    code = re.search(r'<h1>[^<]*<span class="code">([A-Z0-9]+)</span>', page)
    assert view
    assert code
    return TableLinks(edit=edit, view=view.group(1), code=code.group(1))


def start_play(
    client: FlaskClient, token: str, game: str = "odd-world", *, series: bool = False
) -> int:
    """Start a game at the table; returns the play's id (a game still unfinished there
    stays: the start is confirmed)."""
    data = {"game": game, "csrf_token": csrf(client, f"/t/{token}"), "confirm": "yes"}
    if series:
        data["series"] = "y"
    response = client.post(f"/t/{token}/plays", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return int(response.headers["Location"].split("/plays/")[1].split("?")[0])


def edit(
    client: FlaskClient,
    token: str,
    play_id: int,
    *,
    path: str,
    value: str,
    base: str | None = None,
    htmx: bool = True,
) -> TestResponse:
    """Post one edit as a stepper or picker would."""
    data = {"path": path, "value": value, "csrf_token": csrf(client, f"/t/{token}")}
    if base is not None:
        data["base"] = base
    headers = HTMX if htmx else {}
    return client.post(f"/t/{token}/plays/{play_id}/edit", data=data, headers=headers)


@contextmanager
def write_lock_held(database: Path) -> Iterator[None]:
    """Another connection holds this SQLite database's write lock meanwhile (``BEGIN
    IMMEDIATE``; reading goes on): the app's writes wait for its busy timeout, then fail."""
    holder = sqlite3.connect(database, timeout=1)
    try:
        holder.execute("BEGIN IMMEDIATE")
        yield
    finally:
        holder.rollback()
        holder.close()


READING = re.compile(r'<p class="hint reading" data-reading="([^"]+)">([^<]*)')


def standings_readings(html: str) -> list[str]:
    """The app's readings a page shows in its standings (their sentences)."""
    section = re.search(r'<section id="standings".*?</section>', html, re.S)
    assert section is not None
    return [text.strip() for _id, text in READING.findall(section.group(0))]


#: A body of Odd World's score API (two players, a face-down card).
API_EXAMPLE = {
    "players": [
        {"name": "Ann", "display": {"hoopoe": 5, "shoebill": 1}, "face_down": "shoebill"},
        {"name": "Ben", "display": {"cassowary": 3}, "face_down": None},
    ]
}


#: A player's row in the evening's standings on the table page, and its first game's line.
EVENING_ROW = re.compile(
    r'<strong class="ev-name">([^<]+)</strong> <span class="ev-record">(\d+) wins?'
    r'(?: \(\d+ shared\))? in (\d+) games?</span></p>\s*<ul class="ev-games">\s*'
    r'<li><span>[^<]+</span> <span class="ev-points">(\d+) points?</span>'
)


def evening_rows(page: str) -> list[tuple[str, str, str, str]]:
    """The table page's evening standings: (player, games played, wins, points in the
    first game whose points add up), in the page's order."""
    return [
        (name, played, wins, points) for name, wins, played, points in EVENING_ROW.findall(page)
    ]


def post_game_form(
    client: FlaskClient,
    token: str,
    play_id: int,
    slug: str,
    route: str,
    *,
    htmx: bool = True,
    **data: Any,
) -> TestResponse:
    """Post one of a game's own forms of a play (with this phone's CSRF token)."""
    data.setdefault("csrf_token", csrf(client, f"/t/{token}"))
    headers = HTMX if htmx else {}
    return client.post(f"/t/{token}/plays/{play_id}/{slug}/{route}", data=data, headers=headers)
