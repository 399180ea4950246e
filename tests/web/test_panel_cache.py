"""The play panel cache (``web/play/panel.py``): phones that show the same view share
one rendering, each gets its own CSRF token and fresh form keys, and nothing a phone must
not see, nor anything out of date, ever comes from the cache."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_wtf.csrf import generate_csrf

from companion.services import tables
from companion.web import personal
from companion.web.play.panel import PANELS_KEY, Panel, new_cache
from support import every_game, luckys
from support.client import HTMX, TableLinks, create_table, csrf, edit, start_play
from support.owl_about import act, start_owl, start_round
from support.queries import counted_queries

NAMES = ["Ann", "Ben", "Cy", "Dan"]
KEYS = re.compile(r'name="submission" value="([^"]*)"')
CSRF_INPUT = re.compile(r'name="csrf_token" value="([^"]*)"')
CSRF_HEADER = re.compile(r'"X-CSRFToken": "([^"]*)"')


def volatile_free(html: str) -> str:
    """The markup without what differs at each rendering (tokens and one-time keys)."""
    html = re.sub(r'"X-CSRFToken": "[^"]*"', "", html)
    return re.sub(r'name="(?:csrf_token|submission)" value="[^"]*"', "", html)


def session_part(token: str) -> str:
    """The part of a CSRF token that names its session (the rest is a signed time)."""
    return token.split(".")[0]


def cached(app: Flask) -> int:
    """How many panels the app keeps."""
    return len(app.extensions[PANELS_KEY])


@pytest.fixture
def links(client: FlaskClient) -> TableLinks:
    return create_table(client, NAMES)


@pytest.fixture
def other(app: Flask) -> FlaskClient:
    """A second phone at the table (its own session)."""
    return app.test_client()


def test_two_phones_share_one_rendering_with_their_own_tokens_and_keys(
    app: Flask, client: FlaskClient, other: FlaskClient, links: TableLinks
) -> None:
    play = start_play(client, links.edit)
    url = f"/t/{links.edit}/plays/{play}"
    mine = client.get(url).get_data(as_text=True)
    kept = cached(app)
    theirs = other.get(url).get_data(as_text=True)
    assert cached(app) == kept  # the second phone's panel came from the cache
    assert volatile_free(mine) == volatile_free(theirs)
    # Each phone's forms carry its own session's token (signed at each rendering: the
    # part before the first dot is the session's), and no key is handed out twice.
    assert {session_part(t) for t in CSRF_INPUT.findall(mine)} == {session_part(csrf(client))}
    assert {session_part(t) for t in CSRF_INPUT.findall(theirs)} == {session_part(csrf(other))}
    # The whole page's frame is kept too: the header htmx sends the token in is each's own.
    assert [session_part(t) for t in CSRF_HEADER.findall(theirs)] == [session_part(csrf(other))]
    assert session_part(csrf(client)) != session_part(csrf(other))
    keys = KEYS.findall(mine) + KEYS.findall(theirs)
    assert keys
    assert len(set(keys)) == len(keys)
    assert "\x00" not in mine + theirs
    # The fragment a poll gets is the same panel.
    fragment = other.get(url, headers=HTMX).get_data(as_text=True)
    assert volatile_free(fragment) in volatile_free(theirs)
    assert cached(app) == kept


def test_a_submission_key_from_a_cached_panel_still_guards_its_form(
    client: FlaskClient, other: FlaskClient, links: TableLinks
) -> None:
    """The key a phone got from a cached panel works once, as a freshly rendered one does."""
    play = start_play(client, links.edit)
    url = f"/t/{links.edit}/plays/{play}"
    client.get(url)
    page = other.get(url).get_data(as_text=True)
    finish = re.search(r'<form[^>]*action="([^"]*/finish)[^"]*"[^>]*>(.*?)</form>', page, re.S)
    assert finish is not None
    key = KEYS.search(finish.group(2))
    assert key is not None
    data = {"csrf_token": csrf(other, url), "submission": key.group(1), "confirm": "y"}
    first = other.post(finish.group(1), data=data, headers=HTMX)
    assert first.status_code == 200
    assert "Finished." in first.get_data(as_text=True)
    repeat = other.post(finish.group(1), data=data, headers=HTMX)
    assert repeat.status_code == 204  # answered, not run again


def test_an_edit_is_seen_at_once_by_every_phone(
    client: FlaskClient, other: FlaskClient, links: TableLinks
) -> None:
    play = start_play(client, links.edit)
    url = f"/t/{links.edit}/plays/{play}"
    before = other.get(url).get_data(as_text=True)
    assert 'id="n-0-hoopoe" name="value" value="0"' in before
    response = edit(client, links.edit, play, path="players[0].display.hoopoe", value="3")
    assert response.status_code == 200
    assert 'id="n-0-hoopoe" name="value" value="3"' in response.get_data(as_text=True)
    assert 'id="n-0-hoopoe" name="value" value="3"' in other.get(url).get_data(as_text=True)
    poll = other.get(f"{url}/poll?version=0", headers=HTMX).get_data(as_text=True)
    assert 'id="n-0-hoopoe" name="value" value="3"' in poll


def test_a_finished_game_shows_the_next_one_once_it_starts(
    client: FlaskClient, other: FlaskClient, links: TableLinks
) -> None:
    """Starting a game changes the table, not the finished play: its cached panel goes."""
    play = start_play(client, links.edit)
    url = f"/t/{links.edit}/plays/{play}"
    data = {"csrf_token": csrf(client, url), "confirm": "y"}
    assert client.post(f"{url}/finish", data=data).status_code == 303
    assert "Next game started" not in other.get(url).get_data(as_text=True)
    start_play(client, links.edit)
    assert "Next game started" in other.get(url).get_data(as_text=True)


def test_the_read_only_link_and_each_seat_get_their_own_panel(
    client: FlaskClient, other: FlaskClient, links: TableLinks
) -> None:
    play = start_play(client, links.edit)
    edit_page = client.get(f"/t/{links.edit}/plays/{play}").get_data(as_text=True)
    view_page = other.get(f"/t/{links.view}/plays/{play}").get_data(as_text=True)
    assert "One more" in edit_page
    assert "One more" not in view_page
    assert links.edit not in view_page
    assert "Read-only link." in view_page
    one_seat = client.get(f"/t/{links.edit}/plays/{play}?seat=1").get_data(as_text=True)
    assert 'id="player-1"' in one_seat
    assert 'id="player-0"' not in one_seat


def test_a_form_with_an_error_is_never_served_to_another_phone(
    client: FlaskClient, other: FlaskClient, links: TableLinks
) -> None:
    play = start_play(client, links.edit)
    url = f"/t/{links.edit}/plays/{play}"
    refused = edit(client, links.edit, play, path="players[0].display.hoopoe", value="99")
    assert refused.status_code == 422
    assert 'role="alert"' in refused.get_data(as_text=True)
    assert 'role="alert"' not in other.get(url).get_data(as_text=True)


def test_an_owl_about_hand_stays_on_its_own_seat(
    client: FlaskClient, other: FlaskClient, links: TableLinks
) -> None:
    play = start_owl(client, links.edit)
    assert start_round(client, links.edit, play, "Ann").status_code == 200
    url = f"/t/{links.edit}/plays/{play}"
    client.get(url)  # the Everyone view is cached before the hand is entered
    entered = act(client, links.edit, play, "hand", {"player": "Cy", "hand": "3 8", "seat": "2"})
    assert entered.status_code == 200
    assert 'value="3 8"' in client.get(f"{url}?seat=2").get_data(as_text=True)
    assert 'value="3 8"' in other.get(f"{url}?seat=2").get_data(as_text=True)
    for phone in (client, other):
        everyone = phone.get(url).get_data(as_text=True)
        assert "3 8" not in volatile_free(everyone)
    watching = other.get(f"/t/{links.view}/plays/{play}?seat=2").get_data(as_text=True)
    assert "3 8" not in volatile_free(watching)


def test_each_phone_keeps_its_own_oddville_palette(
    client: FlaskClient, other: FlaskClient, links: TableLinks
) -> None:
    response = client.post(
        f"/t/{links.edit}/plays",
        data={"game": "oddville", "csrf_token": csrf(client, f"/t/{links.edit}")},
    )
    options = response.headers["Location"]
    started = client.post(options, data={"csrf_token": csrf(client, options)})
    assert started.status_code == 303, started.get_data(as_text=True)
    play = int(started.headers["Location"].split("/plays/")[1].split("?")[0])
    url = f"/t/{links.edit}/plays/{play}"
    before = other.get(url).get_data(as_text=True)
    palette = {"csrf_token": csrf(client, url), "owner": "Dan", "tool": "remove"}
    assert client.post(f"{url}/oddville/tool", data=palette, headers=HTMX).status_code == 204
    mine = client.get(url).get_data(as_text=True)
    theirs = other.get(url).get_data(as_text=True)
    assert volatile_free(theirs) == volatile_free(before)
    assert volatile_free(mine) != volatile_free(theirs)


def test_panels_are_kept_within_their_bounds() -> None:
    cache = new_cache(max_panels=3, max_size=200)  # a panel costs its markup's length
    for number in range(5):
        cache.put(number, Panel("x" * 10, "T"))
    assert len(cache) == 3
    assert cache.get(0) is None
    assert cache.get(4) is not None
    cache.put("big", Panel("x" * 160, "T"))  # 160 of 200: the others make room
    assert cache.size <= 200
    assert cache.get("big") is not None
    cache.put("huge", Panel("x" * 201, "T"))  # larger than the whole cache
    assert cache.get("huge") is None


def test_a_shared_rendering_gets_this_phones_token_and_fresh_keys(app: Flask) -> None:
    key = personal.KEY_INPUT_START
    html = f'<p data-t="OLD">a</p>{key}k1">b{key}k1">c'
    with app.test_request_context():
        mine = generate_csrf()
        sent = personal.for_phone(html, rendered_with="OLD")
        again = personal.for_phone(html, rendered_with="OLD")
    assert "OLD" not in sent
    assert f'data-t="{mine}"' in sent
    keys = KEYS.findall(sent) + KEYS.findall(again)
    assert len(keys) == 4
    assert len(set(keys)) == 4
    assert "k1" not in keys
    assert KEYS.sub("", sent) == KEYS.sub("", html).replace("OLD", mine)


def test_a_maven_entered_in_another_luckys_game_reaches_a_cached_page(
    client: FlaskClient, links: TableLinks
) -> None:
    """Lucky's offers the Mavens of the table's other games: their edits change the key."""
    first = every_game.start_luckys(client, links.edit)
    later = every_game.start_luckys(client, links.edit)
    page = luckys.url(links.edit, later) + "?seat=all"
    chip = "Add Pumpkin Ted to"
    assert chip not in client.get(page).get_data(as_text=True)
    maven = {"player": 1, "name": "Pumpkin Ted", "faction": "oddling", "vp": 6}
    assert luckys.post(client, links.edit, first, "maven", maven).status_code == 200
    assert chip in client.get(page).get_data(as_text=True)


@pytest.mark.both_backends("query counts, on each database")
def test_a_kept_page_or_panel_is_served_from_one_query(
    app: Flask, client: FlaskClient, other: FlaskClient, links: TableLinks
) -> None:
    """Another phone's load or poll finds what the first one rendered from the play's
    glance alone: nothing is loaded, whatever the page shows."""
    play = start_play(client, links.edit)
    url = f"/t/{links.edit}/plays/{play}"
    assert (
        edit(client, links.edit, play, path="players[0].display.hoopoe", value="2").status_code
        == 200
    )
    client.get(url)
    client.get(url, headers=HTMX)
    with counted_queries(app) as statements:
        page = other.get(url)
        panel = other.get(url, headers=HTMX)
    assert page.status_code == panel.status_code == 200
    assert len(statements) == 2, statements
    assert 'id="n-0-hoopoe" name="value" value="2"' in page.get_data(as_text=True)
    assert "<html" not in panel.get_data(as_text=True)


def test_the_glance_knows_the_play_as_loading_it_does(
    app: Flask, client: FlaskClient, links: TableLinks
) -> None:
    """The key of a kept panel is made from the glance on one path and from the loaded
    play on the other: the same facts, or a kept panel would never be found."""
    play = start_play(client, links.edit)
    with app.test_request_context():
        for token in (links.edit, links.view):
            found = tables.find_play(token, play)
            assert found is not None
            table_access, loaded = found
            assert loaded is not None
            assert tables.glance_play(token, play) == tables.PlayGlance.of(table_access, loaded)
        assert tables.glance_play(links.edit, play + 1) is None
        # A link that opens a table, and a play that is not one of its own.
        assert tables.find_play(links.edit, play + 1) is not None
        assert tables.find_play(links.edit, play + 1)[1] is None  # type: ignore[index]
        assert tables.find_play("not-a-link", play) is None
        assert tables.glance_play("not-a-link", play) is None


def test_a_new_join_code_reaches_the_kept_page(client: FlaskClient, links: TableLinks) -> None:
    """The page's title names the table by its join code: a new code makes a new page."""
    play = start_play(client, links.edit)
    url = f"/t/{links.edit}/plays/{play}"
    assert f"Table {links.code}" in client.get(url).get_data(as_text=True)
    rotated = client.post(f"/t/{links.edit}/rotate-code", data={"csrf_token": csrf(client, url)})
    assert rotated.status_code == 303
    page = client.get(url).get_data(as_text=True)
    assert f"Table {links.code}" not in page
    assert re.search(r"<title>Odd World · Table [A-Z0-9]{4,}</title>", page)


def test_a_flashed_message_is_shown_once_and_never_kept(
    client: FlaskClient, other: FlaskClient, links: TableLinks
) -> None:
    play = start_play(client, links.edit)
    url = f"/t/{links.edit}/plays/{play}"
    client.get(url)  # the page is kept
    with other.session_transaction() as kept_session:
        kept_session["_flashes"] = [("message", "Something to say once")]
    assert "Something to say once" in other.get(url).get_data(as_text=True)
    assert "Something to say once" not in other.get(url).get_data(as_text=True)
    assert "Something to say once" not in client.get(url).get_data(as_text=True)
