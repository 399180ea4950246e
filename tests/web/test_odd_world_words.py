"""Odd World's displays say every word through gettext (issue 36): birds counted, a
face-down card chosen, a refused count, on the edit and read-only links, checked in the
pseudo-language where the page walk, which sees only fresh plays, cannot look."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from support.client import create_table, edit, start_play
from support.page_words import pseudo_pages, words_left
from support.pseudo import OPEN

NAMES = ["Ann", "Ben"]
#: What Odd World draws on the play page: whose display to show, and the displays (the
#: rest of the page, standings and photos, is said by the shared templates).
OURS = re.compile(r'<nav id="play-seats".*?</nav>|<section class="display".*?</section>', re.S)
#: A link to a rules entry: named by the entry's title (written per language, its own
#: tests) when the page gives it no words of its own, which are then the link's text.
RULE_LINK = re.compile(r'<a class="rule-link"[^>]*>([^<]*)</a>')


def displays_words_left(html: str) -> list[tuple[str, str]]:
    """The texts of Odd World's own parts of a play page still in English."""
    parts = [
        RULE_LINK.sub(lambda link: link[1] if link[1].startswith(OPEN) else "", found)
        for found in OURS.findall(html)
    ]
    assert parts, "no display on the page"
    return [left for part in parts for left in words_left(part, NAMES)]


def test_displays_with_birds_a_face_down_card_and_a_refused_count(client: FlaskClient) -> None:
    links = create_table(client, NAMES)
    play_id = start_play(client, links.edit)
    with pseudo_pages() as language:
        client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
        edit(client, links.edit, play_id, path="players[0].display.hoopoe", value="3")
        edit(client, links.edit, play_id, path="players[1].face_down", value="shoebill")
        refused = edit(client, links.edit, play_id, path="players[1].display.hoopoe", value="99")
        assert refused.status_code == 422
        assert displays_words_left(refused.get_data(as_text=True)) == []
        for token in (links.edit, links.view):
            for seat in ("all", "1"):
                url = f"/t/{token}/plays/{play_id}?seat={seat}"
                page = client.get(url)
                assert page.status_code == 200
                assert displays_words_left(page.get_data(as_text=True)) == [], url
