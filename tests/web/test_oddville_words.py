"""OddVille's pages say every word through gettext (issue 36): a city with owners, guilds,
shields, streets, characters and the referee's verdict, on the edit and read-only links,
and the refusals of its forms (the routes', the service's, the options form's), each
checked in the pseudo-language where the page walk, which sees only fresh plays, cannot
look."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from support.client import TableLinks, create_table, csrf
from support.every_game import start_oddville
from support.page_words import pseudo_pages, words_left

#: Names of three letters at most: the city marks a player's cards with them as they are.
NAMES = ["Ann", "Ben", "Cy"]
#: What OddVille draws on the play page: its three sections (the rest of the page,
#: standings and photos, is said by the shared templates).
OURS = re.compile(r'<section class="ov card".*?</section>', re.S)
#: A link to a rules entry, named by the entry's title: the rules reference is written
#: per language (its own tests), not said through gettext.
RULE_LINK = re.compile(r'<a class="rule-link".*?</a>', re.S)
#: A card seen from every side: houses on top, right and below, a street on the left.
EDGES = {"top": "H", "right": "H", "bottom": "H", "left": "S"}


def oddville_words_left(html: str) -> list[tuple[str, str]]:
    """The texts of OddVille's own parts of a page still in English."""
    parts = [RULE_LINK.sub("", part) for part in OURS.findall(html)]
    assert len(parts) == 3, "the city, the workers and the characters"
    return [found for part in parts for found in words_left(part, NAMES)]


@pytest.fixture
def links(client: FlaskClient) -> TableLinks:
    """A table of Ann, Ben and Cy."""
    return create_table(client, NAMES)


def send(
    client: FlaskClient, links: TableLinks, play: int, route: str, language: str, **data: str
) -> str:
    """Post an OddVille form in ``language``; the page it answers with."""
    data.setdefault("csrf_token", csrf(client, f"/t/{links.edit}"))
    url = f"/t/{links.edit}/plays/{play}/oddville/{route}"
    headers = {"HX-Request": "true", "Accept-Language": language}
    return client.post(url, data=data, headers=headers).get_data(as_text=True)


def test_a_city_with_owners_guilds_characters_and_a_verdict(
    client: FlaskClient, links: TableLinks
) -> None:
    play = start_oddville(client, links.edit)
    with pseudo_pages() as language:
        cards = [
            ("0,1,empty", {"points": "guild-2", "guild": "mask", "shield": "2", "owner": "Ann"}),
            ("0,-1,empty", {"points": "row", "guild": "lily", "owner": "Ben", **EDGES}),
            ("1,0,empty", {"points": "adjacent-x3", "owner": "Cy", "bonus": "coin"}),
            ("1,1,empty", {"points": "shields"}),
        ]
        for at, palette in cards:
            send(client, links, play, "tap", language, at=at, tool="place", **palette)
        send(client, links, play, "square", language, owners="Ann")
        send(client, links, play, "character", language, character="traveller", holder="Ann")
        send(client, links, play, "tap", language, at="1,1,card", tool="move")
        for token in (links.edit, links.view):
            page = client.get(f"/t/{token}/plays/{play}", headers={"Accept-Language": language})
            assert oddville_words_left(page.get_data(as_text=True)) == [], token
        # Below Ben's card (houses below) and left of Cy's (the palette kept its edges: a
        # street on the left): houses on top and a street on the right fit, a street on top
        # does not.
        check = {"tool": "check", "points": "column", "owner": "Ben", "bonus": "double"}
        check |= {**EDGES, "right": "S"}
        verdict = send(client, links, play, "tap", language, at="1,-1,empty", **check)
        assert "ov-legal" in verdict
        assert "ov-gains" in verdict
        assert oddville_words_left(verdict) == []
        build = {**check, "tool": "build", "top": "S"}
        refused = send(client, links, play, "tap", language, at="1,-1,empty", **build)
        assert "ov-illegal" in refused
        assert oddville_words_left(refused) == []


def test_refusals_and_conflicts_of_the_city_say_why_in_the_phone_s_language(
    client: FlaskClient, links: TableLinks
) -> None:
    play = start_oddville(client, links.edit)
    with pseudo_pages() as language:
        send(client, links, play, "tap", language, at="0,1,empty", tool="place")

        def tap(at: str, **palette: str) -> str:
            return send(client, links, play, "tap", language, at=at, **palette)

        refusals = {
            "a place off the form": tap("here", tool="place"),
            "a tool not in the palette": tap("0,2,empty", tool="saw"),
            "an owner not at the table": tap("0,2,empty", tool="place", owner="Zed"),
            "nothing to copy": tap("0,2,empty", tool="pick"),
            "nothing to move": tap("0,2,empty", tool="move"),
            "a stale tap": tap("0,1,empty", tool="place"),
            "onto a card": tap("0,0,card", tool="place"),
            "the Main Square removed": tap("0,0,card", tool="remove"),
            "a stranger on the square": send(
                client, links, play, "square", language, owners="Zed"
            ),
            "no such character": send(client, links, play, "character", language, character="x"),
            "a stale take-back": send(client, links, play, "take-back", language, built="5"),
        }
        for what, html in refusals.items():
            assert 'class="error"' in html, what
            assert oddville_words_left(html) == [], what


def test_the_colours_and_their_refusal_in_the_phone_s_language(
    client: FlaskClient, links: TableLinks
) -> None:
    url = f"/t/{links.edit}/plays/new/oddville"
    with pseudo_pages() as language:
        headers = {"Accept-Language": language}
        data = {"colour_0": "red", "colour_1": "red", "csrf_token": csrf(client, url)}
        refused = client.post(url, data=data, headers=headers)
        assert refused.status_code == 422
        html = refused.get_data(as_text=True)
        colours = re.search(r'<fieldset class="ov-colours">.*?</fieldset>', html, re.S)
        assert colours is not None
        assert 'role="alert"' in colours.group()
        assert words_left(colours.group(), NAMES) == []
