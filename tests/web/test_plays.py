"""Playing Odd World through the pages: edits, conflicts, undo, live polling, finishing."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.web.games import PAGES
from support.client import HTMX, TableLinks, create_table, csrf, edit, start_play

HOOPOE_ANN = "players[0].display.hoopoe"
HOOPOE_BEN = "players[1].display.hoopoe"


@pytest.fixture
def links(client: FlaskClient) -> TableLinks:
    """A table of Ann, Ben and Cy."""
    return create_table(client, ["Ann", "Ben", "Cy"])


@pytest.fixture
def play_id(client: FlaskClient, links: TableLinks) -> int:
    """An Odd World play at that table."""
    return start_play(client, links.edit)


def _count(html: str, player: str, bird: str) -> str:
    """A count as the page shows it: the stepper's typed field, or the read-only number."""
    label = f'aria-label="{player}(?:\'|&#39;)s {bird}"'
    match = re.search(rf"value=\"(\d+)\"[^>]*{label}|{label}>(\d+)<", html)
    assert match, f"no count for {player} {bird}"
    return match.group(1) or match.group(2)


def test_page_fragment_boosted_and_history_restore(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    url = f"/t/{links.edit}/plays/{play_id}"
    page = client.get(url)
    assert "<html" in page.get_data(as_text=True)
    assert "HX-Request" in page.headers["Vary"]
    fragment = client.get(url, headers=HTMX).get_data(as_text=True)
    assert fragment.lstrip().startswith('<section id="play"')
    boosted = client.get(url, headers={**HTMX, "HX-Boosted": "true"}).get_data(as_text=True)
    assert "<html" in boosted
    restore = client.get(url, headers={**HTMX, "HX-History-Restore-Request": "true"})
    assert "<html" in restore.get_data(as_text=True)


def test_stepper_edit_updates_entry_and_standings(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    response = edit(client, links.edit, play_id, path=HOOPOE_ANN, value="1", base="0")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert _count(html, "Ann", "Hoopoe") == "1"
    assert "Ann leads with 1 point." in html
    assert "Hoopoe: 1 card (odd)" in html


def test_plain_form_post_redirects_back(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    response = edit(client, links.edit, play_id, path=HOOPOE_ANN, value="2", htmx=False)
    assert response.status_code == 303
    assert f"/plays/{play_id}" in response.headers["Location"]


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (HOOPOE_ANN, "9", "Enter 0 to 8 cards."),
        (HOOPOE_ANN, "-1", "Enter 0 to 8 cards."),
        (HOOPOE_ANN, "lots", "Enter a whole number of cards."),
        ("players[0].name", "Zed", "This cannot be changed here."),
        ("players[7].display.hoopoe", "1", "This is not a field of the game."),
        ("players[0]..x", "1", "This is not a field of the game."),
        ("players[0].face_down", "emu", "Pick one of the nine birds."),
    ],
)
def test_bad_edits_get_422_next_to_the_field_and_store_nothing(
    client: FlaskClient, links: TableLinks, play_id: int, path: str, value: str, message: str
) -> None:
    response = edit(client, links.edit, play_id, path=path, value=value)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    history = client.get(f"/t/{links.edit}/plays/{play_id}/history").get_data(as_text=True)
    assert "No changes yet." in history


def test_edit_beyond_the_deck_is_refused(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    assert edit(client, links.edit, play_id, path=HOOPOE_ANN, value="5").status_code == 200
    response = edit(client, links.edit, play_id, path=HOOPOE_BEN, value="4", base="0")
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "Only 8 Hoopoe cards exist, but 9 were entered." in html
    assert _count(html, "Ben", "Hoopoe") == "0"


@pytest.mark.both_backends("stale versions are refused in SQL")
def test_stale_edit_of_same_field_is_refused_with_fresh_value(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    # Two phones both show Ann's hoopoe at 0; the first taps +, the second taps + too.
    assert (
        edit(client, links.edit, play_id, path=HOOPOE_ANN, value="1", base="0").status_code == 200
    )
    clash = edit(client, links.edit, play_id, path=HOOPOE_ANN, value="1", base="0")
    assert clash.status_code == 409
    html = clash.get_data(as_text=True)
    assert "Someone changed Ann&#39;s Hoopoe at the same time: it is now 1." in html
    assert _count(html, "Ann", "Hoopoe") == "1"


@pytest.mark.both_backends("stale versions are merged in SQL")
def test_edits_to_different_fields_from_stale_pages_are_both_kept(
    app: Flask, client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    other = app.test_client()
    # Both phones loaded version 0; each edits its own field.
    assert (
        edit(client, links.edit, play_id, path=HOOPOE_ANN, value="3", base="0").status_code == 200
    )
    assert (
        edit(other, links.edit, play_id, path=HOOPOE_BEN, value="1", base="0").status_code == 200
    )
    html = client.get(f"/t/{links.edit}/plays/{play_id}").get_data(as_text=True)
    assert _count(html, "Ann", "Hoopoe") == "3"
    assert _count(html, "Ben", "Hoopoe") == "1"


@pytest.mark.both_backends("the poll reads versions in one query")
def test_poll_is_204_until_something_changes(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    poll = f"/t/{links.edit}/plays/{play_id}/poll"
    quiet = client.get(f"{poll}?version=0", headers=HTMX)
    assert quiet.status_code == 204
    assert quiet.data == b""
    assert len(str(quiet.headers)) < 600
    edit(client, links.edit, play_id, path=HOOPOE_ANN, value="1")
    changed = client.get(f"{poll}?version=0", headers=HTMX)
    assert changed.status_code == 200
    assert 'data-version="1"' in changed.get_data(as_text=True)
    assert client.get(f"{poll}?version=1", headers=HTMX).status_code == 204


@pytest.mark.both_backends("the edit log is ordered in SQL")
def test_undo_reverts_newest_first(client: FlaskClient, links: TableLinks, play_id: int) -> None:
    edit(client, links.edit, play_id, path=HOOPOE_ANN, value="1")
    edit(client, links.edit, play_id, path=HOOPOE_ANN, value="2")
    edit(client, links.edit, play_id, path=HOOPOE_BEN, value="3")
    undo = f"/t/{links.edit}/plays/{play_id}/undo"
    token = csrf(client, f"/t/{links.edit}")
    html = client.post(undo, data={"csrf_token": token}, headers=HTMX).get_data(as_text=True)
    assert _count(html, "Ben", "Hoopoe") == "0"
    html = client.post(undo, data={"csrf_token": token}, headers=HTMX).get_data(as_text=True)
    assert _count(html, "Ann", "Hoopoe") == "1"
    client.post(undo, data={"csrf_token": token}, headers=HTMX)
    nothing = client.post(undo, data={"csrf_token": token}, headers=HTMX)
    assert nothing.status_code == 422
    assert "There is nothing to undo." in nothing.get_data(as_text=True)
    history = client.get(f"/t/{links.edit}/plays/{play_id}/history").get_data(as_text=True)
    assert "Undid edit 3: Ben&#39;s Hoopoe 3 → 0." in history
    assert history.count("<li ") == 5  # Ann's two quick taps on one field are one line


def test_face_down_card_picker(client: FlaskClient, links: TableLinks, play_id: int) -> None:
    response = edit(
        client, links.edit, play_id, path="players[2].face_down", value="cassowary", base=""
    )
    assert response.status_code == 200
    assert '<option value="cassowary" selected>' in response.get_data(as_text=True)
    assert "Cassowary: 1 card (odd)" in response.get_data(as_text=True)


def test_finish_shows_final_breakdown_and_locks_edits(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    edit(client, links.edit, play_id, path=HOOPOE_ANN, value="3")
    edit(client, links.edit, play_id, path=HOOPOE_BEN, value="1")
    edit(client, links.edit, play_id, path="players[1].display.shoebill", value="2")
    edit(client, links.edit, play_id, path="players[2].display.shoebill", value="3")
    token = csrf(client, f"/t/{links.edit}")
    finished = client.post(
        f"/t/{links.edit}/plays/{play_id}/finish",
        data={"csrf_token": token, "confirm": "yes"},
        headers=HTMX,
    ).get_data(as_text=True)
    assert "Final standings" in finished
    assert (
        "Ann and Cy tie on 3 points; Best single bird decides" not in finished
    )  # species decide first: Ann 1, Cy 1 -> best bird 3 each -> shared
    assert (
        "Ann and Cy tie on 3 points and on every tiebreaker: they share the victory." in finished
    )
    assert "Shoebill: 2 cards (even)" in finished
    locked = edit(client, links.edit, play_id, path=HOOPOE_ANN, value="4")
    assert locked.status_code == 422
    assert "Reopen it" in locked.get_data(as_text=True)
    reopened = client.post(
        f"/t/{links.edit}/plays/{play_id}/reopen", data={"csrf_token": token}, headers=HTMX
    )
    assert reopened.status_code == 200
    assert edit(client, links.edit, play_id, path=HOOPOE_ANN, value="5").status_code == 200


def test_tiebreak_in_words(client: FlaskClient, links: TableLinks, play_id: int) -> None:
    edit(client, links.edit, play_id, path=HOOPOE_ANN, value="3")
    for bird in ("hoopoe", "shoebill", "hornbill"):
        edit(client, links.edit, play_id, path=f"players[1].display.{bird}", value="1")
    html = client.get(f"/t/{links.edit}/plays/{play_id}").get_data(as_text=True)
    assert (
        "Ben and Ann tie on 3 points; Bird species in display decides: Ben 3, Ann 1. Ben leads."
        in html
    )


def test_read_only_link_can_never_change_anything(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    page = client.get(f"/t/{links.view}/plays/{play_id}").get_data(as_text=True)
    assert "Read-only link." in page
    assert "/edit" not in page
    assert "/undo" not in page
    assert "/finish" not in page
    token = csrf(client, f"/t/{links.view}")
    base = f"/t/{links.view}/plays/{play_id}"
    data = {"csrf_token": token, "path": HOOPOE_ANN, "value": "1"}
    for action in ("edit", "undo", "finish", "reopen", "next"):
        assert client.post(f"{base}/{action}", data=data).status_code == 403
    assert (
        client.post(
            f"/t/{links.view}/plays", data={"csrf_token": token, "game": "odd-world"}
        ).status_code
        == 403
    )
    assert client.get(f"/t/{links.view}/plays/{play_id}/history").status_code == 200
    assert "No changes yet." in client.get(f"/t/{links.edit}/plays/{play_id}/history").get_data(
        as_text=True
    )


def test_requests_without_csrf_token_are_refused(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    base = f"/t/{links.edit}/plays/{play_id}"
    refused = client.post(f"{base}/edit", data={"path": HOOPOE_ANN, "value": "1"}, headers=HTMX)
    assert refused.status_code == 400
    assert "was not saved" in refused.get_data(as_text=True)
    wrong = client.post(
        f"{base}/edit",
        data={"path": HOOPOE_ANN, "value": "1"},
        headers={**HTMX, "X-CSRFToken": "forged"},
    )
    assert wrong.status_code == 400
    assert client.post("/tables", data={"players-0": "Ann", "action": "create"}).status_code == 400
    history = client.get(f"{base}/history").get_data(as_text=True)
    assert "No changes yet." in history


def test_csrf_header_from_htmx_is_accepted(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    token = csrf(client, f"/t/{links.edit}")
    response = client.post(
        f"/t/{links.edit}/plays/{play_id}/edit",
        data={"path": HOOPOE_ANN, "value": "1"},
        headers={**HTMX, "X-CSRFToken": token},
    )
    assert response.status_code == 200


def test_game_checks_its_player_count(client: FlaskClient) -> None:
    solo = create_table(client, ["Ann"])
    token = csrf(client, f"/t/{solo.edit}")
    response = client.post(
        f"/t/{solo.edit}/plays", data={"csrf_token": token, "game": "odd-world"}
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Odd World is for 2 to 5 players; this table has 1." in page
    # The rulebook gives no player count: the refusal says the count is the app's reading.
    assert "2 to 5 is the app&#39;s reading" in page
    unknown = client.post(f"/t/{solo.edit}/plays", data={"csrf_token": token, "game": "chess"})
    assert unknown.status_code == 422


def test_three_game_series(client: FlaskClient, links: TableLinks) -> None:
    first = start_play(client, links.edit, series=True)
    token = csrf(client, f"/t/{links.edit}")
    base = f"/t/{links.edit}/plays"
    early = client.post(f"{base}/{first}/next", data={"csrf_token": token}, headers=HTMX)
    assert early.status_code == 422
    ids = [first]
    for game_number, hoopoes in enumerate((3, 1, 5), start=1):
        play = ids[-1]
        edit(client, links.edit, play, path=HOOPOE_ANN, value=str(hoopoes))
        edit(client, links.edit, play, path=HOOPOE_BEN, value="1")
        client.post(f"{base}/{play}/finish", data={"csrf_token": token, "confirm": "yes"})
        if game_number < 3:
            response = client.post(f"{base}/{play}/next", data={"csrf_token": token})
            assert response.status_code == 303
            ids.append(int(response.headers["Location"].split("/plays/")[1].split("?")[0]))
    html = client.get(f"{base}/{ids[-1]}").get_data(as_text=True)
    assert "game 3 of 3" in html
    series = re.search(r'class="standings series-lead".*?</section>', html, re.S)
    assert series  # the series leads, before the single game's standings
    assert html.index("series-lead") < html.index('id="standings-title"')
    assert "Series after game 3 of 3" in series.group(0)
    assert "Ann wins with 9 points." in series.group(0)
    assert client.post(f"{base}/{ids[-1]}/next", data={"csrf_token": token}).status_code == 422
    table = client.get(f"/t/{links.edit}").get_data(as_text=True)
    assert "Odd World, 3 of 3 games" in table


def test_history_names_device_time_and_change(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    edit(client, links.edit, play_id, path=HOOPOE_ANN, value="2", base="0")
    html = client.get(f"/t/{links.edit}/plays/{play_id}/history").get_data(as_text=True)
    assert re.search(
        r"\d\d:\d\d:\d\d UTC</time> <span class=\"who\">device [0-9a-f]{4}</span>", html
    )
    assert "Ann&#39;s Hoopoe: 0 → 2." in html


def test_play_of_another_table_is_404(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    other = create_table(client, ["Xi", "Yu"])
    assert client.get(f"/t/{other.edit}/plays/{play_id}").status_code == 404
    assert client.get(f"/t/{links.edit}/plays/999999").status_code == 404


def test_error_is_shown_once_next_to_its_field(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    html = edit(client, links.edit, play_id, path=HOOPOE_ANN, value="9").get_data(as_text=True)
    assert html.count("Enter 0 to 8 cards.") == 1
    assert html.index("Enter 0 to 8 cards.") < html.index("players[0].display.scarlet-ibis")


def test_series_only_for_games_with_a_series_variant(
    client: FlaskClient, links: TableLinks
) -> None:
    token = csrf(client, f"/t/{links.edit}")
    data = {"csrf_token": token, "game": "odd-world", "series": "y"}
    assert client.post(f"/t/{links.edit}/plays", data=data).status_code == 303


def test_games_without_pages_are_not_offered(
    client: FlaskClient, links: TableLinks, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delitem(PAGES, "owl-about")
    page = client.get(f"/t/{links.edit}").get_data(as_text=True)
    assert '<option value="odd-world">' in page
    assert 'value="owl-about"' not in page  # API only, for now
    token = csrf(client, f"/t/{links.edit}")
    refused = client.post(
        f"/t/{links.edit}/plays", data={"csrf_token": token, "game": "owl-about"}
    )
    assert refused.status_code == 422


@pytest.mark.both_backends("racing writes: each database locks its own way")
def test_phones_editing_different_fields_at_once_lose_nothing(
    app: Flask, links: TableLinks, play_id: int
) -> None:
    import threading

    taps = 4
    birds = ["hoopoe", "shoebill", "hornbill"]
    failures: list[int] = []

    def phone(seat: int) -> None:
        client = app.test_client()
        for count in range(1, taps + 1):
            path = f"players[{seat}].display.{birds[seat]}"
            response = edit(client, links.edit, play_id, path=path, value=str(count))
            if response.status_code != 200:
                failures.append(response.status_code)

    threads = [threading.Thread(target=phone, args=(seat,)) for seat in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert failures == []
    html = app.test_client().get(f"/t/{links.edit}/plays/{play_id}").get_data(as_text=True)
    assert _count(html, "Ann", "Hoopoe") == str(taps)
    assert _count(html, "Ben", "Shoebill") == str(taps)
    assert _count(html, "Cy", "Hornbill") == str(taps)
    assert f"History ({3 * taps})" in html


def test_several_fields_in_one_edit_are_undone_together(
    app: Flask, client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    from companion.extensions import db
    from companion.models import Play
    from companion.services import plays

    author = plays.Author("test", "Ann")
    with app.app_context():
        play = db.session.get(Play, play_id)
        assert play is not None
        changes = [(HOOPOE_ANN, 3, 0), (HOOPOE_BEN, 1, 0)]
        edit = plays.replace_values(play, changes=changes, author=author)
        assert edit is not None
        assert [c.path for c in plays.changes_of(edit)] == [HOOPOE_ANN, HOOPOE_BEN]
        with pytest.raises(plays.EditConflict):
            plays.replace_values(play, changes=[(HOOPOE_BEN, 2, 0)], author=author)
        plays.update_value(play, path=HOOPOE_ANN, build=lambda n: n + 2, author=author)
        assert play.state["players"][0]["display"]["hoopoe"] == 5
        plays.undo(play, author=author)
        plays.undo(play, author=author)
        assert play.state["players"][0]["display"]["hoopoe"] == 0
        assert play.state["players"][1]["display"]["hoopoe"] == 0
    history = client.get(f"/t/{links.edit}/plays/{play_id}/history").get_data(as_text=True)
    assert "Ann&#39;s Hoopoe: 0 → 3; Ben&#39;s Hoopoe: 0 → 1." in history
    assert "Undid edit 1: Ben&#39;s Hoopoe 1 → 0; Ann&#39;s Hoopoe 3 → 0." in history


# --- typed numbers, landing where tapped, only what applies ----------------------------


def test_every_stepper_takes_a_typed_number(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    page = client.get(f"/t/{links.edit}/plays/{play_id}?seat=all").get_data(as_text=True)
    typed = re.findall(
        r'<input id="n-\d-[a-z-]+" name="value" value="0" inputmode="numeric"', page
    )
    assert len(typed) == 3 * 9  # every bird of every player
    # Saved like a tap: the stepper's path, the typed value and the value it showed.
    saved = edit(client, links.edit, play_id, path=HOOPOE_ANN, value="5", base="0")
    assert saved.status_code == 200
    assert _count(saved.get_data(as_text=True), "Ann", "Hoopoe") == "5"
    refused = edit(client, links.edit, play_id, path=HOOPOE_ANN, value="12", base="5")
    assert refused.status_code == 422
    assert "Enter 0 to 8 cards." in refused.get_data(as_text=True)
    stale = edit(client, links.edit, play_id, path=HOOPOE_ANN, value="7", base="0")
    assert stale.status_code == 409


def test_typed_number_form_saves_on_change_and_without_javascript(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    page = client.get(f"/t/{links.edit}/plays/{play_id}?seat=0").get_data(as_text=True)
    forms = re.finditer(r'<form class="typed"[^>]*>.*?</form>', page, re.S)
    form = next((f for f in forms if HOOPOE_ANN in f.group(0)), None)
    assert form
    assert 'hx-trigger="change, submit"' in form.group(0)
    assert 'name="path" value="players[0].display.hoopoe"' in form.group(0)
    assert 'name="base" value="0"' in form.group(0)
    assert "<noscript><button" in form.group(0)  # Enter or Set, without JavaScript


def test_a_plain_tap_lands_back_where_it_was_made(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    page = client.get(f"/t/{links.edit}/plays/{play_id}?seat=all").get_data(as_text=True)
    assert '<section class="display" id="player-2"' in page
    # A display's forms carry the seat and the anchor in their address.
    assert '/edit?seat=all&amp;anchor=player-2#player-2"' in page
    assert 'name="anchor" value="play-actions"' in page  # undo
    token = csrf(client, f"/t/{links.edit}")
    url = f"/t/{links.edit}/plays/{play_id}/edit"
    data = {"csrf_token": token, "path": HOOPOE_BEN, "value": "1", "seat": "all"}
    tapped = client.post(url, data={**data, "anchor": "player-1"})
    assert tapped.status_code == 303
    assert tapped.headers["Location"].endswith(f"/plays/{play_id}?seat=all#player-1")
    undo = client.post(
        f"/t/{links.edit}/plays/{play_id}/undo",
        data={"csrf_token": token, "anchor": "play-actions"},
    )
    assert undo.headers["Location"].endswith(f"/plays/{play_id}#play-actions")
    data["value"] = "0"  # undone
    for unsafe in ('x"><script>', "javascript:alert(1)", "a b", "", "9lives", "x" * 65):
        data["value"] = str(int(data["value"]) + 1)
        data["base"] = str(int(data["value"]) - 1)
        response = client.post(url, data={**data, "anchor": unsafe})
        assert response.status_code == 303
        assert "#" not in response.headers["Location"]


def test_the_series_box_shows_only_for_games_with_a_series(
    client: FlaskClient, links: TableLinks
) -> None:
    page = client.get(f"/t/{links.edit}").get_data(as_text=True)
    box = re.search(
        r'<div class="series-option" data-show-if="game=([^"]*)">(.*?)<button class="primary">',
        page,
        re.S,
    )
    assert box
    assert box.group(1) == "odd-world"
    assert 'name="series"' in box.group(2)
    # Without JavaScript the box stays, and the server refuses it for another game.
    token = csrf(client, f"/t/{links.edit}")
    refused = client.post(
        f"/t/{links.edit}/plays", data={"csrf_token": token, "game": "owl-about", "series": "y"}
    )
    assert refused.status_code == 422
    assert "Owl About has no series variant." in refused.get_data(as_text=True)


def test_owl_about_variants_belong_to_the_advanced_mode(
    client: FlaskClient, links: TableLinks
) -> None:
    page = client.get(f"/t/{links.edit}/plays/new/owl-about").get_data(as_text=True)
    variants = re.search(r'<fieldset class="owl-variants"([^>]*)>\s*<legend>([^<]*)<', page)
    assert variants
    assert 'data-show-if="mode=advanced"' in variants.group(1)
    assert "advanced mode only" in variants.group(2)


def test_face_down_picker_has_a_save_button_only_without_javascript(
    client: FlaskClient, links: TableLinks, play_id: int
) -> None:
    page = client.get(f"/t/{links.edit}/plays/{play_id}?seat=0").get_data(as_text=True)
    picker = re.search(r'<form class="face-down".*?</form>', page, re.S)
    assert picker
    assert 'hx-trigger="change"' in picker.group(0)
    assert re.search(r"<noscript><button[^>]*>Save</button></noscript>", picker.group(0))
