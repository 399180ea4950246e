"""Security headers, cookies, capability tokens, configuration and first start."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import inspect, select

from companion import create_app
from companion.extensions import db
from companion.models import Table
from tests.helpers import create_table, csrf


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
