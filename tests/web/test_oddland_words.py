"""Oddland's pages say every word through gettext (issue 36): a painted map with tokens,
typed points and a defined side, a play-along game with cards laid and a verdict, the
facts page, and the refusals of its forms (the routes', the services', the form
validators'), each checked in the pseudo-language where the page walk, which sees only
fresh plays, cannot look."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from support.client import TableLinks, create_table, csrf
from support.oddland import start_oddland, turn_form
from support.page_words import pseudo_pages, words_left
from support.pseudo import untranslated

NAMES = ["Ann", "Ben"]
#: The table's own words: its players and a species it typed in (its first letters mark
#: its tokens on the map).
VALUES = [*NAMES, "Sea Dragon", "sea-dragon", "Se"]
#: What Oddland draws on the play page: its sections, and the conflict notice above them
#: (the rest of the page, standings and photos, is said by the shared templates).
OURS = re.compile(
    r'<section[^>]* class="ol[ -].*?</section>|<p class="notice" role="alert">.*?</p>', re.S
)


#: A link to a rules entry, named by the entry's title: the rules reference is written
#: per language (its own tests), not said through gettext.
RULE_LINK = re.compile(r'<a class="rule-link".*?</a>', re.S)


def oddland_words_left(html: str, values: list[str] = VALUES) -> list[tuple[str, str]]:
    """The texts of Oddland's own parts of a page still in English."""
    parts = [RULE_LINK.sub("", part) for part in OURS.findall(html)]
    assert parts, "no Oddland section on the page"
    return [found for part in parts for found in words_left(part, values)]


@pytest.fixture
def links(client: FlaskClient) -> TableLinks:
    """A table of Ann and Ben."""
    return create_table(client, NAMES)


def send(
    client: FlaskClient, links: TableLinks, play: int, route: str, language: str, **data: str
) -> str:
    """Post an Oddland form in ``language``; the page it answers with."""
    data.setdefault("csrf_token", csrf(client, f"/t/{links.edit}"))
    url = f"/t/{links.edit}/plays/{play}/oddland/{route}"
    headers = {"HX-Request": "true", "Accept-Language": language}
    return client.post(url, data=data, headers=headers).get_data(as_text=True)


def tap(
    client: FlaskClient,
    links: TableLinks,
    play: int,
    language: str,
    tool: str,
    cell: str,
    **kw: str,
) -> str:
    """Tap a space of the map with a palette tool (``cell``: ``row,col,letter shown``)."""
    kw = {"player": "Ann", "species": "begator", "direction": "right", **kw}
    return send(client, links, play, "map", language, tool=tool, cell=cell, **kw)


def test_a_painted_map_with_tokens_points_and_a_defined_side(
    client: FlaskClient, links: TableLinks
) -> None:
    play = start_oddland(client, links.edit, extra_name_0="Sea Dragon", side_pigehorse="")
    with pseudo_pages() as language:
        for r, row in enumerate(["FFWW", "FSMM", "WWMS"]):
            for c, letter in enumerate(row):
                tap(client, links, play, language, letter, f"{r},{c},.")
        tap(client, links, play, language, "token", "0,0,F")
        tap(client, links, play, language, "token", "1,2,M", player="Ben", species="whalephant")
        tap(client, links, play, language, "token", "2,0,W", species="sea-dragon")
        send(client, links, play, "points", language, **{"pts-owloose-0": "4"})
        definition = {"species": "sea-dragon", "side": "A", "points": "2", "per": "token",
                      "region": "map", "only_species": "flora", "two_space": "largest",
                      "solo_modifier": "-1", "count_own_space": "y"}  # fmt: skip
        send(client, links, play, "definition", language, **definition)
        for url in (f"/t/{links.edit}/plays/{play}", f"/t/{links.view}/plays/{play}"):
            page = client.get(url, headers={"Accept-Language": language})
            assert oddland_words_left(page.get_data(as_text=True)) == [], url
        for token in (links.edit, links.view):
            url = f"/t/{token}/plays/{play}/oddland/facts"
            page = client.get(url, headers={"Accept-Language": language})
            assert words_left(page.get_data(as_text=True), VALUES) == [], url


def test_refusals_and_conflicts_of_the_map_say_why_in_the_phone_s_language(
    client: FlaskClient, links: TableLinks
) -> None:
    play = start_oddland(client, links.edit)
    definition = {"species": "owloose", "side": "B", "points": "500", "per": "space",
                  "region": "row", "two_space": "smallest"}  # fmt: skip
    card = turn_form(0, 0, "FSWM")
    with pseudo_pages() as language:
        tap(client, links, play, language, "F", "0,0,.")
        tap(client, links, play, language, "token", "0,0,F")
        refusals = {
            "a tool not in the palette": tap(client, links, play, language, "sky", "0,0,F"),
            "a space off the form": tap(client, links, play, language, "F", "here"),
            "a token's space cleared": tap(client, links, play, language, "clear", "0,0,F"),
            "a taken space": tap(client, links, play, language, "token", "0,0,F"),
            "a token off the map": tap(client, links, play, language, "token", "5,5,."),
            "a stale tap": tap(client, links, play, language, "W", "0,0,S"),
            "bad points": send(client, links, play, "points", language, **{"pts-flora-0": "x"}),
            "too many points": send(client, links, play, "definition", language, **definition),
            "not play-along": send(client, links, play, "turn", language, **card),
        }
        for what, html in refusals.items():
            assert 'role="alert"' in html, what
            assert oddland_words_left(html) == [], what


def test_the_options_form_refuses_in_the_phone_s_language(
    client: FlaskClient, links: TableLinks
) -> None:
    url = f"/t/{links.edit}/plays/new/oddland"
    client.post(
        f"/t/{links.edit}/plays",
        data={"game": "oddland", "confirm": "yes", "csrf_token": csrf(client, f"/t/{links.edit}")},
    )
    data = {"csrf_token": csrf(client, url), "solo": "y", "extra_name_0": "!!",
            "extra_name_1": "Begator", "side_begator": "A"}  # fmt: skip
    with pseudo_pages() as language:
        page = client.post(url, data=data, headers={"Accept-Language": language})
        assert page.status_code == 422
        html = page.get_data(as_text=True)
        form = html[html.index("<form") : html.index('<div class="actions">')]
        assert words_left(form, VALUES) == []
        errors = re.findall(r'<p class="error"[^>]*>([^<]*)</p>', form)
        assert len(errors) == 3
        assert all(untranslated(error) == "" for error in errors), errors


def test_a_play_along_game_with_cards_laid_and_a_verdict(
    client: FlaskClient, links: TableLinks
) -> None:
    play = start_oddland(client, links.edit, play_along="y")
    setup = ("player", "species", "space", "second")
    with pseudo_pages() as language:
        url = f"/t/{links.edit}/plays/{play}"
        started = client.get(url, headers={"Accept-Language": language})
        assert oddland_words_left(started.get_data(as_text=True)) == []
        send(client, links, play, "turn/card", language, at="0,0")
        tapped = send(client, links, play, "turn/card", language, terrain="top_left:F")
        assert oddland_words_left(tapped) == []
        for laid, (col, terrains) in enumerate([(0, "FSWM"), (2, "FFWW")]):
            card = {k: v for k, v in turn_form(0, col, terrains).items() if k not in setup}
            send(client, links, play, "turn", language, action="place", laid=str(laid), **card)
        whale = turn_form(2, 0, "SSFF", species="whalephant", second="top-right")
        checked = send(client, links, play, "turn", language, action="check", laid="2", **whale)
        assert "ol-legal" in checked
        far = send(client, links, play, "turn", language, laid="2", **turn_form(6, 6, "FFFF"))
        assert "ol-illegal" in far
        send(client, links, play, "turn", language, action="place", laid="2", **whale)
        undo = send(client, links, play, "turn/undo", language, laid="9")
        # The cards laid are listed by their terrain letters, the map's own codes.
        codes = ["FS", "WM", "FF", "WW", "SS"]
        for html in (checked, far, undo):
            assert oddland_words_left(html, [*VALUES, *codes]) == []
        for token in (links.edit, links.view):
            url = f"/t/{token}/plays/{play}"
            page = client.get(url, headers={"Accept-Language": language})
            assert oddland_words_left(page.get_data(as_text=True), [*VALUES, *codes]) == [], url
