"""Security headers, cookies, capability tokens, configuration and first start."""

from __future__ import annotations

import doctest
import hashlib
import os
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import inspect, select

from companion import config, create_app
from companion.extensions import db
from companion.games.names import hidden_character, hidden_character_message
from companion.models import Table
from companion.web import security
from support.app import FORGED_HOST, local_app
from support.client import create_table, csrf


def test_security_headers_on_pages_and_api(client: FlaskClient) -> None:
    for response in (client.get("/"), client.post("/api/v1/games/x/score", json={})):
        csp = response.headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp
        assert "unsafe-inline" not in csp
        assert "unsafe-eval" not in csp
        assert "frame-ancestors 'none'" in csp
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "same-origin"
        assert response.headers["X-Frame-Options"] == "DENY"


def test_pages_have_no_inline_script_or_style(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    for url in ("/", "/join", f"/t/{links.edit}"):
        html = client.get(url).get_data(as_text=True)
        scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
        assert scripts
        assert all(' src="/static/' in attributes and not body for attributes, body in scripts)
        assert "<style" not in html
        assert " style=" not in html.split("<svg")[0]
        assert " on" + "click=" not in html


def test_session_cookie_flags(app: Flask, client: FlaskClient) -> None:
    csrf(client)  # the page puts the CSRF token into the session
    cookie = client.get_cookie("session", domain="companion.test")
    assert cookie is not None
    assert cookie.http_only
    assert cookie.same_site == "Lax"
    assert app.config["WTF_CSRF_TIME_LIMIT"] is None  # a tab left open all evening still works


@pytest.mark.both_backends("what each database stores")
def test_only_token_hashes_are_stored(app: Flask, client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    with app.app_context():
        table = db.session.scalars(select(Table)).one()
        assert table.edit_token_hash == hashlib.sha256(links.edit.encode()).hexdigest()
        columns = {c["name"] for c in inspect(db.engine).get_columns("tables")}
        stored = " ".join(str(getattr(table, c)) for c in columns)
        assert links.edit not in stored
        assert links.view not in stored


def test_static_htmx_is_vendored_and_pinned(client: FlaskClient) -> None:
    response = client.get("/static/htmx-2.0.11.min.js")
    assert response.status_code == 200
    assert b'version:"2.0.11"' in response.data
    response.close()


def test_first_start_creates_database_and_secret_key(tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    app = create_app({"INSTANCE_PATH": instance})
    key_file = instance / "secret_key"
    assert key_file.exists()
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"
    assert (instance / "companion.sqlite").exists()
    with app.app_context():
        assert "plays" in inspect(db.engine).get_table_names()
        assert db.session.execute(db.text("PRAGMA journal_mode")).scalar() == "wal"
        assert db.session.execute(db.text("PRAGMA foreign_keys")).scalar() == 1
        assert db.session.execute(db.text("PRAGMA busy_timeout")).scalar() == 5000
        # NORMAL: a commit waits for no disk flush (durable at the WAL's checkpoint).
        assert db.session.execute(db.text("PRAGMA synchronous")).scalar() == 1
        db.engine.dispose()
    again = create_app({"INSTANCE_PATH": instance})
    assert again.config["SECRET_KEY"] == app.config["SECRET_KEY"]
    with again.app_context():
        db.engine.dispose()


def test_config_layers_instance_file_and_environment(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "config.py").write_text("POLL_SECONDS = 5\nJOIN_ATTEMPTS = 3\n")
    monkeypatch.setenv("COMPANION_JOIN_ATTEMPTS", "7")
    monkeypatch.setenv("COMPANION_DATABASE_URL", f"sqlite:///{tmp_path / 'other.sqlite'}")
    app = create_app({"INSTANCE_PATH": instance})
    assert app.config["POLL_SECONDS"] == 5
    assert app.config["JOIN_ATTEMPTS"] == 7
    assert app.config["SQLALCHEMY_DATABASE_URI"].endswith("other.sqlite")
    assert (tmp_path / "other.sqlite").exists()
    with app.app_context():
        db.engine.dispose()
    assert os.environ["COMPANION_JOIN_ATTEMPTS"] == "7"


def test_trusted_proxy_headers(tmp_path: Path) -> None:
    app = create_app({"INSTANCE_PATH": tmp_path, "TRUSTED_PROXIES": 1, "SECRET_KEY": "p"})
    client = app.test_client()
    page = client.get(
        "/", headers={"X-Forwarded-Host": "odd.example", "X-Forwarded-Proto": "https"}
    )
    assert page.status_code == 200
    links = create_table(client, ["Ann"])
    table = client.get(
        f"/t/{links.edit}",
        headers={"X-Forwarded-Host": "odd.example", "X-Forwarded-Proto": "https"},
    ).get_data(as_text=True)
    assert f'value="https://odd.example/t/{links.edit}"' in table
    with app.app_context():
        db.engine.dispose()


# --- trust: caching, hosts, HTTPS, hidden characters -----------------------------------

HIDDEN = ["\u202e", "\u2066", "\u2069", "\u200b", "\ufeff", "\x00", "\x1b", "\u2028"]


def test_token_pages_and_redirects_are_never_cached(client: FlaskClient) -> None:
    data = {"players-0": "Ann", "csrf_token": csrf(client), "action": "create"}
    created = client.post("/tables", data=data)
    assert created.status_code == 303
    for response in (created, client.get(created.headers["Location"]), client.get("/")):
        assert response.headers["Cache-Control"] == "no-store"
        assert response.headers["X-Robots-Tag"] == "noindex"
    static = client.get("/static/htmx-2.0.11.min.js")
    assert "no-store" not in static.headers.get("Cache-Control", "")
    assert "X-Robots-Tag" not in static.headers
    static.close()


def test_forged_host_is_refused_and_never_in_a_link(tmp_path: Path, sqlite_template: Path) -> None:
    with local_app(tmp_path, sqlite_template) as app:
        client = app.test_client()
        links = create_table(client, ["Ann"])
        for url in ("/", f"/t/{links.edit}", f"/t/{links.view}"):
            refused = client.get(url, headers={"Host": FORGED_HOST})
            assert refused.status_code == 400
            assert FORGED_HOST not in refused.get_data(as_text=True)
        posted = client.post("/tables", data={"action": "create"}, headers={"Host": FORGED_HOST})
        assert posted.status_code == 400
        # The dev server's own address still works, and the links use it.
        page = client.get(f"/t/{links.edit}", headers={"Host": "127.0.0.1:5000"})
        assert page.status_code == 200
        assert f'value="http://127.0.0.1:5000/t/{links.edit}"' in page.get_data(as_text=True)


def test_server_name_builds_the_links_whatever_the_host(client: FlaskClient) -> None:
    links = create_table(client, ["Ann"])
    page = client.get(f"/t/{links.edit}", headers={"Host": "localhost"})
    assert f'value="http://companion.test/t/{links.view}"' in page.get_data(as_text=True)
    assert client.get(f"/t/{links.edit}", headers={"Host": FORGED_HOST}).status_code == 400


def test_trusted_hosts_from_the_environment(
    tmp_path: Path, sqlite_template: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPANION_TRUSTED_HOSTS", "odd.example, .odd.example")
    with local_app(tmp_path, sqlite_template) as app:
        client = app.test_client()
        assert client.get("/", headers={"Host": "odd.example"}).status_code == 200
        assert client.get("/", headers={"Host": "www.odd.example"}).status_code == 200
        assert client.get("/", headers={"Host": FORGED_HOST}).status_code == 400
        assert client.get("/", headers={"Host": "localhost"}).status_code == 400


def test_https_setting_sends_hsts_secure_cookie_and_https_links(
    tmp_path: Path, sqlite_template: Path
) -> None:
    with local_app(tmp_path, sqlite_template, HTTPS=True) as app:
        client = app.test_client()
        # Requests count as HTTPS, so Flask-WTF's strict check wants a same-site Referer.
        client.environ_base["HTTP_REFERER"] = "https://localhost/"
        links = create_table(client, ["Ann"])
        page = client.get(f"/t/{links.edit}")
        assert page.headers["Strict-Transport-Security"] == "max-age=63072000; includeSubDomains"
        assert f'value="https://localhost/t/{links.view}"' in page.get_data(as_text=True)
        cookie = client.get_cookie("session", domain="localhost")
        assert cookie is not None
        assert cookie.secure
    scheme = create_app(
        {"INSTANCE_PATH": tmp_path / "scheme", "SECRET_KEY": "s", "PREFERRED_URL_SCHEME": "https"}
    )
    assert scheme.config["HTTPS"]
    assert scheme.config["SESSION_COOKIE_SECURE"]
    with scheme.app_context():
        db.engine.dispose()
    plain = create_app({"INSTANCE_PATH": tmp_path / "plain", "SECRET_KEY": "s"})
    assert not plain.config["SESSION_COOKIE_SECURE"]
    assert "Strict-Transport-Security" not in plain.test_client().get("/").headers
    with plain.app_context():
        db.engine.dispose()


@pytest.mark.parametrize("char", HIDDEN)
def test_hidden_characters_in_names_are_refused_next_to_the_field(
    app: Flask, client: FlaskClient, char: str
) -> None:
    data = {"players-0": f"An{char}n", "players-1": "Ben", "csrf_token": csrf(client)}
    response = client.post("/tables", data={**data, "action": "create"})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    row = re.search(r'<input id="players-0".*?</li>', html, re.S)
    assert row
    assert f"U+{ord(char):04X}" in row.group(0)
    assert "invisible or control characters" in row.group(0)
    with app.app_context():
        assert db.session.scalars(select(Table)).all() == []


def test_hidden_characters_in_the_join_code_are_refused(client: FlaskClient) -> None:
    create_table(client, ["Ann"])
    response = client.post("/join", data={"code": "ABC\u202eDEF", "csrf_token": csrf(client)})
    assert response.status_code == 422
    assert "U+202E" in response.get_data(as_text=True)


@pytest.mark.parametrize("char", HIDDEN)
def test_hidden_characters_in_api_names_are_a_problem(client: FlaskClient, char: str) -> None:
    players = [{"name": f"An{char}n", "display": {}}, {"name": "Ben", "display": {}}]
    response = client.post("/api/v1/games/odd-world/score", json={"players": players})
    assert response.status_code == 422
    problems = response.get_json()["problems"]
    assert {
        "path": "players[0].name",
        "message": hidden_character_message(char, subject="Names"),
    } in problems


@pytest.mark.parametrize(
    "text",
    [
        "Zoë",
        "José-María",
        "李雷",
        "\u0645\u0647\u0631\u200c\u0646\u0627\u0632",
        "\U0001f468\u200d\U0001f469",
        "Ann Ben",
    ],
)
def test_ordinary_names_have_no_hidden_character(text: str) -> None:
    assert hidden_character(text) is None


@pytest.mark.parametrize("text", [*HIDDEN, "\ud800", "Ann\u200dBen", "\u200dAnn", "\U000e0041"])
def test_hidden_character_finds_controls_formats_and_stray_joiners(text: str) -> None:
    assert hidden_character(f"x{text}") is not None


def test_config_and_header_doctests() -> None:
    # companion/games is the only package whose doctests pytest collects.
    for module in (config, security):
        assert doctest.testmod(module).failed == 0, module.__name__


def test_sqlite_synchronous_is_a_setting(tmp_path: Path) -> None:
    """FULL flushes every commit to disk, for those who want it; a typo is refused."""
    app = create_app({"INSTANCE_PATH": tmp_path, "SQLITE_SYNCHRONOUS": "full"})
    with app.app_context():
        assert db.session.execute(db.text("PRAGMA synchronous")).scalar() == 2
        db.engine.dispose()
    with pytest.raises(ValueError, match="SQLITE_SYNCHRONOUS"):
        create_app({"INSTANCE_PATH": tmp_path / "other", "SQLITE_SYNCHRONOUS": "fast"})
