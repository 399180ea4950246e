"""Starting a game while another is unfinished (issue 27): the table asks first, on a page
of its own (no JavaScript needed), and every unfinished game stays on the table page."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Play
from support.client import create_table, csrf, start_play


def plays_of(client: FlaskClient) -> list[tuple[str, bool]]:
    """Every stored play: its game and whether it is finished."""
    with client.application.app_context():
        return [(p.game, p.finished) for p in db.session.query(Play).order_by(Play.id)]


def test_a_second_game_asks_first_and_keeps_the_first_reachable(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    first = start_play(client, links.edit, "odd-world")
    asked = client.post(
        f"/t/{links.edit}/plays",
        data={"game": "odd-world", "csrf_token": csrf(client, f"/t/{links.edit}")},
    )
    # Nothing starts yet: a page says which game is unfinished and offers both ways.
    assert asked.status_code == 200
    page = asked.get_data(as_text=True)
    assert "Start Odd World?" in page
    assert "A game at this table is not finished yet:" in page
    assert f'href="/t/{links.edit}/plays/{first}">Odd World</a>' in page
    assert re.search(r'name="confirm" value="yes">\s*<button class="primary">Start Odd', page)
    assert "Back to the table" in page
    assert plays_of(client) == [("odd-world", False)]
    # Confirmed, the new game starts and the unfinished one stays on the table page.
    confirm = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert confirm is not None
    started = client.post(
        f"/t/{links.edit}/plays",
        data={"game": "odd-world", "confirm": "yes", "csrf_token": confirm[1]},
    )
    assert started.status_code == 303
    assert plays_of(client) == [("odd-world", False), ("odd-world", False)]
    table = client.get(f"/t/{links.edit}").get_data(as_text=True)
    assert "Now playing: Odd World" in table
    assert re.search(
        rf'Also not finished: <a href="/t/{links.edit}/plays/{first}">Odd World', table
    )


def test_no_question_when_every_game_is_finished(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    first = start_play(client, links.edit, "odd-world")
    finished = client.post(
        f"/t/{links.edit}/plays/{first}/finish",
        data={"confirm": "yes", "csrf_token": csrf(client, f"/t/{links.edit}")},
    )
    assert finished.status_code == 303
    assert plays_of(client) == [("odd-world", True)]
    started = client.post(
        f"/t/{links.edit}/plays",
        data={"game": "odd-world", "csrf_token": csrf(client, f"/t/{links.edit}")},
    )
    assert started.status_code == 303
