"""The history page: quick taps on one field are one line (the log keeps every tap, so
Undo takes back one), phones are named by the player they said they are, times are
sent as ISO 8601 UTC for the phone to show in its own time zone, and a long log is shown
a page at a time, older pages a link away (without JavaScript)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import insert, select, update

from companion.extensions import db
from companion.models import Edit, Play
from companion.services.play_history import HISTORY_PAGE_EDITS, TAP_RUN_SECONDS
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


# --- pages: a play at the changes cap reads a page of its log, not all of it ----------

PAGE = HISTORY_PAGE_EDITS
OLDER = re.compile(r'<a href="([^"]+\?before=(\d+))">Older changes</a>')
AT = datetime(2025, 1, 1, 19)


def log_edits(app: Flask, play_id: int, count: int, *, run: range = range(0)) -> None:
    """Write ``count`` edits into the play's log, a minute apart, each on another field,
    except those numbered in ``run``: quick taps on Ann's Hoopoe by one phone."""
    rows = []
    for number in range(1, count + 1):
        tapped = number in run
        rows.append(
            {
                "play_id": play_id,
                "number": number,
                "kind": "set",
                "path": HOOPOE_ANN if tapped else f"players[{number % 2}].display.shoebill",
                "value": number,
                "previous": number - 1,
                "device": "phone123",
                "author": None,
                "created_at": AT + timedelta(seconds=number if tapped else 60 * number),
            }
        )
    with app.app_context():
        db.session.execute(insert(Edit), rows)
        db.session.execute(update(Play).where(Play.id == play_id).values(version=count))
        db.session.commit()


def pages(client: FlaskClient, links: TableLinks, play_id: int) -> list[list[tuple[str, ...]]]:
    """Every page of the history, newest first, following its "Older changes" links."""
    found, path = [], f"/t/{links.edit}/plays/{play_id}/history"
    while path:
        html = client.get(path).get_data(as_text=True).replace("&#39;", "'")
        found.append([m.groups() for m in LINE.finditer(html)])
        older = OLDER.search(html)
        path = older.group(1).replace("&amp;", "&") if older else ""
        if len(found) > 20:
            raise AssertionError("the older links go round in circles")
    return found


def test_the_history_shows_the_newest_page_and_links_to_older_ones(
    app: Flask, client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    log_edits(app, play_id, 2 * PAGE + 20)
    shown = pages(client, links, play_id)
    numbers = [[int(line[0]) for line in page] for page in shown]
    total = 2 * PAGE + 20
    assert numbers == [
        list(range(total, PAGE + 20, -1)),
        list(range(PAGE + 20, 20, -1)),
        list(range(20, 0, -1)),
    ]
    newest = client.get(f"/t/{links.view}/plays/{play_id}/history").get_data(as_text=True)
    assert "Newest changes" not in newest
    assert f"?before={PAGE + 21}" in newest  # the read-only link pages too
    older = client.get(f"/t/{links.edit}/plays/{play_id}/history?before=21").get_data(as_text=True)
    assert f'href="/t/{links.edit}/plays/{play_id}/history">Newest changes</a>' in older
    assert "Older changes" not in older


def test_a_run_of_taps_at_a_page_edge_is_shown_whole_on_the_older_page(
    app: Flask, client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    total = PAGE + 50
    log_edits(app, play_id, total, run=range(total - PAGE - 10, total - PAGE + 11))
    newest, older, *_ = pages(client, links, play_id)
    assert int(newest[-1][0]) == total - PAGE + 11
    assert (str(total - PAGE + 10), "Ann's Hoopoe: 39 → 60 (21 taps).") in [
        (number, what) for number, *_, what in older
    ]


def test_a_run_longer_than_a_page_is_told_in_parts(
    app: Flask, client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    log_edits(app, play_id, 2 * PAGE + 1, run=range(1, 2 * PAGE + 2))
    shown = pages(client, links, play_id)
    assert [[what for *_, what in page] for page in shown] == [
        [f"Ann's Hoopoe: {PAGE + 1} → {2 * PAGE + 1} ({PAGE} taps)."],
        [f"Ann's Hoopoe: 1 → {PAGE + 1} ({PAGE} taps)."],
        ["Ann's Hoopoe: 0 → 1."],
    ]


@pytest.mark.parametrize("before", ["abc", "-5", "0", "99999999999999999999999999"])
def test_any_before_is_a_page(
    app: Flask, client: FlaskClient, links: TableLinks, play_id: int, before: str
) -> None:
    log_edits(app, play_id, 3)
    response = client.get(f"/t/{links.edit}/plays/{play_id}/history?before={before}")
    assert response.status_code == 200
