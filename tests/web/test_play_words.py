"""The parts of a play's page every game shares say every word through gettext (issue
36): the heading, the notices, the actions, the errors, the standings with their tie
sentences, the finish question and the photos; the history's lines; the evening on the
table page. The pseudo-language finds no English word left in them, in the states the
first page of a walk never reaches (a clash, refusals, a tie, a series, a finished game
with the next one started). And English stays as it was, to the byte."""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.web.rules import rule_title
from support.client import HTMX, TableLinks, create_table, csrf, edit, start_play
from support.page_words import pseudo_pages, words_left
from support.phones import element
from support.photos import camera_jpeg, send_photo

NAMES = ["Ann", "Ben", "Cy"]
#: The play panel's parts that are no game's own (its entry is the game's).
SHARED_PARTS = (
    "play-head",
    "play-notices",
    "play-actions",
    "play-errors",
    "series-lead",
    "standings",
    "play-photos",
    "finish-confirm",
)
HOOPOE = "players[{seat}].display.hoopoe"
#: A link to a rules entry: one that says the entry's question shows the rules reference's
#: words, written per language (its own tests check them), not put through gettext.
RULE_LINK = re.compile(
    r'<a class="rule-link" href="/rules/(?P<game>[^?#"]+)[^"#]*#(?P<entry>[^"]+)"[^>]*>'
    r"(?P<text>[^<]*)</a>"
)


@pytest.fixture
def links(client: FlaskClient) -> TableLinks:
    """A table of Ann, Ben and Cy."""
    return create_table(client, NAMES)


def parts_left(
    app: Flask, html: str, parts: Iterable[str], language: str
) -> dict[str, list[tuple[str, str]]]:
    """The English words left in each of these parts of a page (those it has), the
    questions of the rules entries it links to (in ``language``) left out."""
    with app.test_request_context(headers={"Accept-Language": language}):

        def question_out(link: re.Match[str]) -> str:
            title = rule_title(f"{link['game']}/{link['entry']}")
            return "" if title and unescape(link["text"]) == title else link[0]

        html = RULE_LINK.sub(question_out, html)
    left = {}
    for ident in parts:
        if f'id="{ident}"' not in html:
            continue
        at, until = element(html, ident)
        words = words_left(html[at:until], NAMES)
        if words:
            left[ident] = words
    return left


def _tie(client: FlaskClient, token: str, play_id: int) -> None:
    """Ann and Ben tie on points; the species in their displays decide."""
    edit(client, token, play_id, path=HOOPOE.format(seat=0), value="3")
    for bird in ("hoopoe", "shoebill", "hornbill"):
        edit(client, token, play_id, path=f"players[1].display.{bird}", value="1")


def test_the_shared_parts_of_a_play_speak_the_phone_s_language(
    app: Flask, client: FlaskClient, links: TableLinks
) -> None:
    play_id = start_play(client, links.edit)
    base = f"/t/{links.edit}/plays/{play_id}"
    _tie(client, links.edit, play_id)
    token = csrf(client, f"/t/{links.edit}")
    assert send_photo(client, links.edit, play_id, camera_jpeg()).status_code == 303
    with pseudo_pages() as language:
        headers = {"Accept-Language": language, **HTMX}

        def post(action: str, **data: str) -> str:
            answer = client.post(
                f"{base}/{action}", data={"csrf_token": token, **data}, headers=headers
            )
            assert answer.status_code in (200, 409, 422), action
            return answer.get_data(as_text=True)

        answers = {
            "tie": client.get(base, headers=headers).get_data(as_text=True),
            "read-only": client.get(f"/t/{links.view}/plays/{play_id}", headers=headers).get_data(
                as_text=True
            ),
            "clash": post("edit", path=HOOPOE.format(seat=0), value="5", base="0"),
            "stale undo": post("undo", undoes="1"),
            "unknown field": post("edit", path="players[9].nothing", value="1"),
            "finish asked": post("finish"),
            "no photo": post("photos"),
            "finished": post("finish", confirm="yes"),
            "finished again": post("finish", confirm="yes"),
            "locked": post("edit", path=HOOPOE.format(seat=0), value="4"),
        }
        client.post(f"{base}/again", data={"csrf_token": token})
        answers["next game started"] = client.get(base, headers=headers).get_data(as_text=True)
        for state, html in answers.items():
            assert parts_left(app, html, SHARED_PARTS, language) == {}, state
    assert "⟦Someone changed" in answers["clash"]
    assert "⟦The game is not over yet:⟧" in answers["finish asked"]


def test_a_series_and_the_evening_speak_the_phone_s_language(
    app: Flask, client: FlaskClient, links: TableLinks
) -> None:
    token = csrf(client, f"/t/{links.edit}")
    play_id = start_play(client, links.edit, series=True)
    base = f"/t/{links.edit}/plays"
    with pseudo_pages() as language:
        headers = {"Accept-Language": language}
        early = client.post(f"{base}/{play_id}/next", data={"csrf_token": token}, headers=headers)
        assert early.status_code == 422
        assert parts_left(app, early.get_data(as_text=True), SHARED_PARTS, language) == {}
        for number in (1, 2, 3):
            _tie(client, links.edit, play_id)
            client.post(f"{base}/{play_id}/finish", data={"csrf_token": token, "confirm": "yes"})
            page = client.get(f"{base}/{play_id}", headers=headers).get_data(as_text=True)
            assert parts_left(app, page, SHARED_PARTS, language) == {}, number
            if number < 3:
                started = client.post(f"{base}/{play_id}/next", data={"csrf_token": token})
                play_id = int(started.headers["Location"].split("/plays/")[1].split("?")[0])
        table = client.get(f"/t/{links.edit}", headers=headers).get_data(as_text=True)
        # The plays' names under "Keep the results" are the table page's (macros.html).
        assert parts_left(app, table, ("evening",), language) == {}
        assert "⟦This evening⟧" in table
        assert "⟦Keep the results⟧" in table


def test_the_history_speaks_the_phone_s_language(client: FlaskClient, links: TableLinks) -> None:
    play_id = start_play(client, links.edit)
    base = f"/t/{links.edit}/plays/{play_id}"
    token = csrf(client, f"/t/{links.edit}")
    for value in ("1", "2", "3"):  # quick taps: one line
        edit(client, links.edit, play_id, path=HOOPOE.format(seat=0), value=value)
    edit(client, links.edit, play_id, path=HOOPOE.format(seat=1), value="2")
    client.post(f"{base}/undo", data={"csrf_token": token})
    client.post(f"{base}/finish", data={"csrf_token": token, "confirm": "yes"})
    client.post(f"{base}/reopen", data={"csrf_token": token})
    with pseudo_pages() as language:
        page = client.get(f"{base}/history", headers={"Accept-Language": language})
        html = page.get_data(as_text=True)
    assert words_left(html, NAMES) == []
    assert "(3 taps).⟧" in html


def test_a_game_s_name_is_escaped_as_any_value(client: FlaskClient, links: TableLinks) -> None:
    play_id = start_play(client, links.edit, "luckys-misadventures")
    page = client.get(f"/t/{links.edit}/plays/{play_id}").get_data(as_text=True)
    assert "<h1>Lucky&#39;s Misadventures</h1>" in page
    assert "<title>Lucky&#39;s Misadventures · Table " in page
