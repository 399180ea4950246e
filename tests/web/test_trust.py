"""Trust: read-only links stay read-only, Undo never loses an edit, join codes are treated
like tokens, double submits apply once, links can be rotated (on SQLite and PostgreSQL)."""

from __future__ import annotations

import hashlib
import re
import threading

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, text
from werkzeug.test import TestResponse

from companion.extensions import db
from companion.models import Play, SpeciesDefinition, Table
from companion.services import plays
from support.client import HTMX, TableLinks, create_table, csrf, edit, start_play
from support.every_game import STARTERS
from support.oddland import start_oddland
from support.owl_about import act, start_owl, start_round
from support.routes import play_pages

HOOPOE = "players[0].display.hoopoe"
DOMAIN = "companion.test"
KEY = re.compile(r'name="submission" value="([^"]+)"')


def _share_session(source: FlaskClient, target: FlaskClient) -> None:
    """Give a second client the first one's session (one phone, several connections)."""
    cookie = source.get_cookie("session", domain=DOMAIN)
    assert cookie is not None
    target.set_cookie("session", cookie.value, domain=DOMAIN)


def _play(play_id: int) -> Play:
    found = db.session.get(Play, play_id)
    assert found is not None
    return found


def _undo(
    client: FlaskClient, token: str, play_id: int, target: int | None, **extra: str
) -> TestResponse:
    data = {"csrf_token": csrf(client, f"/t/{token}"), **extra}
    if target is not None:
        data["undoes"] = str(target)
    return client.post(f"/t/{token}/plays/{play_id}/undo", data=data, headers=HTMX)


def _hoopoe(app: Flask, play_id: int) -> int:
    with app.app_context():
        return int(_play(play_id).state["players"][0]["display"]["hoopoe"])


# --- 1. the read-only link never leads to edit access --------------------------------------


def _read_only_answers(client: FlaskClient, links: TableLinks) -> list[TestResponse]:
    """Every page, fragment and poll the read-only link can reach, for every registered
    game (a play of each, started by its ``STARTERS`` entry, and its own pages)."""
    started = {slug: start(client, links.edit) for slug, start in STARTERS.items()}
    start_round(client, links.edit, started["owl-about"], "Ann")  # a round shows more
    view = links.view
    urls = [f"/t/{view}"]
    for slug, play_id in started.items():
        base = f"/t/{view}/plays/{play_id}"
        urls += [base, f"{base}?seat=all", f"{base}?seat=0", f"{base}/history"]
        urls.append(f"{base}/poll?version=-1")
        urls += [f"{base}{page}" for page in play_pages(slug)]
    # Lucky's referee with a question asked shows its answers too.
    urls.append(
        f"/t/{view}/plays/{started['luckys-misadventures']}/luckys-misadventures/referee?p0=1"
    )
    answers = [client.get(url) for url in urls]
    answers += [client.get(url, headers=HTMX) for url in urls]
    return answers


def test_read_only_pages_never_show_the_join_code_or_the_edit_token(
    client: FlaskClient,
) -> None:
    links = create_table(client, ["Ann", "Ben", "Cy"])
    for response in _read_only_answers(client, links):
        assert response.status_code == 200, response.request.path
        body = response.get_data(as_text=True)
        headers = str(response.headers)
        for secret in (links.code, links.edit):
            assert secret not in body, (response.request.path, secret)
            assert secret not in headers, (response.request.path, secret)
    view_page = client.get(f"/t/{links.view}").get_data(as_text=True)
    assert "Table of Ann, Ben, Cy" in view_page
    assert "Read-only link" in view_page


def test_the_session_cookie_holds_no_token_and_no_join_code(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    viewer = client.application.test_client()
    viewer.get(f"/t/{links.view}")
    home = viewer.get("/").get_data(as_text=True)
    assert f"/t/{links.view}" in home  # the phone's recent list still links it
    for phone in (client, viewer):
        cookie = phone.get_cookie("session", domain=DOMAIN)
        assert cookie is not None
        from itsdangerous import base64_decode

        payload = cookie.value.lstrip(".").split(".")[0]
        decoded = base64_decode(payload)
        try:
            import zlib

            decoded = zlib.decompress(decoded)
        except zlib.error:
            pass
        for secret in (links.edit, links.view, links.code):
            assert secret.encode() not in decoded


# --- 2. Undo names what it undoes ----------------------------------------------------------


@pytest.fixture
def trio(client: FlaskClient) -> TableLinks:
    return create_table(client, ["Ann", "Ben", "Cy"])


@pytest.fixture
def odd_world(client: FlaskClient, trio: TableLinks) -> int:
    return start_play(client, trio.edit)


@pytest.mark.both_backends("undo checks versions in SQL")
def test_an_undo_from_a_stale_page_is_refused_and_names_the_newer_change(
    app: Flask, client: FlaskClient, trio: TableLinks, odd_world: int
) -> None:
    assert edit(client, trio.edit, odd_world, path=HOOPOE, value="1", base="0").status_code == 200
    ben = app.test_client()
    ben.post(
        f"/t/{trio.edit}/me", data={"name": "Ben", "csrf_token": csrf(ben, f"/t/{trio.edit}")}
    )
    assert edit(ben, trio.edit, odd_world, path=HOOPOE, value="2", base="1").status_code == 200
    # Ann's page still offered her own edit (number 1) for Undo.
    refused = _undo(client, trio.edit, odd_world, 1)
    assert refused.status_code == 409
    page = refused.get_data(as_text=True)
    assert "Ben&#39;s change came after the one you meant to undo" in page
    assert _hoopoe(app, odd_world) == 2


@pytest.mark.both_backends("undo checks versions in SQL")
def test_a_repeated_undo_undoes_one_edit_only(
    app: Flask, client: FlaskClient, trio: TableLinks, odd_world: int
) -> None:
    for value in ("1", "2"):
        edit(client, trio.edit, odd_world, path=HOOPOE, value=value, base=str(int(value) - 1))
    assert _undo(client, trio.edit, odd_world, 2).status_code == 200
    again = _undo(client, trio.edit, odd_world, 2)  # a network retry of the same Undo
    assert again.status_code == 409
    assert "already undone" in again.get_data(as_text=True)
    assert _hoopoe(app, odd_world) == 1


def test_the_undo_button_names_its_edit(
    client: FlaskClient, trio: TableLinks, odd_world: int
) -> None:
    edit(client, trio.edit, odd_world, path=HOOPOE, value="1", base="0")
    page = client.get(f"/t/{trio.edit}/plays/{odd_world}").get_data(as_text=True)
    assert 'name="undoes" value="1"' in page


@pytest.mark.both_backends("racing writes: each database locks its own way")
def test_undo_racing_edits_of_the_same_field_never_overwrites(
    app: Flask, trio: TableLinks, odd_world: int
) -> None:
    rounds = 60  # about 240 racing requests; 200 rounds took 15-28 s on PostgreSQL
    accepted: list[int] = []

    def stepper() -> None:
        phone = app.test_client()
        token = csrf(phone, f"/t/{trio.edit}")
        seen = 0
        for _ in range(rounds):
            data = {"path": HOOPOE, "value": str(seen + 1), "base": str(seen)}
            data["csrf_token"] = token
            answer = phone.post(f"/t/{trio.edit}/plays/{odd_world}/edit", data=data, headers=HTMX)
            if answer.status_code == 200:
                accepted.append(seen + 1)
            seen = _hoopoe(app, odd_world)

    def undoer() -> None:
        phone = app.test_client()
        token = csrf(phone, f"/t/{trio.edit}")
        for _ in range(rounds):
            with app.app_context():
                number = plays.last_undoable(_play(odd_world))
            data = {"csrf_token": token, "undoes": str(number or "")}
            phone.post(f"/t/{trio.edit}/plays/{odd_world}/undo", data=data, headers=HTMX)

    threads = [threading.Thread(target=stepper), threading.Thread(target=undoer)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert accepted
    with app.app_context():
        play = _play(odd_world)
        assert plays.log_problems(play) == []
        sets = sum(1 for e in play.edits if e.kind == "set")
        undos = sum(1 for e in play.edits if e.kind == "undo")
        assert undos, "no undo went through: nothing raced"
        assert sets == len(accepted)
        # Every accepted + is either still counted or was explicitly undone.
        assert play.state["players"][0]["display"]["hoopoe"] == sets - undos


def test_log_problems_spots_an_undo_that_overwrote_a_newer_edit(
    app: Flask, client: FlaskClient, trio: TableLinks, odd_world: int
) -> None:
    """The check the race test relies on catches what the old Undo did."""
    edit(client, trio.edit, odd_world, path=HOOPOE, value="1", base="0")
    edit(client, trio.edit, odd_world, path=HOOPOE, value="2", base="1")
    with app.app_context():
        play = _play(odd_world)
        # What the old Undo wrote: edit 1 reverted over edit 2's value.
        plays.replace_value(play, path=HOOPOE, value=0, author=plays.Author("x"))
        db.session.execute(
            text("UPDATE edits SET kind = 'undo', undoes = 1 WHERE play_id = :p AND number = 3"),
            {"p": odd_world},
        )
        db.session.commit()
        db.session.expire_all()
        assert plays.log_problems(_play(odd_world))


# --- 5. join codes are treated like tokens -------------------------------------------------


@pytest.mark.both_backends("what each database stores")
def test_the_database_keeps_no_join_code(app: Flask, client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    with app.app_context():
        table = db.session.scalars(select(Table)).one()
        stored = " ".join(str(getattr(table, c.key)) for c in Table.__table__.columns)
    assert links.code not in stored
    assert hashlib.sha256(links.code.encode()).hexdigest() not in stored


def _join(client: FlaskClient, code: str) -> TestResponse:
    return client.post("/join", data={"code": code, "csrf_token": csrf(client, "/join")})


def _phone(app: Flask, address: str) -> FlaskClient:
    phone = app.test_client()
    phone.environ_base["REMOTE_ADDR"] = address
    return phone


def test_join_codes_are_limited_per_ipv6_network_not_per_address(
    app: Flask, client: FlaskClient
) -> None:
    links = create_table(client, ["Ann", "Ben"])
    statuses = [
        _join(_phone(app, f"2001:db8:0:1::{n:x}"), "ZZZZZZ").status_code for n in range(1, 12)
    ]
    assert statuses == [422] * 10 + [429]
    # The right code is refused too while the network is locked out, and says when to retry.
    locked = _join(_phone(app, "2001:db8:0:1::99"), links.code)
    assert locked.status_code == 429
    assert "Try again in 10 minutes" in locked.get_data(as_text=True)
    # Another network is not affected.
    assert _join(_phone(app, "2001:db8:0:2::1"), links.code).status_code == 303


def test_the_same_code_from_many_addresses_is_limited(app: Flask) -> None:
    statuses = [_join(_phone(app, f"192.0.2.{n}"), "ZZZZZZ").status_code for n in range(1, 13)]
    assert statuses == [422] * 10 + [429] * 2


def test_a_burst_of_wrong_codes_at_once_is_held_to_the_limit(app: Flask) -> None:
    phone = _phone(app, "198.51.100.7")
    token = csrf(phone, "/join")
    statuses: list[int] = []
    start = threading.Barrier(20)

    def guess(index: int) -> None:
        client = _phone(app, "198.51.100.7")
        _share_session(phone, client)
        start.wait()
        for attempt in range(5):
            code = f"Z{index:02d}{attempt}ZZ".replace("0", "A").replace("1", "B")
            answer = client.post("/join", data={"code": code, "csrf_token": token})
            statuses.append(answer.status_code)

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(statuses) == 100
    assert statuses.count(422) == 10
    assert statuses.count(429) == 90


def test_creating_tables_and_the_api_are_rate_limited(app: Flask) -> None:
    app.config.update(RATE_LIMIT_TABLES="2 per hour", RATE_LIMIT_API="3 per minute")
    phone = _phone(app, "203.0.113.9")
    token = csrf(phone)
    made = [
        phone.post("/tables", data={"players-0": "Ann", "csrf_token": token, "action": "create"})
        for _ in range(3)
    ]
    assert [r.status_code for r in made] == [303, 303, 429]
    assert "Too many requests" in made[-1].get_data(as_text=True)
    # Adding a roster row creates nothing and is not counted.
    row = phone.post("/tables", data={"players-0": "Ann", "csrf_token": token, "action": "add"})
    assert row.status_code == 200
    api = [phone.get("/api/v1/games") for _ in range(4)]
    assert [r.status_code for r in api] == [200, 200, 200, 429]
    assert api[-1].get_json()["error"] == "too_many_requests"


# --- 6. double submits apply once ----------------------------------------------------------


def _key_of(html: str, action: str) -> str:
    """The idempotency key of the form posting to ``action`` on a page."""
    form = re.search(
        rf'action="[^"]*{re.escape(action)}(?:#[^"]*)?"[^>]*>(.*?)</form>', html, re.S
    )
    assert form, action
    key = KEY.search(form.group(1))
    assert key, action
    return key.group(1)


@pytest.mark.both_backends("a repeat is found by a unique key in SQL")
def test_a_penalty_submitted_twice_counts_once(app: Flask, client: FlaskClient) -> None:
    links = create_table(client, ["Miu", "Carol", "Tom"])
    play_id = start_owl(client, links.edit)
    start_round(client, links.edit, play_id, "Miu")
    page = client.get(f"/t/{links.edit}/plays/{play_id}?seat=all").get_data(as_text=True)
    key = _key_of(page, "/owl-about/penalty")
    data = {"player": "Tom", "submission": key}
    first = act(client, links.edit, play_id, "penalty", data)
    second = act(client, links.edit, play_id, "penalty", data)
    assert (first.status_code, second.status_code) == (200, 204)
    plain = act(client, links.edit, play_id, "penalty", data, htmx=False)
    assert plain.status_code == 303  # no-JS repeat: back to the page, nothing applied
    with app.app_context():
        penalties = _play(play_id).state["rounds"][0]["penalties"]
    assert penalties == {"Tom": 1}


@pytest.mark.both_backends("a repeat is found by a unique key in SQL")
def test_creating_a_table_twice_makes_one_and_the_repeat_lands_on_it(
    app: Flask, client: FlaskClient
) -> None:
    home = client.get("/").get_data(as_text=True)
    key = _key_of(home, "/tables")
    data = {"players-0": "Ann", "players-1": "Ben", "action": "create", "submission": key}
    data["csrf_token"] = csrf(client)
    first = client.post("/tables", data=data)
    second = client.post("/tables", data=data)
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    with app.app_context():
        assert len(db.session.scalars(select(Table)).all()) == 1
        stored = db.session.execute(text("SELECT location FROM submissions")).scalar_one()
    edit_token = first.headers["Location"].rsplit("/t/", 1)[1]
    assert edit_token not in stored  # no link is kept in the database


@pytest.mark.both_backends("racing inserts: each database locks its own way")
def test_starting_a_game_twice_at_once_starts_one(app: Flask, client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    page = client.get(f"/t/{links.edit}").get_data(as_text=True)
    key = _key_of(page, f"/t/{links.edit}/plays")
    data = {"game": "odd-world", "submission": key, "csrf_token": csrf(client, f"/t/{links.edit}")}
    statuses: list[int] = []
    barrier = threading.Barrier(4)

    def submit() -> None:
        phone = app.test_client()
        _share_session(client, phone)
        barrier.wait()
        statuses.append(phone.post(f"/t/{links.edit}/plays", data=data).status_code)

    threads = [threading.Thread(target=submit) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert statuses == [303] * 4
    with app.app_context():
        assert len(db.session.scalars(select(Play)).all()) == 1


def test_every_state_changing_form_but_taps_carries_a_key(
    client: FlaskClient, trio: TableLinks
) -> None:
    started = {slug: start(client, trio.edit) for slug, start in STARTERS.items()}
    start_round(client, trio.edit, started["owl-about"], "Ann")
    pages = [client.get("/"), client.get(f"/t/{trio.edit}")]
    for play_id in started.values():
        pages.append(client.get(f"/t/{trio.edit}/plays/{play_id}?seat=all"))
    # Taps name the value they change (a stale one is a 409) instead of carrying a key;
    # OddVille's Main Square owners and character holders set a value (a repeat is a no-op),
    # and so does the language switch (the phone's own pick).
    taps = (
        "/language",
        "/edit",
        "/owl-about/card",
        "/oddland/map",
        "/join",
        "/luckys-misadventures/count",
        "/luckys-misadventures/fate",
        "/oddville/tap",
        "/oddville/square",
        "/oddville/character",
    )
    unguarded = []
    for response in pages:
        html = response.get_data(as_text=True)
        for form in re.finditer(
            r'<form[^>]*method="post"[^>]*action="([^"]+)"[^>]*>(.*?)</form>', html, re.S
        ):
            action, body = form.groups()
            # The seat and the anchor may ride in the address (Odd World's displays).
            if action.partition("#")[0].partition("?")[0].endswith(taps):
                continue
            if 'name="submission"' not in body:
                unguarded.append(action)
    assert unguarded == []


# --- 7. species definitions saved by two phones at once ------------------------------------


@pytest.mark.both_backends("an upsert, written per database")
def test_two_phones_saving_one_definition_at_once_never_fail(
    app: Flask, client: FlaskClient
) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_oddland(client, links.edit)
    url = f"/t/{links.edit}/plays/{play_id}/oddland/definition"
    token = csrf(client, f"/t/{links.edit}")
    statuses: list[int] = []
    barrier = threading.Barrier(2)

    def save(points: str) -> None:
        phone = app.test_client()
        _share_session(client, phone)
        data = {
            "csrf_token": token,
            "species": "owloose",
            "side": "B",
            "points": points,
            "per": "space",
            "region": "territory",
        }
        barrier.wait()
        statuses.append(phone.post(url, data=data, headers=HTMX).status_code)

    threads = [threading.Thread(target=save, args=(p,)) for p in ("3", "4")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(statuses) == [200, 200]
    with app.app_context():
        rows = db.session.scalars(select(SpeciesDefinition)).all()
        game = _play(play_id).state["definitions"]["owloose"]["B"]
    assert len(rows) == 1
    assert rows[0].rule == game  # the table's copy and the game's agree


# --- 9. rotating the edit link and the join code -------------------------------------------


def _post_table(client: FlaskClient, token: str, action: str) -> TestResponse:
    return client.post(f"/t/{token}/{action}", data={"csrf_token": csrf(client, f"/t/{token}")})


@pytest.mark.both_backends("the link's hash is replaced in SQL")
def test_rotating_the_edit_link_revokes_the_old_one(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    rotated = _post_table(client, links.edit, "rotate-link")
    assert rotated.status_code == 303
    fresh = rotated.headers["Location"].rsplit("/t/", 1)[1]
    assert fresh != links.edit
    page = client.get(f"/t/{fresh}").get_data(as_text=True)
    assert "New edit link made" in page
    assert client.get(f"/t/{links.edit}").status_code == 404
    assert client.get(f"/t/{links.view}").status_code == 200  # the read-only link stays
    # The join code now leads to the new link, and the old link is gone from "your tables".
    joined = _join(_phone(client.application, "192.0.2.200"), links.code)
    assert joined.headers["Location"].endswith(f"/t/{fresh}")
    home = client.get("/").get_data(as_text=True)
    assert f"/t/{links.edit}" not in home
    assert f"/t/{fresh}" in home


def test_rotating_the_join_code_stops_the_old_code(app: Flask, client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    assert _post_table(client, links.edit, "rotate-code").status_code == 303
    page = client.get(f"/t/{links.edit}").get_data(as_text=True)
    code = re.search(r'Table <span class="code">([A-Z0-9]+)</span>', page)
    assert code
    assert code.group(1) != links.code
    assert _join(_phone(app, "192.0.2.201"), links.code).status_code == 422
    assert _join(_phone(app, "192.0.2.202"), code.group(1)).status_code == 303


@pytest.mark.parametrize("action", ["rotate-link", "rotate-code"])
def test_the_read_only_link_cannot_rotate(client: FlaskClient, action: str) -> None:
    links = create_table(client, ["Ann", "Ben"])
    assert _post_table(client, links.view, action).status_code == 403
