"""OddVille through the pages: colours, the city entered with the palette, characters,
workers, who ended the game, the construction referee, refusals and the read-only link
(on SQLite and PostgreSQL)."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from support.client import HTMX, create_table, csrf
from support.every_game import start_oddville
from support.oddville import post, state_of, tap


def test_colours_are_chosen_before_the_game(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben", "Cy"])
    page = client.get(f"/t/{links.edit}/plays/new/oddville")
    assert page.status_code == 200
    assert 'name="colour_0"' in page.get_data(as_text=True)
    data = {"colour_0": "red", "colour_1": "red", "colour_2": "blue"}
    data["csrf_token"] = csrf(client, f"/t/{links.edit}/plays/new/oddville")
    refused = client.post(f"/t/{links.edit}/plays/new/oddville", data=data)
    assert refused.status_code == 422
    assert "Another player already has red." in refused.get_data(as_text=True)
    play_id = start_oddville(client, links.edit, colour_0="yellow", colour_1="red")
    assert state_of(client, play_id)["colours"] == {"Ann": "yellow", "Ben": "red", "Cy": "purple"}


def test_a_small_city_is_entered_with_the_palette(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_oddville(client, links.edit)
    page = client.get(f"/t/{links.edit}/plays/{play_id}").get_data(as_text=True)
    assert "The city" in page
    assert 'value="1,0,empty"' in page  # the place below the Main Square
    assert 'value="-1,0,empty"' not in page  # nothing above it
    response = tap(
        client, links, play_id, "1,0,empty", tool="place", points="diamond-5", owner="Ann"
    )
    assert response.status_code == 200
    response = tap(
        client, links, play_id, "0,1,empty", tool="place", points="diamonds", owner="Ben"
    )
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "3+1=4" in html  # Ben's card shows its points in place
    city = state_of(client, play_id)["city"]
    assert city[1:] == [
        {"at": [1, 0], "points": {"kind": "diamond", "value": 5}, "owner": "Ann"},
        {"at": [0, 1], "points": {"kind": "diamonds"}, "owner": "Ben"},
    ]
    # The palette is remembered by this phone: a tap with only a place uses it.
    tap(client, links, play_id, "0,-1,empty")
    assert state_of(client, play_id)["city"][-1]["owner"] == "Ben"


def test_tapping_a_card_changes_moves_copies_and_removes_it(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_oddville(client, links.edit)
    tap(client, links, play_id, "1,0,empty", tool="place", points="row", owner="Ann")
    tap(
        client,
        links,
        play_id,
        "1,0,card",
        tool="place",
        points="guild-2",
        guild="lily",
        owner="Ben",
    )
    assert state_of(client, play_id)["city"][1] == {
        "at": [1, 0],
        "points": {"kind": "guild", "value": 2, "guild": "lily"},
        "guild": "lily",
        "owner": "Ben",
    }
    tap(client, links, play_id, "1,0,card", tool="pick")
    tap(client, links, play_id, "0,1,empty", tool="place")
    assert state_of(client, play_id)["city"][2]["points"] == {
        "kind": "guild",
        "value": 2,
        "guild": "lily",
    }
    tap(client, links, play_id, "0,1,card", tool="move")
    tap(client, links, play_id, "0,-1,empty", tool="move")
    assert [c["at"] for c in state_of(client, play_id)["city"]] == [[0, 0], [1, 0], [0, -1]]
    tap(client, links, play_id, "0,-1,card", tool="remove")
    assert len(state_of(client, play_id)["city"]) == 2


def test_refusals_are_422_next_to_the_city_and_nothing_is_stored(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_oddville(client, links.edit)
    tap(client, links, play_id, "1,0,empty", tool="place", points="row", owner="Ann")
    before = state_of(client, play_id)
    # Removing the card that holds another one to the Main Square.
    tap(client, links, play_id, "2,0,empty", tool="place", points="row", owner="Ann")
    response = tap(client, links, play_id, "1,0,card", tool="remove")
    assert response.status_code == 422
    assert "does not connect to the Main Square" in response.get_data(as_text=True)
    assert len(state_of(client, play_id)["city"]) == 3
    # A guild card without a guild.
    response = tap(client, links, play_id, "1,1,empty", tool="place", points="guild-1", guild="")
    assert response.status_code == 422
    assert "A guild card needs its guild" in response.get_data(as_text=True)
    for bad in (
        {"at": "x"},
        {"at": "1,1", "tool": "fly"},
        {"at": "1,1", "owner": "Zed"},
        {"at": "1,1", "points": "diamond-7"},
        {"at": "0,0,card", "tool": "remove"},
    ):
        assert tap(client, links, play_id, **bad).status_code == 422, bad
    assert state_of(client, play_id)["city"][:2] == before["city"]
    # A phone that saw an empty place where another phone just put a card.
    assert tap(client, links, play_id, "2,0,empty", tool="place").status_code == 409


def test_characters_workers_square_and_the_end(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_oddville(client, links.edit)
    token = csrf(client, f"/t/{links.edit}")
    assert (
        post(
            client, links.edit, play_id, "character", character="traveller", holder="Ann"
        ).status_code
        == 200
    )
    assert (
        post(
            client, links.edit, play_id, "character", character="traveller", holder="Ben"
        ).status_code
        == 200
    )
    assert state_of(client, play_id)["characters"] == {"Ann": [], "Ben": ["traveller"]}
    assert (
        post(
            client, links.edit, play_id, "character", character="wizard", holder="Ben"
        ).status_code
        == 422
    )
    assert post(client, links.edit, play_id, "square", owners="Ann").status_code == 200
    assert state_of(client, play_id)["city"][0]["owners"] == ["Ann"]
    assert post(client, links.edit, play_id, "square", owners="Zed").status_code == 422
    edit = f"/t/{links.edit}/plays/{play_id}/edit"
    data = {"csrf_token": token, "path": "resource_workers.Ben", "value": "2", "base": "0"}
    assert client.post(edit, data=data, headers=HTMX).status_code == 200
    data = {"csrf_token": token, "path": "resource_workers.Ben", "value": "12", "base": "2"}
    assert client.post(edit, data=data, headers=HTMX).status_code == 422
    data = {"csrf_token": token, "path": "ended_by", "value": "Cy"}
    response = client.post(edit, data=data, headers=HTMX)
    assert response.status_code == 422
    assert "is not one of the players" in response.get_data(as_text=True)
    data = {"csrf_token": token, "path": "ended_by", "value": "Ben", "base": ""}
    html = client.post(edit, data=data, headers=HTMX).get_data(as_text=True)
    # Ann: Main Square 4; Ben: Traveller 7 + 2 board workers.
    state = state_of(client, play_id)
    assert state["ended_by"] == "Ben"
    assert "Resources Board: 2 workers" in html
    assert "Traveller" in html
    assert "Human Resources Manager" in html  # the character reference
    assert "/rules/oddville?at=oddville-character-lamplighter#character/lamplighter" in html


def test_the_referee_checks_builds_and_takes_back(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_oddville(client, links.edit)
    street_up = {"top": "S", "right": "H", "bottom": "H", "left": "H"}
    houses = {"top": "H", "right": "H", "bottom": "H", "left": "H"}
    response = tap(
        client, links, play_id, "1,0,empty", tool="check", owner="Ann", bonus="coin", **street_up
    )
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "Legal (only checked, nothing saved)." in html
    assert "Your new card: draw 1 Coin." in html
    assert "The Main Square gives no bonus to a building laid next to it" in html
    assert len(state_of(client, play_id)["city"]) == 1
    response = tap(client, links, play_id, "1,0,empty", tool="build", **houses)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "Not allowed:" in html
    assert "Its top edge shows houses" in html
    assert len(state_of(client, play_id)["city"]) == 1
    response = tap(client, links, play_id, "1,0,empty", tool="build", guild="mask", **street_up)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "Built." in html
    assert "Take the top Mask Character card" in html
    assert state_of(client, play_id)["city"][1]["edges"] == "SHHH"
    response = tap(client, links, play_id, "1,1,empty", tool="build", rotated="1", **houses)
    assert "never turned" in response.get_data(as_text=True)
    assert post(client, links.edit, play_id, "take-back", built="2").status_code == 200
    assert len(state_of(client, play_id)["city"]) == 1
    assert post(client, links.edit, play_id, "take-back", built="2").status_code == 409


def test_the_read_only_link_shows_the_city_and_changes_nothing(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_oddville(client, links.edit)
    tap(client, links, play_id, "1,0,empty", tool="place", points="column", owner="Ann")
    page = client.get(f"/t/{links.view}/plays/{play_id}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "1+2=3" in html
    assert 'name="at"' not in html
    assert "Held by nobody." in html
    token = csrf(client, f"/t/{links.view}")
    refused = client.post(
        f"/t/{links.view}/plays/{play_id}/oddville/tap",
        data={"csrf_token": token, "at": "0,1"},
    )
    assert refused.status_code == 403


def test_taps_need_a_csrf_token(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_oddville(client, links.edit)
    response = client.post(
        f"/t/{links.edit}/plays/{play_id}/oddville/tap", data={"at": "1,0"}, headers=HTMX
    )
    assert response.status_code == 400


def test_without_javascript_a_tap_redirects_back_to_the_city(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_oddville(client, links.edit)
    response = post(
        client, links.edit, play_id, "tap", htmx=False, at="1,0,empty", anchor="ov-city-title"
    )
    assert response.status_code == 303
    assert response.headers["Location"].endswith("#ov-city-title")


def test_the_palette_is_remembered_per_phone(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_oddville(client, links.edit)
    assert (
        post(client, links.edit, play_id, "tool", tool="remove", points="shields").status_code
        == 204
    )
    page = client.get(f"/t/{links.edit}/plays/{play_id}").get_data(as_text=True)
    assert re.search(r'value="remove"\s+checked', page)
    assert re.search(r'value="shields"\s+checked', page)
    assert post(client, links.edit, play_id, "tool", tool="fly").status_code == 422


def test_the_history_says_which_card_changed(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_oddville(client, links.edit)
    tap(client, links, play_id, "1,0,empty", tool="place", points="diamond-5", owner="Ann")
    tap(client, links, play_id, "1,0,card", tool="move")
    page = client.get(f"/t/{links.edit}/plays/{play_id}").get_data(as_text=True)
    assert "Moving the card on row 2, col 1: tap an empty place for it." in page
    tap(client, links, play_id, "0,1,empty", tool="move")
    post(client, links.edit, play_id, "character", character="mistress", holder="Ben")
    history = client.get(f"/t/{links.edit}/plays/{play_id}/history").get_data(as_text=True)
    assert "Ann&#39;s Diamond 5 added at row 2, col 1" in history
    assert "moved from row 2, col 1 to row 1, col 2" in history
    assert "Mistress: now held by Ben" in history


def test_main_square_owners_show_on_the_square(client: FlaskClient) -> None:
    links = create_table(client, ["Ann", "Ben", "Cy"])
    play_id = start_oddville(client, links.edit)
    for owners in ([], ["Ann"], ["Ann", "Cy"]):
        response = post(client, links.edit, play_id, "square", owners=owners)
        assert response.status_code == 200
        html = response.get_data(as_text=True)
        label = ", ".join(owners) or "no workers"
        assert f"Main Square, row 1, col 1: {label}; 4 to each owner" in html


def test_the_worker_steppers_are_one_form_whose_buttons_carry_their_tap(
    client: FlaskClient,
) -> None:
    links = create_table(client, ["Ann", "Mary Jo"])
    play_id = start_oddville(client, links.edit)
    page = client.get(f"/t/{links.edit}/plays/{play_id}?seat=all").get_data(as_text=True)
    form = re.search(r'<form id="ov-workers"[^>]*action="([^"#]+)#ov-players-title"', page)
    assert form
    assert page.count('name="tap" value="resource_workers.') == 4
    assert 'name="path" value="resource_workers.' not in page
    plus = 'value="resource_workers.Mary Jo 1 0" aria-label="One more worker'
    assert plus in page
    token = csrf(client, f"/t/{links.edit}")
    action = form.group(1).replace("&amp;", "&")
    tapped = {"csrf_token": token, "tap": "resource_workers.Mary Jo 1 0"}
    # Without JavaScript: stored, and back at the workers.
    plain = client.post(action, data=tapped)
    assert plain.status_code == 303
    assert plain.headers["Location"].endswith("#ov-players-title")
    assert state_of(client, play_id)["resource_workers"]["Mary Jo"] == 1
    # The same tap again was made on a stale page: today's conflict answer.
    assert client.post(action, data=tapped, headers=HTMX).status_code == 409
    too_many = {"csrf_token": token, "tap": "resource_workers.Mary Jo 12 1"}
    assert client.post(action, data=too_many, headers=HTMX).status_code == 422
    assert state_of(client, play_id)["resource_workers"]["Mary Jo"] == 1


def section(html: str, title_id: str) -> str:
    """The part of the page from one section's title to the next section."""
    start = html.index(f'id="{title_id}"')
    end = html.find("<section", start)
    return html[start : end if end != -1 else len(html)]


def test_an_impossible_end_is_said_beside_its_field(client: FlaskClient) -> None:
    """The edits are kept (entry passes through such tables); each problem shows next to
    the field it concerns, with its rule, as the API refuses it."""
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_oddville(client, links.edit)
    assert (
        post(
            client, links.edit, play_id, "character", character="mistress", holder="Ann"
        ).status_code
        == 200
    )
    token = csrf(client, f"/t/{links.edit}")
    edit = f"/t/{links.edit}/plays/{play_id}/edit"
    data = {"csrf_token": token, "path": "ended_by", "value": "Ben", "base": ""}
    response = client.post(edit, data=data, headers=HTMX)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    characters = section(html, "ov-characters-title")
    assert (
        "Not a table the rules allow: Ann holds 1 Character card, but owns no building with a"
        " guild symbol" in characters
    )
    assert "#character-take" in characters
    ending = section(html, "ov-players-title")
    assert (
        "Not a table the rules allow: Ben is entered as the player who ended the game, but has"
        " no worker in the city" in ending
    )
    assert "#game-end" in ending
    # A building with a guild symbol for Ann answers the first.
    tap(client, links, play_id, "1,0,empty", tool="place", points="row", guild="lily", owner="Ann")
    html = client.get(f"/t/{links.edit}/plays/{play_id}").get_data(as_text=True)
    assert "Ann holds 1 Character card" not in html
    assert "Ben is entered as the player who ended the game" in section(html, "ov-players-title")


def test_the_referee_refuses_a_build_the_end_of_the_game_rules_out(client: FlaskClient) -> None:
    """Play-along: once Ben has 6 workers in the city, only the Builder builds."""
    links = create_table(client, ["Ann", "Ben"])
    play_id = start_oddville(client, links.edit)
    for col in range(6):
        tap(client, links, play_id, f"1,{col},empty", tool="place", points="row", owner="Ben")
    edges = {"top": "S", "right": "H", "bottom": "H", "left": "S"}
    response = tap(client, links, play_id, "0,1,empty", tool="build", owner="Ann", **edges)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "Not allowed:" in html
    assert "only the Builder&#39;s holder can still build after another player" in html
    assert len(state_of(client, play_id)["city"]) == 7
    post(client, links.edit, play_id, "character", character="builder", holder="Ann")
    response = tap(client, links, play_id, "0,1,empty", tool="build", owner="Ann", **edges)
    assert response.status_code == 200
    assert len(state_of(client, play_id)["city"]) == 8
