"""Operations: the health check, request ids, logged errors, the 500 page, compression."""

from __future__ import annotations

import gzip
import json
import logging
from collections.abc import Iterator

import brotli
import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.exc import OperationalError

from companion.extensions import db
from companion.web import operations
from support.app import POSTGRES
from support.client import create_table, start_play

TOKEN_LOOKING = "AbCdEf0123456789secret"


@pytest.mark.both_backends("the health check asks the database")
def test_healthz_answers_ok_when_the_database_answers(client: FlaskClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "database": "ok"}
    assert response.headers["Cache-Control"] == "no-store"


def test_healthz_answers_503_when_the_database_does_not(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreachable(*_args: object, **_kwargs: object) -> None:
        raise OperationalError("SELECT 1", {}, Exception("connection refused"))

    monkeypatch.setattr(db.session, "execute", unreachable)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.get_json() == {"status": "unavailable", "database": "unreachable"}


def test_healthz_is_never_rate_limited(app: Flask, client: FlaskClient) -> None:
    app.config["RATELIMIT_ENABLED"] = True
    assert all(client.get("/healthz").status_code == 200 for _ in range(50))


def test_every_response_names_a_fresh_request_id(client: FlaskClient) -> None:
    first = client.get("/").headers["X-Request-ID"]
    second = client.get("/no-such-page").headers["X-Request-ID"]
    assert len(first) == 32
    assert first != second


def test_a_sane_request_id_from_the_proxy_is_kept(client: FlaskClient) -> None:
    response = client.get("/", headers={"X-Request-ID": "nginx-4f2a.7"})
    assert response.headers["X-Request-ID"] == "nginx-4f2a.7"


@pytest.mark.parametrize("forged", ["x" * 65, "a b", "<script>", "id;rm"])
def test_a_strange_request_id_is_replaced(client: FlaskClient, forged: str) -> None:
    response = client.get("/", headers={"X-Request-ID": forged})
    assert response.headers["X-Request-ID"] != forged
    assert len(response.headers["X-Request-ID"]) == 32


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(operations.JsonLineFormatter().format(record))


@pytest.fixture
def broken(app: Flask) -> Iterator[_Collect]:
    """Routes that fail unexpectedly, errors handled as in production, the log collected."""

    def fail() -> str:
        raise RuntimeError("the engine fell over")

    app.add_url_rule(f"/t/{TOKEN_LOOKING}/boom", "boom_page", fail)
    app.add_url_rule("/api/v1/boom", "boom_api", fail)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    collect = _Collect()
    logger = logging.getLogger(operations.LOGGER_NAME)
    logger.addHandler(collect)
    yield collect
    logger.removeHandler(collect)


@pytest.mark.usefixtures("broken")
def test_an_unexpected_error_gets_a_calm_page_with_a_reference(client: FlaskClient) -> None:
    response = client.get(f"/t/{TOKEN_LOOKING}/boom", headers={"X-Request-ID": "req-42"})
    assert response.status_code == 500
    page = response.get_data(as_text=True)
    assert "Something went wrong on our side" in page
    assert "<code>req-42</code>" in page
    assert "RuntimeError" not in page


def test_an_unexpected_error_is_logged_as_one_json_line_without_the_token(
    client: FlaskClient, broken: _Collect
) -> None:
    client.get(f"/t/{TOKEN_LOOKING}/boom", headers={"X-Request-ID": "req-42"})
    [line] = broken.lines
    entry = json.loads(line)
    assert entry["level"] == "ERROR"
    assert entry["request_id"] == "req-42"
    assert entry["method"] == "GET"
    assert entry["path"] == "/t/…/boom"
    assert "RuntimeError: the engine fell over" in entry["error"]
    assert TOKEN_LOOKING not in line


@pytest.mark.usefixtures("broken")
def test_an_unexpected_api_error_answers_json(client: FlaskClient) -> None:
    response = client.get("/api/v1/boom")
    assert response.status_code == 500
    body = response.get_json()
    assert body["error"] == "internal_error"
    assert body["request_id"] == response.headers["X-Request-ID"]


def _play_page(client: FlaskClient) -> str:
    links = create_table(client, ["Ann", "Ben", "Cid", "Dee"])
    play = start_play(client, links.edit)
    return f"/t/{links.edit}/plays/{play}"


@pytest.mark.parametrize(
    ("accepted", "encoding", "decompress"),
    [("br, gzip", "br", brotli.decompress), ("gzip", "gzip", gzip.decompress)],
)
def test_pages_are_compressed_for_clients_that_accept_it(
    client: FlaskClient, accepted: str, encoding: str, decompress: object
) -> None:
    url = _play_page(client)
    plain = client.get(url).get_data()
    packed = client.get(url, headers={"Accept-Encoding": accepted})
    assert packed.headers["Content-Encoding"] == encoding
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert callable(decompress)
    unpacked = decompress(packed.get_data())
    # The pages differ only in their per-request CSRF token and idempotency keys.
    assert abs(len(unpacked) - len(plain)) < 200
    assert len(packed.get_data()) * 5 < len(plain)


def test_no_compression_unless_asked_and_none_for_tiny_answers(client: FlaskClient) -> None:
    url = _play_page(client)
    assert "Content-Encoding" not in client.get(url).headers
    poll = client.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in poll.headers  # fits in one packet: not worth it


def test_pages_without_a_table_link_may_be_indexed(client: FlaskClient) -> None:
    for url in ("/", "/join", "/owl-about/check"):
        answer = client.get(url)
        assert answer.status_code == 200, url
        assert "X-Robots-Tag" not in answer.headers, url
        assert answer.headers["Cache-Control"] == "no-store", url  # it holds a CSRF token


def test_pages_with_a_table_link_never_are(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    for url in ("/", f"/t/{links.edit}", f"/t/{links.view}"):
        assert client.get(url).headers["X-Robots-Tag"] == "noindex", url


def test_rules_pages_may_be_indexed_unless_they_lead_back_to_a_table(
    client: FlaskClient,
) -> None:
    for url in ("/rules", "/rules/owl-about", "/rules/search?q=tie"):
        assert "X-Robots-Tag" not in client.get(url).headers, url
    links = create_table(client, ["Ann", "Ben"])
    back = {"Referer": f"http://companion.test/t/{links.edit}"}
    answer = client.get("/rules/owl-about", headers=back)
    assert f"/t/{links.edit}" in answer.get_data(as_text=True)
    assert answer.headers["X-Robots-Tag"] == "noindex"


def test_the_manifest_names_icons_that_exist_at_their_sizes(client: FlaskClient) -> None:
    with client.get("/manifest.webmanifest") as answer:
        manifest = json.loads(answer.get_data())
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    sizes = set()
    for icon in manifest["icons"]:
        with client.get(icon["src"]) as image:
            assert image.status_code == 200, icon["src"]
            data = image.get_data()
        if icon["type"] == "image/png":
            width, height = int.from_bytes(data[16:20]), int.from_bytes(data[20:24])
            assert icon["sizes"] == f"{width}x{height}"
            sizes.add(width)
    assert {192, 512} <= sizes


def test_the_offline_page_is_public_and_plain(client: FlaskClient) -> None:
    answer = client.get("/offline")
    assert answer.status_code == 200
    assert "No connection" in answer.get_data(as_text=True)
    assert "X-Robots-Tag" not in answer.headers


def test_only_a_server_database_checks_each_connection_before_use(
    app: Flask, backend: str
) -> None:
    """A pooled PostgreSQL connection may have been cut meanwhile; a SQLite file cannot,
    and checking would cost a query per request."""
    with app.app_context():
        checks = db.engine.pool._pre_ping  # type: ignore[attr-defined]
    assert checks is (backend == POSTGRES)
