"""Lucky's Misadventures' pages say every word through gettext (issue 36): a game with
Fate cards revealed to half time and past it, counts, Junk, Mavens, an escape and the last
turn order, on the edit and read-only links; the refusals of its forms (the validators',
the service's); and the referee page's answers and refusals, with and without a table:
each checked in the pseudo-language where the page walk, which sees only fresh plays,
cannot look."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from support.client import TableLinks, create_table
from support.every_game import start_luckys
from support.luckys import post, url
from support.page_words import pseudo_pages, words_left

NAMES = ["Lewis", "Carol", "Ann"]
#: The table's own words: its players and the Mavens it typed in.
VALUES = [*NAMES, "Sprocket", "Pumpkin Ted"]
#: What Lucky's draws on the play page: its sections, the deck picker and the referee
#: link (the rest of the page, standings and photos, is said by the shared templates).
OURS = re.compile(
    r'<nav class="seats".*?</nav>|<section[^>]* class="(?:card|display) lm-.*?</section>'
    r'|<p><a class="button secondary"[^>]*referee.*?</p>',
    re.S,
)
#: A link to a rules entry, named by the entry's title: the rules reference is written
#: per language (its own tests), not said through gettext.
RULE_LINK = re.compile(r'<a class="rule-link".*?</a>', re.S)
#: Seven rounds (the first half) of Fate cards: Wands and majors pass the Toad.
FIRST_HALF = [
    ["cups-4", "wands-5", "death"],
    ["fortune", "cups-1", "swords-2"],
    ["magician", "tower", "wands-1"],
    ["cups-2", "swords-3", "swords-4"],
    ["cups-3", "cups-5", "cups-6"],
    ["swords-1", "swords-5", "swords-6"],
    ["fool", "judgment", "wands-2"],
]


def luckys_words_left(html: str) -> list[tuple[str, str]]:
    """The texts of Lucky's own parts of a page still in English."""
    parts = [RULE_LINK.sub("", part) for part in OURS.findall(html)]
    assert parts, "no Lucky's section on the page"
    return [found for part in parts for found in words_left(part, VALUES)]


@pytest.fixture
def links(client: FlaskClient) -> TableLinks:
    """A table of Lewis, Carol and Ann."""
    return create_table(client, NAMES)


def send(client: FlaskClient, links: TableLinks, play: int, action: str, **data: str) -> str:
    """Post one of the play's forms (in the language of the client's pseudo-language
    phone: see :func:`in_language`); the page it answers with."""
    return post(client, links.edit, play, action, data).get_data(as_text=True)


def reveal(client: FlaskClient, links: TableLinks, play: int, rounds: list[list[str]]) -> None:
    """Tap the Fate cards of these rounds in the round companion, one after the other (each
    tap says the rounds and the last round's cards the phone showed)."""
    for number, cards in enumerate(rounds):
        for shown, code in enumerate(cards):
            seen = (number + 1, shown) if shown else (number, 3 if number else 0)
            send(client, links, play, "fate", code=code, rounds=str(seen[0]), cards=str(seen[1]))


def in_language(client: FlaskClient, language: str) -> None:
    """Every request of ``client`` from now on asks for ``language``."""
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language


def test_a_game_past_half_time_with_decks_and_an_escape(
    client: FlaskClient, links: TableLinks
) -> None:
    play = start_luckys(client, links.edit)
    with pseudo_pages() as language:
        in_language(client, language)
        send(client, links, play, "toad", player="1")
        before = client.get(url(links.edit, play)).get_data(as_text=True)
        assert luckys_words_left(before) == []
        reveal(client, links, play, FIRST_HALF)
        half_time = client.get(url(links.edit, play)).get_data(as_text=True)
        assert 'class="notice"' in half_time
        assert luckys_words_left(half_time) == []
        send(client, links, play, "fate", code="wands-3", rounds="7", cards="3")
        send(client, links, play, "count", player="0", tap="hirelings.white-rabbit 2 0")
        send(client, links, play, "count", player="1", tap="machines.fate-clock 1 0")
        send(client, links, play, "count", player="1", tap="hirelings.clockmakers 1 0")
        send(client, links, play, "junk", player="0", kind="reactor-pump", vp="2")
        sprocket = {"name": "Sprocket", "faction": "tinkerer", "vp": "3"}
        send(client, links, play, "maven", player="0", **sprocket)
        ted = {"name": "Pumpkin Ted", "faction": "oddling", "vp": "5"}
        send(client, links, play, "maven", player="1", **ted)
        send(client, links, play, "last-turn", player="2")
        send(client, links, play, "escape", player="1", by="pumpkin-ted")
        for address in (url(links.edit, play), url(links.view, play)):
            for seat in ("all", "1"):
                page = client.get(f"{address}?seat={seat}").get_data(as_text=True)
                assert '<p role="status"><strong>Carol</strong>' in page  # the escape
                assert "lm-history" in page  # the earlier rounds
                assert "Sprocket" in page or seat == "1"
                assert luckys_words_left(page) == [], (address, seat)


def test_refusals_and_conflicts_of_the_tally_say_why_in_the_phone_s_language(
    client: FlaskClient, links: TableLinks
) -> None:
    play = start_luckys(client, links.edit)
    with pseudo_pages() as language:
        in_language(client, language)
        reveal(client, links, play, FIRST_HALF[:1])

        def act(action: str, **data: str) -> str:
            return send(client, links, play, action, **data)

        refusals = {
            "no printed VP": act("junk", player="0", kind="reactor-pump"),
            "no such Junk": act("junk", player="0", kind="spring", vp="12"),
            "a blank Maven": act("maven", player="0", name=" ", faction="elf", vp="9"),
            "no Maven VP": act("maven", player="0", name="X", faction="wicked"),
            "a count too high": act("count", player="0", field="lucky", value="5", base="1"),
            "a stale count": act("count", player="0", field="lucky", value="0", base="0"),
            "a malformed tap": act("count", player="0", tap="junk"),
            "no such count": act("count", player="0", field="gold", value="1", base="0"),
            "no such Fate card": act("fate", code="joker", rounds="1", cards="0"),
            "a stale Fate card": act("fate", code="cups-5", rounds="0", cards="0"),
            "the Toad after round 1": act("toad", player="1"),
            "no player": act("toad", player=""),
            "an escape without how": act("escape", player="1", by=""),
            "a stranger's escape": act("escape", player="9", by="x"),
        }
        for what, html in refusals.items():
            assert 'class="error"' in html, what
            assert luckys_words_left(html) == [], what


@pytest.mark.parametrize(
    "query",
    [
        # Every tool's answer: a Wicked challenge, buy points, a Machine, an escape.
        "kind=wicked&p0=3&p1=1&p2=3&first=1&lucky=1&scarecrow=cups&scarecrow=wands&rabbits=2"
        "&oddlings=2+1&fate0=cups-1&fate1=death&fate2=wands-2&buy=1&junk1=reactor-pump"
        "&junk2=clockwork-gizmo&in_play=pumpkin-ted&in_play=clockmakers&escape=1",
        # A tie, a pair of Junk that builds nothing, the three Sisters' escape.
        "kind=tinkerer&p0=2&p1=2&junk1=flux-capacitor&junk2=reactor-pump&in_play=greed"
        "&in_play=despair&in_play=vanity&ted_triggered=1&escape=1",
        # What cannot be read: refused next to the field.
        "p0=x&p1=200&oddlings=a&fate0=cups-1&fate1=cups-1&buy=1&junk1=bolt&escape=1",
    ],
)
def test_the_referee_page_answers_in_the_phone_s_language(
    client: FlaskClient, links: TableLinks, query: str
) -> None:
    play = start_luckys(client, links.edit)
    with pseudo_pages() as language:
        in_language(client, language)
        for address in ("/luckys-misadventures/referee", url(links.edit, play, "referee")):
            page = client.get(f"{address}?{query}&whose=1").get_data(as_text=True)
            assert 'class="lm-answer"' in page or 'class="error"' in page, address
            assert words_left(page, [*VALUES, "Player"]) == [], address
