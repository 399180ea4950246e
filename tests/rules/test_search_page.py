"""The rules search page answers a question naming a game: it says which game, lists that
game's answers first and offers the other games' below, with and without htmx."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

HTMX = {"HX-Request": "true"}


def _page(client: FlaskClient, url: str, headers: dict[str, str]) -> str:
    response = client.get(url, headers=headers)
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    response.close()
    return body


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_a_named_game_is_said_and_the_other_games_follow(
    client: FlaskClient, headers: dict[str, str]
) -> None:
    body = _page(client, "/rules/search?q=who+wins+owl+about", headers)
    assert "Answers from Owl About, the game your question names." in body
    named, _, others = body.partition("<h2>In other games</h2>")
    links = re.findall(r'<li><a href="([^"]+)"', named)
    assert links[0] == "/rules/owl-about#fewest-vp"
    assert all(link.startswith("/rules/owl-about#") for link in links)
    other_links = re.findall(r'<li><a href="([^"]+)"', others)
    assert other_links
    assert not any(link.startswith("/rules/owl-about#") for link in other_links)


def test_a_game_chosen_in_the_form_shows_no_other_games(client: FlaskClient) -> None:
    body = _page(client, "/rules/search?q=who+wins+owl+about&game=oddland", HTMX)
    assert "the game your question names" not in body
    assert "In other games" not in body
    links = re.findall(r'<li><a href="([^"]+)"', body)
    assert links
    assert all(link.startswith("/rules/oddland#") for link in links)


def test_a_question_without_a_game_searches_all_without_a_game_line(
    client: FlaskClient,
) -> None:
    body = _page(client, "/rules/search?q=how+many+coins+can+i+have", HTMX)
    assert "the game your question names" not in body
    assert re.findall(r'<li><a href="([^"]+)"', body)[0] == "/rules/oddville#turn/coins"
