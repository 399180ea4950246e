"""Owl About's pages say every word through gettext (issue 36): a round played along
with hands, broken rules and penalties, an override, a round's end with the variants and
the game's end, the refusals of every action, the options and the trick checker, each
checked in the pseudo-language where the page walk, which sees only fresh plays, cannot
look."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from companion.extensions import db
from companion.models import Play
from companion.services import plays
from support.client import TableLinks, create_table, csrf
from support.owl_about import (
    MIU_HAND,
    TABLE,
    act,
    phone_of,
    play_url,
    start_owl,
    start_round,
    tap,
    tap_all,
)
from support.page_words import pseudo_pages, words_left
from support.pseudo import CLOSE, OPEN

TRIO = ["Ann", "Ben", "Cy"]
#: What Owl About draws on the play page: its setup line, the phones' names, its sections
#: (the rest of the page, standings and photos, is said by the shared templates).
OURS = re.compile(
    r'<p class="owl-setup">.*?</p>|<nav id="play-seats".*?</nav>'
    r'|<(section|details) [^>]*id="(?:owl-[a-z-]+|trick)".*?</\1>',
    re.S,
)
#: A link to a rules entry: named by the entry's title (written per language, its own
#: tests) when the page gives it no words of its own, which are then the link's text.
RULE_LINK = re.compile(r'<a class="rule-link"[^>]*>([^<]*)</a>')
#: Markup inside a sentence (a name in bold, a typed example): the sentence is one message.
INLINE = re.compile(r"</?(?:strong|kbd)\b[^>]*>")


def said(html: str) -> str:
    """``html`` with a sentence's inline markup taken out and a rules entry's own title
    left out (this page's words for a rule link stay)."""
    html = RULE_LINK.sub(lambda link: link[1] if link[1].startswith(OPEN) else "", html)
    return INLINE.sub("", html)


def owl_words_left(html: str, values: list[str]) -> list[tuple[str, str]]:
    """The texts of Owl About's own parts of a play page still in English."""
    parts = [said(found.group(0)) for found in OURS.finditer(html)]
    assert parts, "no Owl About section on the page"
    return [left for part in parts for left in words_left(part, values)]


@pytest.fixture
def links(client: FlaskClient) -> TableLinks:
    """A table of Miu, Carol, Romi and Tom."""
    return create_table(client, TABLE)


@pytest.fixture
def language(client: FlaskClient, links: TableLinks) -> Iterator[str]:  # noqa: ARG001
    """The pseudo-language, which the test client's phone asks for from now on (once the
    table is made: its links are read from its English page)."""
    with pseudo_pages() as code:
        client.environ_base["HTTP_ACCEPT_LANGUAGE"] = code
        yield code


def page_of(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.get_data(as_text=True)


def refused(response: TestResponse) -> str:
    """The page a refused action answers with: a message in the pseudo-language."""
    assert response.status_code in (409, 422), response.status_code
    html = response.get_data(as_text=True)
    assert re.search(rf'class="(?:error|notice)"[^>]*>{OPEN}', html), "no refusal shown"
    return html


def store_rounds(app: Flask, play_id: int, rounds: list[dict[str, object]]) -> None:
    """Set the play's rounds through the service layer."""
    with app.app_context():
        play = db.session.get(Play, play_id)
        assert play is not None
        plays.replace_value(play, path="rounds", value=rounds, author=plays.Author("test"))


def every_night_card_to_cy() -> list[dict[str, object]]:
    """A whole 3-player round: Cy takes every trick, all 4 night cards among them."""
    rows = [["N4", "N5", "10"], ["N6", "1", "2"], ["N7", "1", "2"]]
    rows += [[code] * 3 for code in ("5", "3", "4", "6", "7", "8")]
    return [{"lead": "Ann", "cards": rows[0]}] + [{"lead": "Cy", "cards": r} for r in rows[1:]]


@pytest.mark.usefixtures("language")
def test_a_round_played_along_with_hands_and_penalties(
    app: Flask, client: FlaskClient, links: TableLinks
) -> None:
    miu = phone_of(app, links.edit, "Miu")
    miu.environ_base["HTTP_ACCEPT_LANGUAGE"] = client.environ_base["HTTP_ACCEPT_LANGUAGE"]
    play_id = start_owl(miu, links.edit)
    url = play_url(links.edit, play_id)
    assert start_round(miu, links.edit, play_id, "Miu").status_code == 200
    data = {"player": "Miu", "hand": MIU_HAND, "csrf_token": csrf(miu, url)}
    assert miu.post(f"{url}/owl-about/hand", data=data).status_code in (200, 303)
    tap_all(miu, links.edit, play_id, ["6", "2", "8", "10"])  # Miu holds a 2: 6 broke a rule
    tap(miu, links.edit, play_id, "2")
    act(client, links.edit, play_id, "penalty", {"player": "Romi"})
    for phone, address in [
        (miu, url),
        (miu, f"{url}?seat=all"),
        (client, f"{url}?seat=2"),
        (client, play_url(links.view, play_id)),
    ]:
        assert owl_words_left(page_of(phone, address), TABLE) == [], address


@pytest.mark.usefixtures("language")
def test_an_override_a_round_s_end_and_the_game_s_end(app: Flask, client: FlaskClient) -> None:
    links = create_table(client, TRIO)
    override = start_owl(client, links.edit, mode="advanced")
    start_round(client, links.edit, override, "Ann")
    tap_all(client, links.edit, override, ["6", "8", "2"])
    act(client, links.edit, override, "override", {"rounds": "1", "trick": "0", "winner": "Cy"})
    variants = ["same-speed", "night-collection-3", "night-collection-4"]
    ended = start_owl(client, links.edit, mode="advanced", variants=variants)
    rows = [["N4", "N5", "10"], ["N6", "1", "2"]]
    rows += [[code] * 3 for code in ("5", "1", "2", "3", "4", "6", "7")]
    tricks = [{"lead": "Ann", "cards": rows[0]}] + [{"lead": "Cy", "cards": r} for r in rows[1:]]
    store_rounds(app, ended, [{"tricks": tricks, "open": True, "penalties": {"Ann": 1}}])
    reset = start_owl(client, links.edit, mode="advanced", variants=["night-collection-4"])
    store_rounds(app, reset, [{"tricks": every_night_card_to_cy(), "open": True, "penalties": {}}])
    shared = start_owl(client, links.edit, target="5")
    counts = {"round": "0", "rounds": "0", "trophies-0": "5", "trophies-1": "5", "trophies-2": "5"}
    act(client, links.edit, shared, "trophies", counts)
    for play_id in (override, ended, reset, shared):
        for token in (links.edit, links.view):
            address = play_url(token, play_id)
            assert owl_words_left(page_of(client, address), TRIO) == [], address


@pytest.mark.usefixtures("language")
def test_every_action_s_refusal_says_why_in_the_phone_s_language(
    client: FlaskClient, links: TableLinks
) -> None:
    play_id = start_owl(client, links.edit)
    # (WTForms says a typed word is no number in its own words, translated by WTForms.)
    bad_counts = {"round": "0", "rounds": "0", "trophies-0": "3", "trophies-1": "-1"}
    pages = [
        act(client, links.edit, play_id, "trophies", {**bad_counts, "trophies-2": "0"}),
        act(client, links.edit, play_id, "round", {"rounds": "0", "lead": "Nobody"}),
    ]
    start_round(client, links.edit, play_id, "Miu")
    tap(client, links.edit, play_id, "6")
    card = {"rounds": "1", "trick": "0", "seen": ""}
    pages += [
        act(client, links.edit, play_id, "card", {**card, "card": "Z9"}),
        act(client, links.edit, play_id, "card", {**card, "card": "5"}),
        act(client, links.edit, play_id, "card", {**card, "rounds": "0", "card": "5"}),
        act(client, links.edit, play_id, "lead", {"rounds": "1", "lead": "Tom"}),
        act(client, links.edit, play_id, "round", {"rounds": "1", "lead": "Tom"}),
        act(client, links.edit, play_id, "override", {"rounds": "1", "trick": "0", "winner": ""}),
        act(client, links.edit, play_id, "penalty", {"player": "Nobody"}),
        act(client, links.edit, play_id, "hand", {"player": "Miu", "hand": "2 Q 99"}),
    ]
    for _ in range(8):
        act(client, links.edit, play_id, "penalty", {"player": "Tom"})
    pages.append(act(client, links.edit, play_id, "penalty", {"player": "Tom"}))
    for response in pages:
        assert owl_words_left(refused(response), TABLE) == []


def test_the_options_and_their_refusals(
    client: FlaskClient, links: TableLinks, language: str
) -> None:
    url = f"/t/{links.edit}/plays/new/owl-about"
    start = {"game": "owl-about", "confirm": "yes", "csrf_token": csrf(client, f"/t/{links.edit}")}
    client.post(f"/t/{links.edit}/plays", data=start)
    data = {"mode": "basic", "target": "500", "variants": ["same-speed"]}
    refusal = client.post(url, data={**data, "csrf_token": csrf(client, url)})
    for html in (page_of(client, url), refused(refusal)):
        form = re.search(r'/plays/new/owl-about">(.*?)<div class="actions">', html, re.S)
        assert form is not None
        assert words_left(said(form.group(1))) == []
    assert language


@pytest.mark.parametrize(
    "query",
    [
        "",
        "?players=4&cards=6+2+8",
        "?players=4&cards=6+2+8+10",
        "?players=3&mode=quick&cards=8+8+5",
        "?players=4&cards=6+N6&hand-0=2+6&hand-1=N6+6",
        "?players=4&cards=9+1+N4&hand-0=9&hand-1=1+2&hand-2=N4+4",
        "?players=3&cards=6+2&hand-2=2+3",
        "?players=9&mode=zzz",
        "?players=3&cards=1+1+1+1+1",
        "?players=4&cards=6&hand-1=2+x+N9",
    ],
)
@pytest.mark.usefixtures("language")
def test_the_trick_checker_says_every_answer_and_refusal_in_the_phone_s_language(
    client: FlaskClient, query: str
) -> None:
    response = client.get(f"/owl-about/check{query}")
    assert response.status_code in (200, 422)
    html = response.get_data(as_text=True)
    checker = re.search(r'<section id="checker".*?</section>', html, re.S)
    assert checker is not None
    assert words_left(said(checker.group(0))) == []
    assert f"<title>{OPEN}Owl About trick checker{CLOSE} · Odd Companion</title>" in html
