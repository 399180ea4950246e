"""The help pages: one per registered game plus the app's own, each with its sections at
anchors listed at the top; every link on them leads somewhere real; the home page, the
footer, every play page and every rules page link to them; they are public."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from flask.testing import FlaskClient
from markupsafe import escape

from companion.games import GAMES
from support.every_game import table_with_every_game
from support.links import Page, parse

HELP_PAGES = ["/help", *(f"/help/{slug}" for slug in GAMES)]


@pytest.mark.parametrize("url", HELP_PAGES)
def test_each_help_page_lists_its_sections_and_each_sits_at_its_anchor(
    client: FlaskClient, url: str
) -> None:
    page, _ = parse(client, url)
    assert page.h1 == 1
    assert len(page.sections) >= 4, "short sections, several of them"
    assert page.contents == [f"#{section}" for section in page.sections]
    for section in page.sections:
        assert f"{section}-title" in page.ids, f"{url}#{section} has no heading"


@pytest.mark.parametrize("slug", list(GAMES))
def test_every_registered_game_has_a_help_page_linking_its_rules(
    client: FlaskClient, slug: str
) -> None:
    page, body = parse(client, f"/help/{slug}")
    assert f"<h1>{escape(GAMES[slug].name)}: how to</h1>" in body
    assert f"/rules/{slug}" in page.links
    assert "/help" in page.links


def test_the_help_home_links_every_game(client: FlaskClient) -> None:
    page, _ = parse(client, "/help")
    for slug in GAMES:
        assert f"/help/{slug}" in page.links


@pytest.mark.parametrize("url", ["/help/nope", "/help/odd-world/more", "/help/..%2Fbase"])
def test_an_unknown_game_has_no_help_page(client: FlaskClient, url: str) -> None:
    assert client.get(url).status_code == 404


@pytest.mark.parametrize("url", HELP_PAGES)
def test_help_pages_are_public_and_not_stored(client: FlaskClient, url: str) -> None:
    response = client.get(url)
    assert response.headers["Cache-Control"] == "no-store"
    assert "X-Robots-Tag" not in response.headers  # no table's link on it: indexable


def test_every_link_on_the_help_pages_leads_somewhere(client: FlaskClient) -> None:
    """Every link of this site answers 200, and every #place it names is on its page."""
    pages: dict[str, Page] = {}
    failures: list[str] = []
    for url in HELP_PAGES:
        page, _ = parse(client, url)
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc:
                continue  # no link leaves the site today; another site is not ours to test
            path = parts.path or url
            target = path + (f"?{parts.query}" if parts.query else "")
            if target not in pages:
                htmx = {"HX-Request": "true"} if link in page.fragments else {}
                response = client.get(target, headers=htmx)
                status, html = response.status_code, response.mimetype == "text/html"
                pages[target] = Page()
                if html:
                    pages[target].feed(response.get_data(as_text=True))
                response.close()
                if status != 200:
                    failures.append(f"{url}: {link} answers {status}")
                    continue
            if parts.fragment and parts.fragment not in pages[target].ids:
                failures.append(f"{url}: {link} has no #{parts.fragment}")
    assert not failures, "\n".join(failures)
    assert len(pages) > len(HELP_PAGES), "the help pages link hardly anything"


def test_the_home_page_and_every_footer_link_help(client: FlaskClient) -> None:
    home, _ = parse(client, "/")
    assert home.links.count("/help") >= 2  # its own card, and the footer
    rules, _ = parse(client, "/rules")
    assert "/help" in rules.links


def test_every_play_page_and_rules_page_links_its_game_help(client: FlaskClient) -> None:
    table = table_with_every_game(client)
    for slug, play_id in table.plays.items():
        for token in (table.edit, table.view):
            play, _ = parse(client, f"/t/{token}/plays/{play_id}")
            assert f"/help/{slug}" in play.links, f"{slug}'s play page"
        rules, _ = parse(client, f"/rules/{slug}")
        assert f"/help/{slug}" in rules.links, f"{slug}'s rules page"
