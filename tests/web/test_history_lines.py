"""The history page: quick taps on one field are one line (the log keeps every tap, so
Undo takes back one), phones are named by the player they said they are, and times are
sent as ISO 8601 UTC for the phone to show in its own time zone."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from companion.extensions import db
from companion.models import Edit
from companion.services.plays import TAP_RUN_SECONDS
from support.client import HTMX, TableLinks, create_table, csrf, edit, start_play

HOOPOE_ANN = "players[0].display.hoopoe"
SHOEBILL_ANN = "players[0].display.shoebill"
LINE = re.compile(
    r'<li value="(\d+)"><time class="when" datetime="([^"]+)">([^<]+)</time> '
    r'<span class="who">([^<]+)</span><br>([^<]+)</li>'
)


@pytest.fixture
def links(client: FlaskClient) -> TableLinks:
    """A table of Ann and Ben."""
    return create_table(client, ["Ann", "Ben"])


@pytest.fixture
def play_id(client: FlaskClient, links: TableLinks) -> int:
    """An Odd World play at that table."""
    return start_play(client, links.edit)


def lines(client: FlaskClient, links: TableLinks, play_id: int) -> list[tuple[str, ...]]:
    """The history's lines, newest first: (number, ISO time, shown time, who, what)."""
    html = client.get(f"/t/{links.edit}/plays/{play_id}/history").get_data(as_text=True)
    return [m.groups() for m in LINE.finditer(html.replace("&#39;", "'"))]


def tap(client: FlaskClient, links: TableLinks, play_id: int, path: str, n: int) -> None:
    response = edit(client, links.edit, play_id, path=path, value=str(n), base=str(n - 1))
    assert response.status_code == 200


def test_quick_taps_on_one_field_are_one_line_and_undo_takes_back_one(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    for n in (1, 2, 3):
        tap(client, links, play_id, HOOPOE_ANN, n)
    shown = lines(client, links, play_id)
    assert [(number, what) for number, _, _, _, what in shown] == [
        ("3", "Ann's Hoopoe: 0 → 3 (3 taps).")
    ]

    undo = f"/t/{links.edit}/plays/{play_id}/undo"
    token = csrf(client, f"/t/{links.edit}")
    html = client.post(undo, data={"csrf_token": token}, headers=HTMX).get_data(as_text=True)
    assert re.search(r"value=\"2\"[^>]*aria-label=\"Ann(?:'|&#39;)s Hoopoe\"", html)
    shown = lines(client, links, play_id)
    assert [what for *_, what in shown] == [
        "Undid edit 3: Ann's Hoopoe 3 → 2.",
        "Ann's Hoopoe: 0 → 3 (3 taps).",
    ]


def test_taps_apart_in_time_field_or_phone_are_separate_lines(
    app: Flask, client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    tap(client, links, play_id, HOOPOE_ANN, 1)
    tap(client, links, play_id, SHOEBILL_ANN, 1)  # another field in between
    tap(client, links, play_id, HOOPOE_ANN, 2)
    tap(client, links, play_id, HOOPOE_ANN, 3)
    with app.app_context():  # the next tap comes later than a run allows
        last = db.session.scalars(select(Edit).order_by(Edit.number.desc())).first()
        assert last is not None
        last.created_at -= timedelta(seconds=TAP_RUN_SECONDS + 1)
        db.session.commit()
    tap(client, links, play_id, HOOPOE_ANN, 4)
    other_phone = client.application.test_client()
    tap(other_phone, links, play_id, HOOPOE_ANN, 5)
    shown = lines(client, links, play_id)
    assert [(number, what) for number, _, _, _, what in shown] == [
        ("6", "Ann's Hoopoe: 4 → 5."),
        ("5", "Ann's Hoopoe: 3 → 4."),
        ("4", "Ann's Hoopoe: 1 → 3 (2 taps)."),
        ("2", "Ann's Shoebill: 0 → 1."),
        ("1", "Ann's Hoopoe: 0 → 1."),
    ]
    assert shown[0][3] != shown[1][3]  # two phones, two device ids


def test_a_phone_is_named_by_the_player_it_said_it_is(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    tap(client, links, play_id, HOOPOE_ANN, 1)
    unnamed = lines(client, links, play_id)[0][3]
    assert re.fullmatch(r"device [0-9a-f]{4}", unnamed)

    token = csrf(client, f"/t/{links.edit}")
    response = client.post(f"/t/{links.edit}/me", data={"name": "Ann", "csrf_token": token})
    assert response.status_code == 303
    tap(client, links, play_id, SHOEBILL_ANN, 1)
    # Both lines name Ann: the earlier one too, since the same phone said who it is since.
    assert [who for _, _, _, who, _ in lines(client, links, play_id)] == ["Ann", "Ann"]

    watcher = client.application.test_client()
    tap(watcher, links, play_id, SHOEBILL_ANN, 2)
    assert re.fullmatch(r"device [0-9a-f]{4}", lines(client, links, play_id)[0][3])


def test_times_are_sent_as_iso_utc_and_shown_as_utc_without_javascript(
    app: Flask, client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    tap(client, links, play_id, HOOPOE_ANN, 1)
    with app.app_context():
        stamp = db.session.scalars(select(Edit)).one().created_at
    [(_, iso, when, _, _)] = lines(client, links, play_id)
    assert iso == stamp.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert when == stamp.strftime("%H:%M:%S UTC")
