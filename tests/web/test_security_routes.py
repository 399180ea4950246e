"""Every registered route, walked: changes need a CSRF token and an edit link; pages with
tokens are never cached. Routes added later are covered without touching this file; a
route whose path parameters cannot be filled fails the walk rather than being skipped."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.routing import Rule

from companion.games import GAMES
from companion.web.games import PAGES
from support.client import csrf
from support.every_game import Fixture, table_with_every_game

TOKEN_PREFIX = "/t/"
GROUP_PREFIX = "/g/"
API_PREFIX = "/api/"
READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CSRF_MISSING, READ_ONLY = 400, 403
STATIC_FILE = "companion.css"
#: A photo's file name no photo has (its routes answer 404, behind the same checks).
PHOTO_FILE = f"{'0' * 32}.jpg"


@pytest.fixture
def table(client: FlaskClient) -> Fixture:
    return table_with_every_game(client)


def play_pages(slug: str) -> list[str]:
    """The pages a game's own blueprint shows for a play (Oddland's facts, Lucky's
    referee), as addresses after the play's (``/oddland/facts``): every GET route of the
    game's blueprint, read from a bare app it is registered on alone."""
    blueprint = PAGES[slug].blueprint
    if blueprint is None:
        return []
    bare = Flask(__name__)
    bare.register_blueprint(blueprint, url_prefix=f"/{slug}")
    return sorted(
        rule.rule
        for rule in bare.url_map.iter_rules()
        if rule.endpoint.startswith(f"{blueprint.name}.") and "GET" in (rule.methods or ())
    )


def _game_of(rule: Rule) -> str | None:
    """The game a route belongs to when its path names one (``.../owl-about/card``)."""
    segments = rule.rule.split("/")
    return next((slug for slug in GAMES if slug in segments), None)


def _values(rule: Rule, token: str, found: Fixture) -> Iterator[dict[str, object]]:
    """Path parameters for a rule: each sensible combination, or KeyError for an unknown
    parameter (the walk then fails naming the route)."""
    unknown = set(rule.arguments) - {"token", "play_id", "slug", "filename", "photo"}
    if unknown:
        raise KeyError(f"{rule.rule}: no value for {sorted(unknown)}")
    game = _game_of(rule)
    play_ids = [found.plays[game]] if game else list(found.plays.values())
    slugs = list(GAMES)
    for play_id in play_ids if "play_id" in rule.arguments else [None]:
        for slug in slugs if "slug" in rule.arguments else [None]:
            values: dict[str, object] = {"token": token, "play_id": play_id, "slug": slug}
            values["filename"] = STATIC_FILE
            values["photo"] = PHOTO_FILE
            yield {name: value for name, value in values.items() if name in rule.arguments}


def _urls(app: Flask, rule: Rule, token: str, found: Fixture) -> list[str]:
    if rule.rule.startswith(GROUP_PREFIX):
        # A group's routes take the group's link of the same access as the table's.
        token = found.group_edit if token == found.edit else found.group_view
    with app.test_request_context():
        adapter = app.url_map.bind("localhost")
        return [adapter.build(rule.endpoint, values) for values in _values(rule, token, found)]


def _rules(app: Flask) -> list[Rule]:
    return sorted(app.url_map.iter_rules(), key=lambda rule: rule.rule)


def test_every_change_needs_csrf_and_an_edit_link(
    app: Flask, client: FlaskClient, table: Fixture
) -> None:
    assert app.config.get("WTF_CSRF_ENABLED", True), "this walk needs CSRF switched on"
    token = csrf(client, f"/t/{table.view}")
    failures: list[str] = []
    checked = 0
    for rule in _rules(app):
        methods = sorted(set(rule.methods or ()) - READ_METHODS)
        if not methods or rule.rule.startswith(API_PREFIX):
            continue  # reads, and the stateless JSON API (CSRF-exempt by design)
        under_table = rule.rule.startswith((TOKEN_PREFIX, GROUP_PREFIX))
        try:
            urls = _urls(app, rule, table.edit, table)
            read_only = _urls(app, rule, table.view, table) if under_table else []
        except KeyError as unknown:
            failures.append(f"cannot fill {unknown}")
            continue
        for method in methods:
            for url in urls:
                status = client.open(url, method=method, data={}).status_code
                if status != CSRF_MISSING:
                    failures.append(f"{method} {url} without CSRF token: {status}")
                checked += 1
            for url in read_only:
                status = client.open(url, method=method, data={"csrf_token": token}).status_code
                if status != READ_ONLY:
                    failures.append(f"{method} {url} with the read-only link: {status}")
    assert not failures, "\n".join(failures)
    assert checked >= len(GAMES), "the walk found hardly any routes that change things"


def test_every_page_with_a_token_is_never_cached(
    app: Flask, client: FlaskClient, table: Fixture
) -> None:
    failures: list[str] = []
    for rule in _rules(app):
        if "GET" not in (rule.methods or ()) or rule.rule.startswith(API_PREFIX):
            continue
        try:
            urls = [
                url for token in (table.edit, table.view) for url in _urls(app, rule, token, table)
            ]
        except KeyError as unknown:
            failures.append(f"cannot fill {unknown}")
            continue
        for url in dict.fromkeys(urls):
            response = client.get(url)
            html = response.mimetype == "text/html"
            # Every page holds a CSRF token: never stored. A page that names a table's or a
            # group's link, or lives under one, is never indexed either (public pages may be).
            body = response.get_data(as_text=True) if html else ""
            shows_link = TOKEN_PREFIX in body or GROUP_PREFIX in body
            carries = url.startswith((TOKEN_PREFIX, GROUP_PREFIX)) or shows_link
            cache = response.headers.get("Cache-Control", "")
            robots = response.headers.get("X-Robots-Tag", "")
            if (carries or html) and cache != "no-store":
                failures.append(f"GET {url} ({response.status_code}): {cache=}")
            if carries and robots != "noindex":
                failures.append(f"GET {url} ({response.status_code}): {robots=}")
            if rule.endpoint == "static" and "no-store" in cache:
                failures.append(f"GET {url}: static files should stay cacheable")
            response.close()
    assert not failures, "\n".join(failures)
