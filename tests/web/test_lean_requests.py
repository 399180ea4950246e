"""What a request skips when it does not need it: the session, compression, rate limits."""

from __future__ import annotations

import re

import flask
import pytest
from flask import Flask, Response
from flask.testing import FlaskClient

from companion.web import limits
from companion.web.compression import worth_compressing
from companion.web.limits import limiter
from companion.web.sessions import LazySession, LazySessionInterface
from support.client import HTMX, create_table, start_play


def _poll_url(client: FlaskClient, token: str, play: int) -> str:
    page = client.get(f"/t/{token}/plays/{play}").get_data(as_text=True)
    found = re.search(r'hx-get="([^"]*/poll\?[^"]*)"', page)
    assert found is not None
    return found.group(1).replace("&amp;", "&")


def test_an_unchanged_poll_leaves_the_session_alone(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play = start_play(client, links.edit)
    url = _poll_url(client, links.edit, play)
    answer = client.get(url, headers={**HTMX, "Accept-Encoding": "gzip, deflate, br"})
    assert answer.status_code == 204
    assert "Set-Cookie" not in answer.headers
    # Neither read (no Vary: Cookie) nor compressed (no Vary: Accept-Encoding): an
    # empty answer said to be brotli is one a client cannot decode.
    assert "Vary" not in answer.headers
    assert "Content-Encoding" not in answer.headers


def test_an_unchanged_table_poll_leaves_the_session_and_the_limits_alone(
    app: Flask, client: FlaskClient
) -> None:
    links = create_table(client, ["Ann", "Ben"])
    page = client.get(f"/t/{links.edit}").get_data(as_text=True)
    found = re.search(r'hx-get="([^"]*/t/[^"]*/poll\?version=\d+)"', page)
    assert found is not None
    url = found.group(1)
    answer = client.get(url, headers={**HTMX, "Accept-Encoding": "gzip, deflate, br"})
    assert answer.status_code == 204
    assert "Set-Cookie" not in answer.headers
    assert "Vary" not in answer.headers
    assert "Content-Encoding" not in answer.headers
    # Flask-Limiter is told up front that no limit applies, for it as for a play's poll.
    with app.test_request_context(url, headers=HTMX):
        assert flask.request.endpoint == "pages.table_poll"
        assert limits._never_limited()
    with app.test_request_context(f"/t/{links.edit}"):
        assert not limits._never_limited()


def test_a_page_still_reads_and_writes_the_session(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play = start_play(client, links.edit)
    # The phone's recent tables live in its session: the home page lists the new table.
    home = client.get("/")
    assert links.edit in home.get_data(as_text=True)
    assert "Cookie" in home.headers.get("Vary", "")
    assert client.get(f"/t/{links.edit}/plays/{play}").status_code == 200


def test_a_lazy_session_reads_its_cookie_on_first_use() -> None:
    reads: list[int] = []

    def load() -> dict[str, object]:
        reads.append(1)
        return {"visitor": "v1", "names": ["Ann"]}

    session = LazySession(load)
    assert not session.loaded
    assert reads == []
    assert session["visitor"] == "v1"
    assert session.loaded
    assert not session.modified
    assert dict(session) == {"visitor": "v1", "names": ["Ann"]}
    assert len(reads) == 1


@pytest.mark.parametrize(
    "use",
    [
        lambda s: s.get("visitor"),
        lambda s: "visitor" in s,
        lambda s: list(s),
        lambda s: len(s),
        lambda s: s.setdefault("x", 1),
        lambda s: s.update(x=1),
        lambda s: s.pop("visitor"),
        lambda s: s.__setitem__("x", 1),
        lambda s: s.items(),
        lambda s: bool(s),
    ],
)
def test_every_use_of_a_lazy_session_reads_it_first(use: object) -> None:
    session = LazySession(lambda: {"visitor": "v1"})
    use(session)  # type: ignore[operator]
    assert session.loaded
    assert "visitor" in session or session.modified


def test_a_changed_session_is_written_back(app: Flask) -> None:
    interface = LazySessionInterface()
    with app.test_request_context("/"):
        session = LazySession(lambda: {"visitor": "v1"})
        untouched = Response()
        interface.save_session(app, session, untouched)
        assert "Set-Cookie" not in untouched.headers
        session["names"] = ["Ann"]
        written = Response()
        interface.save_session(app, session, written)
        assert "session=" in written.headers["Set-Cookie"]


def test_a_forged_cookie_gives_an_empty_session(app: Flask) -> None:
    client = app.test_client()
    client.set_cookie("session", "forged.value.sig", domain="localhost")
    assert client.get("/").status_code == 200


def test_only_bodies_worth_it_are_compressed() -> None:
    assert not worth_compressing(Response(status=204), 500)
    assert not worth_compressing(Response(status=304), 500)
    assert not worth_compressing(Response("x" * 499), 500)
    assert worth_compressing(Response("x" * 500), 500)


def test_a_large_page_is_still_compressed(client: FlaskClient) -> None:
    answer = client.get("/rules", headers={"Accept-Encoding": "br"})
    assert answer.headers["Content-Encoding"] == "br"
    assert "Accept-Encoding" in answer.headers["Vary"]


def test_the_endpoints_no_limit_applies_to_exist(app: Flask) -> None:
    # A renamed view would silently fall back to the slower path: keep the names true.
    assert set(app.view_functions) >= limits.UNLIMITED_ENDPOINTS


@pytest.mark.usefixtures("app")  # the limiter knows the limits once an app is made
def test_no_endpoint_with_a_limit_skips_the_limiter() -> None:
    """Skipping the limiter is only for endpoints that have no limit of their own, nor one
    of their blueprint's (the API's)."""
    # Flask-Limiter keeps them by route function ("module.view.view") and by blueprint.
    manager = limiter.limit_manager
    limited_views = {name.rsplit(".", 1)[-1] for name in manager._decorated_limits}
    assert limited_views >= {"create_table", "create_group"}  # the names are what we think
    for endpoint in limits.UNLIMITED_ENDPOINTS:
        blueprint, view = endpoint.split(".")
        assert blueprint not in manager._blueprint_limits, endpoint
        assert view not in limited_views, endpoint
