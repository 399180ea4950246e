"""Every registered route, walked: changes need a CSRF token and an edit link; pages with
tokens are never cached. Routes added later are covered without touching this file; a
route whose path parameters cannot be filled fails the walk rather than being skipped."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.games import GAMES
from support.client import csrf
from support.every_game import Fixture, table_with_every_game
from support.routes import API_PREFIX, GROUP_PREFIX, TOKEN_PREFIX, route_urls, routes

READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CSRF_MISSING, READ_ONLY = 400, 403


@pytest.fixture
def table(client: FlaskClient) -> Fixture:
    return table_with_every_game(client)


def test_every_change_needs_csrf_and_an_edit_link(
    app: Flask, client: FlaskClient, table: Fixture
) -> None:
    assert app.config.get("WTF_CSRF_ENABLED", True), "this walk needs CSRF switched on"
    token = csrf(client, f"/t/{table.view}")
    failures: list[str] = []
    checked = 0
    for rule in routes(app):
        methods = sorted(set(rule.methods or ()) - READ_METHODS)
        if not methods or rule.rule.startswith(API_PREFIX):
            continue  # reads, and the stateless JSON API (CSRF-exempt by design)
        under_table = rule.rule.startswith((TOKEN_PREFIX, GROUP_PREFIX))
        try:
            urls = route_urls(app, rule, table.edit, table)
            read_only = route_urls(app, rule, table.view, table) if under_table else []
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
    for rule in routes(app):
        if "GET" not in (rule.methods or ()) or rule.rule.startswith(API_PREFIX):
            continue
        try:
            urls = [
                url
                for token in (table.edit, table.view)
                for url in route_urls(app, rule, token, table)
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
