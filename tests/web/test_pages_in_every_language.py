"""Every page type speaks the phone's language (issue 36): a table with a play of every
game, the same plays finished, the history, options, referee and group pages, the rules
and help. In the pseudo-language no page shows a word that did not go through gettext;
in German, French and Spanish each page says its ``lang`` and none of the app's key
English phrases in what a person reads (the rules and help content included)."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from companion.config import DEFAULT_LANGUAGE, LANGUAGES
from support.client import csrf
from support.every_game import PLAYERS, Fixture, table_with_every_game
from support.page_words import page_urls, pseudo_pages, read_texts, words_left

#: Sentences and labels of the app that a translated page must not show in English.
KEY_PHRASES = (
    "New table",
    "Join a table",
    "Whose phone is this?",
    "Just watching",
    "Start the table",
    "Finish the game",
    "Delete this game",
    "Final standings",
    "Play again",
    "Undo",
    "Everyone",
    "Referee tools",
    "Search the rules",
    "Leaderboard",
    "Head-to-head",
    "Skill ratings",
    "The app's reading",
    "Back to the game",
    "Not saved",
    "wins",
    "Tiebreak",
)
OTHER_LANGUAGES = [code for code in LANGUAGES if code != DEFAULT_LANGUAGE]
HTML_LANG = re.compile(r'<html lang="([a-z]+)"')
#: The help pages are written per language, not through gettext (their own tests).
WRITTEN_PER_LANGUAGE = "/help"


def finished(client: FlaskClient, found: Fixture) -> None:
    """Every play of the table finished, as a table does at the end of an evening."""
    for play in found.plays.values():
        url = f"/t/{found.edit}/plays/{play}"
        client.post(f"{url}/finish", data={"csrf_token": csrf(client, url), "confirm": "yes"})


def pages(client: FlaskClient, found: Fixture) -> list[str]:
    app = client.application
    return [url for url in page_urls(app, found) if not url.startswith(WRITTEN_PER_LANGUAGE)]


def test_no_page_shows_a_word_that_skipped_gettext(client: FlaskClient) -> None:
    found = table_with_every_game(client)
    left: dict[str, list[tuple[str, str]]] = {}
    with pseudo_pages() as language:
        for state in ("started", "finished"):
            if state == "finished":
                finished(client, found)
            for url in pages(client, found):
                page = client.get(url, headers={"Accept-Language": language})
                if page.mimetype != "text/html":
                    continue
                words = words_left(page.get_data(as_text=True), [*PLAYERS, "Walkers"])
                if words:
                    left[f"{state} {url}"] = words
    assert not left, left


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_every_page_says_its_language_and_no_key_english_phrase(
    client: FlaskClient, language: str
) -> None:
    found = table_with_every_game(client)
    finished(client, found)
    english: dict[str, list[str]] = {}
    for url in [*pages(client, found), "/help", "/help/game-night", "/rules/oddville"]:
        page = client.get(url, headers={"Accept-Language": language})
        if page.mimetype != "text/html":
            continue
        html = page.get_data(as_text=True)
        if "<html" in html:  # a whole page, not a fragment htmx swaps in
            assert HTML_LANG.findall(html) == [language], url
        texts = "\n".join(read_texts(html))
        said = [phrase for phrase in KEY_PHRASES if re.search(rf"\b{phrase}\b", texts)]
        if said:
            english[url] = said
    assert not english, english
