"""Trust, second round (issue 24): a replaced link stays replaced, no form can hold a
process, no log line holds a link, ids out of range are 404, names cannot pass for others.
"""

from __future__ import annotations

import copy
import io
import logging
import re
import urllib.parse
from typing import Any

import pytest
import werkzeug.formparser
from flask import Flask, request
from flask.testing import FlaskClient

from companion.web import pages
from support.client import API_EXAMPLE, create_table, csrf, start_play
from support.groups import create_group

KEY = re.compile(r'name="submission" value="([^"]+)"')
SEE_OTHER = 303
URLENCODED = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"


# --- 1. a replaced edit link cannot be got back through a form's one-time key ------------


def _start_game_key(client: FlaskClient, token: str) -> str:
    """The one-time key of the start-game form on a table page."""
    page = client.get(f"/t/{token}").get_data(as_text=True)
    form = re.search(rf'action="/t/{re.escape(token)}/plays"[^>]*>(.*?)</form>', page, re.S)
    assert form
    key = KEY.search(form.group(1))
    assert key
    return key.group(1)


def _rotate(client: FlaskClient, token: str) -> str:
    answer = client.post(
        f"/t/{token}/rotate-link", data={"csrf_token": csrf(client, f"/t/{token}")}
    )
    assert answer.status_code == SEE_OTHER
    return answer.headers["Location"].rsplit("/t/", 1)[1]


def test_a_key_of_a_replaced_link_never_leads_to_the_new_link(app: Flask) -> None:
    host = app.test_client()
    links = create_table(host, ["Ann", "Ben"])
    guest = app.test_client()
    key = _start_game_key(guest, links.edit)
    started = {"game": "odd-world", "submission": key}
    started["csrf_token"] = csrf(guest, f"/t/{links.edit}")
    assert guest.post(f"/t/{links.edit}/plays", data=started).status_code == SEE_OTHER
    fresh = _rotate(host, links.edit)

    answers = [
        app.test_client().post("/nothing", data={"submission": key}),
        app.test_client().post(f"/t/{links.edit}/plays", data={"submission": key}),
        guest.post("/nothing", data=started),
        guest.post(f"/t/{links.edit}/plays", data=started),  # the same phone, same route
        guest.post("/tables", data=started),
    ]
    for answer in answers:
        assert fresh not in answer.headers.get("Location", "")
        assert fresh not in answer.get_data(as_text=True)
    assert [answer.status_code for answer in answers[:4]] == [404, 400, 404, 404]


def test_a_repeat_is_answered_only_on_its_route_and_phone(app: Flask) -> None:
    host = app.test_client()
    links = create_table(host, ["Ann", "Ben"])
    key = _start_game_key(host, links.edit)
    data = {"game": "odd-world", "submission": key, "csrf_token": csrf(host, f"/t/{links.edit}")}
    data["confirm"] = "yes"  # the second phone's game starts while the first is unfinished
    first = host.post(f"/t/{links.edit}/plays", data=data)
    repeat = host.post(f"/t/{links.edit}/plays", data=data)
    assert repeat.headers["Location"] == first.headers["Location"]
    # Another phone with the same key and its own CSRF token starts its own game.
    other = app.test_client()
    data["csrf_token"] = csrf(other, f"/t/{links.edit}")
    second = other.post(f"/t/{links.edit}/plays", data=data)
    assert second.status_code == SEE_OTHER
    assert second.headers["Location"] != first.headers["Location"]


def test_a_key_sent_through_a_replaced_group_link_is_dead(client: FlaskClient) -> None:
    links = create_group(client, "Thursdays", ["Ann", "Ben"])
    data = {"seats": "", "new-0": "Cy", "new-1": "Di", "submission": "k" * 22}
    data["csrf_token"] = csrf(client, f"/g/{links.edit}")
    first = client.post(f"/g/{links.edit}/tables", data=data)
    assert first.status_code == SEE_OTHER
    rotated = client.post(f"/g/{links.edit}/rotate-link", data={"csrf_token": data["csrf_token"]})
    assert rotated.status_code == SEE_OTHER
    repeat = client.post(f"/g/{links.edit}/tables", data=data)
    assert repeat.status_code == 404
    assert first.headers["Location"] not in repeat.headers.get("Location", "")


# --- 2. a form with more fields than any page sends is refused before it is parsed -------


def test_a_form_of_a_hundred_thousand_fields_is_refused_unparsed(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed: list[int] = []
    real_parse = urllib.parse.parse_qsl

    def counting_parse(text: str, *args: Any, **kwargs: Any) -> list[tuple[str, str]]:
        parsed.append(len(text))
        return real_parse(text, *args, **kwargs)

    monkeypatch.setattr(werkzeug.formparser, "parse_qsl", counting_parse)
    body = f"csrf_token={csrf(client)}&action=create&" + "players-0=&" * 95_000
    answer = client.post("/tables", data=body, content_type=URLENCODED)
    assert answer.status_code == 413
    assert parsed == []  # refused before any parsing, so before WTForms ever saw it
    multipart = {f"players-{index}": "" for index in range(1_000)}
    assert client.post("/tables", data=multipart, content_type=MULTIPART).status_code == 413


def test_a_form_of_a_few_hundred_fields_is_still_read(client: FlaskClient) -> None:
    body = f"csrf_token={csrf(client)}&action=create&players-0=Ann&players-1=Ben&"
    body += "unused=&" * 400
    answer = client.post("/tables", data=body, content_type=URLENCODED)
    assert answer.status_code == SEE_OTHER


# --- 5. no log line holds a table's link, whatever fails --------------------------------


def _all_log_output_to(stream: io.StringIO, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point every stream handler of every logger (Flask's own included) at ``stream``."""
    loggers = [logging.getLogger()] + [
        found
        for found in logging.root.manager.loggerDict.values()
        if isinstance(found, logging.Logger)
    ]
    for logger in loggers:
        for handler in logger.handlers:
            if isinstance(handler, logging.StreamHandler):
                monkeypatch.setattr(handler, "stream", stream)


def test_a_server_error_on_a_table_route_logs_no_link(
    app: Flask,
    client: FlaskClient,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_play(client, links.edit)

    def fail(*_args: object) -> None:
        raise RuntimeError(f"the engine fell over on {request.url}")

    monkeypatch.setattr(pages, "kept_play", fail)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    logged = io.StringIO()
    _all_log_output_to(logged, monkeypatch)
    answer = client.get(
        f"/t/{links.edit}/plays/{play_id}", environ_overrides={"wsgi.errors": logged}
    )
    assert answer.status_code == 500
    out, err = capfd.readouterr()
    everything = logged.getvalue() + out + err
    assert "the engine fell over" in everything  # the error was logged
    assert links.edit not in everything


# --- 8. an id out of range in a URL is a 404, never a 500 -------------------------------

PAST_64_BITS = str(2**63)
PAST_32_BITS = str(2**31)  # PostgreSQL's id columns are 32-bit
LARGEST_ID = str(2**31 - 1)


@pytest.mark.both_backends("how each database compares an id past 64 bits")
def test_a_play_number_past_64_bits_is_not_found(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    start_play(client, links.edit)
    for token in (links.edit, links.view):
        for number in (PAST_64_BITS, PAST_32_BITS, LARGEST_ID, "9" * 400):
            base = f"/t/{token}/plays/{number}"
            for url in (base, f"{base}/poll", f"{base}/history", f"{base}/export.json"):
                assert client.get(url).status_code == 404, url
            referee = f"{base}/luckys-misadventures/referee"
            assert client.get(referee).status_code == 404, referee
    posted = client.post(
        f"/t/{links.edit}/plays/{PAST_64_BITS}/edit",
        data={"csrf_token": csrf(client, f"/t/{links.edit}"), "path": "x", "value": "1"},
    )
    assert posted.status_code == 404


# --- 9. names that look alike, or like nothing, are refused on the pages and the API ----

CYRILLIC_ANN = "\u0410nn"  # its first letter is Cyrillic
INVISIBLE_NAMES = ["\u3164", "\u2800", "\u034f", "\u3164\u3164 \u2800"]


@pytest.mark.parametrize("name", [CYRILLIC_ANN, "Ann\u3164", *INVISIBLE_NAMES])
def test_a_new_table_refuses_a_name_like_nothing_or_like_another(
    client: FlaskClient, name: str
) -> None:
    data = {"players-0": "Ann", "players-1": name, "action": "create"}
    data["csrf_token"] = csrf(client)
    answer = client.post("/tables", data=data)
    assert answer.status_code == 422
    page = answer.get_data(as_text=True)
    assert "looks just like" in page or "you can see" in page


@pytest.mark.parametrize("name", [CYRILLIC_ANN, *INVISIBLE_NAMES])
def test_adding_a_seat_refuses_a_name_like_nothing_or_like_another(
    client: FlaskClient, name: str
) -> None:
    links = create_table(client, ["Ann", "Ben"])
    data = {"action": "add", "name": name, "csrf_token": csrf(client, f"/t/{links.edit}")}
    assert client.post(f"/t/{links.edit}/players", data=data).status_code == 422


@pytest.mark.parametrize("name", [CYRILLIC_ANN, *INVISIBLE_NAMES])
def test_the_api_refuses_a_name_like_nothing_or_like_another(
    client: FlaskClient, name: str
) -> None:
    state = copy.deepcopy(API_EXAMPLE)
    state["players"][1]["name"] = name
    state["players"][0]["name"] = "Ann"
    answer = client.post("/api/v1/games/odd-world/score", json=state)
    assert answer.status_code == 422
    messages = [problem["message"] for problem in answer.get_json()["problems"]]
    assert any("looks just like" in message or "you can see" in message for message in messages)


@pytest.mark.parametrize("name", [CYRILLIC_ANN, *INVISIBLE_NAMES])
def test_a_group_refuses_a_member_like_nothing_or_like_another(
    client: FlaskClient, name: str
) -> None:
    links = create_group(client, "Thursdays", ["Ann", "Ben"])
    url = f"/g/{links.edit}/players"
    data = {"csrf_token": csrf(client, f"/g/{links.edit}"), "action": "add", "name": name}
    answer = client.post(url, data=data)
    assert answer.status_code == 422
    page = answer.get_data(as_text=True)
    assert "looks just like" in page or "you can see" in page
    created = {"name": "Fridays", "players-0": "Ann", "players-1": name}
    created["csrf_token"] = csrf(client, "/groups/new")
    assert client.post("/groups", data=created).status_code == 422
