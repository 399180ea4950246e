"""The core pages say their refusals, flashes and scripts' sentences through gettext
(issue 36): a roster, a join code and a seat refused, a flash after a new join code, the
sentences connection.js and share.js show, and the caps' counts as the reader writes
numbers. The page walk sees pages as first started; these are the states it does not reach.
"""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from companion.games.text import speaking
from companion.services import caps
from support.client import create_table, csrf
from support.page_words import PseudoBabel, pseudo_pages
from support.pseudo import CLOSE, OPEN, english_words

NAMES = ["Ann", "Ben", "Cy"]
ERROR = re.compile(r'<p class="(?:error|notice)"[^>]*>([^<]*)</p>')
SCRIPT_WORDS = re.compile(r'<script src="[^"]*/(?:connection|share)\.js[^"]*" defer([^>]*)>')
DATA_TEXT = re.compile(r'data-[a-z-]+="([^"]*)"')


def said(html: str) -> list[str]:
    """The refusals and notices a page shows."""
    found = ERROR.findall(html)
    assert found, html
    return found


def test_refusals_and_flashes_of_the_core_pages_go_through_gettext(client: FlaskClient) -> None:
    links = create_table(client, NAMES)
    table = f"/t/{links.edit}"
    with pseudo_pages() as language:
        headers = {"Accept-Language": language}

        def post(url: str, page: str, **data: str) -> str:
            data["csrf_token"] = csrf(client, page)
            return client.post(url, data=data, headers=headers).get_data(as_text=True)

        player = re.search(
            r'name="player" value="(\d+)"', client.get(table).get_data(as_text=True)
        )
        assert player is not None
        refused = [
            post("/tables", "/", action="create", **{"players-0": ""}),
            post("/tables", "/", action="create", **{f"players-{i}": f"P{i}" for i in range(8)}),
            post("/join", "/join", code="AB"),
            post("/join", "/join", code="ZZZZZZ"),
            post("/join", "/join", code=""),
            post(f"{table}/players", table, action="up", player=player.group(1)),
            post(f"{table}/players", table, action="rename", name="Zed"),
            post(f"{table}/plays", table, game=""),
            post(f"{table}/plays", table, game="owl-about", series="y", confirm="yes"),
        ]
        post(f"{table}/rotate-code", table)
        flashed = client.get(table, headers=headers).get_data(as_text=True)
        for html in [*refused, flashed]:
            for sentence in said(html):
                assert sentence.startswith(OPEN), sentence
                assert not english_words(sentence, values=NAMES), sentence


def test_the_scripts_sentences_come_from_the_page_in_its_language(client: FlaskClient) -> None:
    with pseudo_pages() as language:
        page = client.get("/", headers={"Accept-Language": language}).get_data(as_text=True)
    attributes = SCRIPT_WORDS.findall(page)
    assert len(attributes) == 2, page
    texts = [text for found in attributes for text in DATA_TEXT.findall(found)]
    assert len(texts) == 9
    for text in texts:
        assert text.startswith(OPEN), text
        assert text.endswith(CLOSE), text
    # The reason's place stays for connection.js to fill in.
    assert f"{OPEN}Not saved: %(reason)s{CLOSE}" in texts


def test_an_error_page_marks_the_sentence_that_says_nothing_was_saved(
    client: FlaskClient,
) -> None:
    links = create_table(client, NAMES)
    with pseudo_pages() as language:
        headers = {"Accept-Language": language}
        expired = client.post(f"/t/{links.edit}/rotate-code", data={}, headers=headers)
        missing = client.get("/t/nothing-here", headers=headers)
    assert expired.status_code == 400
    assert re.search(r'<p id="error-message" data-not-saved>⟦[^<]*⟧</p>', expired.text)
    assert missing.status_code == 404
    assert '<p id="error-message">⟦' in missing.text


def test_caps_are_written_as_the_reader_writes_numbers() -> None:
    assert "1,000 photos" in caps.too_many_photos_per_group()
    with speaking(PseudoBabel()):
        german = caps.too_many_photos_per_group()
    assert german.startswith(OPEN)
    assert "1.000 photos" in german
