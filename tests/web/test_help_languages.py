"""The help pages in every language the app speaks (issue 36): each page is written in each
language, with English's sections at English's anchors, served in the reader's language,
and no English sentence is left on the German, French or Spanish pages."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion.config import LANGUAGES
from companion.games import GAMES
from companion.web.help import GAME_NIGHT_TEMPLATE, GAME_TEMPLATE, INDEX_TEMPLATE, in_language

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
OTHER_LANGUAGES = [code for code in LANGUAGES if code != "en"]
PAGES = {
    "/help": INDEX_TEMPLATE,
    "/help/game-night": GAME_NIGHT_TEMPLATE,
    **{f"/help/{slug}": GAME_TEMPLATE.format(slug=slug) for slug in GAMES},
}
#: Sentences of the English pages, besides their section titles, that a translated page
#: must not keep (a page half translated would show them).
ENGLISH_SENTENCES = (
    "How to play each game with the app",
    "The rules themselves are in the",
    "Serving the app yourself, from a laptop at the table?",
    "Everyone types in what lies on the table",
    "On this page",
    "Help for each game",
    "Skip to content",
    "Join a table",
)
#: Words an English title shares with every language (names, not sentences).
NAMES = re.compile(r"^(Odd World|Owl About|Oddland|OddVille|Lucky's Misadventures|BG Stats)$")


class Sections(HTMLParser):
    """A page's help sections: their ids and titles, in order; and its text."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.titles: list[str] = []
        self._title: list[str] | None = None
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "section" and "help-section" in found.get("class", ""):
            self.ids.append(found["id"])
        if tag == "h2" and found.get("id", "").endswith("-title"):
            self._title = []
        for name in ("aria-label", "title", "alt"):
            if found.get(name):
                self.text.append(found[name])

    def handle_endtag(self, tag: str) -> None:
        if tag == "h2" and self._title is not None:
            self.titles.append(" ".join("".join(self._title).split()))
            self._title = None

    def handle_data(self, data: str) -> None:
        if self._title is not None:
            self._title.append(data)
        self.text.append(data)


def sections(client: FlaskClient, url: str, language: str) -> Sections:
    answer = client.get(url, headers={"Accept-Language": language})
    assert answer.status_code == 200, url
    body = answer.get_data(as_text=True)
    found = re.search(r'<html lang="([a-z]+)"', body)
    assert found is not None
    assert found.group(1) == language, url
    page = Sections()
    page.feed(body)
    return page


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
@pytest.mark.parametrize("template", sorted(PAGES.values()))
def test_every_help_page_is_written_in_every_language(template: str, language: str) -> None:
    assert (TEMPLATES / template).is_file()
    assert (TEMPLATES / in_language(template, language)).is_file(), language


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
@pytest.mark.parametrize("url", sorted(PAGES))
def test_each_language_has_english_s_sections_and_no_english_sentence(
    client: FlaskClient, url: str, language: str
) -> None:
    english = sections(client, url, "en")
    translated = sections(client, url, language)
    assert translated.ids == english.ids
    text = " ".join(html.unescape(" ".join(translated.text)).split())
    # A title of one word may be a word of the language too ("Scores" in French).
    titles = [t for t in english.titles if len(t.split()) > 1 and not NAMES.match(t)]
    phrases = titles + list(ENGLISH_SENTENCES)
    left = [phrase for phrase in phrases if phrase in text]
    assert not left, f"English left on {url} in {language}: {left}"
    assert translated.titles != english.titles


def test_the_english_pages_hold_the_phrases_looked_for(client: FlaskClient) -> None:
    """The check above would see English: the phrases are on the English pages."""
    text = " ".join(
        " ".join(html.unescape(" ".join(sections(client, url, "en").text)).split())
        for url in PAGES
    )
    missing = [phrase for phrase in ENGLISH_SENTENCES if phrase not in text]
    assert not missing, missing
