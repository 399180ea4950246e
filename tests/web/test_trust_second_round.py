"""Trust, second round (issue 24): a replaced link stays replaced, no form can hold a
process, no log line holds a link, ids out of range are 404, names cannot pass for others.
"""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from tests.helpers import create_table, csrf

KEY = re.compile(r'name="submission" value="([^"]+)"')
SEE_OTHER = 303


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
    first = host.post(f"/t/{links.edit}/plays", data=data)
    repeat = host.post(f"/t/{links.edit}/plays", data=data)
    assert repeat.headers["Location"] == first.headers["Location"]
    # Another phone with the same key and its own CSRF token starts its own game.
    other = app.test_client()
    data["csrf_token"] = csrf(other, f"/t/{links.edit}")
    second = other.post(f"/t/{links.edit}/plays", data=data)
    assert second.status_code == SEE_OTHER
    assert second.headers["Location"] != first.headers["Location"]
