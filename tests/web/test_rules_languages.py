"""The rules reference in the reader's language (issue 36): each game's page, an entry's
panel, the search and the text of a verdict's rules link, with the same ids and anchors in
every language, so a link made for one phone works on every other."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from companion.config import LANGUAGES
from companion.rules import load_languages
from support.client import HTMX

LIBRARIES = load_languages(LANGUAGES)


def asked(language: str) -> dict[str, str]:
    return {"Accept-Language": language}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_game_s_page_is_in_the_reader_s_language_at_the_same_anchors(
    client: FlaskClient, language: str
) -> None:
    page = client.get("/rules/owl-about", headers=asked(language)).get_data(as_text=True)
    rules = LIBRARIES[language].games["owl-about"]
    for entry in rules.entries:
        assert f'id="{entry.id}"' in page, entry.id
    follow = LIBRARIES[language].entry("owl-about/follow")
    assert follow is not None
    shown = re.search(r'<a class="anchor" href="#follow">([^<]+)</a>', page)
    assert shown is not None
    assert shown.group(1) == follow.title.replace("'", "&#39;")


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_entry_s_panel_is_in_the_reader_s_language(client: FlaskClient, language: str) -> None:
    panel = client.get(
        "/rules/odd-world/entry?id=face-down", headers={**HTMX, **asked(language)}
    ).get_data(as_text=True)
    entry = LIBRARIES[language].entry("odd-world/face-down")
    assert entry is not None
    assert entry.title in panel.replace("&#39;", "'")


@pytest.mark.parametrize(
    ("language", "question", "first"),
    [
        ("en", "who wins a tie odd world", "odd-world/tiebreak/species"),
        ("de", "wer gewinnt bei gleichstand odd world", "odd-world/tiebreak/species"),
        ("fr", "qui gagne en cas d egalite a oddland", "oddland/tiebreak/territories"),
        ("es", "cuando puedo jugar una carta de noche", "owl-about/night"),
    ],
)
def test_the_search_reads_the_reader_s_language(
    client: FlaskClient, language: str, question: str, first: str
) -> None:
    results = client.get(
        "/rules/search", query_string={"q": question}, headers={**HTMX, **asked(language)}
    ).get_data(as_text=True)
    slug, _, entry_id = first.partition("/")
    links = re.findall(r'<a href="/rules/([a-z-]+)#([^"]+)"', results)
    assert links, results
    assert links[0] == (slug, entry_id)


def test_a_rules_link_s_text_is_the_reader_s_and_its_address_everyone_s(
    client: FlaskClient,
) -> None:
    """The Owl About trick checker links the rule its verdict applied (a 1 and a 2 beside
    a 10), with the entry's question for its text."""
    addresses = set()
    for language in LANGUAGES:
        page = client.get(
            "/owl-about/check?players=4&cards=6+2+8+10", headers=asked(language)
        ).get_data(as_text=True)
        links = re.findall(r'<a class="rule-link" href="([^"]+)"[^>]*>([^<]+)</a>', page)
        small = [(href, said) for href, said in links if href.endswith("#small-owls")]
        assert small, page
        addresses.add(small[0][0])
        entry = LIBRARIES[language].entry("owl-about/small-owls")
        assert entry is not None
        assert small[0][1] == entry.title.replace("'", "&#39;")
    assert addresses == {"/rules/owl-about?at=checker#small-owls"}
