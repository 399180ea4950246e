"""A display's one form: its minus and plus buttons carry what they change in one ``tap`` field
(``"<path> <value> <base>"``), checked on the server like the three fields it replaces."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from flask.testing import FlaskClient

from support.client import HTMX, TableLinks, create_table, csrf, start_play

HOOPOE_BEN = "players[1].display.hoopoe"
FOUR = ["Ann", "Ben", "Cy", "Dan"]


@pytest.fixture
def links(client: FlaskClient) -> TableLinks:
    """A table of four."""
    return create_table(client, FOUR)


@pytest.fixture
def play_id(client: FlaskClient, links: TableLinks) -> int:
    """An Odd World play at that table."""
    return start_play(client, links.edit)


def _tap(
    client: FlaskClient, links: TableLinks, play_id: int, tap: str, *, htmx: bool = True
) -> object:
    data = {"csrf_token": csrf(client, f"/t/{links.edit}"), "tap": tap}
    url = f"/t/{links.edit}/plays/{play_id}/edit?seat=all&anchor=player-1"
    return client.post(url, data=data, headers=HTMX if htmx else {})


def _history(client: FlaskClient, links: TableLinks, play_id: int) -> str:
    return client.get(f"/t/{links.edit}/plays/{play_id}/history").get_data(as_text=True)


def _ben_hoopoe(html: str) -> str:
    match = re.search(r'value="(\d+)"[^>]*aria-label="Ben(?:\'|&#39;)s Hoopoe"', html)
    assert match
    return match.group(1)


def test_a_display_is_one_form_whose_buttons_carry_their_change(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    page = client.get(f"/t/{links.edit}/plays/{play_id}?seat=all").get_data(as_text=True)
    plus = re.search(r'<button form="d-1"[^>]*aria-label="One more Hoopoe for Ben"', page)
    assert plus
    assert f'name="tap" value="{HOOPOE_BEN} 1 0"' in plus.group(0)
    form = re.search(r'<form id="d-1"[^>]*>(.*?)</form>', page, re.S)
    assert form
    assert 'action="' in form.group(0)
    assert "seat=all&amp;anchor=player-1#player-1" in form.group(0)
    assert form.group(1).count("<input") == 1  # the CSRF token only
    # Four displays of nine birds: a form per display and per typed count, not per button.
    switch = 1  # the language switch's form, and its two hidden inputs
    assert page.count("<form") <= 4 * (1 + 9 + 1) + 3 + switch
    assert page.count('type="hidden"') <= 4 * (1 + 9 * 3 + 3) + 10 + 2 * switch


def test_the_pages_own_tap_is_stored(client: FlaskClient, links: TableLinks, play_id: int) -> None:
    page = client.get(f"/t/{links.edit}/plays/{play_id}?seat=all").get_data(as_text=True)
    plus = re.search(r'name="tap" value="([^"]+)" aria-label="One more Hoopoe for Ben"', page)
    action = re.search(r'<form id="d-1"[^>]*hx-post="([^"]+)"', page)
    assert plus
    assert action
    data = {"csrf_token": csrf(client, f"/t/{links.edit}"), "tap": plus.group(1)}
    answer = client.post(html_lib.unescape(action.group(1)), data=data, headers=HTMX)
    assert answer.status_code == 200
    assert _ben_hoopoe(answer.get_data(as_text=True)) == "1"
    assert "No changes yet." not in _history(client, links, play_id)


def test_a_tap_without_javascript_lands_back_at_its_display(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    answer = _tap(client, links, play_id, f"{HOOPOE_BEN} 1 0", htmx=False)
    assert answer.status_code == 303  # type: ignore[attr-defined]
    location = answer.headers["Location"]  # type: ignore[attr-defined]
    assert location.endswith(f"/plays/{play_id}?seat=all#player-1")
    page = client.get(location).get_data(as_text=True)
    assert _ben_hoopoe(page) == "1"


@pytest.mark.parametrize(
    ("tap", "message"),
    [
        ("", "Say which field to change, its new value and the value shown."),
        (HOOPOE_BEN, "Say which field to change, its new value and the value shown."),
        (f"{HOOPOE_BEN} 1", "Say which field to change, its new value and the value shown."),
        (" 1 0", "Say which field to change, its new value and the value shown."),
        (f"{HOOPOE_BEN} 9 0", "Enter 0 to 8 cards."),
        (f"{HOOPOE_BEN} lots 0", "Enter a whole number of cards."),
        (f"{HOOPOE_BEN} 1 zero", "Enter a whole number of cards."),
        ("players[9].display.hoopoe 1 0", "This is not a field of the game."),
        ("players[1].name Zed Ben", "This cannot be changed here."),
        (f"{HOOPOE_BEN} 1\u200b 0", "can't contain"),
    ],
)
def test_a_malformed_tap_is_refused_next_to_the_field_and_stores_nothing(
    client: FlaskClient, links: TableLinks, play_id: int, tap: str, message: str
) -> None:
    answer = _tap(client, links, play_id, tap)
    assert answer.status_code == 422  # type: ignore[attr-defined]
    page = answer.get_data(as_text=True)  # type: ignore[attr-defined]
    assert message in html_lib.unescape(page)
    assert '<p class="error" role="alert">' in page
    assert "No changes yet." in _history(client, links, play_id)


@pytest.mark.both_backends("a stale base is refused in SQL")
def test_a_tap_from_a_stale_page_gets_todays_conflict_answer(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    assert _tap(client, links, play_id, f"{HOOPOE_BEN} 1 0").status_code == 200  # type: ignore[attr-defined]
    clash = _tap(client, links, play_id, f"{HOOPOE_BEN} 1 0")
    assert clash.status_code == 409  # type: ignore[attr-defined]
    page = clash.get_data(as_text=True)  # type: ignore[attr-defined]
    assert "Someone changed Ben&#39;s Hoopoe at the same time: it is now 1." in page
    assert _ben_hoopoe(page) == "1"
    assert _history(client, links, play_id).count("Hoopoe") == 1


def test_the_three_fields_still_work_and_a_missing_path_is_refused(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    token = csrf(client, f"/t/{links.edit}")
    url = f"/t/{links.edit}/plays/{play_id}/edit"
    fields = {"csrf_token": token, "path": HOOPOE_BEN, "value": "2", "base": "0"}
    assert client.post(url, data=fields, headers=HTMX).status_code == 200
    nothing = client.post(url, data={"csrf_token": token, "value": "3"}, headers=HTMX)
    assert nothing.status_code == 422
    assert "Say which field to change." in nothing.get_data(as_text=True)
