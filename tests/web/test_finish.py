"""Finishing a game is safe: a game its rules say goes on is finished only once confirmed
(in the page with htmx, on a page of its own without JavaScript); a game its rules say is
over is said so prominently and finished at once."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from companion.games import GAMES, odd_world
from companion.services.explain import ending
from support.client import HTMX, TableLinks, create_table, csrf, edit, start_play
from support.owl_about import start_owl

BIRDS = tuple(odd_world.BIRDS)


@pytest.fixture
def links(client: FlaskClient) -> TableLinks:
    """A table of Ann, Ben and Cy."""
    return create_table(client, ["Ann", "Ben", "Cy"])


@pytest.fixture
def play_id(client: FlaskClient, links: TableLinks) -> int:
    """An Odd World play at that table, Ann with 3 hoopoes."""
    play = start_play(client, links.edit)
    edit(client, links.edit, play, path="players[0].display.hoopoe", value="3")
    return play


def text(response: TestResponse) -> str:
    """The response's HTML with entities decoded and whitespace squeezed."""
    return re.sub(r"\s+", " ", html_lib.unescape(response.get_data(as_text=True)))


def finish(
    client: FlaskClient, token: str, play_id: int, *, htmx: bool = True, **data: str
) -> TestResponse:
    body = {"csrf_token": csrf(client, f"/t/{token}"), **data}
    return client.post(
        f"/t/{token}/plays/{play_id}/finish", data=body, headers=HTMX if htmx else {}
    )


def words(response: TestResponse) -> str:
    """What the response says, without its tags."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", text(response)))


def is_finished(client: FlaskClient, token: str, play_id: int) -> bool:
    return "Final standings" in client.get(f"/t/{token}/plays/{play_id}").get_data(as_text=True)


NOT_OVER = (
    "The game is not over yet: nobody holds all nine birds yet and only 3 of the 72 cards "
    "are entered, so 69 are still in the draw piles. Finish anyway?"
)


def test_finishing_a_game_that_goes_on_asks_first_in_the_page(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    asked = finish(client, links.edit, play_id)
    assert asked.status_code == 200
    html = text(asked)
    assert html.lstrip().startswith('<section id="play"')  # the play panel, for htmx
    assert NOT_OVER in words(asked)
    assert 'name="confirm" value="yes"' in html
    assert "Keep playing" in html
    assert not is_finished(client, links.edit, play_id)

    done = finish(client, links.edit, play_id, confirm="yes")
    assert done.status_code == 200
    assert "Final standings" in text(done)
    assert "Ann wins with 3 points." in text(done)


def test_without_javascript_the_confirmation_is_a_page(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    asked = finish(client, links.edit, play_id, htmx=False, seat="1")
    assert asked.status_code == 200
    html = text(asked)
    assert "<html" in html
    assert "Finish Odd World?" in html
    assert NOT_OVER in words(asked)
    assert re.search(r'<form method="post" action="[^"]*/finish">', html)
    assert 'name="seat" value="1"' in html
    assert "hx-post" not in html.split('id="finish-confirm"')[1]
    assert not is_finished(client, links.edit, play_id)

    done = finish(client, links.edit, play_id, htmx=False, confirm="yes", seat="1")
    assert done.status_code == 303
    assert done.headers["Location"].endswith(f"/plays/{play_id}?seat=1")
    assert is_finished(client, links.edit, play_id)


def test_the_confirmed_finish_is_idempotent(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    page = finish(client, links.edit, play_id, htmx=False).get_data(as_text=True)
    confirm = page.split('id="finish-confirm"')[1]
    key = re.search(r'name="submission" value="([^"]+)"', confirm)
    assert key
    data = {"csrf_token": csrf(client, f"/t/{links.edit}"), "confirm": "yes"}
    data["submission"] = key.group(1)
    url = f"/t/{links.edit}/plays/{play_id}/finish"
    first = client.post(url, data=data)
    again = client.post(url, data=data)
    assert first.status_code == again.status_code == 303
    assert again.headers["Location"] == first.headers["Location"]
    assert client.post(url, data=data, headers=HTMX).status_code == 204
    history = client.get(f"/t/{links.edit}/plays/{play_id}/history").get_data(as_text=True)
    assert history.count("Finished the game") == 1


def test_a_game_over_by_its_rules_says_so_and_finishes_at_once(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    for bird in BIRDS:
        path = f"players[1].display.{bird}"
        assert edit(client, links.edit, play_id, path=path, value="1").status_code == 200
    page = text(client.get(f"/t/{links.edit}/plays/{play_id}"))
    assert "Ben holds all nine birds: the game is over. Finish it?" in re.sub(r"<[^>]+>", "", page)
    assert page.index("holds all nine birds") < page.index('id="standings-title"')
    read_only = text(client.get(f"/t/{links.view}/plays/{play_id}"))
    assert "Ben holds all nine birds: the game is over." in read_only
    assert "Finish it" not in read_only

    done = finish(client, links.edit, play_id, htmx=False)
    assert done.status_code == 303
    assert is_finished(client, links.edit, play_id)
    assert "holds all nine birds" not in text(client.get(f"/t/{links.edit}/plays/{play_id}"))


def test_owl_about_below_the_target_asks_first(client: FlaskClient, links: TableLinks) -> None:
    owl = start_owl(client, links.edit, target="30")
    asked = finish(client, links.edit, owl)
    assert asked.status_code == 200
    assert (
        "The game is not over yet: nobody has reached the target of 30 VP at the end of a "
        "round yet. Finish anyway?"
    ) in words(asked)
    assert not is_finished(client, links.edit, owl)


def test_the_words_per_game_come_from_the_engine_result() -> None:
    owl = GAMES["owl-about"].score(
        {
            "players": ["A", "B", "C"],
            "target": 5,
            "rounds": [{"trophies": {"A": 6, "B": 2, "C": 1}}],
        }
    )
    assert ending(GAMES["owl-about"], owl.to_json()).words == (
        "C and A reached the target of 5 VP: the game is over."
    )
    oddland = {"finished": False, "standings": [{"player": "A"}, {"player": "B"}]}
    assert ending(GAMES["oddland"], oddland).words.startswith("not every player has placed all ")
    assert ending(GAMES["oddland"], {**oddland, "finished": True}).words.startswith(
        "Every player has placed all "
    )
    assert not ending(GAMES["odd-world"], None).over
